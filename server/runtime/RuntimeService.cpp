#include "RuntimeService.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/JsonFields.h"
#include "core/JsonText.h"
#include "core/ObjectStore.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "sites/AnalyticsRepository.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QTimer>
#include <QUrl>

namespace ph::runtime {

namespace {

constexpr int kMaxEventsPerProjection = 200;
constexpr int kContextBytes = 2048;
constexpr int kContextTokenChars = 2048;
constexpr int kMaxMessageChars = 8000;
constexpr int kRecentRequests = 3;

QString hashOf(const QString &token)
{
    return Ids::sha256Hex(token.toUtf8());
}

QJsonObject ts(qint64 ms)
{
    return {{QStringLiteral("_seconds"), ms / 1000},
            {QStringLiteral("_nanoseconds"), (ms % 1000) * 1000000}};
}

// The runtime's typed errors: DomainError with the envelope's `data` as details.
DomainError authError(const QString &code, const QString &message, bool retryable,
                      const QString &nextAction)
{
    return DomainError(
        DomainError::Kind::Unauthenticated, code, message, QString(),
        {{QStringLiteral("retryable"), retryable}, {QStringLiteral("next_action"), nextAction}});
}

DomainError tokenInvalid(const QString &why)
{
    return authError(QStringLiteral("SESSION_TOKEN_INVALID"), why, false,
                     QStringLiteral("open a new session with the site's public key"));
}

DomainError invalid(const QString &field, const QString &message)
{
    return DomainError::invalidField(field, message);
}

DomainError forbidden(const QString &code, const QString &message, const QString &field)
{
    return DomainError(DomainError::Kind::Forbidden, code, message, field);
}

// 409 stale_run: the run a call names is not (any more) the session's active run.
DomainError staleRun(const QString &message, const QString &field, const QString &currentRunId)
{
    return DomainError(DomainError::Kind::Conflict, QStringLiteral("stale_run"), message, field,
                       {{QStringLiteral("decisionReason"), QStringLiteral("stale_run")},
                        {QStringLiteral("currentRunId"), currentRunId},
                        {QStringLiteral("retryable"), false}});
}

// 413: a write over one of the storage quotas (docs/security.md, "Quotas for what
// visitors store"). Nothing stored is touched: the previous checkpoint stays.
DomainError overQuota(const QString &code, const QString &message, const QString &field,
                      const QString &setting, qint64 limit, qint64 stored, qint64 bytes)
{
    return DomainError(DomainError::Kind::TooLarge, code, message, field,
                       {{QStringLiteral("setting"), setting},
                        {QStringLiteral("limitBytes"), double(limit)},
                        {QStringLiteral("storedBytes"), double(stored)},
                        {QStringLiteral("bytes"), double(bytes)},
                        {QStringLiteral("retryable"), false}});
}

// A key's capabilities and site policy over their defaults (what the runtime enforces).
QJsonObject overDefaults(QJsonObject defaults, const QJsonObject &set)
{
    for (auto it = set.begin(); it != set.end(); ++it)
        defaults.insert(it.key(), it.value());
    return defaults;
}

QJsonObject capabilitiesOf(const sites::SiteKey &key)
{
    return overDefaults(sites::SiteConfigSchema::capabilityDefaults(), key.capabilities);
}

QJsonObject policyOf(const std::optional<sites::SiteKey> &key)
{
    return overDefaults(sites::SiteConfigSchema::sitePolicyDefaults(),
                        key ? key->sitePolicy : QJsonObject());
}

std::optional<qint64> intField(const QJsonObject &body, const QString &key)
{
    const QJsonValue v = body.value(key);
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (d != double(qint64(d)))
        return std::nullopt;
    return qint64(d);
}

QString hostOf(const QString &url)
{
    const QUrl u(url);
    return sites::AllowedDomains::normalizeHost(u.host());
}

bool secretLooking(const QString &key)
{
    static const QStringList words = {
        QStringLiteral("password"), QStringLiteral("passwd"), QStringLiteral("secret"),
        QStringLiteral("token"),    QStringLiteral("apikey"), QStringLiteral("api_key"),
        QStringLiteral("auth"),     QStringLiteral("cookie"), QStringLiteral("session"),
        QStringLiteral("card"),     QStringLiteral("cvv"),    QStringLiteral("cvc"),
        QStringLiteral("iban"),     QStringLiteral("ssn"),    QStringLiteral("pin"),
        QStringLiteral("otp"),      QStringLiteral("private")};
    const QString k = key.toLower();
    return std::any_of(words.begin(), words.end(), [&](const QString &w) { return k.contains(w); });
}

// One data-only value: strings (cut to 200 characters), numbers, booleans; arrays of
// them; objects one level deep. Anything else (and anything secret-looking) is dropped.
std::optional<QJsonValue> dataOnly(const QJsonValue &v, int depth)
{
    if (v.isString())
        return QJsonValue(v.toString().left(200));
    if (v.isDouble() || v.isBool())
        return v;
    if (v.isArray() && depth < 2) {
        QJsonArray out;
        for (const QJsonValue &item : v.toArray()) {
            if (const auto clean = dataOnly(item, depth + 1))
                out.append(*clean);
            if (out.size() >= 20)
                break;
        }
        return QJsonValue(out);
    }
    if (v.isObject() && depth < 2) {
        QJsonObject out;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (secretLooking(it.key()))
                continue;
            if (const auto clean = dataOnly(it.value(), depth + 1))
                out.insert(it.key().left(64), *clean);
        }
        return QJsonValue(out);
    }
    return std::nullopt;
}

// "auto" routing: a task of several steps, or one that reads data, goes to the planner;
// a single action acts at once.
QJsonObject route(const QString &message, QString *mode)
{
    const QString m = message.toLower();
    double score = 0;
    QStringList reasons;
    static const QStringList steps = {QStringLiteral(" then "),   QStringLiteral(", and "),
                                      QStringLiteral(";"),        QStringLiteral(" after that"),
                                      QStringLiteral(" danach "), QStringLiteral(" dann ")};
    static const QStringList reads = {
        QStringLiteral("list "),    QStringLiteral("extract"),  QStringLiteral("collect"),
        QStringLiteral("compare"),  QStringLiteral("find all"), QStringLiteral("every "),
        QStringLiteral("all the "), QStringLiteral("summar"),   QStringLiteral("how many"),
        QStringLiteral("which "),   QStringLiteral("alle "),    QStringLiteral("vergleich")};
    if (std::any_of(steps.begin(), steps.end(), [&](const QString &s) { return m.contains(s); })) {
        score += 0.5;
        reasons << QStringLiteral("several steps");
    }
    if (std::any_of(reads.begin(), reads.end(), [&](const QString &s) { return m.contains(s); })) {
        score += 0.5;
        reasons << QStringLiteral("reads data from the page");
    }
    if (message.size() > 160) {
        score += 0.2;
        reasons << QStringLiteral("a long task");
    }
    score = qMin(1.0, score);
    *mode = score >= 0.5 ? QStringLiteral("planner") : QStringLiteral("act");
    return {{QStringLiteral("score"), score},
            {QStringLiteral("reason"), reasons.isEmpty() ? QStringLiteral("a single action")
                                                         : reasons.join(QStringLiteral(", "))}};
}

} // namespace

