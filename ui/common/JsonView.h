#pragma once

#include <QJsonValue>
#include <QPlainTextEdit>

class QSyntaxHighlighter;

namespace ph::ui {

// Read-only, monospaced, highlighted JSON. The one place that decides the highlighter:
// KF6 SyntaxHighlighting when the build found it (PILOTHOUSE_HAVE_KSYNTAX), else the
// console's own JsonHighlighter. Colours follow the palette (light or dark).
class JsonView : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit JsonView(QWidget *parent = nullptr);

    void setJson(const QJsonValue &value);
    QJsonValue json() const { return m_value; }

protected:
    void changeEvent(QEvent *event) override;

private:
    QJsonValue m_value;
    QSyntaxHighlighter *m_highlighter = nullptr;
};

} // namespace ph::ui
