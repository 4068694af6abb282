#include "RuntimeSessions.h"

#include "RuntimeCommon.h"
#include "RuntimeJournal.h"
#include "RuntimeTelemetry.h"

#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/JsonFields.h"
#include "core/JsonText.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace ph::runtime {

namespace {
constexpr int kContextTokenChars = 2048;
} // namespace

RuntimeSessions::RuntimeSessions(RuntimeJournal &journal)
    : m_journal(journal)
{}

void RuntimeSessions::checkOpenRate(const QString &who, const QString &setting,
                                    const QString &scope)
{
    const qint64 at = m_journal.now();
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
    const int limit = m_journal.settings().intValue(setting);
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

OpenedSession RuntimeSessions::open(const QJsonObject &body, const QString &bearer,
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
        if (std::optional<OpenedSession> refreshed = refresh(f, presented))
            return *refreshed;
    }
    const QString publicKey = f.optionalString(QStringLiteral("publicKey")).value_or(QString());
    const QString bootstrapToken =
        f.optionalString(QStringLiteral("bootstrapToken")).value_or(QString());
    if (publicKey.isEmpty() && bootstrapToken.isEmpty()) {
        if (!presented.isEmpty()) {
            const auto row = m_journal.repo().findToken(hashOf(presented),
                                                        RuntimeRepository::TokenKind::Session);
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
    const QString contextToken = contextTokenOf(body.value(QStringLiteral("visitor")).toObject());
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

    const sites::SiteKey key = publicKey.isEmpty()
                                   ? keyOfBootstrapToken(bootstrapToken, host, pageField)
                                   : keyOfPublicKey(publicKey);
    admit(key, siteId, url, host, pageField);
    // A new session counts against its site once the key let it in.
    checkOpenRate(siteId, SettingKeys::runtimeSessionOpensPerMinutePerSite, QStringLiteral("site"));

    Session session;
    // Public-key bootstrap always starts a new random session (a sessionId in the body
    // is a correlation hint only).
    session.id = Ids::make(QStringLiteral("rts"));
    session.siteId = siteId;
    session.keyId = key.id;
    session.host = host;
    session.url = parsed.toString(QUrl::RemoveUserInfo | QUrl::RemoveFragment);
    session.clientAddress = clientAddress;
    session.createdAt = session.updatedAt = m_journal.now();
    const QJsonObject visitor = body.value(QStringLiteral("visitor")).toObject();
    session.context = sanitizeContext(visitor.value(QStringLiteral("context")).toObject());
    m_journal.write([&] {
        m_journal.repo().insertSession(session);
        m_journal.appendEvent(session, QStringLiteral("session.opened"), QString(),
                              {{QStringLiteral("host"), host}});
        m_journal.repo().updateSession(session);
    });
    // visitor.contextToken on the bootstrap open: exchanged like on /session/context, so a
    // page can hand the site server's vouched context over in its first call.
    QJsonObject tokenState;
    if (!contextToken.isEmpty()) {
        QStringList dropped;
        tokenState = exchangeContextToken(session, contextToken, &dropped);
        m_journal.write([&] { m_journal.repo().updateSession(session); });
    }
    m_journal.flush();
    OpenedSession opened = finishOpen(session, key, false);
    opened.contextToken = tokenState;
    return opened;
}

QString RuntimeSessions::contextTokenOf(const QJsonObject &visitor)
{
    if (!visitor.contains(QStringLiteral("contextToken")))
        return {};
    const QJsonValue value = visitor.value(QStringLiteral("contextToken"));
    const QString token = value.toString();
    if (!value.isString() || token.isEmpty())
        throw invalid(QStringLiteral("visitor.contextToken"),
                      QStringLiteral("must be a non-empty string"));
    if (token.size() > kContextTokenChars)
        throw invalid(QStringLiteral("visitor.contextToken"),
                      QStringLiteral("is longer than %1 characters").arg(kContextTokenChars));
    return token;
}

std::optional<OpenedSession> RuntimeSessions::refresh(const JsonFields &f, const QString &presented)
{
    const auto row =
        m_journal.repo().findToken(hashOf(presented), RuntimeRepository::TokenKind::Session);
    if (!row || row->expiresAt <= m_journal.now())
        return std::nullopt;
    const QString wanted = f.optionalString(QStringLiteral("sessionId")).value_or(QString());
    if (!wanted.isEmpty() && wanted != row->sessionId)
        throw tokenInvalid(QStringLiteral("sessionId is not the session of this token"));
    std::optional<Session> session = m_journal.repo().findSession(row->sessionId);
    if (!session || session->endedAt)
        throw tokenInvalid(QStringLiteral("the session has ended"));
    const std::optional<sites::SiteKey> key = m_journal.sites().findKey(session->keyId);
    if (!key || !key->isUsable(m_journal.now()))
        throw authError(QStringLiteral("BOOTSTRAP_REQUIRED"),
                        QStringLiteral("the site key of this session is no longer usable"), false,
                        QStringLiteral("supply a valid pk_site_* publicKey"));
    return finishOpen(*session, *key, true);
}

sites::SiteKey RuntimeSessions::keyOfPublicKey(const QString &publicKey) const
{
    const std::optional<sites::SiteKey> key = m_journal.sites().findUsableKeyByPublicKey(publicKey);
    if (!key)
        throw authError(QStringLiteral("BOOTSTRAP_REQUIRED"),
                        QStringLiteral("publicKey is not an active site key"), false,
                        QStringLiteral("supply a valid pk_site_* publicKey"));
    return *key;
}

sites::SiteKey RuntimeSessions::keyOfBootstrapToken(const QString &bootstrapToken,
                                                    const QString &host, const QString &pageField)
{
    // A bootstrap token the site's server minted with its secret key: single use.
    std::optional<sites::SiteKey> key;
    {
        std::optional<RuntimeRepository::SiteToken> token;
        m_journal.write([&] {
            token = m_journal.repo().takeSiteToken(hashOf(bootstrapToken),
                                                   QStringLiteral("bootstrap"), m_journal.now());
        });
        if (token)
            key = m_journal.sites().findKey(token->keyId);
        if (!token || !key || !key->isUsable(m_journal.now()))
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
    return *key;
}

void RuntimeSessions::admit(const sites::SiteKey &key, const QString &siteId, const QString &url,
                            const QString &host, const QString &pageField) const
{
    if (key.siteId != siteId)
        throw forbidden(QStringLiteral("SITE_KEY_MISMATCH"),
                        QStringLiteral("the site key belongs to another site"),
                        QStringLiteral("siteId"));
    if (!key.allowsUrl(url, m_journal.now()))
        throw forbidden(QStringLiteral("DOMAIN_NOT_ALLOWED"),
                        QStringLiteral("%1 is not among the key's allowed domains").arg(host),
                        pageField);
    if (!capabilitiesOf(key).value(QStringLiteral("embed")).toBool())
        throw forbidden(QStringLiteral("CAPABILITY_DISABLED"),
                        QStringLiteral("the key's embed capability is off"),
                        QStringLiteral("publicKey"));
    if (key.sitePolicy.value(QStringLiteral("siteMode")).toString() == QLatin1String("paused"))
        throw forbidden(QStringLiteral("SITE_PAUSED"),
                        QStringLiteral("the site's runtime is paused by its owner"),
                        QStringLiteral("siteId"));
}

OpenedSession RuntimeSessions::finishOpen(const Session &session, const sites::SiteKey &key,
                                          bool refreshed)
{
    OpenedSession o;
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
    o.siteConfig =
        sites::SiteConfigSchema::effective(m_journal.sites().config(session.siteId).config);
    mintTokens(o);
    return o;
}

void RuntimeSessions::mintTokens(OpenedSession &o)
{
    const qint64 ttl =
        qint64(m_journal.settings().intValue(SettingKeys::runtimeSessionTokenSeconds)) * 1000;
    o.sessionToken = Ids::make(QStringLiteral("sess"), 32);
    o.streamToken = Ids::make(QStringLiteral("stream"), 32);
    o.sessionTokenExpiresAt = m_journal.now() + ttl;
    m_journal.write([&] {
        m_journal.repo().purgeTokens(m_journal.now() - ttl);
        m_journal.repo().insertToken(hashOf(o.sessionToken), o.session.id,
                                     RuntimeRepository::TokenKind::Session,
                                     o.sessionTokenExpiresAt);
        m_journal.repo().insertToken(hashOf(o.streamToken), o.session.id,
                                     RuntimeRepository::TokenKind::Stream, o.sessionTokenExpiresAt);
    });
    // The analytics beacon: the session id and an expiry, signed with the server's key
    // (GET /v2/runtime/collect). It lets the SDK report goals with sendBeacon or an
    // image, with no bearer token in a URL.
    const qint64 exp = m_journal.now() + 24 * 3600 * 1000;
    const QByteArray sig = RuntimeTelemetry::beaconSignature(m_journal.store(), o.session.id, exp);
    o.analytics = {{QStringLiteral("sid"), o.session.id},
                   {QStringLiteral("exp"), exp},
                   {QStringLiteral("sig"), QString::fromLatin1(sig)}};
}

// The analytics beacon's signature: HMAC-SHA256 of "sid.exp" with a key derived from the

Session RuntimeSessions::authenticate(const QString &sessionToken, const QString &sessionId) const
{
    if (sessionToken.isEmpty())
        throw tokenInvalid(QStringLiteral("no session token (Authorization: Bearer sess_… or "
                                          "sessionToken in the body)"));
    const auto row =
        m_journal.repo().findToken(hashOf(sessionToken), RuntimeRepository::TokenKind::Session);
    if (!row)
        throw tokenInvalid(QStringLiteral("the session token is not valid"));
    if (row->expiresAt <= m_journal.now())
        throw authError(QStringLiteral("SESSION_TOKEN_EXPIRED"),
                        QStringLiteral("the session token has expired"), true,
                        QStringLiteral("bootstrap: send the public key to session/open"));
    if (!sessionId.isEmpty() && sessionId != row->sessionId)
        throw tokenInvalid(QStringLiteral("sessionId is not the session of this token"));
    const std::optional<Session> session = m_journal.repo().findSession(row->sessionId);
    if (!session || session->endedAt)
        throw tokenInvalid(QStringLiteral("the session has ended"));
    return *session;
}

Session RuntimeSessions::authenticateStream(const QString &ticket) const
{
    const auto row =
        m_journal.repo().findToken(hashOf(ticket), RuntimeRepository::TokenKind::Stream);
    if (!row)
        throw tokenInvalid(QStringLiteral("streamTicket is not a valid stream ticket"));
    if (row->expiresAt <= m_journal.now())
        throw authError(QStringLiteral("SESSION_TOKEN_EXPIRED"),
                        QStringLiteral("the stream ticket has expired"), true,
                        QStringLiteral("refresh the session (session/open with sessionToken)"));
    const std::optional<Session> session = m_journal.repo().findSession(row->sessionId);
    if (!session || session->endedAt)
        throw tokenInvalid(QStringLiteral("the session has ended"));
    return *session;
}

QJsonObject RuntimeSessions::updateContext(const Session &s, const QJsonObject &body)
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
        if (const QString token = contextTokenOf(v); !token.isEmpty())
            tokenState = exchangeContextToken(session, token, &dropped);
    } else if (!visitor.isUndefined()) {
        throw invalid(QStringLiteral("visitor"), QStringLiteral("must be an object or null"));
    }
    m_journal.write([&] {
        m_journal.appendEvent(
            session, QStringLiteral("context.updated"), QString(),
            {{QStringLiteral("keys"), QJsonArray::fromStringList(session.context.keys())},
             {QStringLiteral("cleared"), visitor.isNull()}});
        m_journal.repo().updateSession(session);
    });
    m_journal.flush();
    QJsonObject out{{QStringLiteral("sessionId"), session.id},
                    {QStringLiteral("context"), session.context},
                    {QStringLiteral("dropped"), QJsonArray::fromStringList(dropped)}};
    if (!tokenState.isEmpty())
        out.insert(QStringLiteral("contextToken"), tokenState);
    return out;
}

QJsonObject RuntimeSessions::exchangeContextToken(Session &session, const QString &token,
                                                  QStringList *dropped)
{
    // Exchanged once, never stored raw: only its hash is kept, to refuse a second
    // exchange. The resolver fails open: an unresolved token leaves the session as
    // it is (docs/api/runtime.md, "Visitor context").
    const QString hash = hashOf(token);
    bool fresh = false;
    std::optional<RuntimeRepository::SiteToken> minted;
    m_journal.write([&] {
        fresh = m_journal.repo().exchangeContextToken(hash, session.id, m_journal.now());
        if (fresh)
            minted =
                m_journal.repo().takeSiteToken(hash, QStringLiteral("context"), m_journal.now());
    });
    QString status = fresh ? QStringLiteral("unresolved") : QStringLiteral("already_exchanged");
    if (minted && minted->siteId == session.siteId) {
        // What the site's server vouched for, sanitized like visitor.context.
        const QJsonObject vouched =
            sanitizeContext(QJsonDocument::fromJson(
                                m_journal.store().secrets().unseal(minted->sealedPayload).toUtf8())
                                .object(),
                            dropped);
        for (auto it = vouched.begin(); it != vouched.end(); ++it)
            session.context.insert(it.key(), it.value());
        session.context = sanitizeContext(session.context, dropped);
        status = QStringLiteral("resolved");
    }
    // The resolver fails open: an unresolved token leaves the session as it is.
    return {{QStringLiteral("status"), status},
            {QStringLiteral("resolver"), QStringLiteral("fail_open")}};
}

MintedSiteToken RuntimeSessions::mintSiteToken(const QString &secret, const QJsonObject &body)
{
    const std::optional<sites::SiteKey> key = m_journal.sites().findUsableKeyBySecret(secret);
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
    t.expiresAt = m_journal.now() + 5 * 60 * 1000;
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
        t.sealedPayload = m_journal.store().secrets().seal(JsonText::from(payload));
    }
    MintedSiteToken out;
    out.kind = kind;
    out.token = Ids::make(
        kind == QLatin1String("bootstrap") ? QStringLiteral("bt") : QStringLiteral("ctx"), 32);
    out.expiresAt = t.expiresAt;
    m_journal.write(
        [&] { m_journal.repo().insertSiteToken(hashOf(out.token), t, m_journal.now()); });
    return out;
}

} // namespace ph::runtime
