#pragma once

#include <QJsonObject>
#include <QString>

#include <stdexcept>

namespace ph::http {

// A typed contract error. Handlers throw it (or pass it to Exchange::fail); the HTTP
// layer maps it to a status and the area's envelope in one place (Exchange).
// docs/api/errors.md lists the codes.
class ApiError : public std::exception
{
public:
    ApiError(int status, QString code, QString message, QString field = {},
             QJsonObject details = {});

    int status() const { return m_status; }
    const QString &code() const { return m_code; }
    const QString &message() const { return m_message; }
    const QString &field() const { return m_field; }
    const QJsonObject &details() const { return m_details; }
    int retryAfterSeconds() const { return m_retryAfter; }
    ApiError &withRetryAfter(int seconds)
    {
        m_retryAfter = seconds;
        return *this;
    }
    const char *what() const noexcept override { return m_what.constData(); }

    // The standard envelope: {success:false, error, code, field?, details?, requestId}.
    QJsonObject toJson(const QString &requestId) const;

    static ApiError invalidJson(const QString &message);
    static ApiError missingField(const QString &field);
    static ApiError invalidField(const QString &field, const QString &message);
    static ApiError unauthorized(const QString &code, const QString &message);
    static ApiError forbidden(const QString &message);
    static ApiError notFound(const QString &message);
    static ApiError methodNotAllowed(const QString &message);
    static ApiError payloadTooLarge(qint64 limit);
    static ApiError creditsExhausted();
    static ApiError busy(const QString &message, int retryAfterSeconds);
    // 429 BUSY for a key that has `limit` requests of one kind in flight already (the
    // same body for /agent and /scrape): details {scope:"key", limit, inFlight, setting}.
    static ApiError keyBusy(const QString &what, int inFlight, int limit, const QString &setting,
                            int retryAfterSeconds);
    static ApiError unavailable(const QString &code, const QString &message);
    static ApiError internal(const QString &message);

private:
    int m_status;
    QString m_code;
    QString m_message;
    QString m_field;
    QJsonObject m_details;
    int m_retryAfter = 0;
    QByteArray m_what;
};

} // namespace ph::http
