#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QString>
#include <QUrlQuery>

#include <optional>

namespace ph::http {

// Who made a request, as the authenticator resolved it.
// Owners are the holder of the owner API key and an identity-provider ID token the
// service accepts as the owner's (docs/api/sites.md#owner-authentication). A Connect AI
// key is bound to one site (`siteId`) and is never an owner.
struct Principal
{
    enum class Kind { Anonymous, ApiKey, IdToken, ConnectKey };
    Kind kind = Kind::Anonymous;
    QString keyId; // API key or Connect AI key id; empty for ID tokens
    QString label; // display name: key label, or the token's email/subject
    bool owner = false;
    QString subject; // ID tokens: the `sub` claim
    QString siteId;  // Connect AI keys: the one site the key is bound to

    bool isAuthenticated() const { return kind != Kind::Anonymous; }
    bool isSiteScoped() const { return kind == Kind::ConnectKey; }
    // A stable name of the caller for audit records: "apiKey:key_…", "idToken:<sub>",
    // "connectKey:ck_…" (the key id, never the secret).
    QString actor() const
    {
        switch (kind) {
        case Kind::ApiKey:
            return QStringLiteral("apiKey:") + keyId;
        case Kind::IdToken:
            return QStringLiteral("idToken:") + subject;
        case Kind::ConnectKey:
            return QStringLiteral("connectKey:") + keyId;
        case Kind::Anonymous:
            break;
        }
        return QStringLiteral("anonymous");
    }
};

// One parsed request, copied out of QHttpServerRequest (which is reused for the next
// request on a keep-alive connection).
struct Request
{
    QString id; // X-Request-Id, generated per request
    QByteArray method;
    QString path;
    QUrlQuery query;
    QHash<QByteArray, QByteArray> headers; // keys lowercased
    QByteArray body;
    QHostAddress remoteAddress;
    QHash<QString, QString> params; // from the route pattern, e.g. {trajectoryId}
    Principal principal;
    qint64 receivedAtMs = 0;

    QByteArray header(const QByteArray &lowercaseName) const
    {
        return headers.value(lowercaseName);
    }
    QString param(const QString &name) const { return params.value(name); }
    QString queryValue(const QString &name) const
    {
        return query.queryItemValue(name, QUrl::FullyDecoded);
    }
    // The body as a JSON object; throws DomainError INVALID_JSON (400) otherwise. An empty
    // body reads as an empty object.
    QJsonObject jsonObject() const;
    // Seconds from `Prefer: wait=N`, capped at `cap`; nullopt when absent.
    std::optional<int> preferWait(int cap) const;
};

} // namespace ph::http
