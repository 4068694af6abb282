#include "IdTokenVerifier.h"

#include "core/DomainError.h"

#include "core/Clock.h"
#include "core/Settings.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkProxy>
#include <QNetworkReply>

Q_LOGGING_CATEGORY(lcIdToken, "pilothouse.http.idtoken")

namespace ph::http {

namespace {
[[noreturn]] void refuse(const QString &message)
{
    throw DomainError::unauthorized(QStringLiteral("ID_TOKEN_INVALID"),
                                    QStringLiteral("the ID token is not valid: %1").arg(message));
}

QString trimmedIssuer(QString issuer)
{
    while (issuer.endsWith(QLatin1Char('/')))
        issuer.chop(1);
    return issuer;
}
} // namespace

IdTokenVerifier::IdTokenVerifier(Settings &settings, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_clock(clock)
{
    // The identity provider is the operator's choice, not a caller's: it is reached
    // directly, never through the egress proxy that carries callers' traffic.
    m_nam.setProxy(QNetworkProxy::NoProxy);
    connect(&m_settings, &Settings::changed, this, &IdTokenVerifier::onSettingChanged);
    m_refreshTimer.setInterval(kRefreshIntervalMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &IdTokenVerifier::refresh);
    if (isConfigured()) {
        m_refreshTimer.start();
        refresh();
    }
}

bool IdTokenVerifier::isListedOwner(const QString &owners, const QJsonObject &claims)
{
    // Nobody is the owner by default: an empty list names no one (it used to make every
    // valid token of the issuer the owner, so anyone with an account there was).
    const QString subject = claims.value(QStringLiteral("sub")).toString();
    const QString email = claims.value(QStringLiteral("email")).toString();
    // An email counts only when the issuer vouches for it: many issuers let a user type
    // any address into a profile. `true`, or the string "true" some issuers send.
    const QJsonValue verified = claims.value(QStringLiteral("email_verified"));
    const bool emailVerified =
        verified.toBool(false) || verified.toString() == QLatin1String("true");
    for (const QString &entry : owners.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString want = entry.trimmed();
        if (want.isEmpty())
            continue;
        if (!subject.isEmpty() && want == subject)
            return true;
        if (emailVerified && !email.isEmpty() && want.compare(email, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

bool IdTokenVerifier::isConfigured() const
{
    return !m_settings.stringValue(SettingKeys::oidcIssuer).isEmpty() &&
           !m_settings.stringValue(SettingKeys::oidcAudience).isEmpty();
}

bool IdTokenVerifier::recognizes(const QString &credential) const
{
    return Jwt::looksLikeJwt(credential);
}

void IdTokenVerifier::onSettingChanged(const QString &key)
{
    if (!key.startsWith(QLatin1String("auth.oidc.")) || key == SettingKeys::oidcOwners ||
        key == SettingKeys::oidcJwksMinRefreshMs)
        return;
    // Another issuer or key location: forget the keys and fetch afresh.
    ++m_generation;
    m_keys = JwkSet();
    m_fetching = false;
    m_fetchedOnce = false;
    finish(false, {});
    if (isConfigured()) {
        m_refreshTimer.start();
        refresh();
    } else {
        m_refreshTimer.stop();
    }
}

void IdTokenVerifier::refresh()
{
    if (!isConfigured() || m_fetching)
        return;
    m_fetching = true;
    m_lastFetchMs = m_clock.nowMs();
    const QString jwksUri = m_settings.stringValue(SettingKeys::oidcJwksUri);
    auto loadKeys = [this](const QJsonObject &jwks) {
        const JwkSet keys = JwkSet::fromJson(jwks);
        if (keys.isEmpty()) {
            finish(false, QStringLiteral("the JWKS holds no usable RS256 or ES256 key"));
            return;
        }
        m_keys = keys;
        finish(true, {});
    };
    if (!jwksUri.isEmpty()) {
        get(QUrl(jwksUri), loadKeys);
        return;
    }
    const QString issuer = trimmedIssuer(m_settings.stringValue(SettingKeys::oidcIssuer));
    get(QUrl(issuer + QStringLiteral("/.well-known/openid-configuration")),
        [this, issuer, loadKeys](const QJsonObject &discovery) {
            if (trimmedIssuer(discovery.value(QStringLiteral("issuer")).toString()) != issuer) {
                finish(false, QStringLiteral("the discovery document names another issuer"));
                return;
            }
            const QUrl uri(discovery.value(QStringLiteral("jwks_uri")).toString());
            if (!uri.isValid() || uri.scheme().isEmpty()) {
                finish(false, QStringLiteral("the discovery document has no jwks_uri"));
                return;
            }
            get(uri, loadKeys);
        });
}

void IdTokenVerifier::get(const QUrl &url, const std::function<void(const QJsonObject &)> &next)
{
    QNetworkRequest request(url);
    request.setTransferTimeout(kFetchTimeoutMs);
    request.setRawHeader("Accept", "application/json");
    QNetworkReply *reply = m_nam.get(request);
    const int generation = m_generation;
    connect(reply, &QNetworkReply::finished, this, [this, reply, next, generation, url] {
        reply->deleteLater();
        if (generation != m_generation)
            return;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() != QNetworkReply::NoError || status != 200) {
            finish(false, QStringLiteral("GET %1 failed: %2")
                              .arg(url.toString(),
                                   status ? QString::number(status) : reply->errorString()));
            return;
        }
        const QJsonDocument doc = QJsonDocument::fromJson(reply->readAll());
        if (!doc.isObject()) {
            finish(false,
                   QStringLiteral("GET %1 did not return a JSON object").arg(url.toString()));
            return;
        }
        next(doc.object());
    });
}

void IdTokenVerifier::finish(bool ok, const QString &error)
{
    m_fetching = false;
    m_fetchedOnce = true;
    m_lastError = error;
    if (!ok && !error.isEmpty())
        qCWarning(lcIdToken) << "ID token keys:" << error;
    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &ready : waiting)
        ready();
    Q_EMIT fetchFinished(ok);
}

bool IdTokenVerifier::prepare(const QString &credential, const std::function<void()> &ready)
{
    if (!isConfigured())
        return true;
    const auto token = Jwt::parse(credential);
    if (!token || m_keys.hasKeyFor(*token))
        return true;
    if (m_fetching) {
        m_waiting.append(ready);
        return false;
    }
    const qint64 minInterval = m_settings.int64Value(SettingKeys::oidcJwksMinRefreshMs);
    if (m_fetchedOnce && m_clock.nowMs() - m_lastFetchMs < minInterval)
        return true; // rate-limited: verify() refuses the unknown key
    m_waiting.append(ready);
    refresh();
    return !m_fetching && m_waiting.isEmpty();
}

Principal IdTokenVerifier::verify(const QString &credential)
{
    if (!isConfigured()) {
        throw DomainError::unauthorized(
            QStringLiteral("ID_TOKEN_NOT_ACCEPTED"),
            QStringLiteral("ID tokens are not accepted here: the owner has not set "
                           "auth.oidc.issuer and auth.oidc.audience"));
    }
    const auto token = Jwt::parse(credential);
    if (!token)
        refuse(QStringLiteral("it is not a well-formed JWT"));
    switch (m_keys.verify(*token)) {
    case JwkSet::Result::Ok:
        break;
    case JwkSet::Result::UnsupportedAlgorithm:
        refuse(QStringLiteral("alg '%1' is not accepted (RS256, ES256)").arg(token->algorithm()));
    case JwkSet::Result::UnknownKey:
        refuse(m_keys.isEmpty()
                   ? QStringLiteral("the issuer's signing keys are not available")
                   : QStringLiteral("it is signed with a key the issuer does not publish"));
    case JwkSet::Result::BadSignature:
        refuse(QStringLiteral("the signature does not verify"));
    }
    const QJsonObject &c = token->claims;
    if (trimmedIssuer(c.value(QStringLiteral("iss")).toString()) !=
        trimmedIssuer(m_settings.stringValue(SettingKeys::oidcIssuer)))
        refuse(QStringLiteral("it was issued by another issuer"));
    const QString audience = m_settings.stringValue(SettingKeys::oidcAudience);
    const QJsonValue aud = c.value(QStringLiteral("aud"));
    const bool audienceOk =
        aud.isString() ? aud.toString() == audience : aud.toArray().contains(QJsonValue(audience));
    if (!audienceOk)
        refuse(QStringLiteral("it was issued for another audience"));
    const qint64 now = m_clock.nowMs();
    const QJsonValue exp = c.value(QStringLiteral("exp"));
    if (!exp.isDouble())
        refuse(QStringLiteral("it has no exp claim"));
    if (now > qint64(exp.toDouble() * 1000) + kLeewayMs) {
        throw DomainError::unauthorized(QStringLiteral("ID_TOKEN_EXPIRED"),
                                        QStringLiteral("the ID token has expired"));
    }
    const QJsonValue nbf = c.value(QStringLiteral("nbf"));
    if (nbf.isDouble() && now + kLeewayMs < qint64(nbf.toDouble() * 1000))
        refuse(QStringLiteral("it is not valid yet (nbf)"));
    const QString subject = c.value(QStringLiteral("sub")).toString();
    if (subject.isEmpty())
        refuse(QStringLiteral("it has no sub claim"));

    Principal p;
    p.kind = Principal::Kind::IdToken;
    p.subject = subject;
    const QString email = c.value(QStringLiteral("email")).toString();
    p.label = email.isEmpty() ? subject : email;
    p.owner = isListedOwner(m_settings.stringValue(SettingKeys::oidcOwners), c);
    return p;
}

} // namespace ph::http
