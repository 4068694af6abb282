#include "core/DomainError.h"

namespace ph {

DomainError::DomainError(Kind kind, QString code, QString message, QString field,
                         QJsonObject details)
    : m_kind(kind)
    , m_code(std::move(code))
    , m_message(std::move(message))
    , m_field(std::move(field))
    , m_details(std::move(details))
    , m_what((m_code + QStringLiteral(": ") + m_message).toUtf8())
{}

DomainError DomainError::invalidJson(const QString &message)
{
    return {Kind::Invalid, QStringLiteral("INVALID_JSON"), message};
}

DomainError DomainError::missingField(const QString &field)
{
    return {Kind::Invalid, QStringLiteral("MISSING_FIELD"),
            QStringLiteral("%1 is required").arg(field), field};
}

DomainError DomainError::invalidField(const QString &field, const QString &message)
{
    return {Kind::Invalid, QStringLiteral("INVALID_FIELD"),
            QStringLiteral("%1 %2").arg(field, message), field};
}

DomainError DomainError::unauthorized(const QString &code, const QString &message)
{
    return {Kind::Unauthenticated, code, message};
}

DomainError DomainError::forbidden(const QString &message)
{
    return {Kind::Forbidden, QStringLiteral("FORBIDDEN"), message};
}

DomainError DomainError::notFound(const QString &message)
{
    return {Kind::NotFound, QStringLiteral("NOT_FOUND"), message};
}

DomainError DomainError::methodNotAllowed(const QString &message)
{
    return {Kind::MethodNotAllowed, QStringLiteral("METHOD_NOT_ALLOWED"), message};
}

DomainError DomainError::payloadTooLarge(qint64 limit)
{
    return {Kind::TooLarge, QStringLiteral("PAYLOAD_TOO_LARGE"),
            QStringLiteral("request body is larger than the limit of %1 bytes").arg(limit),
            QStringLiteral("body"), QJsonObject{{QStringLiteral("limitBytes"), double(limit)}}};
}

DomainError DomainError::creditsExhausted()
{
    return {Kind::PaymentRequired, QStringLiteral("CREDITS_EXHAUSTED"),
            QStringLiteral("this API key has no credits left")};
}

DomainError DomainError::busy(const QString &message, int retryAfterSeconds)
{
    DomainError e(Kind::TooManyRequests, QStringLiteral("BUSY"), message);
    e.withRetryAfter(retryAfterSeconds);
    return e;
}

DomainError DomainError::keyBusy(const QString &what, int inFlight, int limit,
                                 const QString &setting, int retryAfterSeconds)
{
    DomainError e(Kind::TooManyRequests, QStringLiteral("BUSY"),
                  QStringLiteral("this API key already has %1 %2 in flight; the limit is %3 (%4)")
                      .arg(inFlight)
                      .arg(what)
                      .arg(limit)
                      .arg(setting),
                  QString(),
                  QJsonObject{{QStringLiteral("scope"), QStringLiteral("key")},
                              {QStringLiteral("limit"), limit},
                              {QStringLiteral("inFlight"), inFlight},
                              {QStringLiteral("setting"), setting}});
    e.withRetryAfter(retryAfterSeconds);
    return e;
}

DomainError DomainError::unavailable(const QString &code, const QString &message)
{
    return {Kind::Unavailable, code, message};
}

DomainError DomainError::internal(const QString &message)
{
    return {Kind::Internal, QStringLiteral("INTERNAL"), message};
}

} // namespace ph
