#include "ApiError.h"

namespace ph::http {

ApiError::ApiError(int status, QString code, QString message, QString field, QJsonObject details)
    : m_status(status)
    , m_code(std::move(code))
    , m_message(std::move(message))
    , m_field(std::move(field))
    , m_details(std::move(details))
    , m_what((m_code + QStringLiteral(": ") + m_message).toUtf8())
{}

QJsonObject ApiError::toJson(const QString &requestId) const
{
    QJsonObject o{{QStringLiteral("success"), false},
                  {QStringLiteral("error"), m_message},
                  {QStringLiteral("code"), m_code},
                  {QStringLiteral("requestId"), requestId}};
    if (!m_field.isEmpty())
        o.insert(QStringLiteral("field"), m_field);
    if (!m_details.isEmpty())
        o.insert(QStringLiteral("details"), m_details);
    if (m_retryAfter > 0)
        o.insert(QStringLiteral("retryAfter"), m_retryAfter);
    return o;
}

ApiError ApiError::invalidJson(const QString &message)
{
    return {400, QStringLiteral("INVALID_JSON"), message};
}

ApiError ApiError::missingField(const QString &field)
{
    return {400, QStringLiteral("MISSING_FIELD"), QStringLiteral("%1 is required").arg(field),
            field};
}

ApiError ApiError::invalidField(const QString &field, const QString &message)
{
    return {400, QStringLiteral("INVALID_FIELD"), QStringLiteral("%1 %2").arg(field, message),
            field};
}

ApiError ApiError::unauthorized(const QString &code, const QString &message)
{
    return {401, code, message};
}

ApiError ApiError::forbidden(const QString &message)
{
    return {403, QStringLiteral("FORBIDDEN"), message};
}

ApiError ApiError::notFound(const QString &message)
{
    return {404, QStringLiteral("NOT_FOUND"), message};
}

ApiError ApiError::methodNotAllowed(const QString &message)
{
    return {405, QStringLiteral("METHOD_NOT_ALLOWED"), message};
}

ApiError ApiError::payloadTooLarge(qint64 limit)
{
    return {413, QStringLiteral("PAYLOAD_TOO_LARGE"),
            QStringLiteral("request body is larger than the limit of %1 bytes").arg(limit),
            QStringLiteral("body"), QJsonObject{{QStringLiteral("limitBytes"), double(limit)}}};
}

ApiError ApiError::creditsExhausted()
{
    return {402, QStringLiteral("CREDITS_EXHAUSTED"),
            QStringLiteral("this API key has no credits left")};
}

ApiError ApiError::busy(const QString &message, int retryAfterSeconds)
{
    ApiError e(429, QStringLiteral("BUSY"), message);
    e.withRetryAfter(retryAfterSeconds);
    return e;
}

ApiError ApiError::keyBusy(const QString &what, int inFlight, int limit, const QString &setting,
                           int retryAfterSeconds)
{
    ApiError e(429, QStringLiteral("BUSY"),
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

ApiError ApiError::unavailable(const QString &code, const QString &message)
{
    return {503, code, message};
}

ApiError ApiError::internal(const QString &message)
{
    return {500, QStringLiteral("INTERNAL"), message};
}

} // namespace ph::http
