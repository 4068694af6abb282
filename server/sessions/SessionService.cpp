#include "SessionService.h"

#include "ProfileVault.h"
#include "SessionRepository.h"

#include "browser/SessionBrowser.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/Principal.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "net/NetworkPolicy.h"

#include <QLoggingCategory>
#include <QMessageAuthenticationCode>
#include <QPointer>
#include <QTimer>

#include <algorithm>

Q_LOGGING_CATEGORY(lcSessions, "pilothouse.sessions")

namespace ph::sessions {

namespace {

const QString kStarting = QStringLiteral("starting");
const QString kActive = QStringLiteral("active");
const QString kReleased = QStringLiteral("released");
const QString kExpired = QStringLiteral("expired");
const QString kCrashed = QStringLiteral("crashed");
const QString kFailed = QStringLiteral("failed");

QDateTime timeOf(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

BrowserSessionInfo infoFromRow(const SessionRow &row)
{
    BrowserSessionInfo i;
    i.id = row.id;
    i.keyId = row.keyId;
    i.profile = row.profile;
    i.status = row.status;
    i.endReason = row.endReason;
    i.createdAt = timeOf(row.createdAt);
    i.expiresAt = timeOf(row.expiresAt);
    i.lastActivityAt = timeOf(row.lastActivityAt);
    if (row.endedAt)
        i.endedAt = timeOf(*row.endedAt);
    i.width = row.width;
    i.height = row.height;
    i.userAgent = row.userAgent;
    i.idleTimeoutSeconds = row.idleTimeoutS;
    return i;
}

DomainError unknownSession(const QString &id)
{
    return DomainError::notFound(QStringLiteral("no browser session %1").arg(id.left(64)));
}

bool maySee(const Principal &caller, const QString &keyId)
{
    return caller.owner || (!caller.keyId.isEmpty() && caller.keyId == keyId);
}

} // namespace

struct SessionService::Live
{
    SessionRow row;
    QString token; // in memory only
    std::unique_ptr<SessionBrowser> browser;
    bool named = false; // a named profile is open in the vault
    bool ending = false;
    bool activityDirty = false;
    int clients = 0;
    qint64 pid = 0;
    QList<QPair<QPointer<QObject>, std::function<void()>>> waiting;

