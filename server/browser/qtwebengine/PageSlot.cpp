#include "browser/qtwebengine/PageSlot.h"

#include "browser/LiveFrameSource.h"
#include "browser/PageAgent.h"
#include "browser/qtwebengine/PagePrint.h"
#include "browser/qtwebengine/WebEngineNavigation.h"

#include "net/HostResolver.h"
#include "net/NetworkPolicy.h"

#include <QAuthenticator>
#include <QNetworkCookie>
#include <QRegularExpression>
#include <QTimer>
#include <QWebEngineCookieStore>
#include <QWebEngineDownloadRequest>
#include <QWebEngineLoadingInfo>
#include <QWebEnginePage>
#include <QWebEngineProfile>
#include <QWebEngineScriptCollection>
#include <QWebEngineSettings>
#include <QWebEngineUrlRequestInterceptor>

#include <memory>

namespace ph {

// Every request of the slot's page passes here (on the UI thread in Qt 6): navigations,
// redirects, frames, subresources, workers and WebSocket handshakes. It draws the lines
// that need no name resolution: the scheme rule always, and literal private hosts (and
// single-label names, which bypass the egress proxy) unless the lease's grant has them.
class SlotInterceptor final : public QWebEngineUrlRequestInterceptor
{
public:
    explicit SlotInterceptor(PageSlot &slot)
        : m_slot(slot)
    {}

    void interceptRequest(QWebEngineUrlRequestInfo &info) override
    {
        const QUrl url = info.requestUrl();
        const bool mainFrame =
            info.resourceType() == QWebEngineUrlRequestInfo::ResourceTypeMainFrame;
        QString reason = pageRequestRefusal(
            url, info.resourceType() == QWebEngineUrlRequestInfo::ResourceTypeWebSocket,
            m_slot.grant());
        if (reason.isEmpty() && mainFrame)
            reason = mainFrameRefusal(url, m_slot.grant());
        if (reason.isEmpty()) {
            if (mainFrame)
                for (const auto &[name, value] : m_slot.navigationHeaders().forRequest(url))
                    if (qstricmp(name.constData(), "cookie") != 0) // the cookie store's (navigate)
                        info.setHttpHeader(name, value);
            return;
        }
        info.block(true);
        Refusal r;
        r.host = url.host();
        r.target = url.toString(QUrl::RemoveUserInfo);
        r.reason = reason;
        r.mainFrame = mainFrame;
        m_slot.noteRefusal(r);
    }

private:
    PageSlot &m_slot;
};

// The slot's page. Chromium refuses a page's own attempt to load a local file (a link, a
// form, `location =`, a frame) in the renderer, before any request exists, and says so
// only on the console: that message becomes a refusal too, so an action that tried it
// fails as BLOCKED instead of silently doing nothing.
class SlotPage final : public QWebEnginePage
{
public:
    SlotPage(QWebEngineProfile *profile, PageSlot &slot)
        : QWebEnginePage(profile)
        , m_slot(slot)
    {}

protected:
    // A redirect of a navigation is decided here, before its request leaves. The
    // interceptor alone is too late for one: QtWebEngine lets the network follow a redirect
    // and only then asks the interceptor, so a refused hop would still have reached its
    // server once (seen as a hit on an internal page under load). Other navigations reach the
    // interceptor before their request starts.
    bool acceptNavigationRequest(const QUrl &url, NavigationType type, bool isMainFrame) override
    {
        if (type != NavigationTypeRedirect)
            return QWebEnginePage::acceptNavigationRequest(url, type, isMainFrame);
        QString reason = pageRequestRefusal(url, false, m_slot.grant());
        if (reason.isEmpty() && isMainFrame)
            reason = mainFrameRefusal(url, m_slot.grant());
        if (reason.isEmpty())
            return QWebEnginePage::acceptNavigationRequest(url, type, isMainFrame);
        Refusal r;
        r.host = url.host();
        r.target = url.toString(QUrl::RemoveUserInfo);
        r.reason = reason;
        r.mainFrame = isMainFrame;
        m_slot.noteRefusal(r);
        return false;
    }

