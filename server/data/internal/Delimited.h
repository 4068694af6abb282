#pragma once

#include "data/DataError.h"
#include "data/Sheet.h"

#include <QString>

namespace ph::data {
struct Limits;
}

namespace ph::data::internal {

// RFC 4180 records separated by `delimiter` (',' for CSV, '\t' for TSV): quoted
// fields with "" escapes, delimiters and line breaks inside quotes, CRLF/LF/CR line
// ends, a trailing line break, blank lines skipped. The first record is the header.
// A record whose field count differs from the header's is an error naming its row
// (1-based, the header is row 1).
Result<Sheet> parseDelimited(const QString &text, QChar delimiter, const QString &title,
                             const Limits &limits);

} // namespace ph::data::internal
