#include "HeaderText.h"

namespace ph {

namespace {

bool isControl(char32_t c)
{
    return (c < 0x20 && c != u'\t') || c == 0x7f;
}

bool isTokenChar(char32_t c)
{
    if ((c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9'))
        return true;
    switch (c) {
    case u'!':
    case u'#':
    case u'$':
    case u'%':
    case u'&':
    case u'\'':
    case u'*':
    case u'+':
    case u'-':
    case u'.':
    case u'^':
    case u'_':
    case u'`':
    case u'|':
    case u'~':
        return true;
    default:
        return false;
    }
}

} // namespace

bool HeaderText::isSafeValue(QByteArrayView value)
{
    for (const char c : value) {
        if (isControl(char32_t(uchar(c))))
            return false;
    }
    return true;
}

bool HeaderText::isSafeValue(QStringView value)
{
    for (const QChar c : value) {
        if (isControl(c.unicode()))
            return false;
    }
    return true;
}

bool HeaderText::isToken(QByteArrayView name)
{
    if (name.isEmpty())
        return false;
    for (const char c : name) {
        if (!isTokenChar(char32_t(uchar(c))))
            return false;
    }
    return true;
}

bool HeaderText::isToken(QStringView name)
{
    if (name.isEmpty())
        return false;
    for (const QChar c : name) {
        if (!isTokenChar(c.unicode()))
            return false;
    }
    return true;
}

QString HeaderText::valueProblem(QStringView value)
{
    for (const QChar c : value) {
        if (c == u'\r' || c == u'\n')
            return QStringLiteral("contains a line break (CR or LF), which cannot go into an "
                                  "HTTP header");
        if (isControl(c.unicode()))
            return QStringLiteral("contains the control character U+%1, which cannot go into "
                                  "an HTTP header")
                .arg(QString::number(c.unicode(), 16).toUpper().rightJustified(4, u'0'));
    }
    return {};
}

} // namespace ph
