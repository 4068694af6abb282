#pragma once

#include "data/DataError.h"
#include "data/Sheet.h"

#include <QByteArray>
#include <QList>

namespace ph::data {
struct Limits;
}

namespace ph::data::internal {

// The worksheets of an xlsx workbook, each a Sheet titled by its sheet name, the first
// non-empty row as the header (docs/data-formats.md, "xlsx"). `firstOnly` stops after
// the first worksheet. Chart sheets are skipped.
Result<QList<Sheet>> readXlsx(const QByteArray &bytes, const Limits &limits, bool firstOnly);

// Whether an Excel number format code shows a date or a time ("yyyy-mm-dd",
// "[h]:mm", "d/m/yy h:mm AM/PM" …), ignoring quoted text, escapes and [colour] tags.
// Exposed for tests.
bool isDateFormatCode(const QString &code);

} // namespace ph::data::internal
