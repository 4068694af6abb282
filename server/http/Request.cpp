#include "Request.h"

#include "core/DomainError.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace ph::http {

QUrlQuery formQuery(QString encoded)
{
    encoded.replace(u'+', QLatin1String("%20"));
    return QUrlQuery(encoded);
}

namespace {

// The first element's `name=` value of a Forwarded header (RFC 7239), unquoted; empty when
// it has none.
QByteArray forwardedParam(const QByteArray &forwarded, const QByteArray &name)
{
    const QByteArray first = forwarded.split(',').value(0);
    for (const QByteArray &pair : first.split(';')) {
        const int eq = pair.indexOf('=');
        if (eq < 0 || pair.left(eq).trimmed().toLower() != name)
            continue;
        QByteArray value = pair.mid(eq + 1).trimmed();
        if (value.size() >= 2 && value.startsWith('"') && value.endsWith('"'))
            value = value.mid(1, value.size() - 2);
        return value;
    }
    return {};
}

// A host[:port] fit to stand in a URL: letters, digits, '.', '-', ':' and IPv6 brackets.
bool isHostPort(const QByteArray &host)
{
    if (host.isEmpty() || host.size() > 255)
        return false;
    for (const char c : host) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '-' || c == ':' || c == '[' ||
                        c == ']';
        if (!ok)
            return false;
    }
    return true;
}

} // namespace

QString Request::origin() const
{
    QByteArray scheme = "http";
    QByteArray host = header("host");
    if (viaTrustedProxy) {
        const QByteArray forwarded = header("forwarded");
        QByteArray proto = forwardedParam(forwarded, "proto").toLower();
        if (proto.isEmpty())
            proto = header("x-forwarded-proto").split(',').value(0).trimmed().toLower();
        if (proto == "https" || proto == "http")
            scheme = proto;
        QByteArray named = forwardedParam(forwarded, "host");
        if (named.isEmpty())
            named = header("x-forwarded-host").split(',').value(0).trimmed();
        if (isHostPort(named))
            host = named;
    }
    if (!isHostPort(host))
        host = "127.0.0.1";
    return QString::fromLatin1(scheme + "://" + host);
}

QJsonObject Request::jsonObject() const
{
    if (body.trimmed().isEmpty())
        return {};
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("INVALID_JSON"),
                          QStringLiteral("body is not valid JSON: %1 at offset %2")
                              .arg(error.errorString())
                              .arg(error.offset),
                          QStringLiteral("body"));
    }
    if (!doc.isObject()) {
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("INVALID_JSON"),
                          QStringLiteral("body must be a JSON object"), QStringLiteral("body"));
    }
    return doc.object();
}

std::optional<int> Request::preferWait(int cap) const
{
    // Prefer: wait=10, execution=cloud   (RFC 7240; several preferences, comma separated)
    const QByteArray prefer = header("prefer");
    for (const QByteArray &part : prefer.split(',')) {
        const QByteArray item = part.trimmed();
        if (item.startsWith("wait=")) {
            bool ok = false;
            const int seconds = item.mid(5).trimmed().toInt(&ok);
            if (ok && seconds >= 0)
                return qMin(seconds, cap);
        }
    }
    return std::nullopt;
}

} // namespace ph::http
