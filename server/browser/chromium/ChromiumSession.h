#pragma once

#include "browser/SessionBrowser.h"

#include "net/EgressProxy.h"
#include "net/NetworkPolicy.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace ph {

class CdpConnection;
class CdpRelay;
class ChromiumEngine;
class HostResolver;

// Internal to the browser area: the chromium implementation of a browser session's
// browser (SessionBrowser; docs/api/sessions.md, "The DevTools relay"). One Chromium
// process of its own on the session's user-data directory (ChromiumEngine with options),
// whose every connection goes through the egress proxy as the session's identity.
//
// Its own browser-level DevTools session auto-attaches every target the browser makes
// (pages, a client's new pages, out-of-process frames, workers, service workers; each
// paused until it is set up: waitForDebuggerOnStart), and on each enables Fetch for every
// request: it answers the egress proxy's authentication with the session's identity and
// refuses what the pool's pages refuse (schemes, private addresses by the grant, the
// navigation origin), then lets the target run. Clients (CdpRelay, through CdpFilter)
// have sessions of their own beside it and never see it: a client that turns its own
// Fetch off leaves the session's on.
class ChromiumSession : public SessionBrowser
{
    Q_OBJECT
public:
    ChromiumSession(const QString &executable, const SessionBrowserSpec &spec,
                    const NetworkPolicy &policy, QObject *parent = nullptr);
    ~ChromiumSession() override;

    void start(std::function<void(const QString &error)> ready) override;
    bool isRunning() const override { return m_running; }
    void attachClient(std::unique_ptr<QWebSocket> socket) override;
    int clientCount() const override { return int(m_clients.size()); }
    QJsonObject version() const override { return m_version; }
    qint64 processId() const override;
    void openPage(
        const QString &label, QObject *context,
        std::function<void(std::unique_ptr<BrowserLease>, const QString &error)> granted) override;
    std::unique_ptr<LiveFrameSource> liveFrames(QObject *parent) override;
    void stop(std::function<void()> done) override;

    // The directory downloads go to, and the one files for file inputs must be in.
    QString downloadDir() const;
    QString uploadDir() const;
    // The session's identity at the egress proxy (tests: what it acted as).
    QString egressUser() const { return m_identity.user; }
    // Requests the session's own checks refused so far (tests, diagnostics).
    int refusals() const { return m_refusals; }

private:
    void setUp(std::function<void(const QString &)> ready);
    void onBrowserEvent(const QString &method, const QJsonObject &params);
    // Takes a target its auto-attach gave it: checks on, then it runs.
    void adopt(const QString &sessionId, const QJsonObject &targetInfo, bool waiting);
    void onTargetEvent(const QString &sessionId, const QString &method, const QJsonObject &params);
    void onRequestPaused(const QString &sessionId, const QJsonObject &params);
    void onAuthRequired(const QString &sessionId, const QJsonObject &params);
    void stopForeignLanding(const QString &sessionId, const QJsonObject &frame);
    void refuse(const QString &sessionId, const QString &requestId, const QString &url,
                const QString &reason, const QString &errorReason);
    void onLost(const QString &reason);
    void closeClients();
    CdpConnection *connection() const;

    SessionBrowserSpec m_spec;
    std::shared_ptr<EgressProxy> m_egress;
    std::shared_ptr<const HostResolver> m_resolver;
    EgressProxy::Identity m_identity;
    ChromiumEngine *m_engine = nullptr;
    QTemporaryDir m_work; // downloads/ and uploads/
    bool m_running = false;
    bool m_stopping = false;
    QString m_contextId;
    QJsonObject m_version;
    struct Target
    {
        QString targetId;
        QString type;
        QString sessionId;
    };
    QHash<QString, Target> m_targets; // our own sessions, by session id
    QStringList m_pages;              // page target ids, the newest last
    QList<QPointer<CdpRelay>> m_clients;
    int m_refusals = 0;
};

} // namespace ph
