#pragma once

#include <QJsonObject>
#include <QString>

#include <stdexcept>

namespace ph {

// The one error type of the domain: what went wrong, in the terms of the API contract
// (a stable `code`, a sentence, the field path it concerns, details). Domain services,
// repositories and controllers throw it; only the HTTP edge (http/ErrorMapping) turns
// its kind into a status and its fields into the area's envelope, and the console shows
// its message. docs/api/errors.md lists the codes.
class DomainError : public std::exception
{
public:
    enum class Kind {
        Invalid,          // the request is wrong (400)
        Unauthenticated,  // no or no valid credential (401)
        PaymentRequired,  // no credits left (402)
        Forbidden,        // a valid credential that may not do this (403)
        NotFound,         // nothing there, or nothing there for this caller (404)
        MethodNotAllowed, // (405)
        NotAcceptable,    // no representation the client accepts (406)
        Timeout,          // the client was too slow (408)
        Conflict,         // the state does not allow it (409)
        Gone,             // it was there and is no more (410)
        TooLarge,         // over a size limit (413)
        TooManyRequests,  // over a rate or concurrency limit; retryAfterSeconds (429)
        Internal,         // our fault (500)
        Unavailable,      // not now: shutting down, a device missing (503)
    };

    DomainError(Kind kind, QString code, QString message, QString field = {},
                QJsonObject details = {});

    Kind kind() const { return m_kind; }
    const QString &code() const { return m_code; }
    const QString &message() const { return m_message; }
    const QString &field() const { return m_field; }
    const QJsonObject &details() const { return m_details; }
    int retryAfterSeconds() const { return m_retryAfter; }
    DomainError &withRetryAfter(int seconds)
    {
        m_retryAfter = seconds;
        return *this;
    }
    const char *what() const noexcept override { return m_what.constData(); }

    static DomainError invalidJson(const QString &message);
    static DomainError missingField(const QString &field);
    static DomainError invalidField(const QString &field, const QString &message);
    static DomainError unauthorized(const QString &code, const QString &message);
    static DomainError forbidden(const QString &message);
    static DomainError notFound(const QString &message);
    static DomainError methodNotAllowed(const QString &message);
    static DomainError payloadTooLarge(qint64 limit);
    static DomainError creditsExhausted();
    static DomainError busy(const QString &message, int retryAfterSeconds);
    // 429 BUSY for a key that has `limit` requests of one kind in flight already (the
    // same body for /agent and /scrape): details {scope:"key", limit, inFlight, setting}.
    static DomainError keyBusy(const QString &what, int inFlight, int limit, const QString &setting,
                               int retryAfterSeconds);
    static DomainError unavailable(const QString &code, const QString &message);
    static DomainError internal(const QString &message);

private:
    Kind m_kind;
    QString m_code;
    QString m_message;
    QString m_field;
    QJsonObject m_details;
    int m_retryAfter = 0;
    QByteArray m_what;
};

} // namespace ph
