#include "browser/BrowserLease.h"

#include "browser/BrowserPool.h"
#include "browser/LiveFrameSource.h"
#include "browser/PageAgent.h"
#include "browser/PageRequests.h"

#include "core/Ids.h"
#include "net/NetworkPolicy.h"

#include <QJsonDocument>
#include <QPointer>
#include <QTimer>

namespace ph {

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

BrowserLease::BrowserLease(BrowserPool *pool, PageEngine *page, QString label)
    : m_pool(pool)
    , m_page(page)
    , m_engine(page->engineName())
    , m_id(Ids::make(QStringLiteral("lease"), 12))
    , m_label(std::move(label))
{
    m_held.start();
    connect(page, &PageEngine::rendererCrashed, this, &BrowserLease::rendererCrashed);
    connect(page, &PageEngine::urlChanged, this, &BrowserLease::urlChanged);
    connect(page, &PageEngine::titleChanged, this, &BrowserLease::titleChanged);
    connect(page, &PageEngine::loadStarted, this, &BrowserLease::loadStarted);
    connect(page, &PageEngine::loadFinished, this, &BrowserLease::loadFinished);
}

std::unique_ptr<BrowserLease> BrowserLease::adopt(PageEngine *page, const QString &label,
                                                  const LeaseOptions &options)
{
    std::unique_ptr<BrowserLease> lease(new BrowserLease(nullptr, page, label));
    lease->m_options = options;
    return lease;
}

std::unique_ptr<BrowserLease> BrowserLease::adopt(PageEngine *page, const QString &label,
                                                  const LeaseOptions &options,
                                                  std::function<void(PageEngine *)> released)
{
    std::unique_ptr<BrowserLease> lease = adopt(page, label, options);
    lease->m_released = std::move(released);
    return lease;
}

BrowserLease::~BrowserLease()
{
    if (m_page) {
        disconnect(m_page, nullptr, this, nullptr);
        m_page->detach();
    }
    if (m_pool)
        m_pool->release(this);
    else if (m_released)
        m_released(std::exchange(m_page, nullptr));
    else
        delete m_page;
}

PageEngine *BrowserLease::takePage()
{
    return std::exchange(m_page, nullptr);
}

QString BrowserLease::engine() const
{
    return m_engine;
}

QWebEnginePage *BrowserLease::page() const
{
    return m_page ? m_page->webEnginePage() : nullptr;
}

QWebEngineProfile *BrowserLease::profile() const
{
    return m_page ? m_page->webEngineProfile() : nullptr;
}

bool BrowserLease::isCrashed() const
{
    return m_page && m_page->crashed();
}

QUrl BrowserLease::url() const
{
    return m_page ? m_page->url() : QUrl();
}

QString BrowserLease::title() const
{
    return m_page ? m_page->title() : QString();
}

void BrowserLease::recover()
{
    if (m_page)
        m_page->recover();
}

QString BrowserLease::egressUser() const
{
    return m_page ? m_page->egressUser() : QString();
}

void BrowserLease::noteRefusal(const Refusal &refusal)
{
    if (m_page)
        m_page->noteRefusal(refusal);
}

quint64 BrowserLease::refusalMark() const
{
    return m_page ? m_page->refusalLog().nextSerial() : 0;
}

QList<Refusal> BrowserLease::refusalsSince(quint64 mark) const
{
    return m_page ? m_page->refusalLog().since(mark) : QList<Refusal>();
}

void BrowserLease::printToPdf(const QPageLayout &layout,
                              std::function<void(const QByteArray &)> done)
{
    if (!m_page) {
        done(QByteArray());
        return;
    }
    m_page->printToPdf(layout, std::move(done));
}

std::unique_ptr<LiveFrameSource> BrowserLease::screencast(QObject *parent)
{
    return m_page ? m_page->screencast(parent) : nullptr;
}

void BrowserLease::navigate(const QUrl &url, const NavigateOptions &options,
                            std::function<void(const NavigationResult &)> userDone)
{
    if (!m_page) {
        navigateNow(url, options, std::move(userDone));
        return;
    }
    // A crashed page is replaced (a fresh page in the same isolation scope) first.
    QPointer<BrowserLease> self(this);
    m_page->whenUsable(this, [self, url, options, userDone] {
        if (self)
            self->navigateNow(url, options, userDone);
    });
}

void BrowserLease::navigateNow(const QUrl &url, const NavigateOptions &options,
                               std::function<void(const NavigationResult &)> userDone)
{
    if (!m_page) {
        userDone(NavigationResult::failedAtOnce(url, QStringLiteral("ABORTED"),
                                                QStringLiteral("the browser is shutting down")));
        return;
    }
    if (const QString refusal = NetworkPolicy::refusal(url, m_page->grant()); !refusal.isEmpty()) {
        userDone(NavigationResult::failedAtOnce(url, QStringLiteral("BLOCKED"),
                                                QStringLiteral("the URL %1").arg(refusal)));
        return;
    }
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
    m_page->navigate(url, options, std::move(done));
}

void BrowserLease::evaluate(const QString &script, int timeoutMs,
                            std::function<void(bool, const QVariant &)> done)
{
    if (!m_page) {
        done(false, QVariant());
        return;
    }
    m_page->evaluate(script, timeoutMs, std::move(done));
}

void BrowserLease::loadHtml(const QString &html, int timeoutMs, std::function<void(bool)> done)
{
    if (!m_page) {
        done(false);
        return;
    }
    m_page->loadHtml(html, timeoutMs, std::move(done));
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
        if (!ok && self->m_page && self->m_page->engineLost()) {
            r.errorCode = QStringLiteral("ENGINE_CRASHED");
            r.errorMessage = self->m_page->failure();
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

bool BrowserLease::emulateMobile()
{
    return m_page && m_page->emulateMobile();
}

} // namespace ph
