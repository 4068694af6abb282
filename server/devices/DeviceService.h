#pragma once

#include "cloud/DeviceLink.h"

#include <QHash>
#include <QJsonArray>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>

class QTimer;

namespace ph {
class Clock;
class Store;
struct Principal;
} // namespace ph

namespace ph::devices {

class ClaimLimiter;
class DeviceRepository;
struct DeviceRow;

// What the API and the console show of a device.
struct DeviceInfo
{
    QString id, keyId, name, version;
    bool connected = false;
    qint64 createdAt = 0, lastSeenAt = 0;
    QJsonArray tabs;
};

// A caller's own browsers (docs/api/devices.md): pairing codes (short, single use,
// 10 minutes, hashed), device tokens (random, only their SHA-256 stored, revocable), the
// registry of connected devices and the calls the bridge sends them.
class DeviceService : public QObject, public cloud::DeviceLink
{
    Q_OBJECT
public:
    static constexpr qint64 kPairingMs = 10 * 60 * 1000;

    DeviceService(Store &store, const Clock &clock, QObject *parent = nullptr);
    ~DeviceService() override;

    struct Pairing
    {
        QString code;
        qint64 expiresAt = 0;
    };
    Pairing pair(const Principal &caller);
    // A code for `keyId`: the caller's own key, or any key when the caller is the owner (the
    // console's Devices panel pairs for a chosen key); 403 otherwise.
    Pairing pair(const Principal &caller, const QString &keyId);
    struct Claimed
    {
        QString deviceId, token;
    };
    // Trades a pairing code for a device of the code's key; throws 400 INVALID_PAIRING_CODE,
    // or 429 RATE_LIMITED past ClaimLimiter's limits for `client` (the caller's address).
    Claimed claim(const QString &code, const QString &name, const QString &version,
                  const QString &client = QString());
    QList<DeviceInfo> list(const Principal &caller) const;
    // Every key's devices (the console); 403 unless the caller is the owner.
    QList<DeviceInfo> listAll(const Principal &caller) const;
    // One device as list() shows it; nullopt when it is unknown, revoked or another key's
    // (the owner sees every key's).
    std::optional<DeviceInfo> find(const Principal &caller, const QString &deviceId) const;
    // Revokes the caller's device (the owner: any key's) and drops its connection; 404 for
    // another key's device.
    void revoke(const Principal &caller, const QString &deviceId);
    void setScriptsGranted(const Principal &caller, const QString &keyId, bool granted);

    // The gateway's side: a connection that proved `token`. `send` writes a frame,
    // `close` ends the connection. Returns the device id, or empty for a bad token.
    struct Connection
    {
        std::function<void(const QByteArray &)> send;
        std::function<void()> close;
    };
    QString attach(const QString &token, const QString &name, const QString &version,
                   Connection connection);
    void detach(const QString &deviceId);
    void seen(const QString &deviceId);
    void setTabs(const QString &deviceId, const QJsonArray &tabs);
    void resolve(const QString &deviceId, const QString &callId, const QJsonObject &result,
                 const QString &error);

    // cloud::DeviceLink
    QString choose(const QString &keyId, const QString &deviceId) const override;
    bool scriptsAllowed(const QString &keyId) const override;
    void request(const QString &deviceId, const QString &method, const QJsonObject &params,
                 int timeoutMs, Answer answer) override;

Q_SIGNALS:
    void devicesChanged();
    // The typed change signal (docs/architecture.md, "How the console stays live"): a
    // device was paired, connected, disconnected, reported tabs or was revoked, whoever
    // did it.
    void deviceChanged(const QString &deviceId);
    // Too many wrong codes: every pending pairing code was withdrawn (ClaimLimiter).
    void pairingsWithdrawn();

private:
    struct Live
    {
        QString keyId;
        Connection connection;
        qint64 lastActive = 0;
        QJsonArray tabs;
    };
    struct Pending
    {
        QString deviceId;
        Answer answer;
        QTimer *timer = nullptr;
    };
    void finish(const QString &callId, const QJsonObject &result, const QString &error);
    DeviceInfo infoOf(const DeviceRow &row) const;
    void changed(const QString &deviceId);

    Store &m_store;
    const Clock &m_clock;
    std::unique_ptr<DeviceRepository> m_repo;
    std::unique_ptr<ClaimLimiter> m_claims;
    QHash<QString, Live> m_live;
    QHash<QString, Pending> m_pending;
    quint64 m_nextCall = 0;
};

} // namespace ph::devices
