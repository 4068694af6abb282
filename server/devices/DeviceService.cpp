#include "DeviceService.h"

#include "ClaimLimiter.h"
#include "DeviceRepository.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/Principal.h"
#include "core/Store.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QTimer>

Q_DECLARE_LOGGING_CATEGORY(lcDevices)

namespace ph::devices {

namespace {

// No 0/O, 1/I/L: a person types the code into the extension's options page.
const char kCodeAlphabet[] = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

QString newCode()
{
    QString code;
    const int n = int(sizeof(kCodeAlphabet)) - 1;
    for (int i = 0; i < 8; ++i) {
        if (i == 4)
            code += QLatin1Char('-');
        code += QLatin1Char(kCodeAlphabet[QRandomGenerator::system()->bounded(n)]);
    }
    return code;
}

// What a person may type: any case, with or without the dash or spaces.
QString normalisedCode(const QString &code)
{
    QString out;
    for (const QChar c : code.toUpper()) {
        if (c.isLetterOrNumber())
            out += c;
    }
    return out;
}

QString codeHash(const QString &code)
{
    return Ids::sha256Hex(normalisedCode(code).toUtf8());
}

} // namespace

DeviceService::DeviceService(Store &store, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_clock(clock)
    , m_repo(std::make_unique<DeviceRepository>(store))
    , m_claims(std::make_unique<ClaimLimiter>(clock, kPairingMs))
{}

DeviceService::~DeviceService()
{
    const QStringList calls = m_pending.keys();
    for (const QString &id : calls)
        finish(id, {}, QStringLiteral("the service is shutting down"));
}

DeviceService::Pairing DeviceService::pair(const Principal &caller)
{
    return pair(caller, caller.keyId);
}

DeviceService::Pairing DeviceService::pair(const Principal &caller, const QString &keyId)
{
    if (caller.keyId.isEmpty() || keyId.isEmpty())
        throw DomainError::forbidden(QStringLiteral("devices are paired to an API key"));
    if (keyId != caller.keyId && !caller.owner)
        throw DomainError::forbidden(
            QStringLiteral("only the owner pairs devices for another key"));
    Pairing p;
    p.code = newCode();
    p.expiresAt = m_clock.nowMs() + kPairingMs;
    m_repo->addPairing(codeHash(p.code), keyId, p.expiresAt);
    return p;
}

DeviceService::Claimed DeviceService::claim(const QString &code, const QString &name,
                                            const QString &version, const QString &client)
{
    m_claims->admit(client);
    const std::optional<QString> key = m_repo->takePairing(codeHash(code), m_clock.nowMs());
    if (!key && m_claims->wrongCode()) {
        // Never the codes in the log: only that they are gone.
        qCWarning(lcDevices) << ClaimLimiter::kWrongCodes
                             << "wrong pairing codes: every pending code was withdrawn";
        m_repo->dropPairings();
        Q_EMIT pairingsWithdrawn();
    }
    if (!key)
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("INVALID_PAIRING_CODE"),
                          QStringLiteral("code is unknown, used or expired; pair again"),
                          QStringLiteral("code"));
    DeviceRow row;
    row.id = Ids::make(QStringLiteral("dev"));
    row.keyId = *key;
    row.name = name.left(200);
    row.version = version.left(50);
    const QString token = Ids::make(QStringLiteral("phd"), 43);
    row.tokenHash = Ids::sha256Hex(token.toUtf8());
    row.createdAt = m_clock.nowMs();
    m_repo->insert(row);
    changed(row.id);
    return {row.id, token};
}

DeviceInfo DeviceService::infoOf(const DeviceRow &row) const
{
    DeviceInfo info;
    info.id = row.id;
    info.keyId = row.keyId;
    info.name = row.name;
    info.version = row.version;
    info.createdAt = row.createdAt;
    info.lastSeenAt = row.lastSeenAt.value_or(0);
    const auto live = m_live.constFind(row.id);
    if (live != m_live.constEnd()) {
        info.connected = true;
        info.lastSeenAt = live->lastActive;
        info.tabs = live->tabs;
    }
    return info;
}

void DeviceService::changed(const QString &deviceId)
{
    Q_EMIT deviceChanged(deviceId);
    Q_EMIT devicesChanged();
}

QList<DeviceInfo> DeviceService::list(const Principal &caller) const
{
    QList<DeviceInfo> out;
    for (const DeviceRow &row : m_repo->ofKey(caller.keyId))
        out << infoOf(row);
    return out;
}

QList<DeviceInfo> DeviceService::listAll(const Principal &caller) const
{
    if (!caller.owner)
        throw DomainError::forbidden(QStringLiteral("only the owner sees every key's devices"));
    QList<DeviceInfo> out;
    for (const DeviceRow &row : m_repo->active())
        out << infoOf(row);
    return out;
}

std::optional<DeviceInfo> DeviceService::find(const Principal &caller,
                                              const QString &deviceId) const
{
    const std::optional<DeviceRow> row = m_repo->byId(deviceId);
    if (!row || row->revokedAt || (row->keyId != caller.keyId && !caller.owner))
        return std::nullopt;
    return infoOf(*row);
}

void DeviceService::revoke(const Principal &caller, const QString &deviceId)
{
    const std::optional<DeviceRow> row = m_repo->byId(deviceId);
    if (!row || (row->keyId != caller.keyId && !caller.owner) || row->revokedAt)
        throw DomainError::notFound(QStringLiteral("no device %1").arg(deviceId));
    m_repo->revoke(deviceId, m_clock.nowMs());
    const Connection connection = m_live.value(deviceId).connection;
    detach(deviceId);
    if (connection.close)
        connection.close();
    changed(deviceId);
}

void DeviceService::setScriptsGranted(const Principal &caller, const QString &keyId, bool granted)
{
    if (!caller.owner)
        throw DomainError::forbidden(
            QStringLiteral("only the owner grants execute_javascript on devices"));
    m_repo->setScriptsGranted(keyId, granted, m_clock.nowMs());
}

QString DeviceService::attach(const QString &token, const QString &name, const QString &version,
                              Connection connection)
{
    const std::optional<DeviceRow> row = m_repo->byTokenHash(Ids::sha256Hex(token.toUtf8()));
    if (!row)
        return {};
    Q_UNUSED(name);
    Q_UNUSED(version);
    // A second connection of the same device replaces the first.
    if (m_live.contains(row->id)) {
        const Connection old = m_live.value(row->id).connection;
        detach(row->id);
        if (old.close)
            old.close();
    }
    Live live;
    live.keyId = row->keyId;
    live.connection = std::move(connection);
    live.lastActive = m_clock.nowMs();
    m_live.insert(row->id, live);
    m_repo->touch(row->id, live.lastActive);
    changed(row->id);
    return row->id;
}

void DeviceService::detach(const QString &deviceId)
{
    if (!m_live.remove(deviceId))
        return;
    QStringList gone;
    for (auto it = m_pending.cbegin(); it != m_pending.cend(); ++it) {
        if (it->deviceId == deviceId)
            gone << it.key();
    }
    for (const QString &id : std::as_const(gone))
        finish(id, {}, QStringLiteral("the device disconnected"));
    m_repo->touch(deviceId, m_clock.nowMs());
    changed(deviceId);
}

void DeviceService::seen(const QString &deviceId)
{
    auto live = m_live.find(deviceId);
    if (live != m_live.end())
        live->lastActive = m_clock.nowMs();
}

void DeviceService::setTabs(const QString &deviceId, const QJsonArray &tabs)
{
    auto live = m_live.find(deviceId);
    if (live == m_live.end())
        return;
    live->tabs = tabs;
    live->lastActive = m_clock.nowMs();
    changed(deviceId);
}

void DeviceService::resolve(const QString &deviceId, const QString &callId,
                            const QJsonObject &result, const QString &error)
{
    const auto it = m_pending.constFind(callId);
    // A device answers only its own calls.
    if (it == m_pending.constEnd() || it->deviceId != deviceId)
        return;
    seen(deviceId);
    finish(callId, result, error);
}

void DeviceService::finish(const QString &callId, const QJsonObject &result, const QString &error)
{
    Pending p = m_pending.take(callId);
    if (p.timer)
        p.timer->deleteLater();
    if (p.answer)
        p.answer(result, error);
}

QString DeviceService::choose(const QString &keyId, const QString &deviceId) const
{
    if (!deviceId.isEmpty()) {
        const auto live = m_live.constFind(deviceId);
        return live != m_live.constEnd() && live->keyId == keyId ? deviceId : QString();
    }
    QString best;
    qint64 bestAt = -1;
    for (auto it = m_live.cbegin(); it != m_live.cend(); ++it) {
        if (it->keyId == keyId && it->lastActive > bestAt) {
            best = it.key();
            bestAt = it->lastActive;
        }
    }
    return best;
}

bool DeviceService::scriptsAllowed(const QString &keyId) const
{
    return m_repo->scriptsGranted(keyId);
}

void DeviceService::request(const QString &deviceId, const QString &method,
                            const QJsonObject &params, int timeoutMs, Answer answer)
{
    const auto live = m_live.constFind(deviceId);
    if (live == m_live.constEnd()) {
        answer({}, QStringLiteral("the device is not connected"));
        return;
    }
    const QString id = QStringLiteral("c%1").arg(++m_nextCall);
    Pending p;
    p.deviceId = deviceId;
    p.answer = std::move(answer);
    p.timer = new QTimer(this);
    p.timer->setSingleShot(true);
    connect(p.timer, &QTimer::timeout, this,
            [this, id] { finish(id, {}, QStringLiteral("the device did not answer in time")); });
    p.timer->start(timeoutMs);
    m_pending.insert(id, p);
    const QJsonObject frame{{QStringLiteral("type"), QStringLiteral("call")},
                            {QStringLiteral("id"), id},
                            {QStringLiteral("method"), method},
                            {QStringLiteral("params"), params}};
    live->connection.send(QJsonDocument(frame).toJson(QJsonDocument::Compact));
}

} // namespace ph::devices
