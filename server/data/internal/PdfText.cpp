#include "data/internal/PdfText.h"

#include <poppler-qt6.h>

#include <QRectF>

#include <mutex>

namespace ph::data::internal {

namespace {

void quiet(const QString &, const QVariant &) {}

} // namespace

Result<QString> extractPdfText(const QByteArray &bytes)
{
    // Poppler reports every damaged object on stderr; our error says what matters.
    static std::once_flag silenced;
    std::call_once(silenced, [] { Poppler::setDebugErrorFunction(quiet, QVariant()); });

    const qsizetype magic = bytes.left(1024).indexOf("%PDF-");
    if (magic < 0)
        return DataError::malformed(QStringLiteral("not a PDF: it does not start with %PDF-"));
    std::unique_ptr<Poppler::Document> document = Poppler::Document::loadFromData(bytes);
    if (!document)
        return DataError::malformed(QStringLiteral("the PDF is damaged and cannot be read"));
    if (document->isLocked())
        return DataError::encrypted(
            QStringLiteral("the PDF is password-protected, which is not supported"));
    const int pages = document->numPages();
    if (pages <= 0)
        return DataError::malformed(QStringLiteral("the PDF has no pages"));
    QStringList texts;
    texts.reserve(pages);
    for (int i = 0; i < pages; ++i) {
        std::unique_ptr<Poppler::Page> page = document->page(i);
        QString text = page ? page->text(QRectF()) : QString();
        while (!text.isEmpty() && text.back().isSpace())
            text.chop(1);
        texts << text;
    }
    return texts.join(QLatin1Char('\f'));
}

} // namespace ph::data::internal
