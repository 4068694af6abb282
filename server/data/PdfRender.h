#pragma once

#include <QByteArray>
#include <QString>

namespace ph::data {

// The first page of a PDF as a PNG image at `dpi` (poppler-qt6), or empty with `error`
// set. The browser's screenshots go this way: a headless page prints to PDF, and the
// print renders to an image.
QByteArray renderFirstPagePng(const QByteArray &pdf, int dpi, QString *error);

} // namespace ph::data
