#include "browser/BrowserPool.h"

#include "browser/BrowserLease.h"
#include "browser/LeaseOptions.h"
#include "browser/PageAgent.h"
#include "browser/chromium/CdpPage.h"
#include "browser/chromium/ChromiumEngine.h"
#include "browser/qtwebengine/PageSlot.h"

#include "core/DomainError.h"
#include "net/EgressProxy.h"
#include "net/HostResolver.h"
#include "net/NetworkPolicy.h"

#include <QLoggingCategory>
#include <QTimer>
#include <QWebEngineProfile>

#include <algorithm>
#include <cmath>
#include <utility>

Q_LOGGING_CATEGORY(lcPool, "pilothouse.browser")

namespace ph {

namespace {
// `percent` of `of`, rounded down, at least one (and at most `of`, when that is more).
int shareOf(int percent, int of)
{
    return std::clamp(of * percent / 100, 1, std::max(1, of));
}
} // namespace

BrowserPool::BrowserPool(const Options &options, const NetworkPolicy &policy, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_egress(policy.egress())
    , m_resolver(policy.resolver())
    , m_agent(std::make_unique<PageAgent>())
{
    // Refusals by the proxy (names by resolved address), and failures of a run's own
    // proxy, reach the slot they were for.
    const auto note = [this](const QString &user, const QString &target, const QString &reason,
                             bool unresolved, bool proxyFailure) {
        BrowserLease *lease = leaseOfEgressUser(user);
        if (!lease)
            return;
        const Refusal r = Refusal::fromProxy(target, reason, unresolved, proxyFailure);
        lease->noteRefusal(r);
    };
    connect(m_egress.get(), &EgressProxy::refused, this,
            [note](const QString &user, const QString &target, const QString &reason,
                   bool unresolved) { note(user, target, reason, unresolved, false); });
    connect(m_egress.get(), &EgressProxy::proxyFailed, this,
            [note](const QString &user, const QString &target, const QString &reason) {
                note(user, target, reason, false, true);
            });
    QTimer::singleShot(0, this, &BrowserPool::replenish);
}

BrowserLease *BrowserPool::leaseOfEgressUser(const QString &user) const
{
    for (BrowserLease *lease : m_leases) {
        if (lease->egressUser() == user)
            return lease;
    }
    return nullptr;
}

QString BrowserPool::engineProblem(const QString &engine) const
{
    if (engine == QLatin1String("qtwebengine"))
        return {};
    if (engine != QLatin1String("chromium"))
        return QStringLiteral("'%1' is not an engine; use one of: %2")
            .arg(engine, LeaseOptions::engines().join(QStringLiteral(", ")));
    if (ChromiumEngine::findExecutable(m_options.chromiumPath).isEmpty())
        return m_options.chromiumPath.isEmpty()
                   ? QStringLiteral("the chromium engine needs Debian's chromium-headless-shell "
                                    "or chromium, and neither is installed")
                   : QStringLiteral("browser.chromiumPath '%1' is not an executable")
                         .arg(m_options.chromiumPath);
    return {};
}

void BrowserPool::requireEngine(const LeaseOptions &options) const
{
    if (options.engine.isEmpty())
        return;
    if (const QString problem = engineProblem(options.engine); !problem.isEmpty())
        throw DomainError(DomainError::Kind::Unavailable, QStringLiteral("ENGINE_UNAVAILABLE"),
                          QStringLiteral("browser.engine: %1").arg(problem),
                          QStringLiteral("browser.engine"));
}

QString BrowserPool::engineOf(const Waiter &waiter) const
{
    return waiter.options.engine.isEmpty() ? m_options.engine : waiter.options.engine;
}

ChromiumEngine *BrowserPool::chromiumEngine()
{
    if (!m_chromium) {
        m_chromium = std::make_unique<ChromiumEngine>(m_options.chromiumPath, m_egress->port());
        connect(m_chromium.get(), &ChromiumEngine::lost, this, [this](const QString &reason) {
            ++m_crashes;
            qCWarning(lcPool) << "the chromium process ended:" << reason
                              << "; its leases fail, the next lease starts a new one";
            for (CdpPage *page : std::exchange(m_cdpStandby, {}))
                retire(page);
            QTimer::singleShot(1000, this, &BrowserPool::replenish);
            Q_EMIT statsChanged();
        });
    }
    return m_chromium.get();
}

CdpPage *BrowserPool::newCdpPage()
{
    ChromiumEngine *engine = chromiumEngine();
    auto *page = new CdpPage(*engine, m_agent->script().sourceCode(), m_egress, m_resolver);
    page->setUserAgent(m_userAgent);
    connect(engine, &ChromiumEngine::lost, page, &CdpPage::loseEngine);
    connect(page, &CdpPage::rendererCrashed, this, [this, page] {
        if (!page->engineLost())
            ++m_crashes;
    });
    page->prepare();
    return page;
}

void BrowserPool::grantChromium(Waiter waiter)
{
    CdpPage *page = nullptr;
    while (!m_cdpStandby.isEmpty() && !page) {
        page = m_cdpStandby.takeFirst();
        if (page->crashed() || !page->failure().isEmpty()) {
            retire(page);
            page = nullptr;
        }
    }
    if (!page)
        page = newCdpPage();
    page->setGrant(*waiter.grant);
    auto *lease = new BrowserLease(this, page, waiter.label);
    lease->m_options = waiter.options;
    m_leases.append(lease);
    ++m_served;
    // The lease is handed over once its page is ready; a page that could not be made
    // (no chromium, a failed start) is handed over too, and its loads fail with the reason.
    page->whenReady(lease, [this, lease, waiter](const QString &) {
        std::unique_ptr<BrowserLease> held(lease);
        if (waiter.hasContext && !waiter.context)
            return; // the requester went away while the page was made: released here
        Q_EMIT leaseStarted(lease);
        waiter.granted(std::move(held));
    });
}

void BrowserPool::grantQtWebEngine(Waiter waiter)
{
    PageSlot *slot = nullptr;
    while (!m_standby.isEmpty() && !slot) {
        slot = m_standby.takeFirst();
        if (slot->crashed()) {
            retire(slot);
            slot = nullptr;
        }
    }
    if (!slot)
        slot = newSlot();
    slot->setGrant(*waiter.grant);
    // A standby page has the pool's default; a lease that asks otherwise gets the
    // script added or removed before its first document.
    slot->setPolyfills(waiter.options.polyfills.value_or(m_polyfills));
    auto lease = std::unique_ptr<BrowserLease>(new BrowserLease(this, slot, waiter.label));
    lease->m_options = waiter.options;
    m_leases.append(lease.get());
    ++m_served;
    Q_EMIT leaseStarted(lease.get());
    waiter.granted(std::move(lease));
}

BrowserPool::~BrowserPool()
{
    shutdown();
}

PageSlot *BrowserPool::newSlot()
{
    auto *slot = new PageSlot(*m_agent, m_egress, m_resolver, m_polyfills);
    if (!m_userAgent.isEmpty())
        slot->profile()->setHttpUserAgent(m_userAgent);
    connect(slot, &PageSlot::rendererCrashed, this, [this] {
        ++m_crashes;
        qCWarning(lcPool) << "a renderer crashed; its page will be replaced";
    });
    return slot;
}

int BrowserPool::visitorPages() const
{
    return shareOf(m_options.visitorSharePercent, m_options.size);
}

int BrowserPool::sitePages() const
{
    return shareOf(m_options.siteSharePercent, m_options.size);
}

BrowserPool::Held BrowserPool::visitorWork(const QString &site) const
{
    Held held;
    const auto counts = [&site](const LeaseOptions &o) {
        return o.isVisitor() && (site.isEmpty() || o.site == site);
    };
    for (const BrowserLease *lease : m_leases)
        held.busy += counts(lease->m_options) ? 1 : 0;
    for (const Waiter &waiter : m_waiting)
        held.queued += counts(waiter.options) ? 1 : 0;
    return held;
}

bool BrowserPool::withinShares(const LeaseOptions &options) const
{
    if (!options.isVisitor())
        return true;
    if (visitorWork().busy >= visitorPages())
        return false;
    return options.site.isEmpty() || visitorWork(options.site).busy < sitePages();
}

std::deque<BrowserPool::Waiter>::iterator BrowserPool::nextServable()
{
    // Keyed work first, in the order it came; visitor work only when no keyed request
    // waits, and only within its shares.
    auto visitor = m_waiting.end();
    for (auto it = m_waiting.begin(); it != m_waiting.end(); ++it) {
        if (!it->options.isVisitor())
            return it;
        if (visitor == m_waiting.end() && withinShares(it->options))
            visitor = it;
    }
    return visitor;
}

bool BrowserPool::hasRoomFor(int pages, const LeaseOptions &options) const
{
    const int busy = int(m_leases.size());
    const int queued = int(m_waiting.size());
    const int freePages = qMax(0, m_options.size - busy);
    if (pages > freePages + (m_options.queueLimit - queued))
        return false;
    if (!options.isVisitor())
        return true;
    // Visitor work has at most its shares of the queue's places waiting: all of it
    // together, and its site's; the rest of the queue is keyed work's.
    if (visitorWork().queued + pages > shareOf(m_options.visitorSharePercent, m_options.queueLimit))
        return false;
    return options.site.isEmpty() || visitorWork(options.site).queued + pages <=
                                         shareOf(m_options.siteSharePercent, m_options.queueLimit);
}

int BrowserPool::retryAfterSeconds() const
{
    const double waves = double(m_waiting.size() + 1) / qMax(1, m_options.size);
    return qBound(1, int(std::ceil(waves * m_avgLeaseMs / 1000.0)), 60);
}

bool BrowserPool::acquire(const QString &label, const EgressGrant &grant, QObject *context,
                          Granted granted)
{
    return acquire(label, grant, LeaseOptions(), context, std::move(granted));
}

bool BrowserPool::acquire(const QString &label, const EgressGrant &grant,
                          const LeaseOptions &options, QObject *context, Granted granted)
{
    if (m_shutDown)
        return false;
    // Requesters that went away wait no longer, so they take no one's place.
    m_waiting.erase(std::remove_if(m_waiting.begin(), m_waiting.end(),
                                   [](const Waiter &w) { return w.hasContext && !w.context; }),
                    m_waiting.end());
    if (!hasRoomFor(1, options))
        return false;
    m_waiting.push_back({label, std::make_shared<const EgressGrant>(grant),
                         QPointer<QObject>(context), context != nullptr, std::move(granted),
                         options});
    scheduleDispatch();
    Q_EMIT statsChanged();
    return true;
}

void BrowserPool::scheduleDispatch()
{
    if (m_dispatchScheduled)
        return;
    m_dispatchScheduled = true;
    QTimer::singleShot(0, this, &BrowserPool::dispatch);
}

void BrowserPool::dispatch()
{
    m_dispatchScheduled = false;
    bool changed = false;
    while (!m_shutDown && !m_waiting.empty() && m_leases.size() < m_options.size) {
        const auto next = nextServable();
        if (next == m_waiting.end())
            break; // only visitor work over its shares waits: it waits on
        Waiter waiter = std::move(*next);
        m_waiting.erase(next);
        changed = true;
        if (waiter.hasContext && !waiter.context)
            continue; // the requester went away while waiting
        if (engineOf(waiter) == QLatin1String("chromium")) {
            grantChromium(std::move(waiter));
            continue;
        }
        grantQtWebEngine(std::move(waiter));
    }
    if (changed)
        Q_EMIT statsChanged();
    QTimer::singleShot(0, this, &BrowserPool::replenish);
}

void BrowserPool::release(BrowserLease *lease)
{
    m_leases.removeOne(lease);
    m_avgLeaseMs = 0.8 * m_avgLeaseMs + 0.2 * double(lease->heldMs());
    // Never reused: the next lease gets a fresh isolation scope.
    if (PageEngine *page = lease->takePage())
        retire(page);
    Q_EMIT leaseEnded(lease->id());
    Q_EMIT statsChanged();
    scheduleDispatch();
}

void BrowserPool::replenish()
{
    if (m_shutDown)
        return;
    // Standby pages are prepared only while the pool has spare capacity, so preparing
    // them never competes with a queue of waiting requests.
    const int spare = m_options.size - int(m_leases.size());
    const int target = qMin(m_options.standby, qMax(0, spare));
    if (m_options.engine == QLatin1String("chromium")) {
        // The configured engine's pages are the ones prepared ahead.
        while (!m_standby.isEmpty())
            retire(m_standby.takeLast());
        if (m_cdpStandby.size() < target && !hasServableWaiter() &&
            engineProblem(m_options.engine).isEmpty()) {
            m_cdpStandby.append(newCdpPage());
            Q_EMIT statsChanged();
            if (m_cdpStandby.size() < target)
                QTimer::singleShot(0, this, &BrowserPool::replenish);
        }
        while (m_cdpStandby.size() > m_options.standby)
            retire(m_cdpStandby.takeLast());
        return;
    }
    while (!m_cdpStandby.isEmpty())
        retire(m_cdpStandby.takeLast());
    if (m_standby.size() < target && !hasServableWaiter()) {
        PageSlot *slot = newSlot();
        slot->warm();
        m_standby.append(slot);
        Q_EMIT statsChanged();
        if (m_standby.size() < target)
            QTimer::singleShot(0, this, &BrowserPool::replenish);
    }
    while (m_standby.size() > m_options.standby)
        retire(m_standby.takeLast());
}

void BrowserPool::retire(QObject *page)
{
    page->disconnect(this);
    m_retired.append(page);
    if (m_retired.size() == 1)
        QTimer::singleShot(0, this, &BrowserPool::deleteRetired);
}

void BrowserPool::deleteRetired()
{
    const QList<QObject *> retired = std::exchange(m_retired, {});
    qDeleteAll(retired);
}

void BrowserPool::setPageDefaults(bool polyfills, const QString &userAgent)
{
    if (polyfills == m_polyfills && userAgent == m_userAgent)
        return;
    m_polyfills = polyfills;
    m_userAgent = userAgent;
    // Standby pages prepared with another default or user agent are prepared anew.
    while (!m_standby.isEmpty())
        retire(m_standby.takeLast());
    while (!m_cdpStandby.isEmpty())
        retire(m_cdpStandby.takeLast());
    QTimer::singleShot(0, this, &BrowserPool::replenish);
    Q_EMIT statsChanged();
}

void BrowserPool::setOptions(const Options &options)
{
    if (m_chromium && options.chromiumPath != m_options.chromiumPath && m_leases.isEmpty()) {
        // Another chromium: the next lease starts it.
        for (CdpPage *page : std::exchange(m_cdpStandby, {}))
            delete page;
        deleteRetired();
        m_chromium.reset();
    }
    m_options = options;
    QTimer::singleShot(0, this, &BrowserPool::replenish);
    scheduleDispatch();
    Q_EMIT statsChanged();
}

int BrowserPool::servableCount() const
{
    return int(std::count_if(m_waiting.cbegin(), m_waiting.cend(),
                             [this](const Waiter &w) { return withinShares(w.options); }));
}

bool BrowserPool::hasServableWaiter() const
{
    return std::any_of(m_waiting.cbegin(), m_waiting.cend(),
                       [this](const Waiter &w) { return withinShares(w.options); });
}

BrowserPool::Stats BrowserPool::stats() const
{
    Stats s;
    s.size = m_options.size;
    s.busy = int(m_leases.size());
    s.queued = int(m_waiting.size());
    s.servable = servableCount();
    s.visitorBusy = visitorWork().busy;
    s.standby = int(m_standby.size());
    for (const CdpPage *page : m_cdpStandby)
        s.standby += page->isReady() ? 1 : 0;
    s.leasesServed = m_served;
    s.crashes = m_crashes;
    s.chromiumStarts = m_chromium ? m_chromium->starts() : 0;
    return s;
}

void BrowserPool::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    m_waiting.clear();
    qDeleteAll(m_standby);
    m_standby.clear();
    qDeleteAll(m_cdpStandby);
    m_cdpStandby.clear();
    deleteRetired();
    // Leases still held by callers keep their slots; they delete them on release.
    for (BrowserLease *lease : std::as_const(m_leases))
        delete lease->takePage();
    if (m_chromium)
        m_chromium->stop();
}

} // namespace ph
