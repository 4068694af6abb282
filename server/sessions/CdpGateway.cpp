#include "CdpGateway.h"

#include "SessionService.h"

#include "browser/SessionBrowser.h"

#include <QLoggingCategory>
#include <QTimer>
#include <QUrl>
#include <QWebSocket>

Q_LOGGING_CATEGORY(lcGateway, "pilothouse.sessions.cdp")

namespace ph::sessions {

CdpGateway::CdpGateway(SessionService &sessions)
    : m_sessions(sessions)
{}

QString CdpGateway::tokenOf(const QString &path)
{
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.size() < 4 || parts.at(0) != QLatin1String("cdp") ||
        parts.at(2) != QLatin1String("devtools") || parts.at(3) != QLatin1String("browser"))
        return {};
    return parts.at(1);
}

void CdpGateway::accept(std::unique_ptr<QWebSocket> socket)
{
    if (!socket)
        return;
    const QString token = tokenOf(socket->requestUrl().path());
    QString sessionId;
    SessionBrowser *browser =
        token.isEmpty() ? nullptr : m_sessions.browserForToken(token, &sessionId);
    if (!browser) {
        // Never the path in the log: it holds what may be a token.
        qCInfo(lcGateway) << "a DevTools connection with no valid session token was closed";
        QWebSocket *s = socket.release();
        QObject::connect(s, &QWebSocket::disconnected, s, &QObject::deleteLater);
        s->close(QWebSocketProtocol::CloseCodePolicyViolated, QString());
        QTimer::singleShot(2000, s, &QObject::deleteLater);
        return;
    }
    qCInfo(lcGateway) << "a DevTools client connected to browser session" << sessionId;
    browser->attachClient(std::move(socket));
}

} // namespace ph::sessions