RuntimeService::RuntimeService(Store &store, Settings &settings, sites::SiteRepository &sites,
                               sites::AnalyticsRepository &analytics, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_sites(sites)
    , m_analytics(analytics)
    , m_repo(std::make_unique<RuntimeRepository>(store))
{
    connect(m_repo.get(), &RuntimeRepository::sessionChanged, this,
            &RuntimeService::sessionChanged);
    connect(m_repo.get(), &RuntimeRepository::runChanged, this, &RuntimeService::visitorRunChanged);
}

RuntimeService::~RuntimeService() = default;

// The runtime's writes commit with synchronous=NORMAL (docs/decisions.md, "Runtime
// writes"): a visitor's session is short-lived, and a power cut that undoes its last
// commands is met by the strict-mode protocol (the client resyncs), never by a wrong
// state; a process kill loses nothing.
void RuntimeService::write(const std::function<void()> &work)
{
    m_store.transaction(work, Store::Sync::Normal);
}

qint64 RuntimeService::now() const
{
    return m_store.clock().nowMs();
}

void RuntimeService::checkOpenRate(const QString &who, const QString &setting, const QString &scope)
{
    const qint64 at = now();
    // A client gone quiet leaves an empty window behind: sweep them now and then.
    if (m_opens.size() > 4096) {
        for (auto it = m_opens.begin(); it != m_opens.end();) {
            if (it->isEmpty() || it->last() <= at - 60000)
                it = m_opens.erase(it);
            else
                ++it;
        }
    }
    QList<qint64> &times = m_opens[scope + u' ' + who];
    while (!times.isEmpty() && times.first() <= at - 60000)
        times.removeFirst();
    const int limit = m_settings.intValue(setting);
    if (times.size() >= limit) {
        const int retry = int(std::max<qint64>(1, (times.first() + 60000 - at + 999) / 1000));
        throw DomainError(DomainError::Kind::TooManyRequests, QStringLiteral("RATE_LIMITED"),
                          QStringLiteral("%1 session/open calls a minute per %2 at most (%3)")
                              .arg(limit)
                              .arg(scope, setting),
                          QString(),
                          {{QStringLiteral("setting"), setting},
                           {QStringLiteral("scope"), scope},
                           {QStringLiteral("limit"), limit},
                           {QStringLiteral("retryable"), true}})
            .withRetryAfter(retry);
    }
    times.append(at);
}

void RuntimeService::checkQuota(const Session &s, qint64 freed, qint64 added, const QString &field)
{
    const qint64 at = now();
    struct Scope
    {
        QString code, setting, whose;
        qint64 stored;
    };
    const Scope scopes[] = {
        {QStringLiteral("SESSION_STORAGE_QUOTA_EXCEEDED"),
         SettingKeys::runtimeMaxStoredBytesPerSession, QStringLiteral("this session"),
         m_repo->storedBytesOfSession(s.id, at) - freed},
        {QStringLiteral("SITE_STORAGE_QUOTA_EXCEEDED"), SettingKeys::runtimeMaxStoredBytesPerSite,
         QStringLiteral("the site's sessions"), m_repo->storedBytesOfSite(s.siteId, at) - freed},
    };
    for (const Scope &scope : scopes) {
        const qint64 limit = m_settings.int64Value(scope.setting);
        if (scope.stored + added > limit)
            throw overQuota(scope.code,
                            QStringLiteral("%1 would keep %2 bytes stored; the limit is %3 (%4)")
                                .arg(scope.whose)
                                .arg(scope.stored + added)
                                .arg(limit)
                                .arg(scope.setting),
                            field, scope.setting, limit, scope.stored, added);
    }
}

int RuntimeService::purgeStale()
{
    const qint64 at = now();
    const qint64 keep =
        m_settings.int64Value(SettingKeys::runtimeTelemetryRetentionHours) * 3600 * 1000;
    int n = 0;
    write([&] {
        n += m_repo->purgeTelemetry(at - keep);
        n += m_repo->purgeExpiredSnapshots(at);
    });
    return n;
}

double RuntimeService::blockScore() const
{
    return m_settings.intValue(SettingKeys::runtimeExternalBlockPercent) / 100.0;
}

// --- sessions ------------------------------------------------------------------------

RuntimeService::Opened RuntimeService::open(const QJsonObject &body, const QString &bearer,
                                            const QString &clientAddress)
{
    // Every call counts against its client, a refused one too (docs/security.md,
    // "Quotas for what visitors store").
    checkOpenRate(clientAddress, SettingKeys::runtimeSessionOpensPerMinutePerClient,
                  QStringLiteral("client"));
    const JsonFields f(body);
    const QString presented = f.optionalString(QStringLiteral("sessionToken")).value_or(bearer);
    // Refresh: a valid session token. An invalid or expired one falls back to bootstrap.
    if (!presented.isEmpty()) {
        const auto row =
            m_repo->findToken(hashOf(presented), RuntimeRepository::TokenKind::Session);
        if (row && row->expiresAt > now()) {
            const QString wanted =
                f.optionalString(QStringLiteral("sessionId")).value_or(QString());
            if (!wanted.isEmpty() && wanted != row->sessionId)
                throw tokenInvalid(QStringLiteral("sessionId is not the session of this token"));
            std::optional<Session> session = m_repo->findSession(row->sessionId);
            if (!session || session->endedAt)
                throw tokenInvalid(QStringLiteral("the session has ended"));
            const std::optional<sites::SiteKey> key = m_sites.findKey(session->keyId);
            if (!key || !key->isUsable(now()))
                throw authError(QStringLiteral("BOOTSTRAP_REQUIRED"),
                                QStringLiteral("the site key of this session is no longer usable"),
                                false, QStringLiteral("supply a valid pk_site_* publicKey"));
            return finishOpen(*session, *key, true);
        }
    }
    const QString publicKey = f.optionalString(QStringLiteral("publicKey")).value_or(QString());
    const QString bootstrapToken =
        f.optionalString(QStringLiteral("bootstrapToken")).value_or(QString());
    if (publicKey.isEmpty() && bootstrapToken.isEmpty()) {
        if (!presented.isEmpty()) {
            const auto row =
                m_repo->findToken(hashOf(presented), RuntimeRepository::TokenKind::Session);
            if (row)
                throw authError(QStringLiteral("SESSION_TOKEN_EXPIRED"),
                                QStringLiteral("the session token has expired"), true,
                                QStringLiteral("bootstrap: send the public key to session/open"));
        }
        throw authError(QStringLiteral("BOOTSTRAP_REQUIRED"),
                        QStringLiteral("no valid session token, and no publicKey or "
                                       "bootstrapToken to open a session with"),
                        false, QStringLiteral("supply a valid pk_site_* publicKey"));
    }
    if (publicKey.startsWith(QLatin1String("sk_site_")))
        throw invalid(QStringLiteral("publicKey"),
                      QStringLiteral("a secret site key (sk_site_…) must never reach a browser; "
                                     "send the public key (pk_site_…)"));
    const QString siteId = f.requiredString(QStringLiteral("siteId"));
    QString url = f.optionalString(QStringLiteral("url")).value_or(QString());
    const QString hostField = f.optionalString(QStringLiteral("host")).value_or(QString());
    if (url.isEmpty() && hostField.isEmpty())
        throw DomainError::missingField(QStringLiteral("host"));
    const QString pageField = url.isEmpty() ? QStringLiteral("host") : QStringLiteral("url");
    if (url.isEmpty())
        url = QStringLiteral("https://") + hostField + QLatin1Char('/');
    const QUrl parsed(url);
    if (!parsed.isValid() ||
        (parsed.scheme() != QLatin1String("https") && parsed.scheme() != QLatin1String("http")))
        throw invalid(pageField, QStringLiteral("must be an http(s) URL or a host name"));
    const QString host = hostOf(url);
    if (host.isEmpty())
        throw invalid(pageField, QStringLiteral("names no host"));

    std::optional<sites::SiteKey> key;
    if (!publicKey.isEmpty()) {
        key = m_sites.findUsableKeyByPublicKey(publicKey);
        if (!key)
            throw authError(QStringLiteral("BOOTSTRAP_REQUIRED"),
                            QStringLiteral("publicKey is not an active site key"), false,
                            QStringLiteral("supply a valid pk_site_* publicKey"));
    } else {
        // A bootstrap token the site's server minted with its secret key: single use.
        std::optional<RuntimeRepository::SiteToken> token;
        write([&] {
            token =
                m_repo->takeSiteToken(hashOf(bootstrapToken), QStringLiteral("bootstrap"), now());
        });
        if (token)
            key = m_sites.findKey(token->keyId);
        if (!token || !key || !key->isUsable(now()))
            throw authError(QStringLiteral("BOOTSTRAP_REQUIRED"),
                            QStringLiteral("bootstrapToken is not valid: unknown, used or expired"),
                            false,
                            QStringLiteral("supply a valid pk_site_* publicKey or a fresh "
                                           "bootstrapToken"));
        if (!token->host.isEmpty() && token->host != host)
            throw forbidden(QStringLiteral("DOMAIN_NOT_ALLOWED"),
                            QStringLiteral("the bootstrap token was minted for another host"),
                            pageField);
    }
    if (key->siteId != siteId)
        throw forbidden(QStringLiteral("SITE_KEY_MISMATCH"),
                        QStringLiteral("the site key belongs to another site"),
                        QStringLiteral("siteId"));
    if (!key->allowsUrl(url, now()))
        throw forbidden(QStringLiteral("DOMAIN_NOT_ALLOWED"),
                        QStringLiteral("%1 is not among the key's allowed domains").arg(host),
                        pageField);
    if (!capabilitiesOf(*key).value(QStringLiteral("embed")).toBool())
        throw forbidden(QStringLiteral("CAPABILITY_DISABLED"),
                        QStringLiteral("the key's embed capability is off"),
                        QStringLiteral("publicKey"));
    if (key->sitePolicy.value(QStringLiteral("siteMode")).toString() == QLatin1String("paused"))
        throw forbidden(QStringLiteral("SITE_PAUSED"),
                        QStringLiteral("the site's runtime is paused by its owner"),
                        QStringLiteral("siteId"));

    // A new session counts against its site once the key let it in.
    checkOpenRate(siteId, SettingKeys::runtimeSessionOpensPerMinutePerSite, QStringLiteral("site"));

    Session session;
    // Public-key bootstrap always starts a new random session (a sessionId in the body
    // is a correlation hint only).
    session.id = Ids::make(QStringLiteral("rts"));
    session.siteId = siteId;
    session.keyId = key->id;
    session.host = host;
    session.url = parsed.toString(QUrl::RemoveUserInfo | QUrl::RemoveFragment);
    session.clientAddress = clientAddress;
    session.createdAt = session.updatedAt = now();
    if (const auto visitor = body.value(QStringLiteral("visitor")); visitor.isObject())
        session.context =
            sanitizeContext(visitor.toObject().value(QStringLiteral("context")).toObject());
    write([&] {
        m_repo->insertSession(session);
        appendEvent(session, QStringLiteral("session.opened"), QString(),
                    {{QStringLiteral("host"), host}});
        m_repo->updateSession(session);
    });
    flush();
    return finishOpen(session, *key, false);
}

RuntimeService::Opened RuntimeService::finishOpen(Session session, const sites::SiteKey &key,
                                                  bool refreshed)
{
    Opened o;
    o.session = session;
    o.refreshed = refreshed;
    const QJsonObject caps = capabilitiesOf(key);
    o.capabilities = caps;
    const QJsonObject policy = policyOf(key);
    o.policy = {
        {QStringLiteral("domainScopeMode"), policy.value(QStringLiteral("domainScopeMode"))},
        {QStringLiteral("cloudSandboxEnabled"),
         policy.value(QStringLiteral("cloudSandboxEnabled"))},
        {QStringLiteral("externalAllowDomains"),
         policy.value(QStringLiteral("externalAllowDomains"))},
        {QStringLiteral("externalDenyDomains"),
         policy.value(QStringLiteral("externalDenyDomains"))},
        {QStringLiteral("externalNavigationPolicy"), QStringLiteral("open_new_tab")},
        {QStringLiteral("crossHostPolicy"), QStringLiteral("allow_same_tab")},
        {QStringLiteral("enableExternalWebContext"),
         caps.value(QStringLiteral("externalWebContextScrape"))},
        {QStringLiteral("externalScrapeMode"),
         caps.value(QStringLiteral("externalWebContextScrape")).toBool()
             ? QStringLiteral("read_context")
             : QStringLiteral("open_only")},
        {QStringLiteral("allowedDomains"), QJsonArray::fromStringList(key.allowedDomains)}};
    o.siteConfig = sites::SiteConfigSchema::effective(m_sites.config(session.siteId).config);
    mintTokens(o);
    return o;
}

void RuntimeService::mintTokens(Opened &o)
{
    const qint64 ttl = qint64(m_settings.intValue(SettingKeys::runtimeSessionTokenSeconds)) * 1000;
    o.sessionToken = Ids::make(QStringLiteral("sess"), 32);
    o.streamToken = Ids::make(QStringLiteral("stream"), 32);
    o.sessionTokenExpiresAt = now() + ttl;
    write([&] {
        m_repo->purgeTokens(now() - ttl);
        m_repo->insertToken(hashOf(o.sessionToken), o.session.id,
                            RuntimeRepository::TokenKind::Session, o.sessionTokenExpiresAt);
        m_repo->insertToken(hashOf(o.streamToken), o.session.id,
                            RuntimeRepository::TokenKind::Stream, o.sessionTokenExpiresAt);
    });
    // The analytics beacon: the session id and an expiry, signed with the server's key
    // (GET /v2/runtime/collect). It lets the SDK report goals with sendBeacon or an
    // image, with no bearer token in a URL.
    const qint64 exp = now() + 24 * 3600 * 1000;
    const QByteArray sig = beaconSignature(o.session.id, exp);
    o.analytics = {{QStringLiteral("sid"), o.session.id},
                   {QStringLiteral("exp"), exp},
                   {QStringLiteral("sig"), QString::fromLatin1(sig)}};
}

// The analytics beacon's signature: HMAC-SHA256 of "sid.exp" with a key derived from the
// store's secret.
QByteArray RuntimeService::beaconSignature(const QString &sessionId, qint64 expiresAt) const
{
    return QMessageAuthenticationCode::hash(
               (sessionId + QLatin1Char('.') + QString::number(expiresAt)).toUtf8(),
               m_store.secrets().derive("pilothouse runtime collect v1"),
               QCryptographicHash::Sha256)
        .toHex();
}

Session RuntimeService::authenticate(const QString &sessionToken, const QString &sessionId) const
{
    if (sessionToken.isEmpty())
        throw tokenInvalid(QStringLiteral("no session token (Authorization: Bearer sess_… or "
                                          "sessionToken in the body)"));
    const auto row = m_repo->findToken(hashOf(sessionToken), RuntimeRepository::TokenKind::Session);
    if (!row)
        throw tokenInvalid(QStringLiteral("the session token is not valid"));
    if (row->expiresAt <= now())
        throw authError(QStringLiteral("SESSION_TOKEN_EXPIRED"),
                        QStringLiteral("the session token has expired"), true,
                        QStringLiteral("bootstrap: send the public key to session/open"));
    if (!sessionId.isEmpty() && sessionId != row->sessionId)
        throw tokenInvalid(QStringLiteral("sessionId is not the session of this token"));
    const std::optional<Session> session = m_repo->findSession(row->sessionId);
    if (!session || session->endedAt)
        throw tokenInvalid(QStringLiteral("the session has ended"));
    return *session;
}

Session RuntimeService::authenticateStream(const QString &ticket) const
{
    const auto row = m_repo->findToken(hashOf(ticket), RuntimeRepository::TokenKind::Stream);
    if (!row)
        throw tokenInvalid(QStringLiteral("streamTicket is not a valid stream ticket"));
    if (row->expiresAt <= now())
        throw authError(QStringLiteral("SESSION_TOKEN_EXPIRED"),
                        QStringLiteral("the stream ticket has expired"), true,
                        QStringLiteral("refresh the session (session/open with sessionToken)"));
    const std::optional<Session> session = m_repo->findSession(row->sessionId);
    if (!session || session->endedAt)
        throw tokenInvalid(QStringLiteral("the session has ended"));
    return *session;
}

QJsonObject RuntimeService::sanitizeContext(const QJsonObject &context, QStringList *dropped)
{
    QJsonObject out;
    for (auto it = context.begin(); it != context.end(); ++it) {
        const QString key = it.key();
        if (secretLooking(key)) {
            if (dropped)
                *dropped << key;
            continue;
        }
        QJsonValue value = it.value();
        if ((key == QLatin1String("recentRequests") || key == QLatin1String("recentActivity")) &&
            value.isArray()) {
            QJsonArray a = value.toArray();
            while (a.size() > kRecentRequests)
                a.removeFirst(); // the most recent three
            value = a;
        }
        const auto clean = dataOnly(value, 0);
        if (!clean) {
            if (dropped)
                *dropped << key;
            continue;
        }
        out.insert(key.left(64), *clean);
    }
    // At most 2 KB: keys are dropped from the end until it fits.
    while (!out.isEmpty() && JsonText::from(out).toUtf8().size() > kContextBytes) {
        const QString last = out.keys().last();
        if (dropped)
            *dropped << last;
        out.remove(last);
    }
    return out;
}

QJsonObject RuntimeService::updateContext(const Session &s, const QJsonObject &body)
{
    Session session = s;
    QStringList dropped;
    QJsonObject tokenState;
    const QJsonValue visitor = body.value(QStringLiteral("visitor"));
    if (visitor.isNull()) {
        session.context = QJsonObject(); // logout: personalization cleared
    } else if (visitor.isObject()) {
        const QJsonObject v = visitor.toObject();
        if (v.contains(QStringLiteral("context"))) {
            if (!v.value(QStringLiteral("context")).isObject() &&
                !v.value(QStringLiteral("context")).isNull())
                throw invalid(QStringLiteral("visitor.context"),
                              QStringLiteral("must be an object"));
            session.context =
                sanitizeContext(v.value(QStringLiteral("context")).toObject(), &dropped);
        }
        if (v.contains(QStringLiteral("contextToken"))) {
            const QString token = v.value(QStringLiteral("contextToken")).toString();
            if (!v.value(QStringLiteral("contextToken")).isString() || token.isEmpty())
                throw invalid(QStringLiteral("visitor.contextToken"),
                              QStringLiteral("must be a non-empty string"));
            if (token.size() > kContextTokenChars)
                throw invalid(
                    QStringLiteral("visitor.contextToken"),
                    QStringLiteral("is longer than %1 characters").arg(kContextTokenChars));
            // Exchanged once, never stored raw: only its hash is kept, to refuse a second
            // exchange. The resolver fails open: an unresolved token leaves the session as
            // it is (docs/api/runtime.md, "Visitor context").
            const QString hash = hashOf(token);
            bool fresh = false;
            std::optional<RuntimeRepository::SiteToken> minted;
            write([&] {
                fresh = m_repo->exchangeContextToken(hash, session.id, now());
                if (fresh)
                    minted = m_repo->takeSiteToken(hash, QStringLiteral("context"), now());
            });
            QString status =
                fresh ? QStringLiteral("unresolved") : QStringLiteral("already_exchanged");
            if (minted && minted->siteId == session.siteId) {
                // What the site's server vouched for, sanitized like visitor.context.
                const QJsonObject vouched =
                    sanitizeContext(QJsonDocument::fromJson(
                                        m_store.secrets().unseal(minted->sealedPayload).toUtf8())
                                        .object(),
                                    &dropped);
                for (auto it = vouched.begin(); it != vouched.end(); ++it)
                    session.context.insert(it.key(), it.value());
                session.context = sanitizeContext(session.context, &dropped);
                status = QStringLiteral("resolved");
            }
            // The resolver fails open: an unresolved token leaves the session as it is.
            tokenState = {{QStringLiteral("status"), status},
                          {QStringLiteral("resolver"), QStringLiteral("fail_open")}};
        }
    } else if (!visitor.isUndefined()) {
        throw invalid(QStringLiteral("visitor"), QStringLiteral("must be an object or null"));
    }
    write([&] {
        appendEvent(session, QStringLiteral("context.updated"), QString(),
                    {{QStringLiteral("keys"), QJsonArray::fromStringList(session.context.keys())},
                     {QStringLiteral("cleared"), visitor.isNull()}});
        m_repo->updateSession(session);
    });
    flush();
    QJsonObject out{{QStringLiteral("sessionId"), session.id},
                    {QStringLiteral("context"), session.context},
                    {QStringLiteral("dropped"), QJsonArray::fromStringList(dropped)}};
    if (!tokenState.isEmpty())
        out.insert(QStringLiteral("contextToken"), tokenState);
    return out;
}

RuntimeService::SiteToken RuntimeService::mintSiteToken(const QString &secret,
                                                        const QJsonObject &body)
{
    const std::optional<sites::SiteKey> key = m_sites.findUsableKeyBySecret(secret);
    if (!key)
        throw DomainError::unauthorized(QStringLiteral("SITE_SECRET_INVALID"),
                                        QStringLiteral("Authorization must carry the site key's "
                                                       "current secret (Bearer sk_site_…)"));
    const JsonFields f(body);
    f.rejectUnknown({QStringLiteral("kind"), QStringLiteral("host"), QStringLiteral("context"),
                     QStringLiteral("subject")});
    const QString kind = f.optionalEnum(QStringLiteral("kind"),
                                        {QStringLiteral("bootstrap"), QStringLiteral("context")})
                             .value_or(QString());
    if (kind.isEmpty())
        throw DomainError::missingField(QStringLiteral("kind"));
    RuntimeRepository::SiteToken t;
    t.kind = kind;
    t.siteId = key->siteId;
    t.keyId = key->id;
    t.expiresAt = now() + 5 * 60 * 1000;
    if (kind == QLatin1String("bootstrap")) {
        if (const auto host = f.optionalString(QStringLiteral("host"))) {
            t.host = sites::AllowedDomains::normalizeHost(*host);
            if (t.host.isEmpty() || !sites::AllowedDomains::allows(
                                        key->allowedDomains, key->domainScope(),
                                        QStringLiteral("https://") + t.host + QLatin1Char('/')))
                throw invalid(QStringLiteral("host"),
                              QStringLiteral("is not among the key's allowed domains"));
        }
    } else {
        const std::optional<JsonFields> context = f.optionalObject(QStringLiteral("context"));
        if (!context)
            throw DomainError::missingField(QStringLiteral("context"));
        QJsonObject payload = sanitizeContext(context->object());
        if (const auto subject = f.optionalString(QStringLiteral("subject")))
            payload.insert(QStringLiteral("subject"), subject->left(128));
        t.sealedPayload = m_store.secrets().seal(JsonText::from(payload));
    }
    SiteToken out;
    out.kind = kind;
    out.token = Ids::make(
        kind == QLatin1String("bootstrap") ? QStringLiteral("bt") : QStringLiteral("ctx"), 32);
    out.expiresAt = t.expiresAt;
    write([&] { m_repo->insertSiteToken(hashOf(out.token), t, now()); });
    return out;
}

// --- projection ----------------------------------------------------------------------

QJsonObject RuntimeService::projection(const Session &session, qint64 seqAfter,
                                       bool withSnapshot) const
{
    QJsonObject p{{QStringLiteral("sessionId"), session.id},
                  {QStringLiteral("epoch"), session.epoch},
                  {QStringLiteral("seq"), session.seq}};
    if (!session.activeRunId.isEmpty()) {
        if (const auto run = m_repo->findRun(session.activeRunId)) {
            p.insert(QStringLiteral("activeRunId"), run->id);
            p.insert(QStringLiteral("runStatus"), run->status);
            p.insert(QStringLiteral("runMode"), run->mode);
        }
    }
    QJsonArray events;
    for (const Event &e : m_repo->eventsAfter(session.id, seqAfter, kMaxEventsPerProjection)) {
        QJsonObject o{{QStringLiteral("seq"), e.seq},
                      {QStringLiteral("type"), e.type},
                      {QStringLiteral("ts"), ts(e.at)}};
        if (!e.data.isEmpty())
            o.insert(QStringLiteral("data"), e.data);
        events.append(o);
    }
    p.insert(QStringLiteral("events"), events);
    QJsonArray tabs;
    for (const Tab &t : m_repo->tabsOf(session.id)) {
        QJsonObject o{{QStringLiteral("logicalTabId"), t.logicalTabId},
                      {QStringLiteral("scope"), t.scope},
                      {QStringLiteral("status"), t.status},
                      {QStringLiteral("updatedAt"), t.updatedAt}};
        if (!t.parentTabId.isEmpty())
            o.insert(QStringLiteral("parentLogicalTabId"), t.parentTabId);
        if (!t.url.isEmpty())
            o.insert(QStringLiteral("url"), t.url);
        if (!t.reason.isEmpty())
            o.insert(QStringLiteral("reason"), t.reason);
        tabs.append(o);
    }
    p.insert(QStringLiteral("tabs"), tabs);
    if (withSnapshot) {
        if (const auto snap = m_repo->snapshotOf(session.id, now())) {
            QJsonObject s{{QStringLiteral("version"), snap->version},
                          {QStringLiteral("seq"), snap->seq},
                          {QStringLiteral("bytes"), snap->bytes}};
            if (!snap->objectId.isEmpty()) {
                // Offloaded: the checkpoint is read back from storage for the client.
                s.insert(QStringLiteral("payload"),
                         QJsonDocument::fromJson(m_store.objects().data(snap->objectId)).object());
                s.insert(QStringLiteral("offloaded"), true);
            } else {
                s.insert(QStringLiteral("payload"), snap->payload);
            }
            p.insert(QStringLiteral("snapshot"), s);
            p.insert(QStringLiteral("snapshotUpdatedAt"), snap->updatedAt);
        }
    }
    return p;
}

QJsonObject RuntimeService::projection(const QString &sessionId, qint64 seqAfter) const
{
    const std::optional<Session> session = m_repo->findSession(sessionId);
    return session ? projection(*session, seqAfter, false) : QJsonObject();
}

void RuntimeService::flush()
{
    for (const auto &[id, seq] : std::exchange(m_advanced, {}))
        Q_EMIT sessionAdvanced(id, seq);
    for (const auto &then : std::exchange(m_afterCommit, {}))
        then();
}

void RuntimeService::appendEvent(Session &session, const QString &type, const QString &runId,
                                 const QJsonObject &data)
{
    Event e;
    e.seq = ++session.seq;
    e.type = type;
    e.runId = runId;
    e.data = data;
    e.at = now();
    session.updatedAt = e.at;
    m_repo->insertEvent(session.id, e);
    m_advanced.append({session.id, session.seq});
}

// --- commands ------------------------------------------------------------------------

void RuntimeService::checkEpoch(const Session &session, const QJsonObject &body) const
{
    const std::optional<qint64> expected = intField(body, QStringLiteral("expectedEpoch"));
    if (expected && *expected == session.epoch)
        return;
    QJsonObject details{{QStringLiteral("currentEpoch"), session.epoch},
                        {QStringLiteral("decisionReason"), QStringLiteral("stale_epoch_retryable")},
                        {QStringLiteral("retryable"), true},
                        {QStringLiteral("conflict"),
                         QJsonObject{{QStringLiteral("type"), QStringLiteral("stale_epoch")},
                                     {QStringLiteral("currentEpoch"), session.epoch},
                                     {QStringLiteral("retryable"), true}}}};
    details.insert(QStringLiteral("expectedEpoch"),
                   expected ? QJsonValue(*expected) : QJsonValue(QJsonValue::Null));
    throw DomainError(DomainError::Kind::Conflict, QStringLiteral("stale_epoch"),
                      expected
                          ? QStringLiteral("expectedEpoch %1 is stale: the session is at epoch %2")
                                .arg(*expected)
                                .arg(session.epoch)
                          : QStringLiteral("expectedEpoch is required (strict mode)"),
                      QStringLiteral("expectedEpoch"), details);
}

void RuntimeService::checkSeq(const Session &session, const QJsonObject &body) const
{
    const std::optional<qint64> expected = intField(body, QStringLiteral("expectedSeq"));
    if (expected && *expected == session.seq)
        return;
    QJsonObject details{
        {QStringLiteral("currentSeq"), session.seq},
        {QStringLiteral("currentEpoch"), session.epoch},
        {QStringLiteral("decisionReason"), QStringLiteral("stale_seq_retryable")},
        {QStringLiteral("clientEventId"), body.value(QStringLiteral("clientEventId"))},
        {QStringLiteral("retryable"), true},
        {QStringLiteral("conflict"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("stale_seq")},
                     {QStringLiteral("currentSeq"), session.seq},
                     {QStringLiteral("currentEpoch"), session.epoch},
                     {QStringLiteral("retryable"), true}}}};
    details.insert(QStringLiteral("expectedSeq"),
                   expected ? QJsonValue(*expected) : QJsonValue(QJsonValue::Null));
    throw DomainError(DomainError::Kind::Conflict, QStringLiteral("stale_seq"),
                      expected ? QStringLiteral("expectedSeq %1 is stale: the session is at seq %2")
                                     .arg(*expected)
                                     .arg(session.seq)
                               : QStringLiteral("expectedSeq is required while a run is active "
                                                "(strict mode)"),
                      QStringLiteral("expectedSeq"), details);
}

