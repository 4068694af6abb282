#pragma once

#include "http/Route.h"

#include <QObject>

namespace ph {
class NetworkPolicy;
}

namespace ph::cloud {

class ScrapeService;

// POST /scrape: loads pages on the pool and returns text, accessibility tree, the
// element/link record and usage (docs/api/scrape.md). The work is ScrapeService's.
class ScrapeController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    ScrapeController(ScrapeService &service, NetworkPolicy &policy, QObject *parent = nullptr);
    QList<http::Route> routes() override;

private:
    void scrape(http::Exchange &exchange);

    ScrapeService &m_service;
    NetworkPolicy &m_policy;
};

} // namespace ph::cloud
