#include "PrintFrameSource.h"

#include "browser/qtwebengine/PagePrint.h"
#include "data/PdfRender.h"

#include <QFutureWatcher>
#include <QPageLayout>
#include <QPageSize>
#include <QWebEnginePage>
#include <QtConcurrent>

namespace ph::engine {

PrintFrameSource::PrintFrameSource(QWebEnginePage *page, QObject *parent)
    : LiveFrameSource(parent)
    , m_page(page)
{}

void PrintFrameSource::capture(std::function<void(const QImage &frame)> done)
{
    if (!m_page) {
        done(QImage());
        return;
    }
    // One page of the frame's size, no margins: printed at 96 dpi it is kWidth × kHeight.
    const QPageLayout layout(
        QPageSize(QSizeF(kWidth * 25.4 / 96, kHeight * 25.4 / 96), QPageSize::Millimeter),
        QPageLayout::Portrait, QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
    QPointer<PrintFrameSource> self(this);
    printPage(m_page, layout, [self, done](const QByteArray &pdf) {
        if (!self)
            return;
        if (pdf.isEmpty()) {
            done(QImage());
            return;
        }
        // Rendering takes a while: off the event loop.
        auto *watcher = new QFutureWatcher<QImage>(self);
        QObject::connect(watcher, &QFutureWatcher<QImage>::finished, self, [watcher, done] {
            watcher->deleteLater();
            done(watcher->result());
        });
        watcher->setFuture(QtConcurrent::run([pdf] {
            QString problem;
            const QByteArray png = data::renderFirstPagePng(pdf, 96, &problem);
            QImage image = QImage::fromData(png, "PNG");
            if (!image.isNull() && image.size() != QSize(kWidth, kHeight))
                image =
                    image.scaled(kWidth, kHeight, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
            return image;
        }));
    });
}

void PrintFrameSource::deliver(const LiveInput &input, Done done)
{
    deliverByScript(m_page, input, kWidth, std::move(done));
}

} // namespace ph::engine