RuntimeService::Answer RuntimeService::command(const Session &s, const QJsonObject &body)
{
    const QString clientEventId = JsonFields(body).requiredString(QStringLiteral("clientEventId"));
    if (clientEventId.size() > 128)
        throw invalid(QStringLiteral("clientEventId"),
                      QStringLiteral("is longer than 128 characters"));
    // A retry of an answered command: the same answer, nothing changes again.
    int status = 0;
    if (const auto stored = m_repo->storedCommand(s.id, clientEventId, &status))
        return {status, *stored};

    QString type = body.value(QStringLiteral("type")).toString();
    if (type.isEmpty()) {
        if (body.contains(QStringLiteral("action")))
            type = QStringLiteral("RUN_CONTROL");
        else if (body.contains(QStringLiteral("targetUrl")) || body.contains(QStringLiteral("url")))
            type = QStringLiteral("TAB_EVENT");
        else
            type = QStringLiteral("RUN_INPUT");
    }
    static const QStringList types = {QStringLiteral("RUN_INPUT"), QStringLiteral("RUN_CONTROL"),
                                      QStringLiteral("TAB_EVENT")};
    if (!types.contains(type))
        throw invalid(QStringLiteral("type"),
                      QStringLiteral("must be one of %1").arg(types.join(QStringLiteral(", "))));

    Answer answer;
    write([&] {
        // Strict mode, before any state change, against the state inside the transaction.
        Session session = m_repo->findSession(s.id).value_or(s);
        checkEpoch(session, body);
        if (type == QLatin1String("RUN_INPUT"))
            answer = runInput(session, body);
        else if (type == QLatin1String("RUN_CONTROL"))
            answer = runControl(session, body);
        else
            answer = tabEvent(session, body);
        m_repo->updateSession(session);
        m_repo->storeCommand(session.id, clientEventId, answer.status, answer.data, now());
    });
    flush();
    return answer;
}

