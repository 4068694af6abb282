#include "browser/chromium/ChromiumSession.h"

#include "browser/PageRequests.h"
#include "browser/chromium/CdpConnection.h"
#include "browser/chromium/CdpFilter.h"
#include "browser/chromium/CdpRelay.h"
#include "browser/chromium/CdpScreencast.h"
#include "browser/chromium/ChromiumEngine.h"

#include "net/HostResolver.h"

#include <QDir>
#include <QHostAddress>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QTimer>
#include <QUrl>
#include <QWebSocket>

Q_DECLARE_LOGGING_CATEGORY(lcChromium)

namespace ph {

namespace {

// How long stop() lets the browser write its profile out before it is ended.
constexpr int kCloseTimeoutMs = 10000;
// DevTools clients of one session at once (a script, an agent, a debugger: a few).
constexpr int kMaxClients = 16;

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

// Target types that run a document (and so can land on a URL and screencast).
bool isDocument(const QString &type)
{
    return type == QLatin1String("page") || type == QLatin1String("iframe");
}

} // namespace

ChromiumSession::ChromiumSession(const QString &executable, const SessionBrowserSpec &spec,
                                 const NetworkPolicy &policy, QObject *parent)
    : SessionBrowser(parent)
    , m_spec(spec)
    , m_egress(EgressProxy::instance())
    , m_resolver(policy.resolver())
{
    if (!m_resolver)
        m_resolver = std::make_shared<HostResolver>();
    m_engine = new ChromiumEngine(executable, m_egress->port(), this);
    ChromiumEngine::Options options;
    options.userDataDir = spec.userDataDir;
    options.width = spec.width;
    options.height = spec.height;
    options.userAgent = spec.userAgent;
    m_engine->setOptions(options);
    connect(m_engine, &ChromiumEngine::lost, this, &ChromiumSession::onLost);
    QDir(m_work.path()).mkpath(QStringLiteral("downloads"));
    QDir(m_work.path()).mkpath(QStringLiteral("uploads"));
}

ChromiumSession::~ChromiumSession()
{
    m_stopping = true;
    closeClients();
    m_engine->disconnect(this);
    m_engine->stop();
    if (m_identity.isValid())
        m_egress->close(m_identity);
}

QString ChromiumSession::downloadDir() const
{
    return m_work.path() + QStringLiteral("/downloads");
}

QString ChromiumSession::uploadDir() const
{
    return m_work.path() + QStringLiteral("/uploads");
}

CdpConnection *ChromiumSession::connection() const
{
    return m_engine->connection();
}

qint64 ChromiumSession::processId() const
{
    return m_engine->processId();
}

void ChromiumSession::start(std::function<void(const QString &)> ready)
{
    if (!m_egress->isListening()) {
        QTimer::singleShot(0, this, [ready] { ready(QStringLiteral("the egress proxy is down")); });
        return;
    }
    if (!m_identity.isValid())
        m_identity = m_egress->open(m_spec.grant, m_resolver);
    m_engine->whenReady(this, [this, ready](const QString &error) {
        if (!error.isEmpty()) {
            ready(error);
            return;
        }
        setUp(ready);
    });
}

void ChromiumSession::setUp(std::function<void(const QString &)> ready)
{
    CdpConnection *c = connection();
    connect(c, &CdpConnection::browserEvent, this, &ChromiumSession::onBrowserEvent);
    c->send(QStringLiteral("Browser.getVersion"), {}, {}, this,
            [this](const QJsonObject &r, const QString &) {
                m_version = {
                    {QStringLiteral("Browser"), str(r, "product")},
                    {QStringLiteral("Protocol-Version"), str(r, "protocolVersion")},
                    {QStringLiteral("User-Agent"),
                     m_spec.userAgent.isEmpty() ? m_engine->userAgent() : str(r, "userAgent")},
                    {QStringLiteral("V8-Version"), str(r, "jsVersion")},
                    {QStringLiteral("WebKit-Version"), str(r, "revision")},
                };
            });
    c->send(QStringLiteral("Target.setDiscoverTargets"), {{QStringLiteral("discover"), true}}, {},
            this);
    // Every target, those there now and all to come, is ours first and waits for us.
    c->send(QStringLiteral("Target.setAutoAttach"),
            {{QStringLiteral("autoAttach"), true},
             {QStringLiteral("waitForDebuggerOnStart"), true},
             {QStringLiteral("flatten"), true}},
            {}, this);
    // Nothing the browser downloads goes anywhere but the session's own directory.
    c->send(QStringLiteral("Browser.setDownloadBehavior"),
            {{QStringLiteral("behavior"), QStringLiteral("allowAndName")},
             {QStringLiteral("downloadPath"), downloadDir()}},
            {}, this);
    c->send(QStringLiteral("Target.getTargets"), {}, {}, this,
            [this, ready](const QJsonObject &r, const QString &error) {
                if (!error.isEmpty()) {
                    ready(error);
                    return;
                }
                for (const QJsonValue &t : r.value(QStringLiteral("targetInfos")).toArray()) {
                    const QString context = str(t.toObject(), "browserContextId");
                    if (!context.isEmpty() && m_contextId.isEmpty())
                        m_contextId = context;
                }
                m_running = true;
                qCInfo(lcChromium) << "browser session" << m_spec.label << "is running";
                ready(QString());
            });
}

void ChromiumSession::onBrowserEvent(const QString &method, const QJsonObject &params)
{
    const QJsonObject info = params.value(QStringLiteral("targetInfo")).toObject();
    if (method == QLatin1String("Target.attachedToTarget")) {
        // A client's own browser-level session (CdpRelay) is announced here too: it is
        // the client's, not a target to take.
        if (str(info, "type") == QLatin1String("browser"))
            return;
        adopt(str(params, "sessionId"), info,
              params.value(QStringLiteral("waitingForDebugger")).toBool());
    } else if (method == QLatin1String("Target.detachedFromTarget")) {
        const QString sessionId = str(params, "sessionId");
        m_targets.remove(sessionId);
        if (CdpConnection *c = connection())
            c->removeSink(sessionId);
    } else if (method == QLatin1String("Target.targetCreated")) {
        if (str(info, "type") == QLatin1String("page")) {
            m_pages.removeAll(str(info, "targetId"));
            m_pages.append(str(info, "targetId"));
        }
        if (m_contextId.isEmpty())
            m_contextId = str(info, "browserContextId");
    } else if (method == QLatin1String("Target.targetDestroyed")) {
        m_pages.removeAll(str(params, "targetId"));
    }
}

void ChromiumSession::adopt(const QString &sessionId, const QJsonObject &info, bool waiting)
{
    CdpConnection *c = connection();
    if (!c || sessionId.isEmpty())
        return;
    const QString type = str(info, "type");
    m_targets.insert(sessionId, {str(info, "targetId"), type, sessionId});
    QPointer<ChromiumSession> self(this);
    c->setSink(sessionId, [self, sessionId](const QString &method, const QJsonObject &params) {
        if (self)
            self->onTargetEvent(sessionId, method, params);
    });
    // In order, before the target runs: every request pauses for our checks, the proxy's
    // authentication is ours to answer, and what this target starts is ours first too.
    c->send(QStringLiteral("Fetch.enable"),
            {{QStringLiteral("patterns"),
              QJsonArray{QJsonObject{{QStringLiteral("urlPattern"), QStringLiteral("*")},
                                     {QStringLiteral("requestStage"), QStringLiteral("Request")}}}},
             {QStringLiteral("handleAuthRequests"), true}},
            sessionId, this);
    if (isDocument(type))
        c->send(QStringLiteral("Page.enable"), {}, sessionId, this);
    // Without a user agent of the session's, the browser's own with "HeadlessChrome" said
    // as "Chrome" (the engine's), in documents and workers alike.
    if (m_spec.userAgent.isEmpty() && !m_engine->userAgent().isEmpty())
        c->send(QStringLiteral("Network.setUserAgentOverride"),
                {{QStringLiteral("userAgent"), m_engine->userAgent()}}, sessionId, this);
    c->send(QStringLiteral("Target.setAutoAttach"),
            {{QStringLiteral("autoAttach"), true},
             {QStringLiteral("waitForDebuggerOnStart"), true},
             {QStringLiteral("flatten"), true}},
            sessionId, this);
    if (waiting)
        c->send(QStringLiteral("Runtime.runIfWaitingForDebugger"), {}, sessionId, this);
}

void ChromiumSession::onTargetEvent(const QString &sessionId, const QString &method,
                                    const QJsonObject &params)
{
    if (method == QLatin1String("Fetch.requestPaused")) {
        onRequestPaused(sessionId, params);
    } else if (method == QLatin1String("Fetch.authRequired")) {
        onAuthRequired(sessionId, params);
    } else if (method == QLatin1String("Page.frameNavigated")) {
        stopForeignLanding(sessionId, params.value(QStringLiteral("frame")).toObject());
    } else if (method == QLatin1String("Target.attachedToTarget")) {
        adopt(str(params, "sessionId"), params.value(QStringLiteral("targetInfo")).toObject(),
              params.value(QStringLiteral("waitingForDebugger")).toBool());
    } else if (method == QLatin1String("Target.detachedFromTarget")) {
        const QString child = str(params, "sessionId");
        m_targets.remove(child);
        if (CdpConnection *c = connection())
            c->removeSink(child);
    }
}

void ChromiumSession::onRequestPaused(const QString &sessionId, const QJsonObject &params)
{
    const QString requestId = str(params, "requestId");
    const QJsonObject request = params.value(QStringLiteral("request")).toObject();
    const QString target = str(request, "url");
    const QUrl url(target);
    const QString type = str(params, "resourceType");
    const Target t = m_targets.value(sessionId);
    const bool mainFrame = type == QLatin1String("Document") && t.type == QLatin1String("page") &&
                           str(params, "frameId") == t.targetId;
    if (type == QLatin1String("Document")) {
        if (const QString why = CdpConnection::landingRefusal(target); !why.isEmpty()) {
            refuse(sessionId, requestId, target, why, QStringLiteral("BlockedByClient"));
            return;
        }
    }
    bool internal = false;
    QString reason =
        pageRequestRefusal(url, type == QLatin1String("WebSocket"), m_spec.grant, &internal);
    if (reason.isEmpty() && mainFrame)
        reason = mainFrameRefusal(url, m_spec.grant);
    if (!reason.isEmpty()) {
        refuse(sessionId, requestId, target, reason, QStringLiteral("BlockedByClient"));
        return;
    }
    auto proceed = [this, sessionId, requestId] {
        if (CdpConnection *c = connection())
            c->send(QStringLiteral("Fetch.continueRequest"),
                    {{QStringLiteral("requestId"), requestId}}, sessionId, this);
    };
    const QString host = url.host();
    if (internal || m_spec.grant.privateTargets || !QHostAddress(host).isNull() ||
        NetworkPolicy::mayReachPrivate(m_spec.grant, url.scheme(), host, url.port())) {
        proceed();
        return;
    }
    // A name: judged by every address it resolves to (the egress proxy judges the
    // connection again, and connects to the address it checked).
    m_resolver->lookup(
        host, this,
        [this, sessionId, requestId, target, url, proceed](const HostResolver::Answer &a) {
            if (!a.error.isEmpty()) {
                refuse(sessionId, requestId, target,
                       QStringLiteral("the host name could not be resolved"),
                       QStringLiteral("NameNotResolved"));
                return;
            }
            const QString why = NetworkPolicy::addressRefusal(url, a.addresses, m_spec.grant);
            if (!why.isEmpty())
                refuse(sessionId, requestId, target, why, QStringLiteral("BlockedByClient"));
            else
                proceed();
        });
}

void ChromiumSession::onAuthRequired(const QString &sessionId, const QJsonObject &params)
{
    const QJsonObject challenge = params.value(QStringLiteral("authChallenge")).toObject();
    // The egress proxy asks for the session's identity; a site's own challenge is left to
    // the browser's default (and so to a client that handles it).
    QJsonObject response{{QStringLiteral("response"), QStringLiteral("Default")}};
    if (str(challenge, "source") == QLatin1String("Proxy"))
        response = {{QStringLiteral("response"), QStringLiteral("ProvideCredentials")},
                    {QStringLiteral("username"), m_identity.user},
                    {QStringLiteral("password"), m_identity.password}};
    if (CdpConnection *c = connection())
        c->send(QStringLiteral("Fetch.continueWithAuth"),
                {{QStringLiteral("requestId"), str(params, "requestId")},
                 {QStringLiteral("authChallengeResponse"), response}},
                sessionId, this);
}

void ChromiumSession::stopForeignLanding(const QString &sessionId, const QJsonObject &frame)
{
    const QString url = str(frame, "url");
    const QString reason = CdpConnection::landingRefusal(url);
    if (reason.isEmpty())
        return;
    ++m_refusals;
    qCWarning(lcChromium) << "a session's frame landed on" << url << "and is emptied";
    if (CdpConnection *c = connection())
        c->send(QStringLiteral("Page.navigate"),
                {{QStringLiteral("url"), QStringLiteral("about:blank")},
                 {QStringLiteral("frameId"), str(frame, "id")}},
                sessionId, this);
}

void ChromiumSession::refuse(const QString &sessionId, const QString &requestId, const QString &url,
                             const QString &reason, const QString &errorReason)
{
    ++m_refusals;
    qCInfo(lcChromium).noquote() << "browser session" << m_spec.label << "refused"
                                 << QUrl(url).toString(QUrl::RemoveUserInfo) << ":" << reason;
    if (CdpConnection *c = connection())
        c->send(QStringLiteral("Fetch.failRequest"),
                {{QStringLiteral("requestId"), requestId},
                 {QStringLiteral("errorReason"), errorReason}},
                sessionId, this);
}

void ChromiumSession::attachClient(std::unique_ptr<QWebSocket> socket)
{
    const bool full = clientCount() >= kMaxClients;
    if (!m_running || m_stopping || !connection() || full) {
        QWebSocket *s = socket.release();
        s->close(
            full ? QWebSocketProtocol::CloseCodePolicyViolated
                 : QWebSocketProtocol::CloseCodeGoingAway,
            full ? QStringLiteral("the session has %1 DevTools clients already").arg(kMaxClients)
                 : QStringLiteral("the session's browser is not running"));
        s->deleteLater();
        return;
    }
    CdpFilter::Scope scope;
    scope.contextId = m_contextId;
    scope.downloadDir = downloadDir();
    scope.uploadDir = uploadDir();
    auto *relay = new CdpRelay(connection(), scope, std::move(socket), this);
    m_clients.append(relay);
    connect(relay, &CdpRelay::activity, this, &SessionBrowser::activity);
    connect(relay, &CdpRelay::closed, this, [this, relay] {
        m_clients.removeAll(relay);
        relay->deleteLater();
        Q_EMIT clientsChanged(clientCount());
    });
    relay->start();
    Q_EMIT clientsChanged(clientCount());
}

void ChromiumSession::closeClients()
{
    const QList<QPointer<CdpRelay>> clients = std::exchange(m_clients, {});
    for (const QPointer<CdpRelay> &relay : clients) {
        if (relay) {
            relay->disconnect(this);
            relay->close();
            relay->deleteLater();
        }
    }
    if (!clients.isEmpty())
        Q_EMIT clientsChanged(0);
}

std::unique_ptr<LiveFrameSource> ChromiumSession::liveFrames(QObject *parent)
{
    CdpConnection *c = connection();
    if (!m_running || !c || m_pages.isEmpty())
        return nullptr;
    // A DevTools session of its own on the newest page, for the screencast's frames.
    struct Channel
    {
        QPointer<CdpConnection> connection;
        QString sessionId;
        bool failed = false;
        QList<std::function<void()>> waiting;
    };
    auto channel = std::make_shared<Channel>();
    channel->connection = c;
    CdpScreencast::Command command = [channel](const QString &method, const QJsonObject &params,
                                               QObject *context, CdpConnection::Reply reply) {
        auto run = [channel, method, params, context, reply] {
            if (channel->connection && !channel->failed)
                channel->connection->send(method, params, channel->sessionId, context, reply);
        };
        if (channel->sessionId.isEmpty() && !channel->failed)
            channel->waiting.append(run);
        else
            run();
    };
    auto source =
        std::make_unique<CdpScreencast>(command, QSize(m_spec.width, m_spec.height), parent);
    QPointer<CdpScreencast> screencast(source.get());
    c->send(QStringLiteral("Target.attachToTarget"),
            {{QStringLiteral("targetId"), m_pages.last()}, {QStringLiteral("flatten"), true}}, {},
            source.get(), [channel, screencast](const QJsonObject &r, const QString &error) {
                channel->failed = !error.isEmpty();
                channel->sessionId = str(r, "sessionId");
                if (channel->connection && !channel->failed)
                    channel->connection->setSink(
                        channel->sessionId,
                        [screencast](const QString &method, const QJsonObject &params) {
                            if (screencast)
                                screencast->feed(method, params);
                        });
                for (const auto &run : std::exchange(channel->waiting, {}))
                    run();
            });
    connect(source.get(), &QObject::destroyed, this, [channel] {
        if (!channel->connection || channel->sessionId.isEmpty())
            return;
        channel->connection->removeSink(channel->sessionId);
        channel->connection->send(QStringLiteral("Target.detachFromTarget"),
                                  {{QStringLiteral("sessionId"), channel->sessionId}}, {}, nullptr);
    });
    return source;
}

void ChromiumSession::stop(std::function<void()> done)
{
    m_stopping = true;
    m_running = false;
    closeClients();
    m_engine->disconnect(this);
    QPointer<ChromiumSession> self(this);
    m_engine->close(kCloseTimeoutMs, [self, done] {
        if (self && self->m_identity.isValid()) {
            self->m_egress->close(self->m_identity);
            self->m_identity = {};
        }
        done();
    });
}

void ChromiumSession::onLost(const QString &reason)
{
    if (m_stopping)
        return;
    m_running = false;
    m_targets.clear();
    m_pages.clear();
    closeClients();
    if (m_identity.isValid()) {
        m_egress->close(m_identity);
        m_identity = {};
    }
    qCWarning(lcChromium) << "browser session" << m_spec.label << "lost its browser:" << reason;
    Q_EMIT ended(reason);
}

std::unique_ptr<SessionBrowser> makeChromiumSessionBrowser(const QString &executable,
                                                           const SessionBrowserSpec &spec,
                                                           const NetworkPolicy &policy,
                                                           QObject *parent)
{
    return std::make_unique<ChromiumSession>(executable, spec, policy, parent);
}

} // namespace ph
