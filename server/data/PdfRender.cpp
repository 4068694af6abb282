#include "PdfRender.h"

#include <QBuffer>
#include <QImage>

#include <poppler-qt6.h>

namespace ph::data {

QByteArray renderFirstPagePng(const QByteArray &pdf, int dpi, QString *error)
{
    std::unique_ptr<Poppler::Document> document = Poppler::Document::loadFromData(pdf);
    if (!document || document->isLocked() || document->numPages() < 1) {
        *error = QStringLiteral("the page's print is not a readable PDF");
        return {};
    }
    document->setRenderHint(Poppler::Document::Antialiasing);
    document->setRenderHint(Poppler::Document::TextAntialiasing);
    std::unique_ptr<Poppler::Page> page = document->page(0);
    const QImage image = page ? page->renderToImage(dpi, dpi) : QImage();
    if (image.isNull()) {
        *error = QStringLiteral("the page's print did not render");
        return {};
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return png;
}

} // namespace ph::data
