#pragma once

#include "data/DataError.h"
#include "data/Sheet.h"

#include <QByteArray>

namespace ph::data {
struct Limits;
}

namespace ph::data::internal {

// JSON (UTF-8) as a table: an array of objects (keys in first-seen order), an array
// of scalars (one column "value"), an array of arrays whose first holds the column
// names, or an object: its one array property is read as above; an object without
// array properties is one row.
Result<Sheet> parseJsonTable(const QByteArray &utf8, const QString &title, const Limits &limits);

} // namespace ph::data::internal
