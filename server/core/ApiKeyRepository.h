#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace ph {

class Store;
class Sql;

struct ApiKey
{
    QString id;
    QString label;
    QString prefix;                     // first characters of the secret, safe to display
    QString role;                       // "owner" or "user"
    std::optional<qint64> balanceMilli; // nullopt: unlimited
    qint64 createdAt = 0;
    std::optional<qint64> lastUsedAt;
    std::optional<qint64> revokedAt;

    bool isOwner() const { return role == QLatin1String("owner"); }
    bool isActive() const { return !revokedAt.has_value(); }
};

// API keys at rest: only the SHA-256 of a key is stored, with a short display prefix.
// The secret itself exists only in the mint result, shown once.
class ApiKeyRepository : public QObject
{
    Q_OBJECT
public:
    struct Minted
    {
        ApiKey key;
        QString secret;
    };

    static constexpr int kMinimumSecretLength = 16;

    explicit ApiKeyRepository(Store &store);

    // New random key `phk_<40 base62>`. Owner keys default to an unlimited balance.
    Minted mint(const QString &label, const QString &role, std::optional<qint64> balanceMilli);
    // Stores a caller-chosen secret (PILOTHOUSE_API_KEY at first start) as an owner key.
    Minted importSecret(const QString &label, const QString &secret);

    std::optional<ApiKey> findBySecret(const QString &secret);
    std::optional<ApiKey> find(const QString &id) const;
    QList<ApiKey> list() const;
    int activeCount() const;
    // The first active owner key's id (whom the console acts as), or empty.
    QString activeOwnerId() const;
    bool revoke(const QString &id);
    void setBalance(const QString &id, std::optional<qint64> balanceMilli);
    // Records use at most once a minute per key, so auth stays off the write path.
    void touch(const QString &id);

Q_SIGNALS:
    // A key was minted, revoked, or its balance or owner role changed.
    void keyChanged(const QString &keyId);

private:
    Minted insert(const QString &label, const QString &role, const QString &secret,
                  std::optional<qint64> balanceMilli, int prefixLength = 12);
    static ApiKey fromRow(const Sql &q);

    Store &m_store;
    QHash<QString, qint64> m_lastTouch;
};

} // namespace ph