QJsonObject RuntimeService::runInputData(const Session &session, const Run &run) const
{
    QJsonObject d{{QStringLiteral("runId"), run.id},
                  {QStringLiteral("acceptedMode"), run.mode},
                  {QStringLiteral("state"), run.status},
                  {QStringLiteral("epoch"), session.epoch},
                  {QStringLiteral("seq"), session.seq}};
    if (!run.requestedMode.isEmpty())
        d.insert(QStringLiteral("requestedMode"), run.requestedMode);
    if (!run.routing.isEmpty())
        d.insert(QStringLiteral("routing"), run.routing);
    if (!run.taskBoundaryId.isEmpty())
        d.insert(QStringLiteral("taskBoundaryId"), run.taskBoundaryId);
    if (!run.a2wRunId.isEmpty())
        d.insert(QStringLiteral("a2wRunId"), run.a2wRunId);
    return d;
}

void RuntimeService::settleRun(Session &session, Run &run, const QString &status,
                               const QString &why, bool stopEngine)
{
    run.status = status;
    run.updatedAt = now();
    if (!run.isActive())
        run.endedAt = run.updatedAt;
    m_repo->updateRun(run);
    if (session.activeRunId == run.id && !run.isActive())
        session.activeRunId.clear();
    QJsonObject data{{QStringLiteral("runId"), run.id}, {QStringLiteral("status"), status}};
    if (!why.isEmpty())
        data.insert(QStringLiteral("reason"), why);
    appendEvent(session, QStringLiteral("run.transition"), run.id, data);
    if (!run.isActive()) {
        const QString id = run.id;
        m_afterCommit.append([this, id, why, stopEngine] {
            failSteps(id, why.isEmpty() ? QStringLiteral("the run was stopped") : why);
            if (stopEngine)
                Q_EMIT runStopped(id);
        });
    }
}

namespace {
// 409 active_run_exists: the session has a run going that this input would replace.
DomainError activeRunConflict(const Session &session, QJsonObject details, const QString &runId)
{
    details.insert(QStringLiteral("continuePrompt"), true);
    details.insert(QStringLiteral("retryable"), false);
    details.insert(QStringLiteral("conflict"),
                   QJsonObject{{QStringLiteral("type"), QStringLiteral("active_run_exists")},
                               {QStringLiteral("currentSeq"), session.seq},
                               {QStringLiteral("currentEpoch"), session.epoch},
                               {QStringLiteral("retryable"), false}});
    return DomainError(DomainError::Kind::Conflict, QStringLiteral("active_run_exists"),
                       QStringLiteral("the session has an active run (%1); continue it, "
                                      "or send forceNewRun to replace it")
                           .arg(runId),
                       QStringLiteral("forceNewRun"), details);
}
} // namespace

QString RuntimeService::consentToken(const QString &sessionId, const QString &a2wRunId) const
{
    const QByteArray mac = QMessageAuthenticationCode::hash(
        (sessionId + u'\n' + a2wRunId).toUtf8(), m_store.secrets().derive("runtime-a2w-consent"),
        QCryptographicHash::Sha256);
    return QStringLiteral("cst_") +
           QString::fromLatin1(mac.left(24).toBase64(QByteArray::Base64UrlEncoding |
                                                     QByteArray::OmitTrailingEquals));
}

