#include "BrowserLease.h"

#include "BrowserPool.h"
#include "CdpPage.h"
#include "CdpScreencast.h"
#include "PageAgent.h"
#include "PagePrint.h"
#include "PageRequests.h"
#include "PageSlot.h"

#include "core/Ids.h"
#include "net/NetworkPolicy.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTimer>
#include <QWebEngineLoadingInfo>
#include <QWebEnginePage>

#include <memory>

Q_LOGGING_CATEGORY(lcNav, "pilothouse.browser.navigation", QtWarningMsg)

namespace ph {

namespace {

void describeFailure(const QWebEngineLoadingInfo &info, NavigationResult &r)
{
    const int code = info.errorCode();
    r.errorMessage = info.errorString();
    if (code == -311) { // ERR_UNSAFE_REDIRECT: a redirect to file: and the like
        r.errorCode = QStringLiteral("BLOCKED");
        r.errorMessage = QStringLiteral("the page redirected to a URL that is not http(s)");
        return;
    }
    switch (info.errorDomain()) {
    case QWebEngineLoadingInfo::HttpStatusCodeDomain:
        r.errorCode = QStringLiteral("HTTP_STATUS");
        r.httpStatus = code;
        r.errorMessage =
            QStringLiteral("HTTP %1 %2").arg(code).arg(httpReasonPhrase(code)).trimmed();
        return;
    case QWebEngineLoadingInfo::ConnectionErrorDomain:
        if (code == -105 || code == -137)
            r.errorCode = QStringLiteral("DNS_FAILURE");
        else if (code == -102)
            r.errorCode = QStringLiteral("CONNECTION_REFUSED");
        else if (code == -118 || code == -7)
            r.errorCode = QStringLiteral("TIMEOUT");
        else
            r.errorCode = QStringLiteral("CONNECTION_FAILED");
        return;
    case QWebEngineLoadingInfo::DnsErrorDomain:
        r.errorCode = QStringLiteral("DNS_FAILURE");
        return;
    case QWebEngineLoadingInfo::CertificateErrorDomain:
        r.errorCode = QStringLiteral("TLS_ERROR");
        return;
    case QWebEngineLoadingInfo::InternalErrorDomain:
        if (code == -20 || code == -27)
            r.errorCode = QStringLiteral("BLOCKED");
        else if (code == -3)
            r.errorCode = QStringLiteral("ABORTED");
        else
            r.errorCode = QStringLiteral("NETWORK_ERROR");
        return;
    default:
        r.errorCode = QStringLiteral("NETWORK_ERROR");
        return;
    }
}

} // namespace

QJsonObject NavigationResult::errorJson() const
{
    QJsonObject o{{QStringLiteral("code"), errorCode}, {QStringLiteral("message"), errorMessage}};
    if (httpStatus > 0)
        o.insert(QStringLiteral("httpStatus"), httpStatus);
    if (!contentType.isEmpty())
        o.insert(QStringLiteral("contentType"), contentType);
    return o;
}

BrowserLease::BrowserLease(BrowserPool *pool, PageSlot *slot, QString label)
    : m_pool(pool)
    , m_slot(slot)
    , m_id(Ids::make(QStringLiteral("lease"), 12))
    , m_label(std::move(label))
{
    m_held.start();
    connect(slot, &PageSlot::rendererCrashed, this, &BrowserLease::rendererCrashed);
    connectPage();
}

BrowserLease::BrowserLease(BrowserPool *pool, CdpPage *page, QString label)
    : m_pool(pool)
    , m_cdp(page)
    , m_id(Ids::make(QStringLiteral("lease"), 12))
    , m_label(std::move(label))
{
    m_held.start();
    connect(page, &CdpPage::rendererCrashed, this, &BrowserLease::rendererCrashed);
    connect(page, &CdpPage::urlChanged, this, &BrowserLease::urlChanged);
    connect(page, &CdpPage::titleChanged, this, &BrowserLease::titleChanged);
    connect(page, &CdpPage::loadStarted, this, &BrowserLease::loadStarted);
    connect(page, &CdpPage::loadFinished, this, &BrowserLease::loadFinished);
}

// QtWebEngine's page signals, as the lease's (again for a page replaced after a crash).
void BrowserLease::connectPage()
{
    QWebEnginePage *p = m_slot->page();
    connect(p, &QWebEnginePage::urlChanged, this, &BrowserLease::urlChanged);
    connect(p, &QWebEnginePage::titleChanged, this, &BrowserLease::titleChanged);
    connect(p, &QWebEnginePage::loadingChanged, this, [this](const QWebEngineLoadingInfo &info) {
        if (info.status() == QWebEngineLoadingInfo::LoadStartedStatus) {
            Q_EMIT loadStarted();
            return;
        }
        Q_EMIT loadFinished(info.status() == QWebEngineLoadingInfo::LoadSucceededStatus, info.url(),
                            info.errorDomain() == QWebEngineLoadingInfo::HttpStatusCodeDomain
                                ? info.errorCode()
                                : 0);
    });
}

BrowserLease::~BrowserLease()
{
    if (m_pool) {
        m_pool->release(this);
    } else {
        delete m_slot;
        delete m_cdp;
    }
}

PageSlot *BrowserLease::takeSlot()
{
    return std::exchange(m_slot, nullptr);
}

CdpPage *BrowserLease::takeCdpPage()
{
    return std::exchange(m_cdp, nullptr);
}

QString BrowserLease::engine() const
{
    return m_cdp ? QStringLiteral("chromium") : QStringLiteral("qtwebengine");
}

QWebEnginePage *BrowserLease::page() const
{
    return m_slot ? m_slot->page() : nullptr;
}

QWebEngineProfile *BrowserLease::profile() const
{
    return m_slot ? m_slot->profile() : nullptr;
}

bool BrowserLease::isCrashed() const
{
    return (m_slot && m_slot->crashed()) || (m_cdp && m_cdp->crashed());
}

QUrl BrowserLease::url() const
{
    if (m_cdp)
        return m_cdp->url();
    return page() ? page()->url() : QUrl();
}

QString BrowserLease::title() const
{
    if (m_cdp)
        return m_cdp->title();
    return page() ? page()->title() : QString();
}

void BrowserLease::recover()
{
    if (m_cdp) {
        m_cdp->recover();
        return;
    }
    if (!m_slot)
        return;
    m_slot->replacePage();
    connectPage();
}

QString BrowserLease::egressUser() const
{
    if (m_cdp)
        return m_cdp->egressUser();
    return m_slot ? m_slot->egressUser() : QString();
}

void BrowserLease::noteRefusal(const Refusal &refusal)
{
    if (m_cdp)
        m_cdp->noteRefusal(refusal);
    else if (m_slot)
        m_slot->noteRefusal(refusal);
}

quint64 BrowserLease::refusalMark() const
{
    if (m_cdp)
        return m_cdp->refusalLog().nextSerial();
    return m_slot ? m_slot->refusalLog().nextSerial() : 0;
}

QList<Refusal> BrowserLease::refusalsSince(quint64 mark) const
{
    if (m_cdp)
        return m_cdp->refusalLog().since(mark);
    return m_slot ? m_slot->refusalLog().since(mark) : QList<Refusal>();
}

void BrowserLease::printToPdf(const QPageLayout &layout,
                              std::function<void(const QByteArray &)> done)
{
    if (m_cdp)
        m_cdp->printToPdf(layout, std::move(done));
    else
        printPage(page(), layout, std::move(done));
}

std::unique_ptr<LiveFrameSource> BrowserLease::screencast(QObject *parent)
{
    if (!m_cdp)
        return nullptr;
    return std::make_unique<CdpScreencast>(m_cdp, parent);
}

namespace {

// A failed load that the network policy caused reports the policy's reason: the
// interceptor refused the main frame, or the proxy refused (or could not resolve) the
// host the load ended on.
bool explainByRefusal(NavigationResult &r, const QList<Refusal> &refusals)
{
    const QString host = r.finalUrl.host().isEmpty() ? r.requestedUrl.host() : r.finalUrl.host();
    const Refusal *match = nullptr;
    for (const Refusal &refusal : refusals) {
        const bool sameHost = refusal.host.compare(host, Qt::CaseInsensitive) == 0;
        if (refusal.mainFrame || sameHost)
            match = &refusal;
        else if (!r.ok && !match && !refusal.unresolved && !refusal.fromPage && r.httpStatus == 0)
            match = &refusal; // a redirect hop the proxy refused
    }
    if (!match)
        return false;
    r.ok = false;
    r.httpStatus = 0;
    if (match->proxyFailure) {
        r.errorCode = QStringLiteral("PROXY_FAILED");
        r.errorMessage =
            QStringLiteral("%1 could not be reached: %2").arg(match->target, match->reason);
        return true;
    }
    r.errorCode = match->unresolved ? QStringLiteral("DNS_FAILURE") : QStringLiteral("BLOCKED");
    r.errorMessage = match->unresolved ? match->reason
                                       : QStringLiteral("the network policy refused %1: it %2")
                                             .arg(match->target, match->reason);
    return true;
}

} // namespace

// One navigation of a lease's page, from load() to its result: the load's progress,
// the optional wait condition after it, a download instead of a page, a renderer crash,
// the deadline. It reports once, then goes; a newer navigation supersedes it.
class Navigation : public QObject
{
public:
    using Done = std::function<void(const NavigationResult &)>;

