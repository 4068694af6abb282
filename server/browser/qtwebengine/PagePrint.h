#pragma once

#include <QByteArray>

#include <functional>

class QPageLayout;
class QWebEnginePage;

namespace ph {

// Prints `page` to PDF after the prints of it asked for before have ended. QtWebEngine
// answers a print asked for while another print of the same page is under way with
// nothing, so every print of a run's page (the screenshot tool, the live view's print
// frames) goes through here. `done` gets the PDF, or nothing when printing failed or the
// page went away.
void printPage(QWebEnginePage *page, const QPageLayout &layout,
               std::function<void(const QByteArray &pdf)> done);

} // namespace ph
