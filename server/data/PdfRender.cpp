#include "PdfRender.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>

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

QByteArray renderPagesStackedPng(const QByteArray &pdf, int dpi, int maxPages, QString *error)
{
    std::unique_ptr<Poppler::Document> document = Poppler::Document::loadFromData(pdf);
    if (!document || document->isLocked() || document->numPages() < 1) {
        *error = QStringLiteral("the page's print is not a readable PDF");
        return {};
    }
    document->setRenderHint(Poppler::Document::Antialiasing);
    document->setRenderHint(Poppler::Document::TextAntialiasing);
    QList<QImage> pages;
    int width = 0;
    int height = 0;
    for (int i = 0; i < qMin(document->numPages(), qMax(1, maxPages)); ++i) {
        std::unique_ptr<Poppler::Page> page = document->page(i);
        QImage image = page ? page->renderToImage(dpi, dpi) : QImage();
        if (image.isNull()) {
            *error = QStringLiteral("the page's print did not render");
            return {};
        }
        width = qMax(width, image.width());
        height += image.height();
        pages << image;
    }
    QImage stacked(width, height, QImage::Format_RGB32);
    stacked.fill(Qt::white);
    QPainter painter(&stacked);
    int y = 0;
    for (const QImage &page : std::as_const(pages)) {
        painter.drawImage(0, y, page);
        y += page.height();
    }
    painter.end();
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    stacked.save(&buffer, "PNG");
    return png;
}

} // namespace ph::data
