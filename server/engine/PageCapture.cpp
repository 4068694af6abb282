#include "PageCapture.h"

#include "browser/BrowserLease.h"
#include "data/PdfRender.h"

#include <QFutureWatcher>
#include <QPageLayout>
#include <QPageSize>
#include <QPointer>
#include <QtConcurrent>

namespace ph::engine {

namespace {

void printAndRender(BrowserLease &lease, const ScreenshotOptions &options, QObject *context,
                    std::function<void(const QByteArray &, const QString &)> done)
{
    // One page of the viewport's size, no margins: rendered at 96 dpi it is that many pixels.
    const QPageLayout layout(
        QPageSize(QSizeF(kCaptureWidth * 25.4 / 96, kCaptureHeight * 25.4 / 96),
                  QPageSize::Millimeter),
        QPageLayout::Portrait, QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
    const int pages = options.fullPage ? ScreenshotOptions::kMaxHeight / kCaptureHeight : 1;
    QPointer<QObject> guard(context);
    lease.printToPdf(layout, [guard, pages, done](const QByteArray &pdf) {
        if (!guard)
            return;
        if (pdf.isEmpty()) {
            done(QByteArray(), QStringLiteral("the page could not be printed"));
            return;
        }
        // Rendering takes a while: off the event loop.
        using Rendered = QPair<QByteArray, QString>;
        auto *watcher = new QFutureWatcher<Rendered>(guard);
        QObject::connect(watcher, &QFutureWatcher<Rendered>::finished, guard, [watcher, done] {
            watcher->deleteLater();
            const Rendered r = watcher->result();
            done(r.first, r.second);
        });
        watcher->setFuture(QtConcurrent::run([pdf, pages] {
            QString problem;
            const QByteArray png = data::renderPagesStackedPng(pdf, 96, pages, &problem);
            return Rendered(png, problem);
        }));
    });
}

} // namespace

void capturePage(BrowserLease &lease, const ScreenshotOptions &options, QObject *context,
                 std::function<void(const QByteArray &png, const QString &error)> done)
{
    printAndRender(lease, options, context, std::move(done));
}

} // namespace ph::engine
