#pragma once

#include "data/DataError.h"
#include "data/Sheet.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace ph::data {

// An xlsx workbook with one worksheet per sheet (libxlsxwriter): a bold, frozen
// header row, numbers and booleans as such, Date/DateTime columns as Excel dates
// with a date format, nested JSON as JSON text, column widths from the content.
// Strings over Excel's 32,767 characters are cut there. An empty list gives a
// workbook with one empty worksheet.
Result<QByteArray> writeXlsx(const QList<Sheet> &sheets);

// Sheet titles made valid worksheet names, in order: []:*?/\ replaced by "_", no
// leading/trailing apostrophe, at most 31 characters, unique case-insensitively
// (" (2)" … suffixes), "Sheet" + N (its 1-based position) for an empty title or the
// reserved name "History".
QStringList excelSheetNames(const QStringList &titles);

} // namespace ph::data
