#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

namespace ph::oauth {

// An application/x-www-form-urlencoded body (the token, revocation and consent forms).
// Throws DomainError 400 OAUTH_INVALID_REQUEST naming the field when a parameter appears
// twice (RFC 6749 §3.1), a name is empty, or the body has more than kMaxFields fields or
// is over kMaxBytes; '+' reads as a space, percent escapes are decoded as UTF-8.
struct FormBody
{
    static constexpr int kMaxFields = 64;
    static constexpr qsizetype kMaxBytes = 64 * 1024;

    static FormBody parse(const QByteArray &body);
    // One value, empty when absent.
    QString value(const QString &name) const { return fields.value(name); }
    bool has(const QString &name) const { return fields.contains(name); }
    // The value, or throws 400 OAUTH_INVALID_REQUEST naming the missing field.
    QString required(const QString &name) const;

    QHash<QString, QString> fields;
};

} // namespace ph::oauth
