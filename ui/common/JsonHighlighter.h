#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace ph::ui {

// JSON as QJsonDocument::Indented writes it: keys, strings, numbers, true/false/null.
// Colours are picked for the palette's background, so dark themes stay readable.
class JsonHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit JsonHighlighter(QTextDocument *document);

    // Picks colours again (after a palette change) and rehighlights.
    void updateColours(const QPalette &palette);

protected:
    void highlightBlock(const QString &text) override;

private:
    QTextCharFormat m_key;
    QTextCharFormat m_string;
    QTextCharFormat m_number;
    QTextCharFormat m_literal;
};

} // namespace ph::ui
