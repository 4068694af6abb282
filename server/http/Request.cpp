#include "Request.h"

#include "core/DomainError.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace ph::http {

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
