#include "SystemController.h"

#include "browser/BrowserPool.h"
#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "http/Exchange.h"

#include <QJsonArray>

#include <cmath>

namespace ph::sys {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

QJsonValue creditsOrNull(std::optional<qint64> milli)
{
    return milli ? QJsonValue(creditsFromMilli(*milli)) : QJsonValue();
}

QJsonObject keyJson(const ApiKey &k, const CreditLedger::Totals &t)
{
    QJsonObject o{{QStringLiteral("id"), k.id},
                  {QStringLiteral("label"), k.label},
                  {QStringLiteral("prefix"), k.prefix},
                  {QStringLiteral("role"), k.role},
                  {QStringLiteral("balance"), creditsOrNull(k.balanceMilli)},
                  {QStringLiteral("unlimited"), !k.balanceMilli.has_value()},
                  {QStringLiteral("createdAt"), Clock::isoUtc(k.createdAt)},
                  {QStringLiteral("active"), k.isActive()},
                  {QStringLiteral("usage"),
                   QJsonObject{{QStringLiteral("creditsUsed"), creditsFromMilli(t.usedMilli)},
                               {QStringLiteral("requests"), t.requests},
                               {QStringLiteral("pages"), t.pages},
                               {QStringLiteral("browserMs"), t.browserMs},
                               {QStringLiteral("tokens"), t.tokens}}}};
    o.insert(QStringLiteral("lastUsedAt"),
             k.lastUsedAt ? QJsonValue(Clock::isoUtc(*k.lastUsedAt)) : QJsonValue());
    if (k.revokedAt)
        o.insert(QStringLiteral("revokedAt"), Clock::isoUtc(*k.revokedAt));
    return o;
}

std::optional<qint64> readBalance(const JsonFields &body)
{
    const QJsonValue v = body.object().value(QStringLiteral("balance"));
    if (v.isNull() || v.isUndefined())
        return std::nullopt;
    const auto credits = body.optionalNumber(QStringLiteral("balance"), 0, 1e12);
    return qint64(std::llround(*credits * 1000));
}

} // namespace

SystemController::SystemController(Store &store, Settings &settings, BrowserPool &pool,
                                   QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_pool(pool)
{}

QList<Route> SystemController::routes()
{
    using C = SystemController;
    return {
        Route::to("GET", QStringLiteral("/health"), AuthPolicy::Public, this, &C::health),
        Route::to("GET", QStringLiteral("/settings"), AuthPolicy::Owner, this, &C::getSettings),
        Route::to("PATCH", QStringLiteral("/settings"), AuthPolicy::Owner, this,
                  &C::patchSettingsRoute),
        Route::to("GET", QStringLiteral("/keys"), AuthPolicy::Owner, this, &C::listKeys),
        Route::to("POST", QStringLiteral("/keys"), AuthPolicy::Owner, this, &C::postKey),
        Route::to("PATCH", QStringLiteral("/keys/{id}"), AuthPolicy::Owner, this, &C::updateKey),
        Route::to("DELETE", QStringLiteral("/keys/{id}"), AuthPolicy::Owner, this, &C::deleteKey),
        Route::to("GET", QStringLiteral("/usage"), AuthPolicy::ApiKey, this, &C::usage),
    };
}

void SystemController::health(Exchange &ex)
{
    const auto s = m_pool.stats();
    ex.respondJson(200,
                   {{QStringLiteral("status"), QStringLiteral("ok")},
                    {QStringLiteral("version"), QStringLiteral(PILOTHOUSE_VERSION)},
                    {QStringLiteral("pool"), QJsonObject{{QStringLiteral("size"), s.size},
                                                         {QStringLiteral("busy"), s.busy},
                                                         {QStringLiteral("queued"), s.queued}}}});
}

void SystemController::getSettings(Exchange &ex)
{
    QJsonArray list;
    for (const auto &d : Settings::definitions()) {
        list.append(
            QJsonObject{{QStringLiteral("key"), d.key},
                        {QStringLiteral("value"), Settings::masked(d, m_settings.value(d.key))},
                        {QStringLiteral("help"), d.help}});
    }
    ex.respondJson(200, {{QStringLiteral("settings"), list}});
}

void SystemController::patchSettings(Settings &settings, const QJsonObject &body)
{
    // Validate everything first so a bad value stores nothing.
    for (auto it = body.begin(); it != body.end(); ++it) {
        if (!Settings::definition(it.key()))
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNKNOWN_SETTING"),
                              QStringLiteral("%1 is not a setting").arg(it.key()), it.key());
    }
    for (auto it = body.begin(); it != body.end(); ++it) {
        const QString error = settings.set(it.key(), it.value());
        if (!error.isEmpty())
            throw DomainError::invalidField(it.key(), error.mid(it.key().size() + 1));
    }
}

