#include "SystemController.h"

#include "browser/BrowserPool.h"
#include "core/ApiKeyService.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/SettingsService.h"
#include "http/Exchange.h"

#include <QHash>
#include <QJsonArray>

#include <limits>

namespace ph::sys {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

QJsonValue creditsOrNull(std::optional<qint64> milli)
{
    return milli ? QJsonValue(creditsFromMilli(*milli)) : QJsonValue();
}

// A setting as GET /settings shows it: its value (a secret's as {"set": true|false},
// Settings::masked), what it is, and what a form needs to offer it — the same definition
// the console reads.
QJsonObject settingJson(const SettingsService::Entry &e)
{
    using D = Settings::Definition;
    const D &d = *e.definition;
    QJsonObject o{{QStringLiteral("key"), d.key},
                  {QStringLiteral("value"), e.shown},
                  {QStringLiteral("help"), d.help}};
    switch (d.type) {
    case QJsonValue::Bool:
        o.insert(QStringLiteral("type"), QStringLiteral("boolean"));
        break;
    case QJsonValue::Double: // every number setting is a whole number (validate())
        o.insert(QStringLiteral("type"), QStringLiteral("integer"));
        break;
    default:
        o.insert(QStringLiteral("type"), QStringLiteral("string"));
    }
    if (d.secret)
        o.insert(QStringLiteral("secret"), true);
    else
        o.insert(QStringLiteral("default"), d.defaultValue);
    if (d.maximum > 0) {
        o.insert(QStringLiteral("minimum"), d.minimum);
        o.insert(QStringLiteral("maximum"), d.maximum);
    }
    static const QHash<D::Unit, QString> units{
        {D::Unit::Bytes, QStringLiteral("bytes")},
        {D::Unit::BytesPerSecond, QStringLiteral("bytesPerSecond")},
        {D::Unit::Milliseconds, QStringLiteral("ms")},
        {D::Unit::Seconds, QStringLiteral("s")},
        {D::Unit::Hours, QStringLiteral("h")},
        {D::Unit::Percent, QStringLiteral("percent")},
        {D::Unit::PerMinute, QStringLiteral("perMinute")},
        {D::Unit::Url, QStringLiteral("url")}};
    if (units.contains(d.unit))
        o.insert(QStringLiteral("unit"), units.value(d.unit));
    o.insert(QStringLiteral("applies"),
             d.applies == D::Applies::AfterRestart     ? QStringLiteral("afterRestart")
             : d.applies == D::Applies::ForNewSessions ? QStringLiteral("forNewSessions")
                                                       : QStringLiteral("immediately"));
    if (!d.choices.isEmpty())
        o.insert(QStringLiteral("choices"), QJsonArray::fromStringList(d.choices));
    return o;
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

QJsonObject keyJson(const ApiKeyService::KeyUsage &k)
{
    return keyJson(k.key, k.usage);
}

// {balance}: null for unlimited, else a number (its range is the service's check).
ApiKeyService::Balance readBalance(const JsonFields &body)
{
    const QJsonValue v = body.object().value(QStringLiteral("balance"));
    if (v.isNull() || v.isUndefined())
        return ApiKeyService::Balance::unlimited();
    return ApiKeyService::Balance::of(*body.optionalNumber(QStringLiteral("balance"),
                                                           std::numeric_limits<double>::lowest(),
                                                           std::numeric_limits<double>::max()));
}

} // namespace

SystemController::SystemController(ApiKeyService &keys, SettingsService &settings,
                                   BrowserPool &pool, QObject *parent)
    : QObject(parent)
    , m_keys(keys)
    , m_settings(settings)
    , m_pool(pool)
{}

QList<Route> SystemController::routes()
{
    using C = SystemController;
    return {
        Route::to("GET", QStringLiteral("/health"), AuthPolicy::Public, this, &C::health),
        Route::to("GET", QStringLiteral("/settings"), AuthPolicy::Owner, this, &C::getSettings),
        Route::to("PATCH", QStringLiteral("/settings"), AuthPolicy::Owner, this, &C::patchSettings),
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
    for (const SettingsService::Entry &e : m_settings.list())
        list.append(settingJson(e));
    ex.respondJson(200, {{QStringLiteral("settings"), list}});
}

void SystemController::patchSettings(Exchange &ex)
{
    const QJsonObject body = ex.request().jsonObject();
    SettingsPatch patch;
    for (auto it = body.begin(); it != body.end(); ++it)
        patch.append({it.key(), it.value()});
    m_settings.apply(patch);
    getSettings(ex);
}

void SystemController::listKeys(Exchange &ex)
{
    QJsonArray list;
    for (const ApiKeyService::KeyUsage &k : m_keys.list())
        list.append(keyJson(k));
    ex.respondJson(200, {{QStringLiteral("keys"), list}});
}

void SystemController::postKey(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    ApiKeyService::NewKey request;
    request.label = body.requiredString(QStringLiteral("label"));
    request.role =
        body.optionalEnum(QStringLiteral("role"), {QStringLiteral("user"), QStringLiteral("owner")})
            .value_or(QStringLiteral("user"));
    if (body.object().contains(QStringLiteral("balance")))
        request.balance = readBalance(body);
    const auto minted = m_keys.mint(request);
    QJsonObject o = keyJson(minted.key, {});
    o.insert(QStringLiteral("key"), minted.secret); // shown once, never again
    ex.respondJson(201, o);
}

void SystemController::updateKey(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    // An unknown key is 404 before the body is read (as it always was).
    m_keys.find(id);
    const JsonFields body(ex.request().jsonObject());
    if (!body.object().contains(QStringLiteral("balance")))
        throw DomainError::missingField(QStringLiteral("balance"));
    m_keys.setBalance(id, readBalance(body), ex.request().principal.keyId);
    ex.respondJson(200, keyJson(m_keys.find(id)));
}

void SystemController::deleteKey(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    m_keys.revoke(id, ex.request().principal.keyId);
    ex.respondJson(200, keyJson(m_keys.find(id)));
}

void SystemController::usage(Exchange &ex)
{
    ex.respondJson(200, keyJson(m_keys.find(ex.request().principal.keyId)));
}

} // namespace ph::sys
