#pragma once

#include "core/Principal.h"

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QString>
#include <QUrlQuery>

#include <optional>

namespace ph::http {

// The principal type lives in core (the domain reads who acts); http names it too.
using ph::Principal;

// A query string or an application/x-www-form-urlencoded body as a QUrlQuery, with `+`
// read as a space (QUrlQuery alone keeps it a plus); `%2B` stays a plus.
QUrlQuery formQuery(QString encoded);

// One parsed request, copied out of QHttpServerRequest (which is reused for the next
// request on a keep-alive connection).
struct Request
{
    QString id; // X-Request-Id, generated per request
    QByteArray method;
    QString path;
    // The query, decoded as HTML forms and every client encode it: `+` is a space, `%2B` a
    // plus (formQuery). Read it through queryValue.
    QUrlQuery query;
    // The query exactly as the client sent it (percent-encoded, `+` untouched): what a
    // signature over @query (RFC 9421) covers.
    QString rawQuery;
    QHash<QByteArray, QByteArray> headers; // keys lowercased
    QByteArray body;
    // Who the request is from: the client, as far as it can be told. The TCP peer, or,
    // when that peer is one of http.trustedProxies, the client its Forwarded or
    // X-Forwarded-For header names (core/TrustedProxies). Every per-client limit and
    // record keys on this; IPv4 on a dual-stack socket reads as plain IPv4.
    QHostAddress remoteAddress;
    // The TCP peer itself (the reverse proxy, when there is one).
    QHostAddress peerAddress;
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
    // Whether the TCP peer is one of http.trustedProxies (its Forwarded / X-Forwarded-*
    // headers are believed).
    bool viaTrustedProxy = false;

    // Where the client reached us, for links back into the API in answers: http://<Host>
    // (127.0.0.1 without a Host header); behind a trusted proxy, the scheme and host its
    // Forwarded (proto=, host=) or X-Forwarded-Proto / X-Forwarded-Host name, so a service
    // behind a TLS-terminating proxy hands out https:// and wss:// links.
    QString origin() const;
};

} // namespace ph::http
