#pragma once

#include "data/DataError.h"
#include "data/Sheet.h"

#include <QString>

namespace ph::data {
struct Limits;
}

namespace ph::data::internal {

// One row per non-blank line, trimmed, in a String column named "text".
Result<Sheet> parseTextLines(const QString &text, const QString &title, const Limits &limits);
// The first GitHub pipe table (header row, delimiter row, body rows; short rows
// padded, extra cells dropped, \| unescaped), typed like CSV. Without a table: one
// row per non-blank line with list markers ("- ", "* ", "+ ", "1. ", "1) ") removed.
Result<Sheet> parseMarkdown(const QString &text, const QString &title, const Limits &limits);

} // namespace ph::data::internal
