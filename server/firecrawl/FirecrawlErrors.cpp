#include "FirecrawlErrors.h"

#include "core/DomainError.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace ph::firecrawl {

QJsonArray fieldPath(const QString &field)
{
    QJsonArray path;
    static const QRegularExpression part(QStringLiteral(R"(([^.\[\]]+)|\[(\d+)\])"));
    auto it = part.globalMatch(field);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        if (m.capturedLength(2) > 0)
            path.append(m.captured(2).toInt());
        else
            path.append(m.captured(1));
    }
    return path;
}

namespace {

QJsonObject badRequest(const DomainError &error)
{
    const QString where =
        error.field().isEmpty() ? QString() : error.field() + QStringLiteral(": ");
    QJsonObject issue{{QStringLiteral("code"), error.code()},
                      {QStringLiteral("message"), error.message()},
                      {QStringLiteral("path"), fieldPath(error.field())}};
    return {
        {QStringLiteral("success"), false},
        {QStringLiteral("code"), QStringLiteral("BAD_REQUEST")},
        {QStringLiteral("error"), QStringLiteral("Bad Request: %1%2").arg(where, error.message())},
        {QStringLiteral("details"), QJsonArray{issue}}};
}

} // namespace

QJsonObject errorEnvelope(const DomainError &error, const QString &requestId)
{
    QJsonObject body;
    switch (error.kind()) {
    case DomainError::Kind::Invalid:
        body = badRequest(error);
        break;
    case DomainError::Kind::Unauthenticated:
        body = {{QStringLiteral("success"), false},
                {QStringLiteral("error"), QStringLiteral("Unauthorized: %1").arg(error.message())}};
        break;
    case DomainError::Kind::PaymentRequired:
        body = {{QStringLiteral("success"), false},
                {QStringLiteral("error"),
                 QStringLiteral("Insufficient credits to perform this request. %1 (ask the "
                                "Pilothouse owner for more credits).")
                     .arg(error.message())}};
        break;
    case DomainError::Kind::TooManyRequests:
        body = {{QStringLiteral("success"), false},
                {QStringLiteral("error"),
                 QStringLiteral("Rate limit exceeded: %1. Retry after %2 seconds.")
                     .arg(error.message())
                     .arg(qMax(1, error.retryAfterSeconds()))}};
        break;
    case DomainError::Kind::Internal:
        // Our own failures are Firecrawl's UNKNOWN_ERROR; a page that could not be read
        // keeps its code (DNS_FAILURE, CONNECTION_REFUSED …), as Firecrawl's SCRAPE_* do.
        body = {{QStringLiteral("success"), false},
                {QStringLiteral("code"), error.code() == QLatin1String("INTERNAL")
                                             ? QStringLiteral("UNKNOWN_ERROR")
                                             : error.code()},
                {QStringLiteral("error"), error.message()}};
        break;
    default:
        body = {{QStringLiteral("success"), false},
                {QStringLiteral("code"), error.code()},
                {QStringLiteral("error"), error.message()}};
        break;
    }
    // Our own code beside Firecrawl's words, for clients that want to tell cases apart.
    if (!body.contains(QStringLiteral("code")))
        body.insert(QStringLiteral("code"), error.code());
    if (!error.details().isEmpty() && error.kind() != DomainError::Kind::Invalid)
        body.insert(QStringLiteral("details"), error.details());
    body.insert(QStringLiteral("requestId"), requestId);
    return body;
}

} // namespace ph::firecrawl
