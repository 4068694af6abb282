#pragma once

#include "sessions/SessionRequest.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <optional>

class QTimer;

namespace ph {
class Clock;
class NetworkPolicy;
class SecretBox;
class SessionBrowser;
class Settings;
class Store;
struct Principal;
struct SessionBrowserSpec;
} // namespace ph

namespace ph::sessions {

class ProfileVault;
class SessionRepository;

// What the API and the console show of a browser session.
struct BrowserSessionInfo
{
    QString id, keyId, profile, status /*starting|active|released|expired|crashed|failed*/,
        endReason;
    QDateTime createdAt, expiresAt, lastActivityAt, endedAt;
    int width = 0, height = 0;
    QString userAgent;
    int clients = 0;
    qint64 pid = 0;
    int idleTimeoutSeconds = 0;
    // The session's CDP token, in clear: only in create()'s answer and in find()'s for
    // the session's own key while it runs (it lives in memory only; the store keeps its
    // SHA-256). Empty everywhere else.
    QString cdpToken;

    bool isLive() const
    {
        return status == QLatin1String("starting") || status == QLatin1String("active");
    }
};

// A key's named profile as GET /sessions/profiles lists it (and the console's panel).
struct ProfileInfo
{
    QString keyId;
    QString name;
    QDateTime createdAt, lastUsedAt;
    qint64 bytes = 0;
    bool inUse = false;
};

// Browser sessions (docs/api/sessions.md): a Chromium of its own per session, reached by
// its client through the CDP gateway with a session-bound token, on a named profile
// that is sealed at rest, ending by itself at its expiry or after its idle timeout.
// Typed; the REST controller and the console call it.
class SessionService : public QObject
{
    Q_OBJECT
public:
    using BrowserFactory =
        std::function<std::unique_ptr<SessionBrowser>(const SessionBrowserSpec &spec)>;
    // Why the chromium engine cannot run now; empty when it can.
    using EngineCheck = std::function<QString()>;

    SessionService(Store &store, Settings &settings, const NetworkPolicy &policy,
                   const QString &dataDir, BrowserFactory factory, EngineCheck engineCheck,
                   QObject *parent = nullptr);
    ~SessionService() override;

    // Ends what a previous process left (sessions: crashed "interrupted"; clear profile
    // directories: sealed back) and starts the expiry sweep.
    void start();

    // Throws DomainError: 400 (bad request), 403 (not an API key), 409 (profile in use),
    // 429 with Retry-After (sessions.perKey, sessions.max), 503 ENGINE_UNAVAILABLE.
    BrowserSessionInfo create(const Principal &caller, const CreateSessionRequest &req);
    // Calls `done` once the session started (active) or failed to; at once when it is
    // past starting. Never after `context` is gone.
    void whenStarted(const QString &id, QObject *context, std::function<void()> done);
    // The caller's own session (an owner sees every one); none for another key's.
    std::optional<BrowserSessionInfo> find(const Principal &caller, const QString &id) const;
    // The caller's sessions (an owner's: all), newest first; `liveOnly`: starting/active.
    QList<BrowserSessionInfo> list(const Principal &caller, bool liveOnly = true) const;
    // Ends a session as released. 404 for an unknown one or another key's (an owner may
    // release any); a session that ended already is answered as it is.
    BrowserSessionInfo release(const Principal &caller, const QString &id);
    // Every live session (the console).
    QList<BrowserSessionInfo> all() const;
    // The browser of `keyId`'s live session (browserSession on /scrape, /agent …).
    // 404 unknown or another key's; 409 not active.
    SessionBrowser *browserOf(const QString &keyId, const QString &sessionId) const;
    // The active session whose CDP token this is (the gateway); null for any other.
    SessionBrowser *browserForToken(const QString &token, QString *sessionId = nullptr) const;

    // The live view of a session (GET /sessions/{id}/live): a token that is an HMAC of
    // "<id>.<expiresAtSecs>" with a key of its own, valid until the session's expiresAt;
    // empty for a session that is not live.
    QString liveViewToken(const QString &id) const;
    // The browser a live view token opens: throws 403 LIVE_VIEW_TOKEN_INVALID or
    // LIVE_VIEW_TOKEN_EXPIRED (the run live view's answers); null when the session is
    // not (or no longer) active.
    SessionBrowser *liveViewBrowser(const QString &id, const QString &token) const;

    // The caller's own profiles (an owner's too: profiles are per key).
    QList<ProfileInfo> profiles(const Principal &caller) const;
    // Every key's profiles (the console).
    QList<ProfileInfo> allProfiles() const;
    // Deletes `keyId`'s profile `name`: a key only its own, the owner any. 404 unknown
    // (or another key's), 409 while a session has it open.
    void deleteProfile(const Principal &caller, const QString &keyId, const QString &name);

    // How sessions get their browser (tests and the console's tests give a fake).
    void setBrowserFactory(BrowserFactory factory) { m_factory = std::move(factory); }

    // Ends sessions past their expiry or idle timeout (a timer calls it every second;
    // tests call it after moving a ManualClock).
    void sweep();
    // Stops every session, seals their profiles; `done` when all have ended or after
    // `graceMs`.
    void shutdown(int graceMs, std::function<void()> done);
    int liveCount() const { return int(m_live.size()); }

Q_SIGNALS:
    void sessionStarted(const QString &id);
    void sessionChanged(const QString &id);
    void sessionEnded(const QString &id, const QString &status);
    // A profile was deleted (a session opening or sealing one says sessionChanged/Ended).
    void profilesChanged();

private:
    struct Live;
    void checkLimits(const QString &keyId) const;
    void launch(Live &live);
    void started(const QString &id, const QString &error);
    void end(const QString &id, const QString &status, const QString &reason);
    void finishEnd(const QString &id);
    void recoverProfiles();
    BrowserSessionInfo infoOf(const QString &id) const;
    Live *liveOf(const QString &id) const;
    bool profileOpen(const QString &keyId, const QString &name) const;
    int retryAfter(const QString &keyId) const;
    QByteArray liveViewSignature(const QString &id, qint64 expiresSecs) const;

    Store &m_store;
    Settings &m_settings;
    const NetworkPolicy &m_policy;
    const Clock &m_clock;
    std::unique_ptr<SessionRepository> m_repo;
    std::unique_ptr<ProfileVault> m_vault;
    BrowserFactory m_factory;
    EngineCheck m_engineCheck;
    std::map<QString, std::unique_ptr<Live>> m_live;
    QTimer *m_sweep = nullptr;
};

} // namespace ph::sessions
