#include "Settings.h"

#include "Clock.h"
#include "Store.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace ph {

const QList<Settings::Definition> &Settings::definitions()
{
    using T = QJsonValue::Type;
    static const QList<Definition> defs = {
        {SettingKeys::maxBodyBytes, T::Double, 10 * 1024 * 1024, 1024, 1024.0 * 1024 * 1024,
         QStringLiteral("Largest accepted request body in bytes; larger bodies get 413.")},
        {SettingKeys::allowPrivateTargets, T::Bool, QJsonValue(), 0, 0,
         QStringLiteral("Allow browsing and callbacks to loopback, private and link-local "
                        "addresses. Defaults to on when bound to loopback, else off.")},
        {SettingKeys::poolSize, T::Double, 4, 1, 64,
         QStringLiteral("Browser pages that work at once.")},
        {SettingKeys::poolQueueLimit, T::Double, 64, 0, 100000,
         QStringLiteral("Page requests that may wait for a free page; beyond it, 429.")},
        {SettingKeys::poolStandby, T::Double, 1, 0, 64,
         QStringLiteral("Fresh isolated pages prepared ahead of need.")},
        {SettingKeys::navigationTimeoutMs, T::Double, 30000, 100, 600000,
         QStringLiteral("Default time limit of one navigation in milliseconds.")},
        {SettingKeys::scrapeMaxUrls, T::Double, 100, 1, 10000,
         QStringLiteral("Most URLs one /scrape request may carry.")},
        {SettingKeys::scrapeMaxTreeNodes, T::Double, 2000, 10, 200000,
         QStringLiteral("Default node cap of an accessibility tree.")},
        {SettingKeys::shutdownGraceMs, T::Double, 5000, 0, 120000,
         QStringLiteral("How long shutdown waits for in-flight requests before failing them.")},
        {SettingKeys::oidcIssuer, T::String, QString(), 0, 0,
         QStringLiteral(
             "OpenID issuer whose ID tokens authenticate the site owner (the `iss` "
             "claim, e.g. https://accounts.example.com). Empty: ID tokens are refused.")},
        {SettingKeys::oidcAudience, T::String, QString(), 0, 0,
         QStringLiteral("The `aud` an ID token must carry (the client id the issuer gave you).")},
        {SettingKeys::oidcJwksUri, T::String, QString(), 0, 0,
         QStringLiteral("Where the issuer's signing keys are. Empty: discovered from "
                        "<issuer>/.well-known/openid-configuration.")},
        {SettingKeys::oidcOwners, T::String, QString(), 0, 0,
         QStringLiteral("Comma-separated `sub` or `email` values accepted as the owner. Empty: "
                        "every valid ID token of the issuer and audience is the owner.")},
        {SettingKeys::oidcJwksMinRefreshMs, T::Double, 60000, 0, 86400000,
         QStringLiteral("Least time between two key fetches caused by tokens with an unknown "
                        "key id.")},
    };
    return defs;
}

const Settings::Definition *Settings::definition(const QString &key)
{
    for (const auto &d : definitions()) {
        if (d.key == key)
            return &d;
    }
    return nullptr;
}

Settings::Settings(Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    Sql q(m_store, QStringLiteral("SELECT key, value FROM settings"));
    q.exec();
    while (q.next()) {
        const auto doc = QJsonDocument::fromJson("[" + q.value(1).toString().toUtf8() + "]");
        if (doc.isArray() && definition(q.value(0).toString()))
            m_stored.insert(q.value(0).toString(), doc.array().at(0));
    }
}

QJsonValue Settings::value(const QString &key) const
{
    if (auto it = m_overrides.constFind(key); it != m_overrides.cend())
        return *it;
    if (auto it = m_stored.constFind(key); it != m_stored.cend())
        return *it;
    if (auto it = m_runtimeDefaults.constFind(key); it != m_runtimeDefaults.cend())
        return *it;
    const Definition *d = definition(key);
    return d ? d->defaultValue : QJsonValue();
}

int Settings::intValue(const QString &key) const
{
    return int(value(key).toDouble());
}

qint64 Settings::int64Value(const QString &key) const
{
    return qint64(value(key).toDouble());
}

bool Settings::boolValue(const QString &key) const
{
    return value(key).toBool();
}

QString Settings::stringValue(const QString &key) const
{
    return value(key).toString();
}

QString Settings::validate(const QString &key, const QJsonValue &value) const
{
    const Definition *d = definition(key);
    if (!d)
        return QStringLiteral("unknown setting %1").arg(key);
    if (value.type() != d->type) {
        const char *expected = d->type == QJsonValue::Bool     ? "a boolean"
                               : d->type == QJsonValue::Double ? "a number"
                                                               : "a string";
        return QStringLiteral("%1 must be %2").arg(key, QLatin1String(expected));
    }
    if (d->type == QJsonValue::Double) {
        const double v = value.toDouble();
        if (v != std::floor(v))
            return QStringLiteral("%1 must be a whole number").arg(key);
        if (d->maximum > 0 && (v < d->minimum || v > d->maximum))
            return QStringLiteral("%1 must be between %2 and %3")
                .arg(key)
                .arg(qint64(d->minimum))
                .arg(qint64(d->maximum));
    }
    return {};
}

QString Settings::set(const QString &key, const QJsonValue &value)
{
    if (QString error = validate(key, value); !error.isEmpty())
        return error;
    const QByteArray encoded = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    Sql(m_store, QStringLiteral("INSERT INTO settings (key, value, updated_at) VALUES (:k, :v, :t)"
                                " ON CONFLICT(key) DO UPDATE SET value = excluded.value,"
                                " updated_at = excluded.updated_at"))
        .bind(QStringLiteral(":k"), key)
        .bind(QStringLiteral(":v"), QString::fromUtf8(encoded.mid(1, encoded.size() - 2)))
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .exec();
    m_stored.insert(key, value);
    Q_EMIT changed(key);
    return {};
}

QString Settings::setOverride(const QString &assignment)
{
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return QStringLiteral("expected KEY=VALUE, got '%1'").arg(assignment);
    const QString key = assignment.left(eq).trimmed();
    const QString raw = assignment.mid(eq + 1).trimmed();
    const Definition *d = definition(key);
    if (!d)
        return QStringLiteral("unknown setting %1").arg(key);
    QJsonValue v;
    if (d->type == QJsonValue::Bool) {
        if (raw == QLatin1String("true") || raw == QLatin1String("on") || raw == QLatin1String("1"))
            v = true;
        else if (raw == QLatin1String("false") || raw == QLatin1String("off") ||
                 raw == QLatin1String("0"))
            v = false;
    } else if (d->type == QJsonValue::Double) {
        bool ok = false;
        const double n = raw.toDouble(&ok);
        if (ok)
            v = n;
    } else {
        v = raw;
    }
    if (QString error = validate(key, v); !error.isEmpty())
        return error;
    m_overrides.insert(key, v);
    Q_EMIT changed(key);
    return {};
}

void Settings::setRuntimeDefault(const QString &key, const QJsonValue &value)
{
    m_runtimeDefaults.insert(key, value);
}

QJsonObject Settings::snapshot() const
{
    QJsonObject out;
    for (const auto &d : definitions())
        out.insert(d.key, value(d.key));
    return out;
}

} // namespace ph
