#pragma once

#include <QList>
#include <QString>

#include <memory>

class QWebSocket;

namespace ph {
class BrowserPool;
class NetworkPolicy;
class Settings;
class Store;
namespace http {
class Controller;
}
} // namespace ph

namespace ph::sessions {

class CdpGateway;
class SessionService;
class SessionLiveViewController;
class SessionsController;

// Browser sessions as one piece for Service: the domain service on the chromium session
// browser (browser/SessionBrowser.h), its REST controller and the CDP gateway that
// Service hands the API port's WebSocket connections to.
class SessionsArea
{
public:
    SessionsArea(Store &store, Settings &settings, BrowserPool &pool, NetworkPolicy &policy,
                 const QString &dataDir);
    ~SessionsArea();

    SessionService &service() { return *m_service; }
    QList<http::Controller *> controllers();
    void acceptWebSocket(std::unique_ptr<QWebSocket> socket);

private:
    std::unique_ptr<SessionService> m_service;
    std::unique_ptr<SessionsController> m_controller;
    std::unique_ptr<SessionLiveViewController> m_liveView;
    std::unique_ptr<CdpGateway> m_gateway;
};

} // namespace ph::sessions
