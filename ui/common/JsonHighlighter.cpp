#include "JsonHighlighter.h"

#include <QPalette>
#include <QRegularExpression>

namespace ph::ui {

JsonHighlighter::JsonHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{
    updateColours(QPalette());
}

void JsonHighlighter::updateColours(const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    m_key.setForeground(dark ? QColor(0x9c, 0xdc, 0xfe) : QColor(0x00, 0x4f, 0x9e));
    m_key.setFontWeight(QFont::DemiBold);
    m_string.setForeground(dark ? QColor(0xce, 0x91, 0x78) : QColor(0xa3, 0x15, 0x15));
    m_number.setForeground(dark ? QColor(0xb5, 0xce, 0xa8) : QColor(0x09, 0x86, 0x58));
    m_literal.setForeground(dark ? QColor(0x56, 0x9c, 0xd6) : QColor(0x00, 0x00, 0xff));
    rehighlight();
}

void JsonHighlighter::highlightBlock(const QString &text)
{
    // A string followed by a colon is a key.
    static const QRegularExpression token(QStringLiteral(
        R"rx(("(?:[^"\\]|\\.)*")(\s*:)?|(-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|\b(true|false|null)\b)rx"));
    auto it = token.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        if (m.capturedLength(1) > 0)
            setFormat(m.capturedStart(1), m.capturedLength(1),
                      m.capturedLength(2) > 0 ? m_key : m_string);
        else if (m.capturedLength(3) > 0)
            setFormat(m.capturedStart(3), m.capturedLength(3), m_number);
        else if (m.capturedLength(4) > 0)
            setFormat(m.capturedStart(4), m.capturedLength(4), m_literal);
    }
}

} // namespace ph::ui
