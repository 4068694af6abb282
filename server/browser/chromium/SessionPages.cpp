#include "browser/chromium/SessionPages.h"

#include "browser/BrowserLease.h"
#include "browser/PageAgent.h"
#include "browser/chromium/CdpPage.h"
#include "browser/chromium/ChromiumEngine.h"

#include "net/EgressProxy.h"

#include <QTimer>
#include <QUrl>

namespace ph {

SessionPages::SessionPages(ChromiumEngine &engine, EgressGrant grant,
                           std::shared_ptr<EgressProxy> egress,
                           std::shared_ptr<const HostResolver> resolver, const Options &options,
                           QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_grant(std::move(grant))
    , m_egress(std::move(egress))
    , m_resolver(std::move(resolver))
    , m_options(options)
    , m_agentSource(PageAgent().script().sourceCode())
{
    m_options.limit = qMax(1, m_options.limit);
    // Refusals by the proxy (names by their resolved addresses) reach the page they were
    // for, as the pool's do.
    connect(m_egress.get(), &EgressProxy::refused, this,
            [this](const QString &user, const QString &target, const QString &reason,
                   bool unresolved) { noteProxyRefusal(user, target, reason, unresolved, false); });
    connect(m_egress.get(), &EgressProxy::proxyFailed, this,
            [this](const QString &user, const QString &target, const QString &reason) {
                noteProxyRefusal(user, target, reason, false, true);
            });
}

SessionPages::~SessionPages()
{
    close(QStringLiteral("the browser session ended"));
}

QString SessionPages::busyError(int limit)
{
    return QStringLiteral("the browser session's pages are all in use (%1 at once, and as many "
                          "waiting as it queues); retry later")
        .arg(limit);
}

void SessionPages::open(const QString &label, QObject *context, Granted granted)
{
    Waiter w{label, QPointer<QObject>(context), context != nullptr, std::move(granted)};
    // Past the pages it may hold and the requests it queues behind them: refused.
    if (m_closed ||
        m_busy + int(m_waiting.size()) >= m_options.limit + qMax(0, m_options.queueLimit)) {
        const QString error = m_closed ? m_closeReason : busyError(m_options.limit);
        QTimer::singleShot(0, this, [w, error] {
            if (!w.hasContext || w.context)
                w.granted(nullptr, error);
        });
        return;
    }
    m_waiting.push_back(std::move(w));
    QTimer::singleShot(0, this, &SessionPages::dispatch);
}

void SessionPages::dispatch()
{
    while (!m_closed && !m_waiting.empty() && m_busy < m_options.limit) {
        Waiter w = std::move(m_waiting.front());
        m_waiting.pop_front();
        if (w.hasContext && !w.context)
            continue;
        grant(std::move(w));
    }
    fill();
}

CdpPage *SessionPages::newPage()
{
    auto *page = new CdpPage(m_engine, m_agentSource, m_egress, m_resolver);
    page->setUserAgent(m_options.userAgent);
    page->setPlacement({true, m_options.width, m_options.height});
    page->setGrant(m_grant);
    connect(&m_engine, &ChromiumEngine::lost, page, &CdpPage::loseEngine);
    page->prepare();
    return page;
}

CdpPage *SessionPages::takeWarm()
{
    while (!m_warm.isEmpty()) {
        CdpPage *page = m_warm.takeFirst();
        if (!page->crashed() && page->failure().isEmpty())
            return page;
        page->deleteLater();
    }
    return nullptr;
}

void SessionPages::grant(Waiter waiter)
{
    CdpPage *page = takeWarm();
    if (!page)
        page = newPage();
    ++m_busy;
    m_leased.append(page);
    QPointer<SessionPages> self(this);
    auto lease = BrowserLease::adopt(page, waiter.label, LeaseOptions(), [self](PageEngine *p) {
        if (self)
            self->released(p);
        else if (p)
            p->deleteLater();
    });
    // Handed over once ready; a page that could not be made is handed over too, and its
    // loads fail with the reason (as the pool's chromium leases).
    auto held = std::make_shared<std::unique_ptr<BrowserLease>>(std::move(lease));
    page->whenReady(page, [held, waiter](const QString &) {
        if (waiter.hasContext && !waiter.context) {
            held->reset(); // the requester went away: the page comes back at once
            return;
        }
        waiter.granted(std::move(*held), QString());
    });
}

void SessionPages::released(PageEngine *engine)
{
    --m_busy;
    auto *page = qobject_cast<CdpPage *>(engine);
    m_leased.removeAll(QPointer<CdpPage>(page));
    m_leased.removeAll(QPointer<CdpPage>());
    if (page) {
        // A session keeps its pages warm: a healthy page stays open for the next lease
        // (its tab shows what it last showed; the session's context is shared anyway).
        // The page given back goes first; one prepared ahead and never used goes instead.
        // Only an idle one: a caller's callback still to come must not reach the next.
        if (!m_closed && !page->crashed() && page->failure().isEmpty() && page->isIdle() &&
            m_options.warm > 0) {
            m_warm.prepend(page);
            while (int(m_warm.size()) > m_options.warm)
                m_warm.takeLast()->deleteLater();
        } else {
            page->deleteLater();
        }
    }
    QTimer::singleShot(0, this, &SessionPages::dispatch);
}

void SessionPages::fill()
{
    // Once, at the session's first lease: a page ahead for a second request at the same
    // time. Later the pages given back are the warm ones (a page made ahead each time
    // would be thrown away when the lease's own comes back). A session only driven over
    // CDP never gets one: its clients see no tab of Pilothouse's.
    if (m_closed || m_preparedAhead || m_busy == 0)
        return;
    m_preparedAhead = true;
    if (m_waiting.empty() && int(m_warm.size()) < m_options.warm &&
        m_busy + int(m_warm.size()) < m_options.limit)
        m_warm.append(newPage());
}

void SessionPages::close(const QString &reason)
{
    if (m_closed)
        return;
    m_closed = true;
    m_closeReason = reason;
    const std::deque<Waiter> waiting = std::exchange(m_waiting, {});
    for (const Waiter &w : waiting) {
        if (!w.hasContext || w.context)
            w.granted(nullptr, reason);
    }
    for (CdpPage *page : std::exchange(m_warm, {}))
        delete page;
}

void SessionPages::noteProxyRefusal(const QString &user, const QString &target,
                                    const QString &reason, bool unresolved, bool proxyFailure)
{
    for (const QPointer<CdpPage> &page : std::as_const(m_leased)) {
        if (!page || page->egressUser() != user)
            continue;
        const Refusal r = Refusal::fromProxy(target, reason, unresolved, proxyFailure);
        page->noteRefusal(r);
        return;
    }
}

} // namespace ph
