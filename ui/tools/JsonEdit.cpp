#include "JsonEdit.h"

#include "common/JsonHighlighter.h"

#include <QEvent>
#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ph::ui {

JsonEdit::JsonEdit(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTabChangesFocus(true);
    m_highlighter = new JsonHighlighter(document());
    m_highlighter->updateColours(palette());
}

void JsonEdit::setJson(const QJsonValue &value)
{
    QString text;
    if (value.isObject()) {
        text = QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented));
    } else if (value.isArray()) {
        text = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented));
    } else if (!value.isUndefined()) {
        const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
        text = QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
    }
    setPlainText(text);
}

bool JsonEdit::json(QJsonValue *value, QString *error) const
{
    const QByteArray text = toPlainText().trimmed().toUtf8();
    if (text.isEmpty()) {
        *value = QJsonValue(QJsonValue::Undefined);
        return true;
    }
    // Wrapped in an array so scalars parse too; offsets are the text's own.
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson("[" + text + "]", &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isArray() || doc.array().size() != 1) {
        const int at = qBound(0, parse.offset - 1, int(text.size()));
        *error = parse.error != QJsonParseError::NoError
                     ? tr("not valid JSON: %1 at character %2").arg(parse.errorString()).arg(at)
                     : tr("not valid JSON: more than one value");
        return false;
    }
    *value = doc.array().at(0);
    return true;
}

void JsonEdit::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        m_highlighter->updateColours(palette());
    QPlainTextEdit::changeEvent(event);
}

} // namespace ph::ui
