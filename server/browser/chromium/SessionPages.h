#pragma once

#include "net/NetworkPolicy.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <deque>
#include <functional>
#include <memory>

namespace ph {

class BrowserLease;
class CdpPage;
class ChromiumEngine;
class EgressProxy;
class HostResolver;
class PageEngine;

// Internal to the browser area: Pilothouse's own pages inside one browser session
// (browserSession on /scrape, /agent, /execute and the bridge; docs/api/sessions.md,
// "Work inside a session"). Each is a tab of the session browser's default context, so
// it shares the session's cookies and storage (its signed-in state) and acts with the
// session's grant; never a context of its own.
//
// Capacity: at most `limit` pages leased at once; up to `queueLimit` requests wait behind
// them; beyond, open() refuses with busyError(). A session keeps its pages warm: a page
// given back healthy stays open, ready (target, session, page agent in place), for the
// next lease, up to `warm` of them; the first lease of a session prepares one ahead.
class SessionPages : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        int limit = 4;
        int queueLimit = 16;
        int warm = 1;
        int width = 1280;
        int height = 800;
        QString userAgent;
    };
    using Granted = std::function<void(std::unique_ptr<BrowserLease> lease, const QString &error)>;

    SessionPages(ChromiumEngine &engine, EgressGrant grant, std::shared_ptr<EgressProxy> egress,
                 std::shared_ptr<const HostResolver> resolver, const Options &options,
                 QObject *parent = nullptr);
    ~SessionPages() override;

    // A lease of a page of the session: `granted` runs once from the event loop, with the
    // lease, or with null and why (busyError(), the browser is gone). Never after `context`
    // is gone.
    void open(const QString &label, QObject *context, Granted granted);
    int busy() const { return m_busy; }
    int queued() const { return int(m_waiting.size()); }
    int warm() const { return int(m_warm.size()); }
    const Options &options() const { return m_options; }
    // What a request past the limit and the queue is told.
    static QString busyError(int limit);
    // The browser went away (stop, crash): waiting requests fail, warm pages go.
    void close(const QString &reason);

private:
    struct Waiter
    {
        QString label;
        QPointer<QObject> context;
        bool hasContext = false;
        Granted granted;
    };
    CdpPage *newPage();
    CdpPage *takeWarm();
    void grant(Waiter waiter);
    void released(PageEngine *page);
    void dispatch();
    void fill();
    void noteProxyRefusal(const QString &user, const QString &target, const QString &reason,
                          bool unresolved, bool proxyFailure);

    ChromiumEngine &m_engine;
    EgressGrant m_grant;
    std::shared_ptr<EgressProxy> m_egress;
    std::shared_ptr<const HostResolver> m_resolver;
    Options m_options;
    QString m_agentSource;
    std::deque<Waiter> m_waiting;
    QList<CdpPage *> m_warm;
    QList<QPointer<CdpPage>> m_leased;
    int m_busy = 0;
    bool m_closed = false;
    bool m_preparedAhead = false;
    QString m_closeReason;
};

} // namespace ph