RuntimeService::Answer RuntimeService::a2wConsent(Session &session, const QJsonObject &body,
                                                  QString *a2wRunId, QString *task)
{
    if (!m_claimer)
        throw invalid(QStringLiteral("a2wReceipt"),
                      QStringLiteral("A2W runs cannot be claimed here"));
    const JsonFields f(body);
    const QString receipt = f.optionalString(QStringLiteral("a2wReceipt")).value_or(QString());
    const QString decision = f.optionalEnum(QStringLiteral("a2wConsent"),
                                            {QStringLiteral("accept"), QStringLiteral("decline")})
                                 .value_or(QString());
    const A2wOffer offer = m_claimer(receipt, session.siteId, A2wClaim::Offer);
    std::optional<Run> active =
        session.activeRunId.isEmpty() ? std::nullopt : m_repo->findRun(session.activeRunId);
    const bool busy = active && active->isActive();
    if (decision.isEmpty()) {
        // Nothing runs on the visitor's page before they accept: this is the offer to
        // show them (which agent, for what, on which site, and what it replaces).
        QJsonObject agent{{QStringLiteral("name"), offer.agentName},
                          {QStringLiteral("trust"), offer.trust}};
        if (!offer.signatureAgent.isEmpty())
            agent.insert(QStringLiteral("signatureAgent"), offer.signatureAgent);
        QJsonObject o{{QStringLiteral("a2wRunId"), offer.runId},
                      {QStringLiteral("agent"), agent},
                      {QStringLiteral("task"), offer.task},
                      {QStringLiteral("site"), QJsonObject{{QStringLiteral("name"), offer.siteName},
                                                           {QStringLiteral("host"), offer.host}}},
                      {QStringLiteral("url"), offer.url},
                      {QStringLiteral("resultSharing"), QStringLiteral("visitor_review")},
                      {QStringLiteral("consentToken"), consentToken(session.id, offer.runId)}};
        if (busy)
            o.insert(QStringLiteral("activeRun"),
                     QJsonObject{{QStringLiteral("runId"), active->id},
                                 {QStringLiteral("status"), active->status},
                                 {QStringLiteral("message"), active->message.left(300)}});
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("A2W_CONSENT_REQUIRED"),
                          QStringLiteral("an agent's run acts in the visitor's session only "
                                         "once they accept it: show them the offer, then send "
                                         "a2wConsent (accept or decline) with its consentToken"),
                          QStringLiteral("a2wConsent"),
                          {{QStringLiteral("offer"), o}, {QStringLiteral("retryable"), false}});
    }
    const QString token = f.optionalString(QStringLiteral("a2wConsentToken")).value_or(QString());
    const QByteArray want = consentToken(session.id, offer.runId).toUtf8();
    // Compared as MACs of both, so the time taken says nothing about the token.
    const QByteArray key = m_store.secrets().derive("runtime-a2w-consent-compare");
    if (QMessageAuthenticationCode::hash(token.toUtf8(), key, QCryptographicHash::Sha256) !=
        QMessageAuthenticationCode::hash(want, key, QCryptographicHash::Sha256))
        throw forbidden(QStringLiteral("A2W_CONSENT_INVALID"),
                        QStringLiteral("a2wConsentToken is not the token of this session's "
                                       "offer of this run"),
                        QStringLiteral("a2wConsentToken"));
    if (decision == QLatin1String("decline")) {
        m_claimer(receipt, session.siteId, A2wClaim::Decline);
        return {200,
                {{QStringLiteral("a2wRunId"), offer.runId},
                 {QStringLiteral("a2wConsent"), QStringLiteral("declined")},
                 {QStringLiteral("epoch"), session.epoch},
                 {QStringLiteral("seq"), session.seq}}};
    }
    // Accepted. A run the visitor has going is replaced only when they accepted that
    // too (the offer said so, and the acceptance carries forceNewRun).
    if (busy) {
        checkSeq(session, body);
        if (!f.optionalBool(QStringLiteral("forceNewRun")).value_or(false))
            throw activeRunConflict(session, runInputData(session, *active), active->id);
    }
    m_claimer(receipt, session.siteId, A2wClaim::Accept);
    if (busy)
        settleRun(session, *active, QStringLiteral("cancelled"),
                  QStringLiteral("replaced by an A2W run the visitor accepted"));
    *a2wRunId = offer.runId;
    *task = offer.task;
    return {};
}

RuntimeService::Answer RuntimeService::runInput(Session &session, const QJsonObject &body)
{
    const JsonFields f(body);
    // An A2W browser run opened on this page (its `open` receipt): once the visitor
    // accepts it, the run's task is the message, and the A2W caller follows the run.
    const QString receipt = f.optionalString(QStringLiteral("a2wReceipt")).value_or(QString());
    QString a2wRunId;
    QString claimedTask;
    if (!receipt.isEmpty()) {
        Answer declined = a2wConsent(session, body, &a2wRunId, &claimedTask);
        if (a2wRunId.isEmpty())
            return declined;
    }
    const QString message =
        receipt.isEmpty() ? f.requiredString(QStringLiteral("message")).trimmed() : claimedTask;
    if (message.isEmpty())
        throw invalid(QStringLiteral("message"), QStringLiteral("must not be empty"));
    if (message.size() > kMaxMessageChars)
        throw invalid(QStringLiteral("message"),
                      QStringLiteral("is longer than %1 characters").arg(kMaxMessageChars));
    const bool continueRun = f.optionalBool(QStringLiteral("continueRun")).value_or(false);
    const bool forceNewRun = f.optionalBool(QStringLiteral("forceNewRun")).value_or(false);
    const QString requested =
        f.optionalEnum(QStringLiteral("requestedMode"),
                       {QStringLiteral("act"), QStringLiteral("planner"), QStringLiteral("auto")})
            .value_or(QStringLiteral("auto"));
    const QString boundary = f.optionalString(QStringLiteral("taskBoundaryId")).value_or(QString());

    std::optional<Run> active =
        session.activeRunId.isEmpty() ? std::nullopt : m_repo->findRun(session.activeRunId);
    if (active && active->isActive() && receipt.isEmpty()) {
        checkSeq(session, body);
        if (continueRun && active->status == QLatin1String("awaiting_user")) {
            // The visitor answers the run's question: it continues.
            active->status = QStringLiteral("running");
            active->continuationReason = QStringLiteral("awaiting_user");
            active->updatedAt = now();
            m_repo->updateRun(*active);
            appendEvent(session, QStringLiteral("run.transition"), active->id,
                        {{QStringLiteral("runId"), active->id},
                         {QStringLiteral("status"), active->status},
                         {QStringLiteral("continuationReason"), QStringLiteral("awaiting_user")},
                         {QStringLiteral("message"), message}});
            const QString sessionId = session.id;
            const QString runId = active->id;
            m_afterCommit.append([this, sessionId, runId, message] {
                Q_EMIT runAnswered(sessionId, runId, message);
            });
            return {200, runInputData(session, *active)};
        }
        if (!forceNewRun)
            throw activeRunConflict(session, runInputData(session, *active), active->id);
        // forceNewRun: the active run is cancelled and a fresh one starts.
        settleRun(session, *active, QStringLiteral("cancelled"),
                  QStringLiteral("replaced by a new run"));
    }

    Run run;
    run.id = Ids::make(QStringLiteral("rtr"));
    run.sessionId = session.id;
    run.requestedMode = requested;
    if (requested == QLatin1String("auto")) {
        run.routing = route(message, &run.mode);
    } else {
        run.mode = requested;
        run.routing = {{QStringLiteral("score"), requested == QLatin1String("planner") ? 1.0 : 0.0},
                       {QStringLiteral("reason"), QStringLiteral("requested")}};
    }
    run.message = message;
    run.a2wRunId = a2wRunId;
    run.taskBoundaryId = boundary;
    run.status = QStringLiteral("running");
    run.createdAt = run.updatedAt = now();
    m_repo->insertRun(run);
    session.activeRunId = run.id;
    appendEvent(session, QStringLiteral("run.started"), run.id,
                {{QStringLiteral("runId"), run.id},
                 {QStringLiteral("status"), run.status},
                 {QStringLiteral("mode"), run.mode},
                 {QStringLiteral("message"), message}});
    const QString sessionId = session.id;
    const QString runId = run.id;
    m_afterCommit.append([this, sessionId, runId] { Q_EMIT runStarted(sessionId, runId); });
    return {200, runInputData(session, run)};
}

RuntimeService::Answer RuntimeService::runControl(Session &session, const QJsonObject &body)
{
    const JsonFields f(body);
    const QString action =
        f.optionalEnum(QStringLiteral("action"),
                       {QStringLiteral("cancel"), QStringLiteral("end_task"),
                        QStringLiteral("new_task"), QStringLiteral("continue"),
                        QStringLiteral("share_result"), QStringLiteral("withhold_result")})
            .value_or(QString());
    if (action.isEmpty())
        throw DomainError::missingField(QStringLiteral("action"));
    if (action == QLatin1String("share_result") || action == QLatin1String("withhold_result"))
        return reviewResult(session, body, action);
    const QString reason = f.optionalString(QStringLiteral("reason")).value_or(QString());
    QString runId = f.optionalString(QStringLiteral("runId")).value_or(session.activeRunId);
    std::optional<Run> run = runId.isEmpty() ? std::nullopt : m_repo->findRun(runId);
    if (run && run->sessionId != session.id)
        run.reset();
    if (!session.activeRunId.isEmpty())
        checkSeq(session, body);
    if ((action == QLatin1String("cancel") || action == QLatin1String("end_task") ||
         action == QLatin1String("continue")) &&
        (!run || !run->isActive()))
        throw staleRun(runId.isEmpty() ? QStringLiteral("the session has no active run")
                                       : QStringLiteral("run %1 is not active").arg(runId),
                       QStringLiteral("runId"), session.activeRunId);
    if (action == QLatin1String("cancel")) {
        settleRun(session, *run, QStringLiteral("cancelled"), reason);
    } else if (action == QLatin1String("end_task")) {
        // The visitor ends the task: the run ends as done by them, and a new task begins.
        settleRun(session, *run, QStringLiteral("completed"),
                  reason.isEmpty() ? QStringLiteral("ended by the visitor") : reason);
        ++session.epoch;
        appendEvent(session, QStringLiteral("task.boundary"), QString(),
                    {{QStringLiteral("epoch"), session.epoch}});
    } else if (action == QLatin1String("new_task")) {
        if (run && run->isActive())
            settleRun(session, *run, QStringLiteral("cancelled"), QStringLiteral("new task"));
        ++session.epoch;
        appendEvent(session, QStringLiteral("task.boundary"), QString(),
                    {{QStringLiteral("epoch"), session.epoch}});
    } else { // continue: carried across a page load, or the loop goes on
        static const QStringList reasons = {QStringLiteral("loop_continue"),
                                            QStringLiteral("same_tab_navigation_handoff"),
                                            QStringLiteral("awaiting_user")};
        const QString why = reason.isEmpty() ? QStringLiteral("loop_continue") : reason;
        if (body.contains(QStringLiteral("stepId")))
            return deliverStep(session, body);
        if (!reasons.contains(why))
            throw invalid(
                QStringLiteral("reason"),
                QStringLiteral("must be one of %1").arg(reasons.join(QStringLiteral(", "))));
        run->status = QStringLiteral("running");
        run->continuationReason = why;
        run->updatedAt = now();
        m_repo->updateRun(*run);
        appendEvent(session, QStringLiteral("run.transition"), run->id,
                    {{QStringLiteral("runId"), run->id},
                     {QStringLiteral("status"), run->status},
                     {QStringLiteral("continuationReason"), why}});
    }
    QJsonObject data{{QStringLiteral("action"), action},
                     {QStringLiteral("currentSeq"), session.seq},
                     {QStringLiteral("projection"), projection(session, session.seq, false)}};
    if (run)
        data.insert(QStringLiteral("runId"), run->id);
    return {200, data};
}