    Navigation(BrowserLease &lease, PageSlot &slot, const QUrl &url, NavigateOptions options,
               Done done)
        : QObject(&lease)
        , m_lease(lease)
        , m_slot(slot)
        , m_url(url)
        , m_options(std::move(options))
        , m_done(std::move(done))
    {
        m_result.requestedUrl = url;
        m_clock.start();
        m_slot.downloadMime.clear();
    }

    void start()
    {
        QWebEnginePage *page = m_slot.page();
        connect(page, &QWebEnginePage::loadingChanged, this, &Navigation::onLoading);
        connect(page, &QWebEnginePage::urlChanged, this, &Navigation::onUrlChanged);
        connect(&m_slot, &PageSlot::downloadSeen, this, &Navigation::onDownload);
        connect(&m_slot, &PageSlot::rendererCrashed, this, [this] {
            fail(QStringLiteral("RENDERER_CRASHED"), QStringLiteral("the page's renderer crashed"));
        });
        m_deadline.setSingleShot(true);
        connect(&m_deadline, &QTimer::timeout, this, &Navigation::onDeadline);
        m_deadline.start(m_options.timeoutMs);
        // A load issued while the slot's about:blank warm-up is still in flight can be
        // swallowed by it; start only once the warm-up is done.
        if (m_slot.isWarming()) {
            connect(&m_slot, &PageSlot::warmed, this, [this] {
                if (!m_settled)
                    m_slot.page()->load(m_url);
            });
            return;
        }
        page->load(m_url);
    }

