#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

class QObject;

namespace ph {
class BrowserLease;
}

namespace ph::engine {

// A picture of the page (the Firecrawl API's screenshot format and action): the viewport,
// or (fullPage) the whole document from its top, at most kMaxHeight tall.
struct ScreenshotOptions
{
    bool fullPage = false;
    static constexpr int kMaxHeight = 16384;
};

// A PNG of a leased page on either engine. The page is printed on pages of the viewport's
// size (kCaptureWidth × kCaptureHeight CSS px, no margins, backgrounds printed), as the
// screenshot tool and the print live view do — QtWebEngine's pooled pages have no view
// and so no pixels of their own in the headless server, and chromium prints the same way
// (Page.printToPDF) — and rendered by poppler at 96 dpi: the first page is the viewport,
// all of them stacked the full page (its height rounded up to whole pages, at most
// ScreenshotOptions::kMaxHeight). `done` gets the PNG, or an empty one and why; never
// after `context` is gone.
void capturePage(BrowserLease &lease, const ScreenshotOptions &options, QObject *context,
                 std::function<void(const QByteArray &png, const QString &error)> done);

constexpr int kCaptureWidth = 1280;
constexpr int kCaptureHeight = 800;

} // namespace ph::engine
