#include "JsonView.h"

#include "JsonHighlighter.h"

#include <QEvent>
#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#ifdef PILOTHOUSE_HAVE_KSYNTAX
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

namespace ph::ui {

namespace {
QString pretty(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented));
    if (value.isUndefined())
        return {};
    // A scalar: wrapped and unwrapped, so strings keep their quotes and escapes.
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}
} // namespace

JsonView::JsonView(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
#ifdef PILOTHOUSE_HAVE_KSYNTAX
    static KSyntaxHighlighting::Repository repository;
    auto *h = new KSyntaxHighlighting::SyntaxHighlighter(document());
    h->setDefinition(repository.definitionForName(QStringLiteral("JSON")));
    h->setTheme(repository.themeForPalette(palette()));
    m_highlighter = h;
#else
    m_highlighter = new JsonHighlighter(document());
    static_cast<JsonHighlighter *>(m_highlighter)->updateColours(palette());
#endif
}

void JsonView::setJson(const QJsonValue &value)
{
    m_value = value;
    setPlainText(pretty(value));
}

void JsonView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
#ifdef PILOTHOUSE_HAVE_KSYNTAX
        static KSyntaxHighlighting::Repository repository;
        static_cast<KSyntaxHighlighting::SyntaxHighlighter *>(m_highlighter)
            ->setTheme(repository.themeForPalette(palette()));
        m_highlighter->rehighlight();
#else
        static_cast<JsonHighlighter *>(m_highlighter)->updateColours(palette());
#endif
    }
    QPlainTextEdit::changeEvent(event);
}

} // namespace ph::ui
