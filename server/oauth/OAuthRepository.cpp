#include "OAuthRepository.h"

#include "core/SqlRow.h"
#include "core/Store.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace ph::oauth {

namespace {
const QString kGrantColumns =
    QStringLiteral("id, client_id, client_name, key_id, resource, scope, created_at, "
                   "last_used_at, revoked_at, revoke_reason");
} // namespace

OAuthRepository::OAuthRepository(Store &store)
    : m_store(store)
{}

void OAuthRepository::insertClient(const OAuthClient &client, qint64 now)
{
    Sql(m_store, QStringLiteral("INSERT INTO oauth_clients (id, name, redirect_uris, created_at) "
                                "VALUES (:id, :name, :uris, :at)"))
        .bind(QStringLiteral(":id"), client.id)
        .bind(QStringLiteral(":name"), client.name)
        .bind(QStringLiteral(":uris"),
              QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(client.redirectUris))
                                    .toJson(QJsonDocument::Compact)))
        .bind(QStringLiteral(":at"), now)
        .exec();
}

std::optional<OAuthClient> OAuthRepository::findClient(const QString &id) const
{
    Sql q(m_store,
          QStringLiteral("SELECT id, name, redirect_uris FROM oauth_clients WHERE id = :id"));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, [](const Sql &s) {
        SqlRow row(s);
        OAuthClient c;
        c.id = row.text();
        c.name = row.text();
        for (const QJsonValue &v : QJsonDocument::fromJson(row.text().toUtf8()).array())
            c.redirectUris.append(v.toString());
        return c;
    });
}

int OAuthRepository::clientCount() const
{
    Sql q(m_store, QStringLiteral("SELECT COUNT(*) FROM oauth_clients"));
    q.exec();
    return q.next() ? q.value(0).toInt() : 0;
}

Grant OAuthRepository::grantFromRow(const Sql &q)
{
    SqlRow row(q);
    Grant g;
    g.id = row.text();
    g.clientId = row.text();
    g.clientName = row.text();
    g.keyId = row.text();
    g.resource = row.text();
    g.scope = row.text();
    g.createdAt = row.integer();
    g.lastUsedAt = row.optionalInt();
    g.revokedAt = row.optionalInt();
    g.revokeReason = row.text();
    return g;
}

void OAuthRepository::insertGrant(const Grant &g)
{
    Sql(m_store, QStringLiteral("INSERT INTO oauth_grants (id, client_id, client_name, key_id, "
                                "resource, scope, created_at) VALUES (:id, :client, :name, :key, "
                                ":resource, :scope, :at)"))
        .bind(QStringLiteral(":id"), g.id)
        .bind(QStringLiteral(":client"), g.clientId)
        .bind(QStringLiteral(":name"), g.clientName)
        .bind(QStringLiteral(":key"), g.keyId)
        .bind(QStringLiteral(":resource"), g.resource)
        .bind(QStringLiteral(":scope"), g.scope)
        .bind(QStringLiteral(":at"), g.createdAt)
        .exec();
}

std::optional<Grant> OAuthRepository::findGrant(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM oauth_grants WHERE id = :id").arg(kGrantColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, grantFromRow);
}

QList<Grant> OAuthRepository::grants(const QString &keyId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM oauth_grants%2 ORDER BY created_at DESC, id "
                                  "LIMIT 1000")
                       .arg(kGrantColumns,
                            keyId.isEmpty() ? QString() : QStringLiteral(" WHERE key_id = :key")));
    if (!keyId.isEmpty())
        q.bind(QStringLiteral(":key"), keyId);
    q.exec();
    return SqlRows::all(q, grantFromRow);
}

void OAuthRepository::touchGrant(const QString &id, qint64 at)
{
    Sql(m_store, QStringLiteral("UPDATE oauth_grants SET last_used_at = :at WHERE id = :id"))
        .bind(QStringLiteral(":at"), at)
        .bind(QStringLiteral(":id"), id)
        .exec();
}

bool OAuthRepository::revokeGrant(const QString &id, qint64 at, const QString &reason)
{
    Sql q(m_store, QStringLiteral("UPDATE oauth_grants SET revoked_at = :at, revoke_reason = "
                                  ":reason WHERE id = :id AND revoked_at IS NULL"));
    q.bind(QStringLiteral(":at"), at)
        .bind(QStringLiteral(":reason"), reason)
        .bind(QStringLiteral(":id"), id)
        .exec();
    if (q.rowsAffected() == 0)
        return false;
    Sql(m_store, QStringLiteral("DELETE FROM oauth_tokens WHERE grant_id = :id"))
        .bind(QStringLiteral(":id"), id)
        .exec();
    return true;
}

