#pragma once

#include <QJsonValue>
#include <QPlainTextEdit>

namespace ph::ui {

class JsonHighlighter;

// Editable JSON: monospaced, highlighted by the console's JsonHighlighter (colours follow
// the palette). JsonView is its read-only sibling.
class JsonEdit : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit JsonEdit(QWidget *parent = nullptr);

    // Shows `value` indented; undefined shows nothing.
    void setJson(const QJsonValue &value);
    // The text as one JSON value (any type). Empty text gives undefined. False with
    // `error` (offset and reason, in the console's language) when it is not JSON.
    bool json(QJsonValue *value, QString *error) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    JsonHighlighter *m_highlighter;
};

} // namespace ph::ui
