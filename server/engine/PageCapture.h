#pragma once

#include "browser/PageEngine.h"

#include <QByteArray>
#include <QString>

#include <functional>

class QObject;

namespace ph {
class BrowserLease;
}

namespace ph::engine {

// A PNG of a leased page on either engine (the Firecrawl API's screenshot format and
// action): chromium takes it itself (Page.captureScreenshot, the viewport or the whole
// document); QtWebEngine's viewless page is printed on pages of the viewport's size
// (kWidth × kHeight CSS px, no margins), as the screenshot tool and the print live view
// do, and rendered by poppler: the first page is the viewport, all of them stacked the
// full page (its height rounded up to whole pages, at most ScreenshotOptions::kMaxHeight).
// `done` gets the PNG, or an empty one and why; never after `context` is gone.
void capturePage(BrowserLease &lease, const ScreenshotOptions &options, QObject *context,
                 std::function<void(const QByteArray &png, const QString &error)> done);

constexpr int kCaptureWidth = 1280;
constexpr int kCaptureHeight = 800;

} // namespace ph::engine