void OAuthRepository::revokeGrantsOfKey(const QString &keyId, qint64 at)
{
    for (const Grant &g : grants(keyId)) {
        if (g.isActive())
            revokeGrant(g.id, at, QStringLiteral("key revoked"));
    }
}

void OAuthRepository::insertCode(const QString &hash, const CodeRow &c)
{
    Sql(m_store, QStringLiteral("INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, "
                                "code_challenge, expires_at) VALUES (:hash, :grant, :uri, "
                                ":challenge, :expires)"))
        .bind(QStringLiteral(":hash"), hash)
        .bind(QStringLiteral(":grant"), c.grantId)
        .bind(QStringLiteral(":uri"), c.redirectUri)
        .bind(QStringLiteral(":challenge"), c.codeChallenge)
        .bind(QStringLiteral(":expires"), c.expiresAt)
        .exec();
}

std::optional<CodeRow> OAuthRepository::findCode(const QString &hash) const
{
    Sql q(m_store, QStringLiteral("SELECT grant_id, redirect_uri, code_challenge, expires_at, "
                                  "used_at FROM oauth_codes WHERE code_hash = :hash"));
    q.bind(QStringLiteral(":hash"), hash).exec();
    return SqlRows::one(q, [](const Sql &s) {
        SqlRow row(s);
        CodeRow c;
        c.grantId = row.text();
        c.redirectUri = row.text();
        c.codeChallenge = row.text();
        c.expiresAt = row.integer();
        c.usedAt = row.optionalInt();
        return c;
    });
}

bool OAuthRepository::useCode(const QString &hash, qint64 at)
{
    Sql q(m_store, QStringLiteral("UPDATE oauth_codes SET used_at = :at WHERE code_hash = :hash "
                                  "AND used_at IS NULL"));
    q.bind(QStringLiteral(":at"), at).bind(QStringLiteral(":hash"), hash).exec();
    return q.rowsAffected() == 1;
}

void OAuthRepository::insertToken(const QString &hash, const TokenRow &t)
{
    Sql(m_store, QStringLiteral("INSERT INTO oauth_tokens (token_hash, grant_id, kind, expires_at) "
                                "VALUES (:hash, :grant, :kind, :expires)"))
        .bind(QStringLiteral(":hash"), hash)
        .bind(QStringLiteral(":grant"), t.grantId)
        .bind(QStringLiteral(":kind"), t.kind)
        .bind(QStringLiteral(":expires"), t.expiresAt)
        .exec();
}

std::optional<TokenRow> OAuthRepository::findToken(const QString &hash) const
{
    Sql q(m_store, QStringLiteral("SELECT grant_id, kind, expires_at, used_at FROM oauth_tokens "
                                  "WHERE token_hash = :hash"));
    q.bind(QStringLiteral(":hash"), hash).exec();
    return SqlRows::one(q, [](const Sql &s) {
        SqlRow row(s);
        TokenRow t;
        t.grantId = row.text();
        t.kind = row.text();
        t.expiresAt = row.integer();
        t.usedAt = row.optionalInt();
        return t;
    });
}

bool OAuthRepository::useToken(const QString &hash, qint64 at)
{
    Sql q(m_store, QStringLiteral("UPDATE oauth_tokens SET used_at = :at WHERE token_hash = :hash "
                                  "AND used_at IS NULL"));
    q.bind(QStringLiteral(":at"), at).bind(QStringLiteral(":hash"), hash).exec();
    return q.rowsAffected() == 1;
}

void OAuthRepository::deleteToken(const QString &hash)
{
    Sql(m_store, QStringLiteral("DELETE FROM oauth_tokens WHERE token_hash = :hash"))
        .bind(QStringLiteral(":hash"), hash)
        .exec();
}

void OAuthRepository::purgeExpired(qint64 now)
{
    Sql(m_store, QStringLiteral("DELETE FROM oauth_codes WHERE expires_at < :now"))
        .bind(QStringLiteral(":now"), now)
        .exec();
    Sql(m_store, QStringLiteral("DELETE FROM oauth_tokens WHERE expires_at < :now"))
        .bind(QStringLiteral(":now"), now)
        .exec();
}

} // namespace ph::oauth