    bool running() const { return !ending && (row.status == kStarting || row.status == kActive); }
};

SessionService::SessionService(Store &store, Settings &settings, const NetworkPolicy &policy,
                               const QString &dataDir, BrowserFactory factory,
                               EngineCheck engineCheck, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_policy(policy)
    , m_clock(store.clock())
    , m_repo(std::make_unique<SessionRepository>(store))
    , m_vault(std::make_unique<ProfileVault>(dataDir, store.secrets()))
    , m_factory(std::move(factory))
    , m_engineCheck(std::move(engineCheck))
{}

SessionService::~SessionService()
{
    // The service goes without a shutdown (a test, a crash path): every browser ends
    // with its object and the open profiles are sealed back; the next start marks the
    // rows (start()).
    for (auto &[id, live] : m_live) {
        if (live->browser)
            live->browser->disconnect(this);
        live->browser.reset();
        if (live->named)
            m_vault->seal(live->row.keyId, live->row.profile, id);
    }
}

void SessionService::start()
{
    const QList<SessionRow> left = m_repo->endLeftovers(
        QStringLiteral("interrupted: the service stopped while the session ran"), m_clock.nowMs());
    if (!left.isEmpty())
        qCInfo(lcSessions) << left.size() << "browser sessions of the last run ended as crashed";
    recoverProfiles();
    if (!m_sweep) {
        m_sweep = new QTimer(this);
        m_sweep->setInterval(1000);
        connect(m_sweep, &QTimer::timeout, this, &SessionService::sweep);
        m_sweep->start();
    }
}

// A clear profile directory a crashed process left is sealed back (it holds the last
// state the session's browser wrote, as a browser's own crash recovery would find it);
// one whose session or profile is unknown is discarded.
void SessionService::recoverProfiles()
{
    for (const QString &sessionId : m_vault->leftovers()) {
        const std::optional<SessionRow> row = m_repo->find(sessionId);
        if (!row || row->profile.isEmpty() || !m_repo->profile(row->keyId, row->profile)) {
            m_vault->discard(sessionId);
            continue;
        }
        const qint64 bytes = m_vault->seal(row->keyId, row->profile, sessionId);
        if (bytes >= 0)
            m_repo->setProfileBytes(row->keyId, row->profile, bytes);
    }
}

SessionService::Live *SessionService::liveOf(const QString &id) const
{
    const auto it = m_live.find(id);
    return it == m_live.end() ? nullptr : it->second.get();
}

bool SessionService::profileOpen(const QString &keyId, const QString &name) const
{
    return std::any_of(m_live.cbegin(), m_live.cend(), [&](const auto &entry) {
        const Live &l = *entry.second;
        return l.named && l.row.keyId == keyId && l.row.profile == name;
    });
}

int SessionService::retryAfter(const QString &keyId) const
{
    const qint64 now = m_clock.nowMs();
    qint64 soonest = -1;
    for (const auto &[id, live] : m_live) {
        if (!live->running() || (!keyId.isEmpty() && live->row.keyId != keyId))
            continue;
        qint64 end = live->row.expiresAt;
        if (live->clients == 0)
            end = qMin(end, live->row.lastActivityAt + qint64(live->row.idleTimeoutS) * 1000);
        if (soonest < 0 || end < soonest)
            soonest = end;
    }
    return int(qMax<qint64>(1, (soonest - now + 999) / 1000));
}

void SessionService::checkLimits(const QString &keyId) const
{
    const int perKey = m_settings.intValue(SettingKeys::sessionsPerKey);
    const int max = m_settings.intValue(SettingKeys::sessionsMax);
    int ofKey = 0;
    int total = 0;
    for (const auto &[id, live] : m_live) {
        if (!live->running())
            continue;
        ++total;
        if (live->row.keyId == keyId)
            ++ofKey;
    }
    auto limited = [](const QString &message, const QString &scope, int limit,
                      const QString &setting, int retry) {
        return DomainError(DomainError::Kind::TooManyRequests, QStringLiteral("SESSION_LIMIT"),
                           message, QString(),
                           QJsonObject{{QStringLiteral("scope"), scope},
                                       {QStringLiteral("limit"), limit},
                                       {QStringLiteral("setting"), setting}})
            .withRetryAfter(retry);
    };
    if (ofKey >= perKey)
        throw limited(QStringLiteral("this API key has %1 browser sessions running, its limit "
                                     "(sessions.perKey); release one or wait for one to end")
                          .arg(ofKey),
                      QStringLiteral("key"), perKey, SettingKeys::sessionsPerKey,
                      retryAfter(keyId));
    if (total >= max)
        throw limited(QStringLiteral("the service runs %1 browser sessions, its limit "
                                     "(sessions.max); try again when one ends")
                          .arg(total),
                      QStringLiteral("service"), max, SettingKeys::sessionsMax,
                      retryAfter(QString()));
}

BrowserSessionInfo SessionService::create(const Principal &caller, const CreateSessionRequest &req)
{
    if (caller.kind != Principal::Kind::ApiKey || caller.keyId.isEmpty())
        throw DomainError::forbidden(
            QStringLiteral("browser sessions belong to an API key; use the owner key or a key "
                           "minted with POST /keys"));
    if (const QString problem = m_engineCheck ? m_engineCheck() : QString(); !problem.isEmpty())
        throw DomainError(DomainError::Kind::Unavailable, QStringLiteral("ENGINE_UNAVAILABLE"),
                          QStringLiteral("engine: %1").arg(problem), QStringLiteral("engine"));
    checkLimits(caller.keyId);
    if (!req.profile.isEmpty() && profileOpen(caller.keyId, req.profile))
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("PROFILE_IN_USE"),
                          QStringLiteral("the profile '%1' is open in another session of this "
                                         "key; release that session first")
                              .arg(req.profile),
                          QStringLiteral("profile"));

    auto live = std::make_unique<Live>();
    const qint64 now = m_clock.nowMs();
    SessionRow &row = live->row;
    row.id = Ids::make(QStringLiteral("bs"), 22);
    row.keyId = caller.keyId;
    row.profile = req.profile;
    row.status = kStarting;
    row.width = req.width;
    row.height = req.height;
    row.userAgent = req.userAgent;
    row.createdAt = row.lastActivityAt = now;
    row.expiresAt = now + qint64(req.timeoutSeconds) * 1000;
    row.idleTimeoutS = req.idleTimeoutSeconds;
    live->token = Ids::make(QStringLiteral("cdp"), 40);
    row.tokenHash = Ids::sha256Hex(live->token.toUtf8());

    SessionBrowserSpec spec;
    spec.label = row.id;
    spec.width = req.width;
    spec.height = req.height;
    spec.userAgent = req.userAgent;
    spec.grant = m_policy.grantFor(caller.keyId);
    spec.grant.upstream = req.proxy;
    if (!req.profile.isEmpty()) {
        QString error;
        spec.userDataDir = m_vault->open(caller.keyId, req.profile, row.id, &error);
        if (spec.userDataDir.isEmpty())
            throw DomainError(DomainError::Kind::Conflict, QStringLiteral("PROFILE_UNAVAILABLE"),
                              error, QStringLiteral("profile"));
        live->named = true;
        m_repo->useProfile(caller.keyId, req.profile, now);
    }
    m_repo->insert(row);
    const QString id = row.id;
    const QString token = live->token;
    live->browser = m_factory ? m_factory(spec) : nullptr;
    m_live.emplace(id, std::move(live));
    launch(*liveOf(id));
    Q_EMIT sessionStarted(id);
    BrowserSessionInfo info = infoOf(id);
    info.cdpToken = token;
    return info;
}

void SessionService::launch(Live &live)
{
    const QString id = live.row.id;
    if (!live.browser) {
        QTimer::singleShot(0, this, [this, id] {
            started(id, QStringLiteral("no browser could be made for the session"));
        });
        return;
    }
    SessionBrowser *browser = live.browser.get();
    connect(browser, &SessionBrowser::activity, this, [this, id] {
        if (Live *l = liveOf(id)) {
            l->row.lastActivityAt = m_clock.nowMs();
            l->activityDirty = true;
        }
    });
    connect(browser, &SessionBrowser::clientsChanged, this, [this, id](int count) {
        if (Live *l = liveOf(id); l && !l->ending) {
            l->clients = count;
            l->row.lastActivityAt = m_clock.nowMs();
            l->activityDirty = true;
            Q_EMIT sessionChanged(id);
        }
    });
    connect(browser, &SessionBrowser::ended, this, [this, id](const QString &reason) {
        end(id, kCrashed, QStringLiteral("the session's browser ended: %1").arg(reason));
    });
    browser->start([this, id](const QString &error) { started(id, error); });
}

void SessionService::started(const QString &id, const QString &error)
{
    Live *live = liveOf(id);
    if (!live || live->ending)
        return;
    if (!error.isEmpty()) {
        qCWarning(lcSessions) << "browser session" << id << "did not start:" << error;
        end(id, kFailed, QStringLiteral("the browser did not start: %1").arg(error));
        return;
    }
    live->row.status = kActive;
    live->pid = live->browser->processId();
    m_repo->setStatus(id, kActive, QString(), std::nullopt);
    Q_EMIT sessionChanged(id);
    for (auto &[context, done] : std::exchange(live->waiting, {})) {
        if (context)
            done();
    }
}

void SessionService::whenStarted(const QString &id, QObject *context, std::function<void()> done)
{
    Live *live = liveOf(id);
    if (!live || live->ending || live->row.status != kStarting) {
        done();
        return;
    }
    live->waiting.append({QPointer<QObject>(context), std::move(done)});
}

void SessionService::end(const QString &id, const QString &status, const QString &reason)
{
    Live *live = liveOf(id);
    if (!live || live->ending)
        return;
    live->ending = true;
    live->row.status = status;
    live->row.endReason = reason;
    live->row.endedAt = m_clock.nowMs();
    m_repo->setStatus(id, status, reason, live->row.endedAt);
    if (live->activityDirty)
        m_repo->setLastActivity(id, live->row.lastActivityAt);
    qCInfo(lcSessions) << "browser session" << id << status << reason;
    for (auto &[context, done] : std::exchange(live->waiting, {})) {
        if (context)
            done();
    }
    Q_EMIT sessionChanged(id);
    if (!live->browser) {
        QTimer::singleShot(0, this, [this, id] { finishEnd(id); });
        return;
    }
    live->browser->disconnect(this);
    QPointer<SessionService> self(this);
    live->browser->stop([self, id] {
        if (self)
            self->finishEnd(id);
    });
}

void SessionService::finishEnd(const QString &id)
{
    const auto it = m_live.find(id);
    if (it == m_live.end())
        return;
    std::unique_ptr<Live> live = std::move(it->second);
    m_live.erase(it);
    if (live->named) {
        const qint64 bytes = m_vault->seal(live->row.keyId, live->row.profile, id);
        if (bytes >= 0)
            m_repo->setProfileBytes(live->row.keyId, live->row.profile, bytes);
    }
    // Called from the browser's own callback: it goes once that returned.
    if (live->browser)
        live->browser.release()->deleteLater();
    Q_EMIT sessionEnded(id, live->row.status);
}

BrowserSessionInfo SessionService::infoOf(const QString &id) const
{
    if (const Live *live = liveOf(id)) {
        BrowserSessionInfo info = infoFromRow(live->row);
        info.clients = live->clients;
        info.pid = live->pid;
        return info;
    }
    const std::optional<SessionRow> row = m_repo->find(id);
    return row ? infoFromRow(*row) : BrowserSessionInfo();
}

std::optional<BrowserSessionInfo> SessionService::find(const Principal &caller,
                                                       const QString &id) const
{
    const Live *live = liveOf(id);
    const std::optional<SessionRow> row = live ? live->row : m_repo->find(id);
    if (!row || !maySee(caller, row->keyId))
        return std::nullopt;
    BrowserSessionInfo info = infoOf(id);
    if (live && live->running() && caller.keyId == row->keyId)
        info.cdpToken = live->token;
    return info;
}

QList<BrowserSessionInfo> SessionService::list(const Principal &caller, bool liveOnly) const
{
    if (caller.keyId.isEmpty() && !caller.owner)
        return {};
    QList<BrowserSessionInfo> out;
    for (const SessionRow &row : m_repo->list(caller.owner ? QString() : caller.keyId, liveOnly)) {
        const BrowserSessionInfo info = infoOf(row.id);
        if (!liveOnly || info.isLive())
            out.append(info);
    }
    return out;
}

QList<BrowserSessionInfo> SessionService::all() const
{
    QList<BrowserSessionInfo> out;
    for (const auto &[id, live] : m_live)
        out.append(infoOf(id));
    return out;
}

BrowserSessionInfo SessionService::release(const Principal &caller, const QString &id)
{
    const Live *live = liveOf(id);
    const std::optional<SessionRow> row = live ? live->row : m_repo->find(id);
    if (!row || !maySee(caller, row->keyId))
        throw unknownSession(id);
    if (live && !live->ending)
        end(id, kReleased,
            caller.keyId == row->keyId ? QStringLiteral("released by its key")
                                       : QStringLiteral("released by the owner"));
    return infoOf(id);
}

SessionBrowser *SessionService::browserOf(const QString &keyId, const QString &sessionId) const
{
    const Live *live = liveOf(sessionId);
    const std::optional<SessionRow> row = live ? live->row : m_repo->find(sessionId);
    if (!row || keyId.isEmpty() || row->keyId != keyId)
        throw unknownSession(sessionId);
    if (!live || live->ending || live->row.status != kActive)
        throw DomainError(
            DomainError::Kind::Conflict, QStringLiteral("SESSION_NOT_ACTIVE"),
            QStringLiteral("the browser session %1 is %2").arg(sessionId, row->status),
            QStringLiteral("browserSession.id"));
    return live->browser.get();
}

SessionBrowser *SessionService::browserForToken(const QString &token, QString *sessionId) const
{
    if (token.isEmpty())
        return nullptr;
    const QByteArray hash = Ids::sha256Hex(token.toUtf8()).toLatin1();
    SessionBrowser *found = nullptr;
    for (const auto &[id, live] : m_live) {
        // Every live row is compared, so the time taken says nothing of which matched.
        const bool match = Ids::equalConstantTime(hash, live->row.tokenHash.toLatin1());
        if (match && live->running() && live->row.status == kActive && live->browser) {
            found = live->browser.get();
            if (sessionId)
                *sessionId = id;
        }
    }
    return found;
}

QByteArray SessionService::liveViewSignature(const QString &id, qint64 expiresSecs) const
{
    // The run live view's scheme (engine/liveview/LiveViews) with a key of its own.
    const QByteArray key = m_store.secrets().derive("pilothouse session live view v1");
    return QMessageAuthenticationCode::hash(id.toUtf8() + '.' + QByteArray::number(expiresSecs),
                                            key, QCryptographicHash::Sha256)
        .toHex();
}

QString SessionService::liveViewToken(const QString &id) const
{
    const Live *live = liveOf(id);
    if (!live || !live->running())
        return {};
    const qint64 expires = live->row.expiresAt / 1000;
    return QString::number(expires) + QLatin1Char('.') +
           QString::fromLatin1(liveViewSignature(id, expires));
}

SessionBrowser *SessionService::liveViewBrowser(const QString &id, const QString &token) const
{
    const DomainError invalid(DomainError::Kind::Forbidden,
                              QStringLiteral("LIVE_VIEW_TOKEN_INVALID"),
                              QStringLiteral("the live view link is not valid; ask the API for "
                                             "the session's liveViewUrl again"),
                              QStringLiteral("token"));
    const qsizetype dot = token.indexOf(QLatin1Char('.'));
    bool ok = false;
    const qint64 expires = dot > 0 ? token.left(dot).toLongLong(&ok) : 0;
    if (!ok || id.isEmpty() ||
        !Ids::equalConstantTime(liveViewSignature(id, expires), token.mid(dot + 1).toLatin1()))
        throw invalid;
    if (expires * 1000 < m_clock.nowMs())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("LIVE_VIEW_TOKEN_EXPIRED"),
                          QStringLiteral("the live view link has expired with its session"),
                          QStringLiteral("token"),
                          {{QStringLiteral("expiredAt"), Clock::isoUtc(expires * 1000)}});
    const Live *live = liveOf(id);
    if (!live || !live->running() || live->row.status != kActive)
        return nullptr;
    return live->browser.get();
}

namespace {
ProfileInfo profileInfo(const ProfileRow &p)
{
    ProfileInfo info;
    info.keyId = p.keyId;
    info.name = p.name;
    info.createdAt = timeOf(p.createdAt);
    if (p.lastUsedAt)
        info.lastUsedAt = timeOf(*p.lastUsedAt);
    info.bytes = p.bytes;
    return info;
}
} // namespace

QList<ProfileInfo> SessionService::profiles(const Principal &caller) const
{
    QList<ProfileInfo> out;
    if (caller.keyId.isEmpty())
        return out;
    for (const ProfileRow &p : m_repo->profiles(caller.keyId)) {
        ProfileInfo info = profileInfo(p);
        info.inUse = profileOpen(p.keyId, p.name);
        out.append(info);
    }
    return out;
}

QList<ProfileInfo> SessionService::allProfiles() const
{
    QList<ProfileInfo> out;
    for (const ProfileRow &p : m_repo->profiles(QString())) {
        ProfileInfo info = profileInfo(p);
        info.inUse = profileOpen(p.keyId, p.name);
        out.append(info);
    }
    return out;
}

void SessionService::deleteProfile(const Principal &caller, const QString &keyId,
                                   const QString &name)
{
    const DomainError unknown =
        DomainError::notFound(QStringLiteral("no profile '%1'").arg(name.left(64)));
    if (keyId.isEmpty() || !CreateSessionRequest::isProfileName(name) || !maySee(caller, keyId))
        throw unknown;
    if (profileOpen(keyId, name))
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("PROFILE_IN_USE"),
                          QStringLiteral("the profile '%1' is open in a session; release it "
                                         "first")
                              .arg(name),
                          QStringLiteral("name"));
    if (!m_repo->removeProfile(keyId, name))
        throw unknown;
    m_vault->remove(keyId, name);
    Q_EMIT profilesChanged();
}

