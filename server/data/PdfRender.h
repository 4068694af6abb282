#pragma once

#include <QByteArray>
#include <QString>

namespace ph::data {

// The first page of a PDF as a PNG image at `dpi` (poppler-qt6), or empty with `error`
// set. The browser's screenshots go this way: a headless page prints to PDF, and the
// print renders to an image.
QByteArray renderFirstPagePng(const QByteArray &pdf, int dpi, QString *error);
// The PDF's pages, at most `maxPages`, rendered at `dpi` and stacked top to bottom into
// one PNG (a long page printed on pages of the screen's size: the whole page as seen).
QByteArray renderPagesStackedPng(const QByteArray &pdf, int dpi, int maxPages, QString *error);

} // namespace ph::data
