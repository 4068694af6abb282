#include "ClientMetadata.h"

#include "core/DomainError.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace ph::oauth::ClientMetadata {

namespace {

DomainError invalid(const QString &field, const QString &message)
{
    return DomainError(DomainError::Kind::Invalid, QStringLiteral("OAUTH_INVALID_CLIENT_METADATA"),
                       message, field);
}

bool isLoopbackHost(const QString &host)
{
    return host == QLatin1String("127.0.0.1") || host == QLatin1String("::1") ||
           host == QLatin1String("localhost");
}

QStringList stringArray(const QJsonObject &o, const QString &field, bool required)
{
    const QJsonValue v = o.value(field);
    if (v.isUndefined() && !required)
        return {};
    if (!v.isArray() || (required && v.toArray().isEmpty()))
        throw invalid(field, QStringLiteral("%1 must be a non-empty array of strings").arg(field));
    QStringList out;
    for (const QJsonValue &item : v.toArray()) {
        if (!item.isString())
            throw invalid(field, QStringLiteral("%1 must hold strings only").arg(field));
        out.append(item.toString());
    }
    return out;
}

void checkSubset(const QStringList &values, const QStringList &allowed, const QString &field)
{
    for (const QString &v : values) {
        if (!allowed.contains(v))
            throw invalid(field, QStringLiteral("%1 may hold only %2, not \"%3\"")
                                     .arg(field, allowed.join(QStringLiteral(", ")), v.left(60)));
    }
}

OAuthClient read(const QJsonObject &o)
{
    OAuthClient client;
    client.redirectUris = stringArray(o, QStringLiteral("redirect_uris"), true);
    if (client.redirectUris.size() > kMaxRedirectUris)
        throw invalid(
            QStringLiteral("redirect_uris"),
            QStringLiteral("redirect_uris holds more than %1 URIs").arg(kMaxRedirectUris));
    for (const QString &uri : std::as_const(client.redirectUris)) {
        const QString problem = redirectUriProblem(uri);
        if (!problem.isEmpty())
            throw DomainError(
                DomainError::Kind::Invalid, QStringLiteral("OAUTH_INVALID_REDIRECT_URI"),
                QStringLiteral("redirect_uris: ") + problem, QStringLiteral("redirect_uris"));
    }
    const QJsonValue name = o.value(QStringLiteral("client_name"));
    if (!name.isUndefined() && !name.isString())
        throw invalid(QStringLiteral("client_name"),
                      QStringLiteral("client_name must be a string"));
    client.name = name.toString().simplified().left(kMaxNameLength);
    const QJsonValue method = o.value(QStringLiteral("token_endpoint_auth_method"));
    if (!method.isUndefined() && method.toString() != QLatin1String("none"))
        throw invalid(QStringLiteral("token_endpoint_auth_method"),
                      QStringLiteral("only public clients are supported: "
                                     "token_endpoint_auth_method must be \"none\""));
    checkSubset(stringArray(o, QStringLiteral("grant_types"), false),
                {QStringLiteral("authorization_code"), QStringLiteral("refresh_token")},
                QStringLiteral("grant_types"));
    checkSubset(stringArray(o, QStringLiteral("response_types"), false), {QStringLiteral("code")},
                QStringLiteral("response_types"));
    return client;
}

} // namespace

OAuthClient fromRegistration(const QJsonObject &request)
{
    OAuthClient client = read(request);
    if (client.name.isEmpty())
        client.name = QStringLiteral("Unnamed client");
    return client;
}

OAuthClient fromDocument(const QByteArray &body, const QString &clientId)
{
    if (body.size() > kMaxDocumentBytes)
        throw invalid(
            QStringLiteral("client_id"),
            QStringLiteral("the client metadata document is over %1 bytes").arg(kMaxDocumentBytes));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        throw invalid(QStringLiteral("client_id"),
                      QStringLiteral("the client metadata document is not a JSON object"));
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("client_id")).toString() != clientId)
        throw invalid(QStringLiteral("client_id"),
                      QStringLiteral("the client metadata document's client_id is not the URL "
                                     "it was fetched from"));
    if (o.contains(QStringLiteral("client_secret")))
        throw invalid(QStringLiteral("client_secret"),
                      QStringLiteral("a client metadata document may not hold a client_secret"));
    OAuthClient client = read(o);
    client.id = clientId;
    client.fromDocument = true;
    if (client.name.isEmpty())
        client.name = QUrl(clientId).host();
    return client;
}

bool isDocumentUrl(const QString &clientId)
{
    return clientId.startsWith(QLatin1String("https://")) ||
           clientId.startsWith(QLatin1String("http://"));
}

QString documentUrlProblem(const QUrl &url, bool allowHttpLoopback)
{
    if (!url.isValid() || url.host().isEmpty())
        return QStringLiteral("is not an absolute URL");
    if (url.hasFragment() || !url.userInfo().isEmpty())
        return QStringLiteral("may not have a fragment or credentials");
    if (url.path().isEmpty() || url.path() == QLatin1String("/"))
        return QStringLiteral("must have a path");
    if (url.scheme() == QLatin1String("https"))
        return {};
    if (url.scheme() == QLatin1String("http") && allowHttpLoopback &&
        (url.host() == QLatin1String("127.0.0.1") || url.host() == QLatin1String("::1")))
        return {};
    return allowHttpLoopback ? QStringLiteral("must be https (or http on 127.0.0.1)")
                             : QStringLiteral("must be https");
}

QString redirectUriProblem(const QString &uri)
{
    const QUrl url(uri, QUrl::StrictMode);
    if (uri.size() > 2000 || !url.isValid() || url.isRelative())
        return QStringLiteral("\"%1\" is not an absolute URI").arg(uri.left(80));
    if (url.hasFragment())
        return QStringLiteral("\"%1\" has a fragment").arg(uri.left(80));
    const QString scheme = url.scheme();
    if (scheme == QLatin1String("https"))
        return url.host().isEmpty() ? QStringLiteral("\"%1\" has no host").arg(uri.left(80))
                                    : QString();
    if (scheme == QLatin1String("http"))
        return isLoopbackHost(url.host())
                   ? QString()
                   : QStringLiteral("\"%1\" is plain http to a host other than loopback")
                         .arg(uri.left(80));
    if (scheme.contains(QLatin1Char('.')))
        return {}; // a private-use scheme (RFC 8252 §7.1)
    return QStringLiteral("\"%1\" has the scheme %2: use https, http on loopback or a "
                          "private-use scheme")
        .arg(uri.left(80), scheme);
}

} // namespace ph::oauth::ClientMetadata