RuntimeService::Answer RuntimeService::reviewResult(Session &session, const QJsonObject &body,
                                                    const QString &action)
{
    const JsonFields f(body);
    const QString runId = f.optionalString(QStringLiteral("runId")).value_or(QString());
    if (runId.isEmpty())
        throw DomainError::missingField(QStringLiteral("runId"));
    std::optional<Run> run = m_repo->findRun(runId);
    if (!run || run->sessionId != session.id || run->a2wRunId.isEmpty())
        throw staleRun(QStringLiteral("run %1 is no A2W run of this session").arg(runId),
                       QStringLiteral("runId"), session.activeRunId);
    const QString review = run->result.value(QStringLiteral("a2wReview")).toString();
    if (review != QLatin1String("pending"))
        throw DomainError(
            DomainError::Kind::Conflict, QStringLiteral("NOT_WAITING_FOR_REVIEW"),
            review.isEmpty()
                ? QStringLiteral("run %1 has no result waiting for the visitor").arg(runId)
                : QStringLiteral("the visitor decided already (%1)").arg(review),
            QStringLiteral("runId"), {{QStringLiteral("retryable"), false}});
    if (!m_reviewer)
        throw invalid(QStringLiteral("action"),
                      QStringLiteral("A2W results cannot be shared here"));
    const bool share = action == QLatin1String("share_result");
    // Exactly what the visitor was shown in the a2w.review event.
    QJsonObject shown{{QStringLiteral("text"), run->result.value(QStringLiteral("text"))}};
    if (run->result.contains(QStringLiteral("json")))
        shown.insert(QStringLiteral("json"), run->result.value(QStringLiteral("json")));
    m_reviewer(run->a2wRunId, share, share ? shown : QJsonObject());
    const QString decided = share ? QStringLiteral("shared") : QStringLiteral("withheld");
    run->result.insert(QStringLiteral("a2wReview"), decided);
    run->updatedAt = now();
    m_repo->updateRun(*run);
    appendEvent(session, QStringLiteral("a2w.reviewed"), runId,
                {{QStringLiteral("runId"), runId},
                 {QStringLiteral("a2wRunId"), run->a2wRunId},
                 {QStringLiteral("a2wReview"), decided}});
    return {200,
            {{QStringLiteral("action"), action},
             {QStringLiteral("runId"), runId},
             {QStringLiteral("a2wRunId"), run->a2wRunId},
             {QStringLiteral("a2wReview"), decided},
             {QStringLiteral("currentSeq"), session.seq}}};
}