    void fail(const QString &code, const QString &message)
    {
        m_result.errorCode = code;
        m_result.errorMessage = message;
        finish(false);
    }

private:
    void onLoading(const QWebEngineLoadingInfo &info)
    {
        qCDebug(lcNav) << "loading" << m_url << info.status() << info.url() << info.errorDomain()
                       << info.errorCode() << "started" << m_started << "settled" << m_settled;
        if (m_settled)
            return;
        const bool aboutPage = info.url().scheme() == QLatin1String("about") &&
                               m_url.scheme() != QLatin1String("about");
        if (info.status() == QWebEngineLoadingInfo::LoadStartedStatus) {
            if (!aboutPage)
                m_started = true;
            return;
        }
        // Qt reports LoadStarted only when the page goes from idle to loading, so a load
        // issued while an earlier one is still winding down may show only its end. What is
        // not ours: the about:blank warm-up, and the "stopped" tail of a load this one
        // replaced.
        if (aboutPage)
            return;
        if (!m_started && info.status() == QWebEngineLoadingInfo::LoadStoppedStatus &&
            info.url() != m_url)
            return;
        m_result.finalUrl = info.url();
        if (info.errorDomain() == QWebEngineLoadingInfo::HttpStatusCodeDomain)
            m_result.httpStatus = info.errorCode();
        switch (info.status()) {
        case QWebEngineLoadingInfo::LoadSucceededStatus:
            m_loaded = true;
            afterLoad();
            break;
        case QWebEngineLoadingInfo::LoadFailedStatus:
            describeFailure(info, m_result);
            finish(false);
            break;
        case QWebEngineLoadingInfo::LoadStoppedStatus:
            if (info.errorCode() == -3) {
                // A navigation that became a download stops with ERR_ABORTED and the
                // download request follows; give it a moment to arrive.
                QTimer::singleShot(300, this, [this] {
                    if (!m_settled)
                        fail(QStringLiteral("ABORTED"),
                             QStringLiteral("the navigation was stopped"));
                });
            } else {
                describeFailure(info, m_result);
                finish(false);
            }
            break;
        default:
            break;
        }
    }