void SessionService::sweep()
{
    const qint64 now = m_clock.nowMs();
    QList<QPair<QString, QString>> ending;
    for (auto &[id, live] : m_live) {
        if (!live->running())
            continue;
        const qint64 idleFor = now - live->row.lastActivityAt;
        const int clients = live->browser ? qMax(live->clients, live->browser->clientCount()) : 0;
        if (now >= live->row.expiresAt)
            ending.append({id, QStringLiteral("the session reached its timeoutSeconds")});
        else if (clients == 0 && idleFor >= qint64(live->row.idleTimeoutS) * 1000)
            ending.append({id, QStringLiteral("no client for idleTimeoutSeconds (%1 s)")
                                   .arg(live->row.idleTimeoutS)});
        else if (live->activityDirty) {
            live->activityDirty = false;
            m_repo->setLastActivity(id, live->row.lastActivityAt);
        }
    }
    for (const auto &[id, reason] : std::as_const(ending))
        end(id, kExpired, reason);
}

void SessionService::shutdown(int graceMs, std::function<void()> done)
{
    if (m_sweep)
        m_sweep->stop();
    if (m_live.empty()) {
        done();
        return;
    }
    auto once = std::make_shared<std::function<void()>>(std::move(done));
    auto finish = [once] {
        if (*once)
            std::exchange(*once, nullptr)();
    };
    connect(this, &SessionService::sessionEnded, this, [this, finish] {
        if (m_live.empty())
            finish();
    });
    QTimer::singleShot(graceMs, this, finish);
    QStringList ids;
    for (const auto &[id, live] : m_live)
        ids.append(id);
    for (const QString &id : std::as_const(ids))
        end(id, kReleased, QStringLiteral("the service shut down"));
}

} // namespace ph::sessions
