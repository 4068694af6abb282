#include "DevicesController.h"

#include "DeviceService.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "http/Exchange.h"

#include <QDateTime>
#include <QJsonArray>

namespace ph::devices {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {
QString iso(qint64 ms)
{
    return ms > 0 ? QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs)
                  : QString();
}
} // namespace

DevicesController::DevicesController(DeviceService &devices, QObject *parent)
    : QObject(parent)
    , m_devices(devices)
{}

QList<Route> DevicesController::routes()
{
    using C = DevicesController;
    return {
        Route::to("POST", QStringLiteral("/devices/pair"), AuthPolicy::ApiKey, this, &C::pair),
        Route::to("POST", QStringLiteral("/devices/claim"), AuthPolicy::Public, this, &C::claim),
        Route::to("GET", QStringLiteral("/devices"), AuthPolicy::ApiKey, this, &C::list),
        Route::to("DELETE", QStringLiteral("/devices/{id}"), AuthPolicy::ApiKey, this, &C::revoke),
        Route::to("PUT", QStringLiteral("/devices/scripts/{keyId}"), AuthPolicy::ApiKey, this,
                  &C::grantScripts),
    };
}

void DevicesController::pair(Exchange &ex)
{
    const DeviceService::Pairing p = m_devices.pair(ex.request().principal);
    ex.respondJson(
        201, {{QStringLiteral("code"), p.code}, {QStringLiteral("expiresAt"), iso(p.expiresAt)}});
}

void DevicesController::claim(Exchange &ex)
{
    const JsonFields fields(ex.request().jsonObject());
    const QString code = fields.requiredString(QStringLiteral("code"));
    const QString name = fields.optionalString(QStringLiteral("name")).value_or(QString());
    const QString version = fields.optionalString(QStringLiteral("version")).value_or(QString());
    const DeviceService::Claimed c =
        m_devices.claim(code, name, version, ex.request().remoteAddress.toString());
    ex.respondJson(201,
                   {{QStringLiteral("deviceId"), c.deviceId}, {QStringLiteral("token"), c.token}});
}

void DevicesController::list(Exchange &ex)
{
    QJsonArray out;
    for (const DeviceInfo &d : m_devices.list(ex.request().principal)) {
        out.append(
            QJsonObject{{QStringLiteral("id"), d.id},
                        {QStringLiteral("name"), d.name},
                        {QStringLiteral("version"), d.version},
                        {QStringLiteral("status"), d.connected ? QStringLiteral("connected")
                                                               : QStringLiteral("disconnected")},
                        {QStringLiteral("createdAt"), iso(d.createdAt)},
                        {QStringLiteral("lastSeenAt"), iso(d.lastSeenAt)},
                        {QStringLiteral("tabCount"), d.tabs.size()}});
    }
    ex.respondJson(200, {{QStringLiteral("devices"), out}});
}

void DevicesController::revoke(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    m_devices.revoke(ex.request().principal, id);
    ex.respondJson(200, {{QStringLiteral("id"), id}, {QStringLiteral("revoked"), true}});
}

void DevicesController::grantScripts(Exchange &ex)
{
    const JsonFields fields(ex.request().jsonObject());
    const std::optional<bool> given = fields.optionalBool(QStringLiteral("allowed"));
    if (!given)
        throw DomainError::missingField(QStringLiteral("allowed"));
    const bool allowed = *given;
    const QString keyId = ex.request().param(QStringLiteral("keyId"));
    m_devices.setScriptsGranted(ex.request().principal, keyId, allowed);
    ex.respondJson(200, {{QStringLiteral("keyId"), keyId}, {QStringLiteral("allowed"), allowed}});
}

} // namespace ph::devices