    void onUrlChanged()
    {
        if (!m_started || m_committed)
            return;
        m_committed = true;
        if (m_options.waitUntil == NavigateOptions::WaitUntil::DomContentLoaded)
            afterLoad();
    }

    void onDownload()
    {
        m_result.contentType = m_slot.downloadMime;
        fail(QStringLiteral("NON_HTML"),
             QStringLiteral("the URL serves %1, not a web page").arg(m_slot.downloadMime));
    }

    void onDeadline()
    {
        if (m_settled)
            return;
        if (QWebEnginePage *p = m_slot.page())
            p->triggerAction(QWebEnginePage::Stop);
        const QString what = m_loaded ? QStringLiteral("the wait condition was not met")
                                      : QStringLiteral("the page did not finish loading");
        fail(QStringLiteral("TIMEOUT"),
             QStringLiteral("%1 within %2 ms").arg(what).arg(m_options.timeoutMs));
    }

    // After the document is in (load or DOMContentLoaded): the optional wait condition,
    // probed every 50 ms.
    void afterLoad()
    {
        QJsonObject condition;
        if (!m_options.waitForSelector.isEmpty())
            condition.insert(QStringLiteral("selector"), m_options.waitForSelector);
        else if (!m_options.waitForText.isEmpty())
            condition.insert(QStringLiteral("text"), m_options.waitForText);
        if (condition.isEmpty() && m_options.waitUntil == NavigateOptions::WaitUntil::Load) {
            finish(true);
            return;
        }
        if (condition.isEmpty())
            condition.insert(QStringLiteral("readyState"), true);
        if (m_poller.isActive())
            return;
        m_probe =
            QStringLiteral("window.__pilothouse ? window.__pilothouse.probe(%1) : false")
                .arg(QString::fromUtf8(QJsonDocument(condition).toJson(QJsonDocument::Compact)));
        connect(&m_poller, &QTimer::timeout, this, &Navigation::probe);
        m_poller.start(50);
    }

    void probe()
    {
        QWebEnginePage *page = m_slot.page();
        if (m_settled || !page)
            return;
        QPointer<Navigation> self(this);
        page->runJavaScript(m_probe, PageAgent::kWorld, [self](const QVariant &v) {
            if (!self || self->m_settled)
                return;
            if (v.toString() == QLatin1String("invalid-selector"))
                self->fail(QStringLiteral("INVALID_SELECTOR"),
                           QStringLiteral("waitForSelector is not a valid CSS selector"));
            else if (v.toBool())
                self->finish(true);
        });
    }

