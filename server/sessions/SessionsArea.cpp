#include "SessionsArea.h"

#include "CdpGateway.h"
#include "SessionLiveViewController.h"
#include "SessionService.h"
#include "SessionsController.h"

#include "browser/BrowserPool.h"
#include "browser/SessionBrowser.h"
#include "core/Settings.h"

#include <QWebSocket>

namespace ph::sessions {

SessionsArea::SessionsArea(Store &store, Settings &settings, BrowserPool &pool,
                           NetworkPolicy &policy, const QString &dataDir)
{
    auto factory = [&settings, &policy](const SessionBrowserSpec &spec) {
        return makeChromiumSessionBrowser(settings.stringValue(SettingKeys::browserChromiumPath),
                                          spec, policy);
    };
    auto engineCheck = [&pool] { return pool.engineProblem(QStringLiteral("chromium")); };
    m_service =
        std::make_unique<SessionService>(store, settings, policy, dataDir, factory, engineCheck);
    m_controller = std::make_unique<SessionsController>(*m_service, policy);
    m_liveView = std::make_unique<SessionLiveViewController>(*m_service);
    m_gateway = std::make_unique<CdpGateway>(*m_service);
}

SessionsArea::~SessionsArea() = default;

QList<http::Controller *> SessionsArea::controllers()
{
    return {m_controller.get(), m_liveView.get()};
}

void SessionsArea::acceptWebSocket(std::unique_ptr<QWebSocket> socket)
{
    m_gateway->accept(std::move(socket));
}

} // namespace ph::sessions