void SystemController::patchSettingsRoute(Exchange &ex)
{
    patchSettings(m_settings, ex.request().jsonObject());
    getSettings(ex);
}

void SystemController::listKeys(Exchange &ex)
{
    QJsonArray list;
    for (const ApiKey &k : m_store.apiKeys().list())
        list.append(keyJson(k, m_store.credits().totals(k.id)));
    ex.respondJson(200, {{QStringLiteral("keys"), list}});
}

ApiKeyRepository::Minted SystemController::mintKey(Store &store, const QJsonObject &raw)
{
    const JsonFields body(raw);
    const QString label = body.requiredString(QStringLiteral("label"));
    const QString role =
        body.optionalEnum(QStringLiteral("role"), {QStringLiteral("user"), QStringLiteral("owner")})
            .value_or(QStringLiteral("user"));
    // Minted user keys carry a balance (default 1000 credits); owners are unlimited
    // unless a balance is given.
    std::optional<qint64> balance;
    if (body.object().contains(QStringLiteral("balance")))
        balance = readBalance(body);
    else if (role == QLatin1String("user"))
        balance = 1000 * 1000;
    return store.apiKeys().mint(label, role, balance);
}

void SystemController::postKey(Exchange &ex)
{
    const auto minted = mintKey(m_store, ex.request().jsonObject());
    QJsonObject o = keyJson(minted.key, {});
    o.insert(QStringLiteral("key"), minted.secret); // shown once, never again
    ex.respondJson(201, o);
}

ApiKey SystemController::setKeyBalance(Store &store, const QString &id, const QJsonObject &raw,
                                       const QString &actor)
{
    const auto key = store.apiKeys().find(id);
    if (!key)
        throw DomainError::notFound(QStringLiteral("no API key %1").arg(id));
    const JsonFields body(raw);
    if (!body.object().contains(QStringLiteral("balance")))
        throw DomainError::missingField(QStringLiteral("balance"));
    store.credits().setBalance(id, readBalance(body), QStringLiteral("set by %1").arg(actor));
    return *store.apiKeys().find(id);
}

ApiKey SystemController::revokeKey(Store &store, const QString &id, const QString &actorKeyId)
{
    if (!store.apiKeys().find(id))
        throw DomainError::notFound(QStringLiteral("no API key %1").arg(id));
    if (id == actorKeyId)
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("CANNOT_REVOKE_SELF"),
                          QStringLiteral("a key cannot revoke itself"));
    store.apiKeys().revoke(id);
    return *store.apiKeys().find(id);
}

void SystemController::updateKey(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    // An unknown key is 404 before the body is read (as it always was).
    if (!m_store.apiKeys().find(id))
        throw DomainError::notFound(QStringLiteral("no API key %1").arg(id));
    const ApiKey key =
        setKeyBalance(m_store, id, ex.request().jsonObject(), ex.request().principal.keyId);
    ex.respondJson(200, keyJson(key, m_store.credits().totals(id)));
}

void SystemController::deleteKey(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    const ApiKey key = revokeKey(m_store, id, ex.request().principal.keyId);
    ex.respondJson(200, keyJson(key, m_store.credits().totals(id)));
}

void SystemController::usage(Exchange &ex)
{
    const QString id = ex.request().principal.keyId;
    const auto key = m_store.apiKeys().find(id);
    ex.respondJson(200, keyJson(*key, m_store.credits().totals(id)));
}

} // namespace ph::sys
