#include "ErrorMapping.h"

namespace ph::http {

int statusOf(DomainError::Kind kind)
{
    using K = DomainError::Kind;
    switch (kind) {
    case K::Invalid:
        return 400;
    case K::Unauthenticated:
        return 401;
    case K::PaymentRequired:
        return 402;
    case K::Forbidden:
        return 403;
    case K::NotFound:
        return 404;
    case K::MethodNotAllowed:
        return 405;
    case K::NotAcceptable:
        return 406;
    case K::Timeout:
        return 408;
    case K::Conflict:
        return 409;
    case K::Gone:
        return 410;
    case K::TooLarge:
        return 413;
    case K::TooManyRequests:
        return 429;
    case K::Internal:
        return 500;
    case K::Unavailable:
        return 503;
    }
    return 500;
}

QJsonObject errorBody(const DomainError &error, const QString &requestId)
{
    QJsonObject o{{QStringLiteral("success"), false},
                  {QStringLiteral("error"), error.message()},
                  {QStringLiteral("code"), error.code()},
                  {QStringLiteral("requestId"), requestId}};
    if (!error.field().isEmpty())
        o.insert(QStringLiteral("field"), error.field());
    if (!error.details().isEmpty())
        o.insert(QStringLiteral("details"), error.details());
    if (error.retryAfterSeconds() > 0)
        o.insert(QStringLiteral("retryAfter"), error.retryAfterSeconds());
    return o;
}

} // namespace ph::http
