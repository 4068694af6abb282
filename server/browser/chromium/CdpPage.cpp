#include "browser/chromium/CdpPage.h"

#include "browser/chromium/CdpNavigation.h"
#include "browser/chromium/CdpScreencast.h"

#include "browser/chromium/CdpConnection.h"
#include "browser/chromium/ChromiumEngine.h"

#include "net/HostResolver.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QMarginsF>
#include <QPageLayout>
#include <QRectF>
#include <QRegularExpression>
#include <QTimer>

#include <algorithm>

Q_DECLARE_LOGGING_CATEGORY(lcCdp)

namespace ph {

namespace {

const QString kWorldName = QStringLiteral("pilothouse");

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

} // namespace

CdpPage::CdpPage(ChromiumEngine &engine, QString agentSource, std::shared_ptr<EgressProxy> egress,
                 std::shared_ptr<const HostResolver> resolver, QObject *parent)
    : PageEngine(parent)
    , m_engine(&engine)
    , m_agentSource(std::move(agentSource))
    , m_egress(std::move(egress))
    , m_resolver(std::move(resolver))
{
    // Until leased, the page acts for nobody: no private target, no tenant.
    m_identity = m_egress->open(m_grant, m_resolver);
}

CdpPage::~CdpPage()
{
    if (CdpConnection *c = engineConnection()) {
        if (!m_sessionId.isEmpty())
            c->removeSink(m_sessionId);
        if (!m_contextId.isEmpty() && !m_engineLost)
            c->send(QStringLiteral("Target.disposeBrowserContext"),
                    {{QStringLiteral("browserContextId"), m_contextId}}, {}, nullptr);
        else if (m_placement.defaultContext && !m_targetId.isEmpty() && !m_engineLost)
            c->send(QStringLiteral("Target.closeTarget"),
                    {{QStringLiteral("targetId"), m_targetId}}, {}, nullptr);
    }
    m_egress->close(m_identity);
}

CdpConnection *CdpPage::engineConnection() const
{
    return m_engine ? m_engine->connection() : nullptr;
}

void CdpPage::send(const QString &method, const QJsonObject &params,
                   std::function<void(const QJsonObject &, const QString &)> reply)
{
    CdpConnection *c = engineConnection();
    if (!c || m_engineLost) {
        if (reply)
            QTimer::singleShot(0, this, [reply, this] {
                reply({}, m_failure.isEmpty() ? QStringLiteral("the chromium engine is not running")
                                              : m_failure);
            });
        return;
    }
    c->send(method, params, m_sessionId, this, std::move(reply));
}

void CdpPage::command(const QString &method, const QJsonObject &params, QObject *context,
                      std::function<void(const QJsonObject &, const QString &)> reply)
{
    CdpConnection *c = engineConnection();
    if (!c || m_sessionId.isEmpty() || m_engineLost) {
        if (reply)
            QTimer::singleShot(0, context ? context : this,
                               [reply] { reply({}, QStringLiteral("the page is gone")); });
        return;
    }
    c->send(method, params, m_sessionId, context ? context : this, std::move(reply));
}

void CdpPage::prepare()
{
    if (m_preparing || isReady())
        return;
    m_preparing = true;
    if (!m_engine) {
        QTimer::singleShot(
            0, this, [this] { settlePreparation(QStringLiteral("the chromium engine is gone")); });
        return;
    }
    m_engine->whenReady(this, [this](const QString &error) {
        if (!error.isEmpty()) {
            settlePreparation(error);
            return;
        }
        if (m_placement.defaultContext)
            openTarget();
        else
            openContext();
    });
}

void CdpPage::openContext()
{
    CdpConnection *c = engineConnection();
    const QString proxy = QStringLiteral("http://127.0.0.1:%1").arg(m_egress->port());
    c->send(QStringLiteral("Target.createBrowserContext"),
            {{QStringLiteral("disposeOnDetach"), false},
             {QStringLiteral("proxyServer"), proxy},
             {QStringLiteral("proxyBypassList"), QStringLiteral("<-loopback>")}},
            {}, this, [this](const QJsonObject &r, const QString &error) {
                if (!error.isEmpty()) {
                    settlePreparation(error);
                    return;
                }
                m_contextId = str(r, "browserContextId");
                // Nothing the page serves is ever written to disk.
                engineConnection()->send(QStringLiteral("Browser.setDownloadBehavior"),
                                         {{QStringLiteral("behavior"), QStringLiteral("deny")},
                                          {QStringLiteral("browserContextId"), m_contextId},
                                          {QStringLiteral("eventsEnabled"), true}},
                                         {}, this);
                openTarget();
            });
}

void CdpPage::openTarget()
{
    CdpConnection *c = engineConnection();
    if (!c) {
        settlePreparation(QStringLiteral("the chromium engine is not running"));
        return;
    }
    QJsonObject target{{QStringLiteral("url"), QStringLiteral("about:blank")}};
    if (!m_contextId.isEmpty())
        target.insert(QStringLiteral("browserContextId"), m_contextId);
    c->send(QStringLiteral("Target.createTarget"), target, {}, this,
            [this](const QJsonObject &r, const QString &error) {
                if (!error.isEmpty()) {
                    settlePreparation(error);
                    return;
                }
                m_targetId = str(r, "targetId");
                engineConnection()->send(
                    QStringLiteral("Target.attachToTarget"),
                    {{QStringLiteral("targetId"), m_targetId}, {QStringLiteral("flatten"), true}},
                    {}, this, [this](const QJsonObject &a, const QString &e) {
                        if (!e.isEmpty()) {
                            settlePreparation(e);
                            return;
                        }
                        m_sessionId = str(a, "sessionId");
                        QPointer<CdpPage> self(this);
                        engineConnection()->setSink(
                            m_sessionId, [self](const QString &method, const QJsonObject &params) {
                                if (self)
                                    self->onEvent(method, params);
                            });
                        setUpSession();
                    });
            });
}

void CdpPage::setUpSession()
{
    m_worldContext = 0;
    m_crashed = false;
    m_documents.clear();
    const QList<std::pair<QString, QJsonObject>> commands{
        {QStringLiteral("Page.enable"), {}},
        {QStringLiteral("Page.setLifecycleEventsEnabled"), {{QStringLiteral("enabled"), true}}},
        {QStringLiteral("Runtime.enable"), {}},
        {QStringLiteral("Network.enable"), {}},
        {QStringLiteral("Fetch.enable"),
         {{QStringLiteral("patterns"),
           QJsonArray{QJsonObject{{QStringLiteral("urlPattern"), QStringLiteral("*")},
                                  {QStringLiteral("requestStage"), QStringLiteral("Request")}}}},
          {QStringLiteral("handleAuthRequests"), true}}},
        {QStringLiteral("Page.addScriptToEvaluateOnNewDocument"),
         {{QStringLiteral("source"), m_agentSource},
          {QStringLiteral("worldName"), kWorldName},
          {QStringLiteral("runImmediately"), true}}},
        {QStringLiteral("Network.setUserAgentOverride"),
         {{QStringLiteral("userAgent"),
           m_userAgent.isEmpty() ? (m_engine ? m_engine->userAgent() : QString()) : m_userAgent}}},
        {QStringLiteral("Emulation.setDeviceMetricsOverride"),
         {{QStringLiteral("width"), m_placement.width},
          {QStringLiteral("height"), m_placement.height},
          {QStringLiteral("deviceScaleFactor"), 1},
          {QStringLiteral("mobile"), false}}},
    };
    auto pending = std::make_shared<int>(int(commands.size()));
    auto firstError = std::make_shared<QString>();
    for (const auto &[method, params] : commands) {
        send(method, params,
             [this, pending, firstError, method](const QJsonObject &, const QString &e) {
                 if (!e.isEmpty() && firstError->isEmpty())
                     *firstError = method + QStringLiteral(": ") + e;
                 if (--*pending == 0)
                     settlePreparation(*firstError);
             });
    }
}

void CdpPage::settlePreparation(const QString &error)
{
    m_preparing = false;
    if (!error.isEmpty()) {
        m_failure = error;
        m_sessionId.clear();
        qCWarning(lcCdp) << "a chromium page could not be prepared:" << error;
    }
    const QList<Waiter> waiters = std::exchange(m_waiters, {});
    for (const Waiter &w : waiters) {
        if (!w.hasContext || w.context)
            w.done(error);
    }
    if (error.isEmpty())
        Q_EMIT ready();
    else
        Q_EMIT failed(error);
}

void CdpPage::whenReady(QObject *context, std::function<void(const QString &)> done)
{
    if (!m_preparing) {
        if (!isReady() && m_failure.isEmpty())
            prepare();
        else {
            const QString failure = isReady() ? QString() : m_failure;
            QPointer<QObject> guard(context);
            const bool hasContext = context != nullptr;
            QTimer::singleShot(0, this, [guard, hasContext, done, failure] {
                if (!hasContext || guard)
                    done(failure);
            });
            return;
        }
    }
    m_waiters.append({QPointer<QObject>(context), context != nullptr, std::move(done)});
}

void CdpPage::loseEngine(const QString &reason)
{
    if (m_engineLost)
        return;
    m_engineLost = true;
    m_crashed = true;
    m_failure = QStringLiteral("the chromium process ended: %1").arg(reason);
    m_sessionId.clear();
    if (m_preparing)
        settlePreparation(m_failure);
    Q_EMIT rendererCrashed();
}

void CdpPage::setGrant(const EgressGrant &grant)
{
    m_grant = grant;
    m_egress->setGrant(m_identity, grant);
}

void CdpPage::noteRefusal(Refusal refusal)
{
    Q_EMIT refused(m_log.note(std::move(refusal)));
}

void CdpPage::onEvent(const QString &method, const QJsonObject &params)
{
    const QString frameId = str(params, "frameId");
    const bool main = frameId == m_targetId;
    if (method == QLatin1String("Fetch.requestPaused")) {
        if (!refuseForeignDocument(params))
            onRequestPaused(params);
    } else if (method == QLatin1String("Fetch.authRequired")) {
        const QJsonObject challenge = params.value(QStringLiteral("authChallenge")).toObject();
        QJsonObject response{{QStringLiteral("response"), QStringLiteral("CancelAuth")}};
        // The egress proxy asks for this page's identity; a site's own challenge is refused.
        if (str(challenge, "source") == QLatin1String("Proxy"))
            response = {{QStringLiteral("response"), QStringLiteral("ProvideCredentials")},
                        {QStringLiteral("username"), m_identity.user},
                        {QStringLiteral("password"), m_identity.password}};
        send(QStringLiteral("Fetch.continueWithAuth"),
             {{QStringLiteral("requestId"), str(params, "requestId")},
              {QStringLiteral("authChallengeResponse"), response}});
    } else if (method == QLatin1String("Page.lifecycleEvent") && main) {
        const QString loader = str(params, "loaderId");
        const QString name = str(params, "name");
        Document &doc = m_documents[loader];
        if (name == QLatin1String("init"))
            m_currentLoader = loader;
        else if (name == QLatin1String("DOMContentLoaded"))
            doc.domContent = true;
        else if (name == QLatin1String("load")) {
            doc.loaded = true;
            Q_EMIT loadFinished(doc.status < 400, m_url, doc.status);
            readTitle();
        }
        if (m_navigation)
            m_navigation->lifecycle(loader, name);
    } else if (method == QLatin1String("Page.frameStartedLoading") && main) {
        Q_EMIT loadStarted();
    } else if (method == QLatin1String("Network.requestWillBeSent")) {
        if (str(params, "type") == QLatin1String("Document") && main)
            m_documentRequests.insert(str(params, "requestId"));
    } else if (method == QLatin1String("Network.responseReceived")) {
        if (str(params, "type") == QLatin1String("Document") && main) {
            const QJsonObject response = params.value(QStringLiteral("response")).toObject();
            Document &doc = m_documents[str(params, "loaderId")];
            doc.status = response.value(QStringLiteral("status")).toInt();
            doc.mimeType = str(response, "mimeType");
            doc.url = QUrl(str(response, "url"));
        }
    } else if (method == QLatin1String("Network.loadingFailed")) {
        if (m_documentRequests.remove(str(params, "requestId")) &&
            !params.value(QStringLiteral("canceled")).toBool())
            Q_EMIT loadFinished(false, m_url, 0);
    } else if (method == QLatin1String("Page.frameNavigated")) {
        const QJsonObject frame = params.value(QStringLiteral("frame")).toObject();
        if (str(frame, "id") == m_targetId) {
            m_url = QUrl(str(frame, "url") + str(frame, "urlFragment"));
            Q_EMIT urlChanged(m_url);
        }
        stopForeignLanding(frame);
    } else if (method == QLatin1String("Page.navigatedWithinDocument") && main) {
        m_url = QUrl(str(params, "url"));
        Q_EMIT urlChanged(m_url);
    } else if (method == QLatin1String("Runtime.executionContextCreated")) {
        const QJsonObject context = params.value(QStringLiteral("context")).toObject();
        const QJsonObject aux = context.value(QStringLiteral("auxData")).toObject();
        if (str(context, "name") == kWorldName && str(aux, "frameId") == m_targetId)
            m_worldContext = context.value(QStringLiteral("id")).toInteger();
    } else if (method == QLatin1String("Runtime.executionContextDestroyed")) {
        if (params.value(QStringLiteral("executionContextId")).toInteger() == m_worldContext)
            m_worldContext = 0;
    } else if (method == QLatin1String("Runtime.executionContextsCleared")) {
        m_worldContext = 0;
    } else if (method == QLatin1String("Inspector.targetCrashed")) {
        m_crashed = true;
        Q_EMIT rendererCrashed();
    } else if (method == QLatin1String("Page.javascriptDialogOpening")) {
        // Nobody answers dialogs in the pool: alerts are taken note of, questions declined.
        const QString type = str(params, "type");
        send(QStringLiteral("Page.handleJavaScriptDialog"),
             {{QStringLiteral("accept"),
               type == QLatin1String("alert") || type == QLatin1String("beforeunload")}});
    }
    Q_EMIT event(method, params);
}

void CdpPage::onRequestPaused(const QJsonObject &params)
{
    const QString requestId = str(params, "requestId");
    const QJsonObject request = params.value(QStringLiteral("request")).toObject();
    const QUrl url(str(request, "url"));
    const QString type = str(params, "resourceType");
    Refusal r;
    r.host = url.host();
    r.target = url.toString(QUrl::RemoveUserInfo);
    r.mainFrame = type == QLatin1String("Document") && str(params, "frameId") == m_targetId;
    bool internal = false;
    r.reason = pageRequestRefusal(url, type == QLatin1String("WebSocket"), m_grant, &internal);
    if (r.reason.isEmpty() && r.mainFrame)
        r.reason = mainFrameRefusal(url, m_grant);
    if (!r.reason.isEmpty()) {
        refuseRequest(requestId, r, QStringLiteral("BlockedByClient"));
        return;
    }
    const QString host = url.host();
    const QJsonArray headers = withExtraHeaders(params, r.mainFrame);
    if (internal || m_grant.privateTargets || !QHostAddress(host).isNull() ||
        NetworkPolicy::mayReachPrivate(m_grant, url.scheme(), host, url.port())) {
        continueRequest(requestId, headers);
        return;
    }
    // A name: judged by every address it resolves to (the egress proxy judges the
    // connection again, and connects to the address it checked).
    m_resolver->lookup(
        host, this,
        [this, requestId, r, host, url, headers](const HostResolver::Answer &a) mutable {
            if (!a.error.isEmpty()) {
                r.unresolved = true;
                r.reason = QStringLiteral("the host name %1 could not be resolved").arg(host);
                refuseRequest(requestId, r, QStringLiteral("NameNotResolved"));
                return;
            }
            r.reason = NetworkPolicy::addressRefusal(url, a.addresses, m_grant);
            if (!r.reason.isEmpty()) {
                refuseRequest(requestId, r, QStringLiteral("BlockedByClient"));
                return;
            }
            continueRequest(requestId, headers);
        });
}

QJsonArray CdpPage::withExtraHeaders(const QJsonObject &params, bool mainFrame) const
{
    const QUrl url(str(params.value(QStringLiteral("request")).toObject(), "url"));
    const HeaderList extra = mainFrame ? m_headers.forRequest(url) : HeaderList();
    if (extra.isEmpty())
        return {};
    QJsonArray out;
    const QJsonObject own = params.value(QStringLiteral("request"))
                                .toObject()
                                .value(QStringLiteral("headers"))
                                .toObject();
    for (auto it = own.begin(); it != own.end(); ++it) {
        const bool replaced = std::any_of(extra.begin(), extra.end(), [&](const auto &h) {
            return QString::fromLatin1(h.first).compare(it.key(), Qt::CaseInsensitive) == 0;
        });
        if (!replaced)
            out.append(QJsonObject{{QStringLiteral("name"), it.key()},
                                   {QStringLiteral("value"), it.value().toString()}});
    }
    for (const auto &[name, value] : extra)
        out.append(QJsonObject{{QStringLiteral("name"), QString::fromLatin1(name)},
                               {QStringLiteral("value"), QString::fromUtf8(value)}});
    return out;
}

bool CdpPage::refuseForeignDocument(const QJsonObject &params)
{
    // A document (a frame's navigation, a redirect hop) at a URL the engine does not open.
    const QString type = str(params, "resourceType");
    if (type != QLatin1String("Document"))
        return false;
    const QString target = str(params.value(QStringLiteral("request")).toObject(), "url");
    const QString reason = CdpConnection::landingRefusal(target);
    if (reason.isEmpty())
        return false;
    Refusal r;
    r.target = target;
    r.host = QUrl(target).host();
    r.mainFrame = str(params, "frameId") == m_targetId;
    r.reason = reason;
    refuseRequest(str(params, "requestId"), r, QStringLiteral("BlockedByClient"));
    return true;
}

void CdpPage::stopForeignLanding(const QJsonObject &frame)
{
    const QString url = str(frame, "url");
    const QString reason = CdpConnection::landingRefusal(url);
    if (reason.isEmpty())
        return;
    const QString frameId = str(frame, "id");
    Refusal r;
    r.target = url;
    r.host = QUrl(url).host();
    r.mainFrame = frameId == m_targetId;
    r.reason = reason;
    qCWarning(lcCdp) << "a chromium frame landed on" << url << "and is emptied";
    noteRefusal(r);
    // Whatever it shows goes at once: the frame is replaced by an empty document.
    send(QStringLiteral("Page.navigate"), {{QStringLiteral("url"), QStringLiteral("about:blank")},
                                           {QStringLiteral("frameId"), frameId}});
    if (r.mainFrame && m_navigation)
        m_navigation->fail(QStringLiteral("BLOCKED"),
                           QStringLiteral("the page landed on %1, which it %2").arg(url, r.reason));
}

void CdpPage::refuseRequest(const QString &requestId, const Refusal &refusal,
                            const QString &errorReason)
{
    noteRefusal(refusal);
    send(QStringLiteral("Fetch.failRequest"),
         {{QStringLiteral("requestId"), requestId}, {QStringLiteral("errorReason"), errorReason}});
}

bool CdpPage::emulateMobile()
{
    if (!isReady())
        return false;
    // A phone's user agent: the desktop one with Android's platform and "Mobile".
    QString agent =
        m_userAgent.isEmpty() ? (m_engine ? m_engine->userAgent() : QString()) : m_userAgent;
    static const QRegularExpression platform(QStringLiteral("\\([^)]*\\)"));
    agent.replace(platform, QStringLiteral("(Linux; Android 14; Pixel 8)"));
    if (!agent.contains(QLatin1String("Mobile")))
        agent.replace(QLatin1String("Safari/"), QLatin1String("Mobile Safari/"));
    // Sent before the navigation on the same session: in force when it starts.
    send(QStringLiteral("Emulation.setDeviceMetricsOverride"),
         {{QStringLiteral("width"), 390},
          {QStringLiteral("height"), 844},
          {QStringLiteral("deviceScaleFactor"), 3},
          {QStringLiteral("mobile"), true}});
    send(QStringLiteral("Emulation.setTouchEmulationEnabled"),
         {{QStringLiteral("enabled"), true}, {QStringLiteral("maxTouchPoints"), 5}});
    if (!agent.isEmpty())
        send(QStringLiteral("Network.setUserAgentOverride"),
             {{QStringLiteral("userAgent"), agent},
              {QStringLiteral("platform"), QStringLiteral("Android")}});
    return true;
}

void CdpPage::continueRequest(const QString &requestId, const QJsonArray &headers)
{
    QJsonObject params{{QStringLiteral("requestId"), requestId}};
    if (!headers.isEmpty())
        params.insert(QStringLiteral("headers"), headers);
    send(QStringLiteral("Fetch.continueRequest"), params);
}

void CdpPage::readTitle()
{
    QPointer<CdpPage> self(this);
    send(QStringLiteral("Runtime.evaluate"),
         {{QStringLiteral("expression"), QStringLiteral("document.title")},
          {QStringLiteral("returnByValue"), true}},
         [self](const QJsonObject &r, const QString &error) {
             if (!self || !error.isEmpty())
                 return;
             const QString title = r.value(QStringLiteral("result"))
                                       .toObject()
                                       .value(QStringLiteral("value"))
                                       .toString();
             if (title != self->m_title) {
                 self->m_title = title;
                 Q_EMIT self->titleChanged(title);
             }
         });
}

template <typename... Args>
std::function<void(Args...)> CdpPage::counted(std::function<void(Args...)> done)
{
    ++m_userCalls;
    QPointer<CdpPage> self(this);
    return [self, done](Args... args) {
        if (self)
            --self->m_userCalls;
        done(args...);
    };
}

void CdpPage::navigate(const QUrl &url, const NavigateOptions &options,
                       std::function<void(const NavigationResult &)> userDone)
{
    auto done = counted(std::move(userDone));
    // The engine opens no file:, chrome:, devtools:, view-source:, javascript: (…) URL,
    // whatever the policy above it said: nothing is sent, nothing loads.
    if (const QString reason = CdpConnection::targetRefusal(url.toString(QUrl::FullyEncoded));
        !reason.isEmpty()) {
        Refusal refusal;
        refusal.target = url.toString(QUrl::RemoveUserInfo);
        refusal.host = url.host();
        refusal.mainFrame = true;
        refusal.reason = reason;
        noteRefusal(refusal);
        done(NavigationResult::failedAtOnce(url, QStringLiteral("BLOCKED"),
                                            QStringLiteral("the URL %1").arg(reason)));
        return;
    }
    if (m_navigation) // a new navigation supersedes the pending one
        m_navigation->fail(QStringLiteral("ABORTED"),
                           QStringLiteral("a newer navigation replaced this one"));
    m_headers.set(url, options.headers);
    if (m_engineLost || !isReady()) {
        const QString code = m_engineLost           ? QStringLiteral("ENGINE_CRASHED")
                             : !m_failure.isEmpty() ? QStringLiteral("ENGINE_UNAVAILABLE")
                                                    : QStringLiteral("ABORTED");
        done(NavigationResult::failedAtOnce(
            url, code, m_failure.isEmpty() ? QStringLiteral("the page is not ready") : m_failure));
        return;
    }
    m_navigation = new CdpNavigation(*this, url, options, std::move(done));
    m_navigation->start();
}

void CdpPage::withWorld(std::function<void(qint64, const QString &)> done)
{
    if (m_worldContext) {
        done(m_worldContext, QString());
        return;
    }
    // A document made before the script was added (or whose world we have not heard of
    // yet): make the world, and put the agent in it.
    send(QStringLiteral("Page.createIsolatedWorld"),
         {{QStringLiteral("frameId"), m_targetId}, {QStringLiteral("worldName"), kWorldName}},
         [this, done](const QJsonObject &r, const QString &error) {
             if (!error.isEmpty()) {
                 done(0, error);
                 return;
             }
             const qint64 id = r.value(QStringLiteral("executionContextId")).toInteger();
             send(
                 QStringLiteral("Runtime.evaluate"),
                 {{QStringLiteral("expression"), m_agentSource}, {QStringLiteral("contextId"), id}},
                 [this, id, done](const QJsonObject &, const QString &e) {
                     if (e.isEmpty() && !m_worldContext)
                         m_worldContext = id;
                     done(e.isEmpty() ? id : 0, e);
                 });
         });
}

void CdpPage::evaluate(const QString &script, int timeoutMs,
                       std::function<void(bool, const QVariant &)> userDone)
{
    auto done = counted(std::move(userDone));
    if (!isReady() || m_crashed) {
        QTimer::singleShot(0, this, [done] { done(false, QVariant()); });
        return;
    }
    auto settled = std::make_shared<bool>(false);
    auto finish = [settled, done](bool ok, const QVariant &v) {
        if (*settled)
            return;
        *settled = true;
        done(ok, v);
    };
    QTimer::singleShot(timeoutMs, this, [finish] { finish(false, QVariant()); });
    auto crash = std::make_shared<QMetaObject::Connection>();
    *crash = connect(this, &CdpPage::rendererCrashed, this, [finish, crash] {
        QObject::disconnect(*crash);
        finish(false, QVariant());
    });
    QPointer<CdpPage> self(this);
    withWorld([self, script, finish, crash](qint64 contextId, const QString &error) {
        if (!self || !error.isEmpty()) {
            QObject::disconnect(*crash);
            finish(false, QVariant());
            return;
        }
        self->send(QStringLiteral("Runtime.evaluate"),
                   {{QStringLiteral("expression"), script},
                    {QStringLiteral("contextId"), contextId},
                    {QStringLiteral("returnByValue"), true}},
                   [finish, crash](const QJsonObject &r, const QString &e) {
                       QObject::disconnect(*crash);
                       if (!e.isEmpty()) {
                           finish(false, QVariant());
                           return;
                       }
                       // A script that threw answers nothing, as QtWebEngine's does.
                       if (r.contains(QStringLiteral("exceptionDetails"))) {
                           finish(true, QVariant());
                           return;
                       }
                       const QJsonObject result = r.value(QStringLiteral("result")).toObject();
                       finish(true, result.value(QStringLiteral("value")).toVariant());
                   });
    });
}

void CdpPage::loadHtml(const QString &html, int timeoutMs, std::function<void(bool)> done)
{
    const QUrl url(QStringLiteral("data:text/html;charset=utf-8;base64,") +
                   QString::fromLatin1(html.toUtf8().toBase64()));
    NavigateOptions options;
    options.timeoutMs = timeoutMs;
    navigate(url, options, [done](const NavigationResult &r) { done(r.ok); });
}

void CdpPage::printToPdf(const QPageLayout &layout,
                         std::function<void(const QByteArray &)> userDone)
{
    auto done = counted(std::move(userDone));
    const QRectF paper = layout.fullRect(QPageLayout::Inch);
    const QMarginsF margins = layout.margins(QPageLayout::Inch);
    send(QStringLiteral("Page.printToPDF"),
         {{QStringLiteral("paperWidth"), paper.width()},
          {QStringLiteral("paperHeight"), paper.height()},
          {QStringLiteral("marginTop"), margins.top()},
          {QStringLiteral("marginBottom"), margins.bottom()},
          {QStringLiteral("marginLeft"), margins.left()},
          {QStringLiteral("marginRight"), margins.right()},
          {QStringLiteral("printBackground"), true}},
         [done](const QJsonObject &r, const QString &error) {
             done(error.isEmpty() ? QByteArray::fromBase64(str(r, "data").toLatin1())
                                  : QByteArray());
         });
}

void CdpPage::recover()
{
    if (m_engineLost || (m_contextId.isEmpty() && !m_placement.defaultContext))
        return;
    if (CdpConnection *c = engineConnection()) {
        c->removeSink(m_sessionId);
        c->send(QStringLiteral("Target.closeTarget"), {{QStringLiteral("targetId"), m_targetId}},
                {}, nullptr);
    }
    m_sessionId.clear();
    m_preparing = true;
    openTarget();
}

QString CdpPage::engineName() const
{
    return QStringLiteral("chromium");
}

void CdpPage::whenUsable(QObject *context, std::function<void()> then)
{
    if (!m_crashed || m_engineLost) {
        then();
        return;
    }
    // A fresh page target in the same browser context, then the load.
    recover();
    whenReady(context, [then](const QString &) { then(); });
}

std::unique_ptr<LiveFrameSource> CdpPage::screencast(QObject *parent)
{
    return std::make_unique<CdpScreencast>(this, parent);
}

} // namespace ph