RuntimeService::Adversarial RuntimeService::assessUrl(const QString &url, const QString &siteHost)
{
    Adversarial a;
    const QUrl u(url);
    auto add = [&a](double s, const QString &why) {
        a.score += s;
        a.reasons << why;
    };
    if (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https"))
        add(1.0, QStringLiteral("scheme %1 is not http(s)").arg(u.scheme()));
    if (!u.userName().isEmpty() || !u.password().isEmpty())
        add(0.5, QStringLiteral("credentials in the URL"));
    const QString host = sites::AllowedDomains::normalizeHost(u.host());
    if (sites::AllowedDomains::isIpAddress(host))
        add(0.3, QStringLiteral("an IP address as host"));
    if (host.startsWith(QLatin1String("xn--")) || host.contains(QLatin1String(".xn--")))
        add(0.3, QStringLiteral("an internationalised (punycode) host"));
    // The site's name inside another registrable domain: shop.example.com.evil.test.
    const QString own = sites::AllowedDomains::registrableDomain(siteHost);
    const QString theirs = sites::AllowedDomains::registrableDomain(host);
    if (!own.isEmpty() && own != theirs && host.contains(own))
        add(0.5, QStringLiteral("the site's domain inside another domain"));
    if (url.size() > 2000)
        add(0.2, QStringLiteral("a very long URL"));
    a.score = qMin(1.0, a.score);
    return a;
}

RuntimeService::Answer RuntimeService::tabEvent(Session &session, const QJsonObject &body)
{
    const JsonFields f(body);
    QString target = f.optionalString(QStringLiteral("targetUrl")).value_or(QString());
    const QString targetField =
        target.isEmpty() ? QStringLiteral("url") : QStringLiteral("targetUrl");
    if (target.isEmpty())
        target = f.optionalString(QStringLiteral("url")).value_or(QString());
    if (target.isEmpty())
        throw DomainError::missingField(QStringLiteral("targetUrl"));
    const QUrl targetUrl(target);
    if (!targetUrl.isValid() || targetUrl.scheme().isEmpty())
        throw invalid(targetField, QStringLiteral("must be an absolute URL"));
    const QString runId = f.optionalString(QStringLiteral("runId")).value_or(QString());
    const QString clientEventId = body.value(QStringLiteral("clientEventId")).toString();
    const QString tabId =
        f.optionalString(QStringLiteral("logicalTabId")).value_or(QStringLiteral("main"));
    const QString currentUrl = f.optionalString(QStringLiteral("currentUrl")).value_or(session.url);
    const std::optional<double> clientScore =
        f.optionalNumber(QStringLiteral("adversarialScore"), 0, 1);

    QJsonObject d{{QStringLiteral("sessionId"), session.id},
                  {QStringLiteral("sessionEpoch"), session.epoch},
                  {QStringLiteral("clientEventId"), clientEventId}};
    // A tab event of a run that is not the active one: stale, non-fatal.
    if (!runId.isEmpty() && runId != session.activeRunId) {
        d.insert(QStringLiteral("decision"), QStringLiteral("stale_run"));
        d.insert(QStringLiteral("decisionReason"), QStringLiteral("stale_run"));
        d.insert(QStringLiteral("decisionHint"), QStringLiteral("sync_projection_and_ignore"));
        d.insert(QStringLiteral("staleRun"), true);
        d.insert(QStringLiteral("staleRunReason"), session.activeRunId.isEmpty()
                                                       ? QStringLiteral("no_active_run")
                                                       : QStringLiteral("not_the_active_run"));
        d.insert(QStringLiteral("runId"), runId);
        d.insert(QStringLiteral("currentRunId"), session.activeRunId);
        d.insert(QStringLiteral("currentActiveRunId"), session.activeRunId);
        d.insert(QStringLiteral("currentSeq"), session.seq);
        return {200, d};
    }
    if (!session.activeRunId.isEmpty())
        checkSeq(session, body);

    const std::optional<sites::SiteKey> key = m_sites.findKey(session.keyId);
    const QJsonObject policy = policyOf(key);
    const QString currentHost = hostOf(currentUrl).isEmpty() ? session.host : hostOf(currentUrl);
    const QString targetHost = hostOf(target);
    const bool webScheme =
        targetUrl.scheme() == QLatin1String("http") || targetUrl.scheme() == QLatin1String("https");
    QString navigationClass;
    if (webScheme && targetHost == currentHost)
        navigationClass = QStringLiteral("same_host_in_scope");
    else if (webScheme && key &&
             sites::AllowedDomains::allows(key->allowedDomains, key->domainScope(), target))
        navigationClass = QStringLiteral("cross_host_in_scope");
    else
        navigationClass = QStringLiteral("cross_registrable_external");

    // The adversarial score: the server's reading, merged with the client's (the higher).
    Adversarial adv = assessUrl(target, session.host);
    if (clientScore && *clientScore > adv.score) {
        adv.score = *clientScore;
        adv.reasons << QStringLiteral("client score %1").arg(*clientScore);
    }
    auto listed = [&](const QString &name) {
        QStringList entries;
        for (const QJsonValue &v : policy.value(name).toArray())
            entries << v.toString();
        return !entries.isEmpty() && webScheme &&
               sites::AllowedDomains::allows(entries, sites::DomainScope::RegistrableDomain,
                                             target);
    };
    QString decision;
    QString notice;
    if (!webScheme) {
        decision = QStringLiteral("block");
        notice = QStringLiteral("Only web pages can be opened.");
    } else if (adv.score >= blockScore()) {
        decision = QStringLiteral("block");
        notice = QStringLiteral("This link looks unsafe and was blocked.");
    } else if (navigationClass != QLatin1String("cross_registrable_external")) {
        decision = QStringLiteral("allow_same_tab");
    } else if (listed(QStringLiteral("externalDenyDomains"))) {
        decision = QStringLiteral("block");
        notice = QStringLiteral("The site does not allow opening %1.").arg(targetHost);
    } else {
        // External and not denied: it opens in a new tab, the site stays where it is.
        decision = QStringLiteral("open_new_tab");
        notice = listed(QStringLiteral("externalAllowDomains"))
                     ? QString()
                     : QStringLiteral("%1 opens in a new tab.").arg(targetHost);
    }
    const QString reason =
        decision == QLatin1String("block") ? QStringLiteral("policy_blocked") : decision;
    Tab tab;
    tab.updatedAt = now();
    tab.url = targetUrl.toString(QUrl::RemoveUserInfo);
    if (decision == QLatin1String("open_new_tab")) {
        tab.logicalTabId = QStringLiteral("tab_%1").arg(session.seq + 1);
        tab.parentTabId = tabId;
        tab.scope = QStringLiteral("external");
        tab.status = QStringLiteral("open");
    } else {
        tab.logicalTabId = tabId;
        tab.scope = navigationClass == QLatin1String("cross_registrable_external")
                        ? QStringLiteral("external")
                        : QStringLiteral("in_scope");
        tab.status =
            decision == QLatin1String("block") ? QStringLiteral("blocked") : QStringLiteral("open");
        if (decision == QLatin1String("block"))
            tab.reason = adv.reasons.isEmpty() ? reason : adv.reasons.join(QStringLiteral("; "));
    }
    m_repo->upsertTab(session.id, tab);
    if (decision == QLatin1String("allow_same_tab"))
        session.url = tab.url;

    d.insert(QStringLiteral("decision"), decision);
    d.insert(QStringLiteral("decisionReason"), reason);
    d.insert(QStringLiteral("decisionHint"),
             decision == QLatin1String("allow_same_tab") ? QStringLiteral("navigate_same_tab")
             : decision == QLatin1String("open_new_tab") ? QStringLiteral("open_in_new_tab")
                                                         : QStringLiteral("stay_on_page"));
    if (!notice.isEmpty())
        d.insert(QStringLiteral("notice"), notice);
    d.insert(QStringLiteral("staleRun"), false);
    d.insert(QStringLiteral("currentActiveRunId"), session.activeRunId);
    if (!runId.isEmpty())
        d.insert(QStringLiteral("runId"), runId);
    d.insert(QStringLiteral("currentHost"), currentHost);
    d.insert(QStringLiteral("targetHost"), targetHost);
    d.insert(QStringLiteral("isCrossHost"), targetHost != currentHost);
    d.insert(QStringLiteral("crossDomain"),
             navigationClass == QLatin1String("cross_registrable_external"));
    d.insert(QStringLiteral("navigationClass"), navigationClass);
    d.insert(QStringLiteral("adversarial"),
             QJsonObject{{QStringLiteral("score"), adv.score},
                         {QStringLiteral("reasons"), QJsonArray::fromStringList(adv.reasons)}});
    d.insert(QStringLiteral("logicalTabId"), tab.logicalTabId);
    appendEvent(session, QStringLiteral("tab.decision"), session.activeRunId,
                {{QStringLiteral("logicalTabId"), tab.logicalTabId},
                 {QStringLiteral("decision"), decision},
                 {QStringLiteral("navigationClass"), navigationClass},
                 {QStringLiteral("url"), tab.url}});
    d.insert(QStringLiteral("currentSeq"), session.seq);
    return {200, d};
}

// --- steps on the visitor's page ------------------------------------------------------

void RuntimeService::requestStep(const QString &sessionId, const QString &runId, QJsonObject step,
                                 int timeoutMs, StepDone done)
{
    const QString stepId = QStringLiteral("step_%1_%2").arg(++m_stepCounter).arg(Ids::base62(6));
    try {
        write([&] {
            std::optional<Session> session = m_repo->findSession(sessionId);
            if (!session || session->activeRunId != runId)
                throw DomainError(DomainError::Kind::Conflict, QStringLiteral("stale_run"),
                                  QStringLiteral("the run is no longer the session's active run"));
            step.insert(QStringLiteral("stepId"), stepId);
            step.insert(QStringLiteral("runId"), runId);
            step.insert(QStringLiteral("timeoutMs"), timeoutMs);
            appendEvent(*session, QStringLiteral("page.request"), runId, step);
            m_repo->updateSession(*session);
        });
    } catch (const DomainError &e) {
        QTimer::singleShot(0, this, [done, message = e.message()] { done(false, {}, message); });
        return;
    }
    PendingStep pending{sessionId, runId, std::move(done), new QTimer(this)};
    pending.timer->setSingleShot(true);
    connect(pending.timer, &QTimer::timeout, this, [this, stepId, timeoutMs] {
        const auto it = m_steps.find(stepId);
        if (it == m_steps.end())
            return;
        PendingStep p = *it;
        m_steps.erase(it);
        p.timer->deleteLater();
        p.done(false, {},
               QStringLiteral("the visitor's page did not answer in %1 ms").arg(timeoutMs));
    });
    // The visitor's page may be loading the next document: the step waits a little
    // longer than the page operation itself.
    pending.timer->start(timeoutMs + 15000);
    m_steps.insert(stepId, pending);
    flush();
}

RuntimeService::Answer RuntimeService::deliverStep(Session &session, const QJsonObject &body)
{
    const QString stepId = body.value(QStringLiteral("stepId")).toString();
    const auto it = m_steps.constFind(stepId);
    if (it == m_steps.cend() || it->sessionId != session.id)
        throw staleRun(QStringLiteral("no step %1 is waiting for this session").arg(stepId),
                       QStringLiteral("stepId"), session.activeRunId);
    if (!body.value(QStringLiteral("result")).isObject())
        throw invalid(QStringLiteral("result"), QStringLiteral("must be an object"));
    const QJsonObject result = body.value(QStringLiteral("result")).toObject();
    const QString reason =
        body.value(QStringLiteral("reason")).toString(QStringLiteral("loop_continue"));
    std::optional<Run> run = m_repo->findRun(it->runId);
    if (run) {
        run->continuationReason = reason;
        run->updatedAt = now();
        m_repo->updateRun(*run);
    }
    if (const QString url = result.value(QStringLiteral("url")).toString(); !url.isEmpty())
        session.url = url;
    appendEvent(session, QStringLiteral("page.result"), it->runId,
                {{QStringLiteral("stepId"), stepId},
                 {QStringLiteral("ok"), result.value(QStringLiteral("ok")).toBool()},
                 {QStringLiteral("continuationReason"), reason}});
    m_afterCommit.append([this, stepId, result] {
        const auto found = m_steps.find(stepId);
        if (found == m_steps.end())
            return;
        PendingStep p = *found;
        m_steps.erase(found);
        p.timer->stop();
        p.timer->deleteLater();
        p.done(true, result, QString());
    });
    return {200,
            {{QStringLiteral("action"), QStringLiteral("continue")},
             {QStringLiteral("runId"), it->runId},
             {QStringLiteral("stepId"), stepId},
             {QStringLiteral("currentSeq"), session.seq},
             {QStringLiteral("projection"), projection(session, session.seq, false)}}};
}

void RuntimeService::failSteps(const QString &runId, const QString &why)
{
    QStringList ids;
    for (auto it = m_steps.cbegin(); it != m_steps.cend(); ++it)
        if (it->runId == runId)
            ids << it.key();
    for (const QString &id : std::as_const(ids)) {
        PendingStep p = m_steps.take(id);
        p.timer->stop();
        p.timer->deleteLater();
        p.done(false, {}, why);
    }
}

void RuntimeService::runProgress(const QString &runId, const QString &status,
                                 const QJsonObject &data)
{
    write([&] {
        std::optional<Run> run = m_repo->findRun(runId);
        if (!run || !run->isActive())
            return;
        std::optional<Session> session = m_repo->findSession(run->sessionId);
        if (!session)
            return;
        if (status == QLatin1String("running")) {
            if (run->status != QLatin1String("running")) {
                run->status = QStringLiteral("running");
                run->updatedAt = now();
                m_repo->updateRun(*run);
                appendEvent(
                    *session, QStringLiteral("run.transition"), runId,
                    {{QStringLiteral("runId"), runId}, {QStringLiteral("status"), run->status}});
            }
            if (data.contains(QStringLiteral("step")))
                appendEvent(*session, QStringLiteral("run.step"), runId,
                            data.value(QStringLiteral("step")).toObject());
        } else if (status == QLatin1String("awaiting_user")) {
            run->status = QStringLiteral("awaiting_user");
            run->updatedAt = now();
            m_repo->updateRun(*run);
            appendEvent(*session, QStringLiteral("run.transition"), runId,
                        {{QStringLiteral("runId"), runId},
                         {QStringLiteral("status"), run->status},
                         {QStringLiteral("questions"), data.value(QStringLiteral("questions"))}});
            appendEvent(*session, QStringLiteral("run.message"), runId,
                        {{QStringLiteral("role"), QStringLiteral("assistant")},
                         {QStringLiteral("text"), data.value(QStringLiteral("text"))}});
        } else {
            // completed or failed: the run's answer, then its end.
            run->result = data;
            appendEvent(
                *session, QStringLiteral("run.message"), runId,
                {{QStringLiteral("role"), QStringLiteral("assistant")},
                 {QStringLiteral("text"),
                  status == QLatin1String("completed")
                      ? data.value(QStringLiteral("text"))
                      : QJsonValue(QStringLiteral("I could not finish that: %1")
                                       .arg(data.value(QStringLiteral("error")).toString()))},
                 {QStringLiteral("status"), status}});
            // A claimed A2W run's result stays the visitor's: they are shown it and asked
            // whether to share it with the agent (RUN_CONTROL share_result/withhold_result).
            const bool review = status == QLatin1String("completed") && !run->a2wRunId.isEmpty();
            if (review)
                run->result.insert(QStringLiteral("a2wReview"), QStringLiteral("pending"));
            settleRun(*session, *run,
                      status == QLatin1String("completed") ? QStringLiteral("completed")
                                                           : QStringLiteral("failed"),
                      data.value(QStringLiteral("error")).toString(), false);
            if (review) {
                QJsonObject shown{{QStringLiteral("runId"), runId},
                                  {QStringLiteral("a2wRunId"), run->a2wRunId},
                                  {QStringLiteral("text"), data.value(QStringLiteral("text"))}};
                if (data.contains(QStringLiteral("json")))
                    shown.insert(QStringLiteral("json"), data.value(QStringLiteral("json")));
                appendEvent(*session, QStringLiteral("a2w.review"), runId, shown);
            }
        }
        m_repo->updateSession(*session);
    });
    flush();
}

// --- checkpoints, telemetry, external context ----------------------------------------

QJsonObject RuntimeService::saveSnapshot(const Session &s, const QJsonObject &body)
{
    const JsonFields f(body);
    QString field = QStringLiteral("checkpoint");
    if (!body.value(field).isObject())
        field = QStringLiteral("payload");
    if (!body.value(field).isObject())
        throw invalid(QStringLiteral("checkpoint"),
                      QStringLiteral("checkpoint or payload (an object) is required"));
    QJsonObject payload = body.value(field).toObject();
    if (const auto steps = f.optionalArray(QStringLiteral("compactedPrevSteps")))
        payload.insert(QStringLiteral("compactedPrevSteps"), *steps);
    if (const auto summary = f.optionalString(QStringLiteral("chatSummary")))
        payload.insert(QStringLiteral("chatSummary"), *summary);
    Snapshot snap;
    snap.version = f.optionalInt(QStringLiteral("version"), 1, 1000000).value_or(1);
    snap.seq =
        f.optionalInt(QStringLiteral("seq"), 0, std::numeric_limits<qint64>::max()).value_or(s.seq);
    snap.visitorId = f.optionalString(QStringLiteral("visitorId")).value_or(QString()).left(128);
    snap.updatedAt =
        f.optionalInt(QStringLiteral("updatedAt"), 0, std::numeric_limits<qint64>::max())
            .value_or(now());
    const qint64 ttlHours = f.optionalInt(QStringLiteral("ttlHours"), 1, 24 * 30).value_or(24);
    snap.expiresAt = now() + ttlHours * 3600 * 1000;
    // A checkpoint older than the stored one is not written over it.
    if (const auto stored = m_repo->snapshotOf(s.id, now());
        stored && (stored->version > snap.version ||
                   (stored->version == snap.version && stored->seq > snap.seq)))
        throw DomainError(
            DomainError::Kind::Conflict, QStringLiteral("stale_seq"),
            QStringLiteral("a newer checkpoint (version %1, seq %2) is stored")
                .arg(stored->version)
                .arg(stored->seq),
            QStringLiteral("seq"),
            {{QStringLiteral("currentSeq"), stored->seq},
             {QStringLiteral("decisionReason"), QStringLiteral("stale_seq_retryable")},
             {QStringLiteral("retryable"), true},
             {QStringLiteral("conflict"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("stale_seq")},
                          {QStringLiteral("currentSeq"), stored->seq},
                          {QStringLiteral("retryable"), true}}}});
    const QByteArray json = QJsonDocument(payload).toJson(QJsonDocument::Compact);
    snap.bytes = json.size();
    const qint64 maxBytes = m_settings.int64Value(SettingKeys::runtimeMaxSnapshotBytes);
    if (snap.bytes > maxBytes)
        throw overQuota(QStringLiteral("SNAPSHOT_TOO_LARGE"),
                        QStringLiteral("the checkpoint is %1 bytes; the limit is %2 (%3)")
                            .arg(snap.bytes)
                            .arg(maxBytes)
                            .arg(SettingKeys::runtimeMaxSnapshotBytes),
                        field, SettingKeys::runtimeMaxSnapshotBytes, maxBytes, 0, snap.bytes);
    const bool offload = json.size() > m_settings.intValue(SettingKeys::runtimeSnapshotInlineBytes);
    // One checkpoint per session: the new one replaces the stored one (and its object) in
    // the same transaction, and counts against the quotas in place of it.
    write([&] {
        const std::optional<Snapshot> current = m_repo->snapshotOf(s.id, now());
        checkQuota(s, current ? current->bytes : 0, snap.bytes, field);
        if (offload) {
            // Oversized: the payload goes to storage, the row keeps its reference.
            snap.objectId =
                m_store.objects()
                    .put(s.keyId, QStringLiteral("runtime_snapshot"),
                         s.id + QStringLiteral(".json"), QStringLiteral("application/json"), json,
                         ttlHours * 3600 * 1000)
                    .id;
        } else {
            snap.payload = payload;
        }
        m_repo->upsertSnapshot(s.id, snap);
    });
    return {{QStringLiteral("sessionId"), s.id},
            {QStringLiteral("version"), snap.version},
            {QStringLiteral("seq"), snap.seq},
            {QStringLiteral("bytes"), snap.bytes},
            {QStringLiteral("offloaded"), offload},
            {QStringLiteral("updatedAt"), snap.updatedAt},
            {QStringLiteral("expiresAt"), snap.expiresAt}};
}

