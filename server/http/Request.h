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
struct Principal
{
    enum class Kind { Anonymous, ApiKey };
    Kind kind = Kind::Anonymous;
    QString keyId;
    QString label;
    bool owner = false;

    bool isAuthenticated() const { return kind != Kind::Anonymous; }
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
    // The body as a JSON object; throws ApiError INVALID_JSON (400) otherwise. An empty
    // body reads as an empty object.
    QJsonObject jsonObject() const;
    // Seconds from `Prefer: wait=N`, capped at `cap`; nullopt when absent.
    std::optional<int> preferWait(int cap) const;
};

} // namespace ph::http
