#include "ApiKeyRepository.h"

#include "Clock.h"
#include "Ids.h"
#include "SqlRow.h"
#include "Store.h"

namespace ph {

namespace {
const QString kColumns =
    QStringLiteral("id, label, prefix, role, balance_milli, created_at, last_used_at, revoked_at");
} // namespace

ApiKeyRepository::ApiKeyRepository(Store &store)
    : m_store(store)
{}

ApiKey ApiKeyRepository::fromRow(const Sql &q)
{
    SqlRow row(q);
    ApiKey k;
    k.id = row.text();
    k.label = row.text();
    k.prefix = row.text();
    k.role = row.text();
    k.balanceMilli = row.optionalInt();
    k.createdAt = row.integer();
    k.lastUsedAt = row.optionalInt();
    k.revokedAt = row.optionalInt();
    return k;
}

ApiKeyRepository::Minted ApiKeyRepository::insert(const QString &label, const QString &role,
                                                  const QString &secret,
                                                  std::optional<qint64> balanceMilli,
                                                  int prefixLength)
{
    ApiKey k;
    k.id = Ids::make(QStringLiteral("key"), 16);
    k.label = label;
    k.prefix = secret.left(prefixLength);
    k.role = role;
    k.balanceMilli = balanceMilli;
    k.createdAt = m_store.clock().nowMs();
    Sql(m_store, QStringLiteral("INSERT INTO api_keys (id, label, prefix, key_hash, role,"
                                " balance_milli, created_at) VALUES (:id, :label, :prefix, :hash,"
                                " :role, :balance, :created)"))
        .bind(QStringLiteral(":id"), k.id)
        .bind(QStringLiteral(":label"), k.label)
        .bind(QStringLiteral(":prefix"), k.prefix)
        .bind(QStringLiteral(":hash"), Ids::sha256Hex(secret.toUtf8()))
        .bind(QStringLiteral(":role"), k.role)
        .bind(QStringLiteral(":balance"), JsonText::nullableInt(balanceMilli))
        .bind(QStringLiteral(":created"), k.createdAt)
        .exec();
    m_store.notifyChanged(QStringLiteral("api_keys"), k.id);
    Q_EMIT keyChanged(k.id);
    return {k, secret};
}

ApiKeyRepository::Minted ApiKeyRepository::mint(const QString &label, const QString &role,
                                                std::optional<qint64> balanceMilli)
{
    return insert(label, role, Ids::make(QStringLiteral("phk"), 40), balanceMilli);
}

ApiKeyRepository::Minted ApiKeyRepository::importSecret(const QString &label, const QString &secret)
{
    // A chosen secret may be short: its display prefix gives away only 4 characters (a
    // minted one's 12 are "phk_" and 8 of its 40 random ones).
    return insert(label, QStringLiteral("owner"), secret, std::nullopt, 4);
}

std::optional<ApiKey> ApiKeyRepository::findBySecret(const QString &secret)
{
    if (secret.isEmpty())
        return std::nullopt;
    Sql q(m_store, QStringLiteral("SELECT %1 FROM api_keys WHERE key_hash = :hash").arg(kColumns));
    q.bind(QStringLiteral(":hash"), Ids::sha256Hex(secret.toUtf8())).exec();
    return SqlRows::one(q, fromRow);
}

std::optional<ApiKey> ApiKeyRepository::find(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM api_keys WHERE id = :id").arg(kColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, fromRow);
}

QList<ApiKey> ApiKeyRepository::list() const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM api_keys ORDER BY created_at").arg(kColumns));
    q.exec();
    return SqlRows::all(q, fromRow);
}

QString ApiKeyRepository::activeOwnerId() const
{
    for (const ApiKey &k : list()) {
        if (k.isOwner() && k.isActive())
            return k.id;
    }
    return {};
}

int ApiKeyRepository::activeCount() const
{
    Sql q(m_store, QStringLiteral("SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL"));
    q.exec();
    return q.next() ? q.value(0).toInt() : 0;
}

bool ApiKeyRepository::revoke(const QString &id)
{
    Sql q(m_store, QStringLiteral("UPDATE api_keys SET revoked_at = :t WHERE id = :id AND"
                                  " revoked_at IS NULL"));
    q.bind(QStringLiteral(":t"), m_store.clock().nowMs()).bind(QStringLiteral(":id"), id).exec();
    const bool changed = q.rowsAffected() > 0;
    if (changed) {
        m_store.notifyChanged(QStringLiteral("api_keys"), id);
        Q_EMIT keyChanged(id);
    }
    return changed;
}

void ApiKeyRepository::setBalance(const QString &id, std::optional<qint64> balanceMilli)
{
    Sql(m_store, QStringLiteral("UPDATE api_keys SET balance_milli = :b WHERE id = :id"))
        .bind(QStringLiteral(":b"), JsonText::nullableInt(balanceMilli))
        .bind(QStringLiteral(":id"), id)
        .exec();
    m_store.notifyChanged(QStringLiteral("api_keys"), id);
    Q_EMIT keyChanged(id);
}

void ApiKeyRepository::touch(const QString &id)
{
    const qint64 now = m_store.clock().nowMs();
    auto it = m_lastTouch.find(id);
    if (it != m_lastTouch.end() && now - it.value() < 60'000)
        return;
    m_lastTouch.insert(id, now);
    Sql(m_store, QStringLiteral("UPDATE api_keys SET last_used_at = :t WHERE id = :id"))
        .bind(QStringLiteral(":t"), now)
        .bind(QStringLiteral(":id"), id)
        .exec();
    // At most once a minute per key: the console's "last used" follows without polling.
    m_store.notifyChanged(QStringLiteral("api_keys"), id);
    Q_EMIT keyChanged(id);
}

} // namespace ph