    void finish(bool ok)
    {
        if (m_settled)
            return;
        m_settled = true;
        m_deadline.stop();
        m_poller.stop();
        disconnect(m_slot.page(), nullptr, this, nullptr);
        disconnect(&m_slot, nullptr, this, nullptr);
        m_result.ok = ok;
        m_result.elapsedMs = m_clock.elapsed();
        if (QWebEnginePage *p = m_slot.page(); p && m_result.finalUrl.isEmpty())
            m_result.finalUrl = p->url();
        const Done done = std::move(m_done);
        const NavigationResult result = m_result;
        deleteLater();
        m_lease.navigationEnded(this);
        done(result);
    }

    BrowserLease &m_lease;
    PageSlot &m_slot;
    QUrl m_url;
    NavigateOptions m_options;
    Done m_done;
    NavigationResult m_result;
    QElapsedTimer m_clock;
    QTimer m_deadline{this};
    QTimer m_poller{this};
    QString m_probe;
    bool m_started = false;
    bool m_committed = false;
    bool m_settled = false;
    bool m_loaded = false;
};

void BrowserLease::navigationEnded(Navigation *navigation)
{
    if (m_navigation == navigation)
        m_navigation = nullptr;
}

void BrowserLease::navigate(const QUrl &url, const NavigateOptions &options,
                            std::function<void(const NavigationResult &)> userDone)
{
    if (m_cdp && m_cdp->crashed() && !m_cdp->engineLost()) {
        // A fresh page target in the same browser context, then the load.
        m_cdp->recover();
        QPointer<BrowserLease> self(this);
        m_cdp->whenReady(this, [self, url, options, userDone](const QString &) {
            if (self)
                self->navigateNow(url, options, userDone);
        });
        return;
    }
    if (m_slot && m_slot->crashed())
        recover(); // a fresh page in the same isolation scope
    navigateNow(url, options, std::move(userDone));
}

void BrowserLease::navigateNow(const QUrl &url, const NavigateOptions &options,
                               std::function<void(const NavigationResult &)> userDone)
{
    const EgressGrant grant = m_cdp ? m_cdp->grant() : m_slot ? m_slot->grant() : EgressGrant();
    if (!page() && !m_cdp) {
        NavigationResult r;
        r.requestedUrl = url;
        r.errorCode = QStringLiteral("ABORTED");
        r.errorMessage = QStringLiteral("the browser is shutting down");
        userDone(r);
        return;
    }
    if (const QString refusal = NetworkPolicy::refusal(url, grant); !refusal.isEmpty()) {
        NavigationResult r;
        r.requestedUrl = url;
        r.errorCode = QStringLiteral("BLOCKED");
        r.errorMessage = QStringLiteral("the URL %1").arg(refusal);
        userDone(r);
        return;
    }
    if (m_navigation) // a new navigation supersedes the pending one
        m_navigation->fail(QStringLiteral("ABORTED"),
                           QStringLiteral("a newer navigation replaced this one"));
    // A failure (or a proxy's 403/502 answer) is checked against the policy's refusals
    // once the proxy's report, posted before its answer, has been delivered.
    const quint64 mark = refusalMark();
    QPointer<BrowserLease> guard(this);
    auto done = [guard, mark, userDone](const NavigationResult &result) {
        const bool suspicious = !result.ok || result.httpStatus == 403 || result.httpStatus == 502;
        if (!suspicious || !guard) {
            userDone(result);
            return;
        }
        QTimer::singleShot(0, guard.data(), [guard, mark, userDone, result] {
            NavigationResult r = result;
            explainByRefusal(r, guard->refusalsSince(mark));
            userDone(r);
        });
    };
    if (m_cdp) {
        m_cdp->navigate(url, options, std::move(done));
        return;
    }
    m_navigation = new Navigation(*this, *m_slot, url, options, std::move(done));
    m_navigation->start();
}

void BrowserLease::evaluate(const QString &script, int timeoutMs,
                            std::function<void(bool, const QVariant &)> done)
{
    if (m_cdp) {
        m_cdp->evaluate(script, timeoutMs, std::move(done));
        return;
    }
    QWebEnginePage *page = this->page();
    if (!page || isCrashed()) {
        done(false, QVariant());
        return;
    }
    // The page may answer while it is being destroyed (QtWebEngine then calls pending
    // callbacks with no value): nothing here may outlive the lease unguarded.
    auto settled = std::make_shared<bool>(false);
    QPointer<QTimer> timer = new QTimer(this);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [settled, done, timer] {
        if (timer)
            timer->deleteLater();
        if (*settled)
            return;
        *settled = true;
        done(false, QVariant());
    });
    auto crash = std::make_shared<QMetaObject::Connection>();
    *crash = connect(m_slot, &PageSlot::rendererCrashed, this, [settled, done, timer] {
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
    QPointer<BrowserLease> self(this);
    page->runJavaScript(script, PageAgent::kWorld,
                        [self, settled, done, timer, crash](const QVariant &value) {
                            QObject::disconnect(*crash);
                            if (*settled)
                                return;
                            *settled = true;
                            if (timer) {
                                timer->stop();
                                timer->deleteLater();
                            }
                            // A callback from a page being torn down is not an answer.
                            done(self != nullptr && self->page() != nullptr, value);
                        });
}

void BrowserLease::snapshot(const QJsonObject &options, int timeoutMs,
                            std::function<void(const SnapshotResult &)> done)
{
    const QString script =
        QStringLiteral("window.__pilothouse ? window.__pilothouse.snapshot(%1) : null")
            .arg(QString::fromUtf8(QJsonDocument(options).toJson(QJsonDocument::Compact)));
    QPointer<BrowserLease> self(this);
    evaluate(script, timeoutMs, [self, done](bool ok, const QVariant &value) {
        SnapshotResult r;
        if (!self) {
            r.errorCode = QStringLiteral("ABORTED");
            r.errorMessage = QStringLiteral("the page was released");
            done(r);
            return;
        }
        const bool crashed = self->isCrashed();
        if (!ok && self->m_cdp && self->m_cdp->engineLost()) {
            r.errorCode = QStringLiteral("ENGINE_CRASHED");
            r.errorMessage = self->m_cdp->failure();
        } else if (!ok) {
            r.errorCode =
                crashed ? QStringLiteral("RENDERER_CRASHED") : QStringLiteral("SNAPSHOT_TIMEOUT");
            r.errorMessage = crashed ? QStringLiteral("the page's renderer crashed")
                                     : QStringLiteral("the page did not answer in time");
        } else if (value.typeId() != QMetaType::QString) {
            r.errorCode = QStringLiteral("AGENT_UNAVAILABLE");
            r.errorMessage = QStringLiteral("the page agent is not present in this document");
        } else {
            r.data = PageAgent::readSnapshot(value.toString());
            r.ok = true;
        }
        done(r);
    });
}

} // namespace ph

namespace ph {

void BrowserLease::loadHtml(const QString &html, int timeoutMs, std::function<void(bool)> done)
{
    if (m_cdp) {
        m_cdp->loadHtml(html, timeoutMs, std::move(done));
        return;
    }
    if (!m_slot) {
        done(false);
        return;
    }
    if (m_slot->isWarming()) {
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = connect(m_slot, &PageSlot::warmed, this, [this, once, html, timeoutMs, done] {
            disconnect(*once);
            loadHtml(html, timeoutMs, done);
        });
        return;
    }
    auto settled = std::make_shared<bool>(false);
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection =
        connect(page(), &QWebEnginePage::loadFinished, this, [settled, connection, done](bool ok) {
            disconnect(*connection);
            if (*settled)
                return;
            *settled = true;
            done(ok);
        });
    QTimer::singleShot(timeoutMs, this, [settled, connection, done] {
        if (*settled)
            return;
        *settled = true;
        disconnect(*connection);
        done(false);
    });
    page()->setHtml(html, QUrl(QStringLiteral("about:blank")));
}

} // namespace ph
