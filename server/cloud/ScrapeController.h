#pragma once

#include "http/Route.h"

#include <QObject>

namespace ph {
class BrowserPool;
class NetworkPolicy;
class Settings;
class Store;
namespace webhooks {
class WebhookQueue;
}
} // namespace ph

namespace ph::cloud {

struct ScrapeOptions;

// POST /scrape: loads pages on the pool and returns text, accessibility tree, the
// element/link record and usage (docs/api/scrape.md).
class ScrapeController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    ScrapeController(Store &store, Settings &settings, BrowserPool &pool, NetworkPolicy &policy,
                     webhooks::WebhookQueue &webhooks, QObject *parent = nullptr);
    QList<http::Route> routes() override;

    static const QStringList &knownFormats();
    static const QStringList &defaultFormats();

private:
    void scrape(http::Exchange &exchange);

    Store &m_store;
    Settings &m_settings;
    BrowserPool &m_pool;
    NetworkPolicy &m_policy;
    webhooks::WebhookQueue &m_webhooks;
};

} // namespace ph::cloud