QJsonObject RuntimeService::ingestTelemetry(const Session &s, const QJsonObject &body)
{
    const JsonFields f(body);
    const std::optional<QJsonArray> events = f.optionalArray(QStringLiteral("events"));
    if (!events)
        throw DomainError::missingField(QStringLiteral("events"));
    const int maxEvents = m_settings.intValue(SettingKeys::runtimeTelemetryMaxEvents);
    const int maxBytes = m_settings.intValue(SettingKeys::runtimeTelemetryMaxEventBytes);
    QJsonArray kept;
    int truncated = 0;
    for (const QJsonValue &e : *events) {
        if (kept.size() >= maxEvents)
            break;
        const QString json = JsonText::from(e);
        if (json.toUtf8().size() > maxBytes) {
            ++truncated;
            const QJsonObject o = e.toObject();
            kept.append(QJsonObject{
                {QStringLiteral("type"), o.value(QStringLiteral("type")).toString().left(64)},
                {QStringLiteral("truncated"), true},
                {QStringLiteral("bytes"), json.toUtf8().size()}});
        } else {
            kept.append(e);
        }
    }
    const int dropped = int(events->size() - kept.size());
    QJsonObject batch{{QStringLiteral("events"), kept}};
    for (const QString &k : {QStringLiteral("runId"), QStringLiteral("flushReason"),
                             QStringLiteral("pageUrl"), QStringLiteral("sdkVersion")})
        if (const auto v = f.optionalString(k))
            batch.insert(k, v->left(k == QLatin1String("pageUrl") ? 2048 : 128));
    write([&] {
        checkQuota(s, 0, RuntimeRepository::telemetryBytes(batch), QStringLiteral("events"));
        m_repo->insertTelemetry(s.id, batch, dropped, now());
    });
    return {{QStringLiteral("accepted"), kept.size()},
            {QStringLiteral("dropped"), dropped},
            {QStringLiteral("truncated"), truncated},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("maxEvents"), maxEvents},
                                                   {QStringLiteral("maxEventBytes"), maxBytes}}}};
}

QJsonObject RuntimeService::externalDecision(const Session &s, const QJsonObject &body)
{
    const JsonFields f(body);
    const QString runId = f.requiredString(QStringLiteral("runId"));
    const QString url = f.requiredString(QStringLiteral("url"));
    const QString intent = f.optionalEnum(QStringLiteral("intent"),
                                          {QStringLiteral("open_only"),
                                           QStringLiteral("read_context"), QStringLiteral("act")})
                               .value_or(QString());
    if (intent.isEmpty())
        throw DomainError::missingField(QStringLiteral("intent"));
    QJsonObject out;
    write([&] {
        Session session = m_repo->findSession(s.id).value_or(s);
        checkEpoch(session, body);
        checkSeq(session, body);
        if (runId != session.activeRunId)
            throw staleRun(QStringLiteral("run %1 is not the session's active run").arg(runId),
                           QStringLiteral("runId"), session.activeRunId);
        const QUrl u(url);
        if (!u.isValid() ||
            (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https")) ||
            u.host().isEmpty())
            throw invalid(QStringLiteral("url"), QStringLiteral("must be an http(s) URL"));
        const std::optional<sites::SiteKey> key = m_sites.findKey(session.keyId);
        const QJsonObject caps =
            key ? capabilitiesOf(*key) : sites::SiteConfigSchema::capabilityDefaults();
        const QJsonObject policy = policyOf(key);
        // Capability checks on every call.
        if (intent != QLatin1String("open_only") &&
            !caps.value(QStringLiteral("externalWebContextScrape")).toBool())
            throw forbidden(QStringLiteral("CAPABILITY_DISABLED"),
                            QStringLiteral("the site key's externalWebContextScrape capability is "
                                           "off: only open_only is allowed"),
                            QStringLiteral("intent"));
        if (intent == QLatin1String("act") &&
            !policy.value(QStringLiteral("cloudSandboxEnabled")).toBool())
            throw forbidden(QStringLiteral("CAPABILITY_DISABLED"),
                            QStringLiteral("acting on external pages needs the site policy's "
                                           "cloudSandboxEnabled"),
                            QStringLiteral("intent"));
        // act carries the visitor's task (message, or userInput).
        if (intent == QLatin1String("act") &&
            body.value(QStringLiteral("message"))
                .toString(body.value(QStringLiteral("userInput")).toString())
                .trimmed()
                .isEmpty())
            throw DomainError::missingField(QStringLiteral("message"));
        QStringList deny;
        for (const QJsonValue &v : policy.value(QStringLiteral("externalDenyDomains")).toArray())
            deny << v.toString();
        const Adversarial adv = assessUrl(url, session.host);
        QString decision = QStringLiteral("allow");
        QString reason;
        if (!deny.isEmpty() &&
            sites::AllowedDomains::allows(deny, sites::DomainScope::RegistrableDomain, url)) {
            decision = QStringLiteral("block");
            reason = QStringLiteral("policy_blocked");
        } else if (adv.score >= blockScore()) {
            decision = QStringLiteral("block");
            reason = QStringLiteral("adversarial_score");
        }
        Tab tab;
        tab.logicalTabId = f.optionalString(QStringLiteral("logicalTabId"))
                               .value_or(QStringLiteral("ext_%1").arg(session.seq + 1));
        tab.scope = QStringLiteral("external");
        tab.url = u.toString(QUrl::RemoveUserInfo);
        tab.status =
            decision == QLatin1String("block") ? QStringLiteral("blocked") : QStringLiteral("open");
        tab.reason = reason;
        tab.updatedAt = now();
        m_repo->upsertTab(session.id, tab);
        appendEvent(session, QStringLiteral("external.decision"), runId,
                    {{QStringLiteral("intent"), intent},
                     {QStringLiteral("decision"), decision},
                     {QStringLiteral("url"), tab.url}});
        m_repo->updateSession(session);
        out = {{QStringLiteral("decision"), decision},
               {QStringLiteral("intent"), intent},
               {QStringLiteral("url"), tab.url},
               {QStringLiteral("logicalTabId"), tab.logicalTabId},
               {QStringLiteral("currentSeq"), session.seq},
               {QStringLiteral("adversarial"),
                QJsonObject{{QStringLiteral("score"), adv.score},
                            {QStringLiteral("reasons"), QJsonArray::fromStringList(adv.reasons)}}}};
        if (!reason.isEmpty())
            out.insert(QStringLiteral("decisionReason"), reason);
    });
    flush();
    return out;
}

// --- analytics beacon ----------------------------------------------------------------

QString RuntimeService::collect(const QHash<QString, QString> &q)
{
    const QString sid = q.value(QStringLiteral("sid"));
    const qint64 exp = q.value(QStringLiteral("exp")).toLongLong();
    const QByteArray expected = beaconSignature(sid, exp);
    if (sid.isEmpty() ||
        !Ids::equalConstantTime(expected, q.value(QStringLiteral("sig")).toLatin1()))
        throw DomainError::unauthorized(QStringLiteral("SIGNATURE_INVALID"),
                                        QStringLiteral("the beacon's signature does not hold"));
    if (exp <= now())
        throw DomainError::unauthorized(QStringLiteral("SIGNATURE_EXPIRED"),
                                        QStringLiteral("the beacon's signature has expired; "
                                                       "refresh the session"));
    const std::optional<Session> session = m_repo->findSession(sid);
    if (!session)
        throw DomainError::unauthorized(QStringLiteral("SIGNATURE_INVALID"),
                                        QStringLiteral("no such session"));
    const QString kind = q.value(QStringLiteral("kind"));
    const QString name = q.value(QStringLiteral("name")).left(120);
    if (kind != QLatin1String("goal") && kind != QLatin1String("event") &&
        kind != QLatin1String("conversion"))
        throw invalid(QStringLiteral("kind"), QStringLiteral("must be goal, event or conversion"));
    if (name.isEmpty())
        throw DomainError::missingField(QStringLiteral("name"));
    QJsonObject doc{{QStringLiteral("kind"), kind},
                    {QStringLiteral("name"), name},
                    {QStringLiteral("sessionId"), sid},
                    {QStringLiteral("source"), QStringLiteral("runtime")}};
    if (kind == QLatin1String("goal"))
        doc.insert(QStringLiteral("goal"), name);
    if (kind == QLatin1String("conversion"))
        doc.insert(QStringLiteral("converted"), true);
    if (q.contains(QStringLiteral("value"))) {
        bool ok = false;
        const double v = q.value(QStringLiteral("value")).toDouble(&ok);
        if (!ok)
            throw invalid(QStringLiteral("value"), QStringLiteral("must be a number"));
        doc.insert(QStringLiteral("value"), v);
    }
    if (q.contains(QStringLiteral("currency")))
        doc.insert(QStringLiteral("currency"), q.value(QStringLiteral("currency")).left(8));
    if (q.contains(QStringLiteral("props"))) {
        const QJsonObject props =
            QJsonDocument::fromJson(q.value(QStringLiteral("props")).toUtf8()).object();
        doc.insert(QStringLiteral("properties"), sanitizeContext(props));
    }
    if (q.contains(QStringLiteral("page")))
        doc.insert(QStringLiteral("pageUrl"), q.value(QStringLiteral("page")).left(2048));
    return m_analytics.record(session->siteId, sites::AnalyticsRepository::Collection::Interaction,
                              doc);
}

void RuntimeService::markTab(const QString &sessionId, const QString &logicalTabId,
                             const QString &status)
{
    write([&] {
        std::optional<Session> session = m_repo->findSession(sessionId);
        if (!session)
            return;
        for (Tab t : m_repo->tabsOf(sessionId)) {
            if (t.logicalTabId != logicalTabId)
                continue;
            t.status = status;
            t.updatedAt = now();
            m_repo->upsertTab(sessionId, t);
            appendEvent(*session, QStringLiteral("tab.status"), session->activeRunId,
                        {{QStringLiteral("logicalTabId"), logicalTabId},
                         {QStringLiteral("status"), status}});
            m_repo->updateSession(*session);
        }
    });
    flush();
}

// --- console -------------------------------------------------------------------------

QList<Session> RuntimeService::liveSessions(int limit) const
{
    return m_repo->liveSessions(limit);
}

void RuntimeService::endActiveRun(const QString &sessionId, const QString &reason)
{
    write([&] {
        std::optional<Session> session = m_repo->findSession(sessionId);
        if (!session)
            throw DomainError::notFound(QStringLiteral("no such runtime session"));
        std::optional<Run> run =
            session->activeRunId.isEmpty() ? std::nullopt : m_repo->findRun(session->activeRunId);
        if (!run || !run->isActive())
            throw DomainError(DomainError::Kind::Conflict, QStringLiteral("stale_run"),
                              QStringLiteral("the session has no active run"));
        settleRun(*session, *run, QStringLiteral("cancelled"), reason);
        m_repo->updateSession(*session);
    });
    flush();
}

} // namespace ph::runtime