    void javaScriptConsoleMessage(JavaScriptConsoleMessageLevel level, const QString &message,
                                  int line, const QString &source) override
    {
        static const QLatin1String prefix("Not allowed to load local resource: ");
        if (level == ErrorMessageLevel && message.startsWith(prefix)) {
            const QUrl url(message.mid(prefix.size()).trimmed());
            Refusal r;
            r.target = url.toString(QUrl::RemoveUserInfo);
            r.reason = QStringLiteral("uses the scheme '%1'; only http and https are allowed")
                           .arg(url.scheme());
            r.fromPage = true;
            m_slot.noteRefusal(r);
        }
        QWebEnginePage::javaScriptConsoleMessage(level, message, line, source);
    }

private:
    PageSlot &m_slot;
};

PageSlot::PageSlot(const PageAgent &agent, std::shared_ptr<EgressProxy> egress,
                   std::shared_ptr<const HostResolver> resolver, bool polyfills, QObject *parent)
    : PageEngine(parent)
    , m_agent(agent)
    , m_egress(std::move(egress))
    , m_interceptor(std::make_unique<SlotInterceptor>(*this))
    , m_polyfills(polyfills)
    , m_leaseScope(new QObject(this))
{
    // Until leased, the slot acts for nobody: no private target, no tenant.
    m_identity = m_egress->open(m_grant, std::move(resolver));
    // An off-the-record profile: cookies, storage and cache live in memory and die with it.
    m_profile = new QWebEngineProfile();
    m_profile->setUrlRequestInterceptor(m_interceptor.get());
    m_profile->setPersistentCookiesPolicy(QWebEngineProfile::NoPersistentCookies);
    m_profile->setHttpUserAgent(m_profile->httpUserAgent().replace(
        QRegularExpression(QStringLiteral("QtWebEngine/[^ ]+")),
        QStringLiteral("Pilothouse/") + QStringLiteral(PILOTHOUSE_VERSION)));
    auto *settings = m_profile->settings();
    // PDFs and other non-HTML content become downloads, which the slot reports and
    // cancels; nothing is ever written to disk.
    settings->setAttribute(QWebEngineSettings::PdfViewerEnabled, false);
    settings->setAttribute(QWebEngineSettings::PluginsEnabled, false);
    settings->setAttribute(QWebEngineSettings::JavascriptCanOpenWindows, false);
    settings->setAttribute(QWebEngineSettings::LocalContentCanAccessFileUrls, false);
    settings->setAttribute(QWebEngineSettings::ScreenCaptureEnabled, false);
    settings->setAttribute(QWebEngineSettings::PlaybackRequiresUserGesture, true);
    settings->setAttribute(QWebEngineSettings::ErrorPageEnabled, false);
    // WebRTC's peer connections do not go through the proxy: keep them off the
    // machine's private interfaces.
    settings->setAttribute(QWebEngineSettings::WebRTCPublicInterfacesOnly, true);
    connect(m_profile, &QWebEngineProfile::downloadRequested, this,
            [this](QWebEngineDownloadRequest *download) {
                downloadMime = download->mimeType();
                downloadUrl = download->url();
                download->cancel();
                Q_EMIT downloadSeen();
            });
    createPage();
}

PageSlot::~PageSlot()
{
    // The lease's work goes first, unheard: a page being destroyed reports its load's end.
    delete m_leaseScope;
    // Pages must go before their profile, and the profile before its interceptor.
    qDeleteAll(m_oldPages);
    delete m_page;
    delete m_profile;
    m_egress->close(m_identity);
}

void PageSlot::createPage()
{
    m_page = new SlotPage(m_profile, *this);
    // The polyfills first: they must be in place before anything else runs in the page.
    if (m_polyfills)
        m_page->scripts().insert(m_agent.polyfills());
    m_page->scripts().insert(m_agent.script());
    m_crashed = false;
    connect(m_page, &QWebEnginePage::renderProcessTerminated, this,
            [this](QWebEnginePage::RenderProcessTerminationStatus status, int) {
                if (status == QWebEnginePage::NormalTerminationStatus)
                    return;
                m_crashed = true;
                Q_EMIT rendererCrashed();
            });
    // The egress proxy asks every new identity for its credentials once.
    connect(m_page, &QWebEnginePage::proxyAuthenticationRequired, this,
            [this](const QUrl &, QAuthenticator *authenticator, const QString &) {
                authenticator->setUser(m_identity.user);
                authenticator->setPassword(m_identity.password);
            });
    // The page's signals, as the engine's (again for a page replaced after a crash).
    connect(m_page, &QWebEnginePage::urlChanged, this, &PageEngine::urlChanged);
    connect(m_page, &QWebEnginePage::titleChanged, this, &PageEngine::titleChanged);
    connect(
        m_page, &QWebEnginePage::loadingChanged, this, [this](const QWebEngineLoadingInfo &info) {
            if (info.status() == QWebEngineLoadingInfo::LoadStartedStatus) {
                Q_EMIT loadStarted();
                return;
            }
            Q_EMIT loadFinished(
                info.status() == QWebEngineLoadingInfo::LoadSucceededStatus, info.url(),
                info.errorDomain() == QWebEngineLoadingInfo::HttpStatusCodeDomain ? info.errorCode()
                                                                                  : 0);
        });
}

void PageSlot::setPolyfills(bool on)
{
    if (on == m_polyfills)
        return;
    m_polyfills = on;
    QWebEngineScriptCollection &scripts = m_page->scripts();
    if (!on) {
        for (const QWebEngineScript &s : scripts.find(m_agent.polyfills().name()))
            scripts.remove(s);
        return;
    }
    // Put back ahead of the page agent, as a fresh page has them.
    scripts.remove(m_agent.script());
    scripts.insert(m_agent.polyfills());
    scripts.insert(m_agent.script());
}

void PageSlot::setGrant(const EgressGrant &grant)
{
    m_grant = grant;
    m_egress->setGrant(m_identity, grant);
}

void PageSlot::noteRefusal(Refusal refusal)
{
    Q_EMIT refused(m_log.note(std::move(refusal)));
}

void PageSlot::warm()
{
    m_warming = true;
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(m_page, &QWebEnginePage::loadFinished, this, [this, connection] {
        disconnect(*connection);
        m_warming = false;
        Q_EMIT warmed();
    });
    m_page->setUrl(QUrl(QStringLiteral("about:blank")));
}

void PageSlot::replacePage()
{
    // The old page may be inside one of its own signals: it is kept until the slot
    // goes, which is never long after a crash.
    QWebEnginePage *old = m_page;
    old->disconnect(this);
    m_oldPages.append(old);
    createPage();
}

QString PageSlot::engineName() const
{
    return QStringLiteral("qtwebengine");
}

QUrl PageSlot::url() const
{
    return m_page ? m_page->url() : QUrl();
}

QString PageSlot::title() const
{
    return m_page ? m_page->title() : QString();
}

void PageSlot::detach()
{
    m_headers = {};
    delete m_leaseScope;
    m_leaseScope = new QObject(this);
}

void PageSlot::whenUsable(QObject *, std::function<void()> then)
{
    if (m_crashed)
        replacePage(); // a fresh page in the same isolation scope
    then();
}

void PageSlot::navigationEnded(WebEngineNavigation *navigation)
{
    if (m_navigation == navigation)
        m_navigation = nullptr;
}

void PageSlot::navigate(const QUrl &url, const NavigateOptions &options,
                        std::function<void(const NavigationResult &)> done)
{
    if (m_navigation) // a new navigation supersedes the pending one
        m_navigation->fail(QStringLiteral("ABORTED"),
                           QStringLiteral("a newer navigation replaced this one"));
    m_headers.set(url, options.headers);
    // A caller's Cookie header goes into the page's own cookie store, for the URL's host
    // only (the network stack ignores a Cookie header an interceptor sets).
    const QUrl origin(NetworkPolicy::originOf(url));
    for (const auto &[name, value] : options.headers) {
        if (qstricmp(name.constData(), "cookie") != 0)
            continue;
        for (const QByteArray &pair : value.split(';')) {
            const QByteArray kv = pair.trimmed();
            const qsizetype eq = kv.indexOf('=');
            if (eq <= 0)
                continue;
            QNetworkCookie cookie(kv.left(eq), kv.mid(eq + 1));
            cookie.setPath(QStringLiteral("/"));
            m_profile->cookieStore()->setCookie(cookie, origin);
        }
    }
    m_navigation = new WebEngineNavigation(*this, m_leaseScope, url, options, std::move(done));
    m_navigation->start();
}

void PageSlot::evaluate(const QString &script, int timeoutMs,
                        std::function<void(bool, const QVariant &)> done)
{
    if (!m_page || m_crashed) {
        done(false, QVariant());
        return;
    }
    // The page may answer while it is being destroyed (QtWebEngine then calls pending
    // callbacks with no value): nothing here may outlive the lease unguarded.
    auto settled = std::make_shared<bool>(false);
    QPointer<QTimer> timer = new QTimer(m_leaseScope);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, m_leaseScope, [settled, done, timer] {
        if (timer)
            timer->deleteLater();
        if (*settled)
            return;
        *settled = true;
        done(false, QVariant());
    });
    auto crash = std::make_shared<QMetaObject::Connection>();
    *crash = connect(this, &PageEngine::rendererCrashed, m_leaseScope, [settled, done, timer] {
        if (*settled)
            return;
        *settled = true;
        if (timer) {
            timer->stop();
            timer->deleteLater();
        }
        done(false, QVariant());
    });
    timer->start(timeoutMs);
    QPointer<QObject> scope(m_leaseScope);
    m_page->runJavaScript(script, PageAgent::kWorld,
                          [scope, settled, done, timer, crash](const QVariant &value) {
                              QObject::disconnect(*crash);
                              if (*settled)
                                  return;
                              *settled = true;
                              if (timer) {
                                  timer->stop();
                                  timer->deleteLater();
                              }
                              // A callback from a page being torn down is not an answer.
                              done(scope != nullptr, value);
                          });
}

void PageSlot::loadHtml(const QString &html, int timeoutMs, std::function<void(bool)> done)
{
    if (m_warming) {
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = connect(this, &PageSlot::warmed, m_leaseScope, [this, once, html, timeoutMs, done] {
            disconnect(*once);
            loadHtml(html, timeoutMs, done);
        });
        return;
    }
    auto settled = std::make_shared<bool>(false);
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(m_page, &QWebEnginePage::loadFinished, m_leaseScope,
                          [settled, connection, done](bool ok) {
                              disconnect(*connection);
                              if (*settled)
                                  return;
                              *settled = true;
                              done(ok);
                          });
    QTimer::singleShot(timeoutMs, m_leaseScope, [settled, connection, done] {
        if (*settled)
            return;
        *settled = true;
        disconnect(*connection);
        done(false);
    });
    m_page->setHtml(html, QUrl(QStringLiteral("about:blank")));
}

void PageSlot::printToPdf(const QPageLayout &layout, std::function<void(const QByteArray &)> done)
{
    printPage(m_page, layout, std::move(done));
}

std::unique_ptr<LiveFrameSource> PageSlot::screencast(QObject *)
{
    return nullptr; // a frame source shows webEnginePage()
}

} // namespace ph
