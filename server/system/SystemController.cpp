#include "SystemController.h"

#include "ApiKeyService.h"
#include "SettingsService.h"

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
                                   ApiKeyService &keys, SettingsService &settingsService,
                                   QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_pool(pool)
    , m_keys(keys)
    , m_settingsService(settingsService)
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

void SystemController::patchSettingsRoute(Exchange &ex)
{
    m_settingsService.apply(ex.request().jsonObject());
    getSettings(ex);
}

void SystemController::listKeys(Exchange &ex)
{
    QJsonArray list;
    for (const ApiKey &k : m_keys.list())
        list.append(keyJson(k, m_store.credits().totals(k.id)));
    ex.respondJson(200, {{QStringLiteral("keys"), list}});
}

void SystemController::postKey(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    ApiKeyService::NewKey key;
    key.label = body.requiredString(QStringLiteral("label"));
    key.role =
        body.optionalEnum(QStringLiteral("role"), {QStringLiteral("user"), QStringLiteral("owner")})
            .value_or(QStringLiteral("user"));
    if (body.object().contains(QStringLiteral("balance")))
        key.balanceMilli = readBalance(body);
    const auto minted = m_keys.mint(key);
    QJsonObject o = keyJson(minted.key, {});
    o.insert(QStringLiteral("key"), minted.secret); // shown once, never again
    ex.respondJson(201, o);
}

void SystemController::updateKey(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    // An unknown key is 404 before the body is read (as it always was).
    if (!m_store.apiKeys().find(id))
        throw DomainError::notFound(QStringLiteral("no API key %1").arg(id));
    const JsonFields body(ex.request().jsonObject());
    if (!body.object().contains(QStringLiteral("balance")))
        throw DomainError::missingField(QStringLiteral("balance"));
    const ApiKey key = m_keys.setBalance(id, readBalance(body), ex.request().principal.keyId);
    ex.respondJson(200, keyJson(key, m_store.credits().totals(id)));
}

void SystemController::deleteKey(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    const ApiKey key = m_keys.revoke(id, ex.request().principal.keyId);
    ex.respondJson(200, keyJson(key, m_store.credits().totals(id)));
}

void SystemController::usage(Exchange &ex)
{
    const QString id = ex.request().principal.keyId;
    const auto key = m_store.apiKeys().find(id);
    ex.respondJson(200, keyJson(*key, m_store.credits().totals(id)));
}

} // namespace ph::sys
