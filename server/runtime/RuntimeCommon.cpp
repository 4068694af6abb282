#include "RuntimeCommon.h"

#include "RuntimeRepository.h"

#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/JsonText.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"

#include <QJsonArray>
#include <QUrl>

#include <algorithm>

namespace ph::runtime {

namespace {

constexpr int kContextBytes = 2048;
constexpr int kRecentRequests = 3;

QJsonObject overDefaults(QJsonObject defaults, const QJsonObject &set)
{
    for (auto it = set.begin(); it != set.end(); ++it)
        defaults.insert(it.key(), it.value());
    return defaults;
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

} // namespace

QString hashOf(const QString &token)
{
    return Ids::sha256Hex(token.toUtf8());
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

QJsonObject sanitizeContext(const QJsonObject &context, QStringList *dropped)
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

} // namespace ph::runtime
