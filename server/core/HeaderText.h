#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringView>

namespace ph {

// What may go into an HTTP header line we write (responses, and the requests of
// webhook deliveries). A value with CR or LF would end the line early and let the
// rest become headers or a body of its own (response splitting), so every place where
// caller data can reach a header checks it at the input (typed 400 naming the field)
// and the HTTP layer checks again before writing (docs/security.md#limits).
class HeaderText
{
public:
    // No control character (CR, LF, NUL, … DEL); horizontal tab is allowed (RFC 9110
    // field-value: VCHAR, obs-text, SP, HTAB).
    static bool isSafeValue(QByteArrayView value);
    static bool isSafeValue(QStringView value);
    // A header name: an RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~), not empty.
    static bool isToken(QByteArrayView name);
    static bool isToken(QStringView name);
    // Empty when `value` is safe, else what is wrong ("contains a line break (CR or
    // LF)", "contains the control character U+0000").
    static QString valueProblem(QStringView value);
};

} // namespace ph
