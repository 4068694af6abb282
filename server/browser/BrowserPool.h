#pragma once

#include "browser/LeaseOptions.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <deque>
#include <functional>
#include <memory>

namespace ph {

class BrowserLease;
class CdpPage;
class ChromiumEngine;
class EgressProxy;
class HostResolver;
class NetworkPolicy;
class PageAgent;
class PageSlot;
struct EgressGrant;
struct LeaseOptions;

// The cloud browser: QtWebEngine pages leased to API calls and returned.
//
// Isolation: every lease gets a page in a fresh off-the-record profile, and the page
// is discarded when the lease ends, so no cookie, storage or cache state crosses API
// calls. Fresh profiles are cheap; a fresh page's renderer is what costs, so the pool
// keeps `standby` isolated pages prepared ahead of need (renderer started) and
// replenishes them after each lease.
//
// Network: each lease acts with its caller's EgressGrant (NetworkPolicy). The slot's own
// request interceptor refuses other schemes and literal private hosts; the egress proxy
// judges names by their resolved addresses and connects to the address it checked.
//
// Engines: QtWebEngine in this process, or `chromium` (Debian's current Chromium, one
// headless process driven over the DevTools protocol, a browser context per lease); the
// configured one (`engine`) unless a call asks for the other (LeaseOptions). Leases look
// the same on both. docs/engines.md says when to pick which.
//
// Capacity: at most `size` pages leased at once (both engines together); up to `queueLimit`
// requests wait behind them; beyond that acquire() refuses (the HTTP layer answers 429).
// Nothing here blocks the event loop: grants arrive through the callback.
//
// Shares (LeaseOptions::Work; docs/security.md, "Fair shares of the browser pool"):
// visitor work together holds at most visitorPages() pages and one site's at most
// sitePages(); beyond, its requests wait. Of the queue, visitor work takes at most the
// same share of `queueLimit` (and one site its share), so it cannot fill the queue
// either. When a page frees, the first waiting keyed request gets it; only when none
// waits does the first visitor request within its shares.
class BrowserPool : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        int size = 4;
        int queueLimit = 64;
        int visitorSharePercent = 50; // of size (and of queueLimit) for all visitor work
        int siteSharePercent = 25;    // of size (and of queueLimit) for one site's
        int standby = 1;
        QString engine = QStringLiteral("qtwebengine");
        QString chromiumPath; // empty: `chromium` on PATH
    };
    struct Stats
    {
        int size = 0;
        int busy = 0;
        int queued = 0;
        // Of the queued: those a freed page would serve now (keyed ones, and visitor ones
        // within their shares).
        int servable = 0;
        int visitorBusy = 0; // pages leased to visitor work
        int standby = 0;
        qint64 leasesServed = 0;
        qint64 crashes = 0;
        int chromiumStarts = 0; // how often the chromium process was started
    };
    using Granted = std::function<void(std::unique_ptr<BrowserLease>)>;

    // The pool's pages resolve names and leave through the policy's egress.
    BrowserPool(const Options &options, const NetworkPolicy &policy, QObject *parent = nullptr);
    ~BrowserPool() override;

    // Asks for one page that acts with `grant`. `granted` runs from the event loop once
    // a page is free, unless `context` was destroyed first. Returns false, queueing
    // nothing, when the wait queue is full.
    bool acquire(const QString &label, const EgressGrant &grant, QObject *context, Granted granted);
    // The same, with what the caller asks of the page (`browser` in a request): the
    // engine (the configured one when it names none), the polyfills on or off.
    bool acquire(const QString &label, const EgressGrant &grant, const LeaseOptions &options,
                 QObject *context, Granted granted);

    // Why `engine` cannot serve now (not installed, not an engine); empty when it can.
    QString engineProblem(const QString &engine) const;
    // Throws DomainError 503 ENGINE_UNAVAILABLE naming `browser.engine` when the engine a
    // request asks for (`options.engine`, when it names one) cannot serve.
    void requireEngine(const LeaseOptions &options) const;
    // The chromium engine's process, once started (tests, diagnostics).
    ChromiumEngine *chromium() const { return m_chromium.get(); }
    // Whether `pages` more requests of this kind of work (`options.work`, `options.site`)
    // would fit (leased or queued) right now.
    bool hasRoomFor(int pages, const LeaseOptions &options = LeaseOptions()) const;
    // The most pages visitor work may hold at once, and one site's visitor work: the
    // shares of `size`, rounded down, at least one page.
    int visitorPages() const;
    int sitePages() const;
    // A Retry-After estimate from the recent lease durations and the queue.
    int retryAfterSeconds() const;

    void setOptions(const Options &options);
    // What a page gets when its request does not say: the polyfills (`browser.polyfills`;
    // standby pages are prepared this way), and the user agent (`browser.userAgent`;
    // empty: the engine's own, naming Pilothouse; docs/decisions.md, "The user agent").
    // Standby pages prepared otherwise are prepared anew.
    void setPageDefaults(bool polyfills, const QString &userAgent);
    Options options() const { return m_options; }
    Stats stats() const;
    QList<BrowserLease *> leases() const { return m_leases; }

    // Fails the waiting requests (their callbacks are dropped) and destroys every page.
    void shutdown();

Q_SIGNALS:
    void statsChanged();
    void leaseStarted(ph::BrowserLease *lease);
    void leaseEnded(const QString &leaseId);

private:
    friend class BrowserLease;
    struct Waiter
    {
        QString label;
        std::shared_ptr<const EgressGrant> grant;
        QPointer<QObject> context;
        bool hasContext = false;
        Granted granted;
        LeaseOptions options;
    };

    void release(BrowserLease *lease);
    // Slots are deleted from the event loop, never inside a caller's stack, and any
    // still waiting at shutdown are deleted then: QtWebEngine must not outlive a page.
    void retire(QObject *page);
    void deleteRetired();
    void scheduleDispatch();
    void dispatch();
    void replenish();
    PageSlot *newSlot();
    CdpPage *newCdpPage();
    ChromiumEngine *chromiumEngine();
    void grantQtWebEngine(Waiter waiter);
    void grantChromium(Waiter waiter);
    QString engineOf(const Waiter &waiter) const;

    BrowserLease *leaseOfEgressUser(const QString &user) const;
    // Pages held and requests queued by visitor work (`site` empty: all of it).
    struct Held
    {
        int busy = 0;
        int queued = 0;
    };
    Held visitorWork(const QString &site = QString()) const;
    bool withinShares(const LeaseOptions &options) const;
    // The waiter a freed page goes to (keyed first, then visitor work within its
    // shares); end() when none.
    std::deque<Waiter>::iterator nextServable();
    int servableCount() const;
    bool hasServableWaiter() const;

    Options m_options;
    std::shared_ptr<EgressProxy> m_egress;
    std::shared_ptr<const HostResolver> m_resolver;
    std::unique_ptr<PageAgent> m_agent;
    std::deque<Waiter> m_waiting;
    QList<PageSlot *> m_standby;
    QList<CdpPage *> m_cdpStandby;
    QList<BrowserLease *> m_leases;
    QList<QObject *> m_retired;
    std::unique_ptr<ChromiumEngine> m_chromium;
    bool m_polyfills = true;
    QString m_userAgent;
    bool m_dispatchScheduled = false;
    bool m_shutDown = false;
    qint64 m_served = 0;
    qint64 m_crashes = 0;
    double m_avgLeaseMs = 1000;
};

} // namespace ph
