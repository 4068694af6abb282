#pragma once

#include "http/Route.h"

#include <QMultiHash>
#include <QObject>

#include <functional>

namespace ph {
class BrowserPool;
class NetworkPolicy;
class Settings;
} // namespace ph

namespace ph::runtime {

class RuntimeService;

// The browser runtime at /v2/runtime (docs/api/runtime.md): parse, call RuntimeService,
// answer in the runtime's envelope ({success, data} / {success:false, error, data}).
// Called from sites' pages: the HTTP server answers these paths cross-origin.
class RuntimeController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    RuntimeController(RuntimeService &service, Settings &settings, QObject *parent = nullptr);
    // What /context/external's read_context reads with: the cloud browser's pool, the
    // network policy, and the key (by site) whose grant the read gets (the site's A2W
    // account, like its visitors' runs). Without them read_context answers the policy
    // decision alone.
    // What /context/external's `act` runs with (RuntimeRunner::actExternally).
    using ExternalActor = std::function<void(
        const QString &siteId, const QString &pageUrl, const QString &url, const QString &task,
        int timeoutMs, QObject *context, std::function<void(QJsonObject)> done)>;
    void setExternalActor(ExternalActor actor) { m_actor = std::move(actor); }
    void setCloudBrowser(BrowserPool *pool, NetworkPolicy *policy,
                         std::function<QString(const QString &siteId)> accountFor)
    {
        m_pool = pool;
        m_policy = policy;
        m_accountFor = std::move(accountFor);
    }
    QList<http::Route> routes() override;

    // {success:false, error, code, field?, requestId, data:{code, message, …details}}.
    static QJsonObject errorEnvelope(const DomainError &error, const QString &requestId);

private:
    void open(http::Exchange &ex);
    void context(http::Exchange &ex);
    void command(http::Exchange &ex);
    void stream(http::Exchange &ex);
    void state(http::Exchange &ex);
    void snapshot(http::Exchange &ex);
    void external(http::Exchange &ex);
    void telemetry(http::Exchange &ex);
    void collect(http::Exchange &ex);
    void embedScript(http::Exchange &ex);
    void siteTokens(http::Exchange &ex);

    QString base(const http::Exchange &ex) const;

    RuntimeService &m_service;
    Settings &m_settings;
    BrowserPool *m_pool = nullptr;
    NetworkPolicy *m_policy = nullptr;
    std::function<QString(const QString &siteId)> m_accountFor;
    ExternalActor m_actor;
    // The open streams by session: each one's push, keyed by an object that lives as long
    // as its stream.
    QMultiHash<QString, std::pair<QObject *, std::function<void()>>> m_listeners;
};

} // namespace ph::runtime
