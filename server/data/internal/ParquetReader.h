#pragma once

#include "data/DataError.h"
#include "data/Sheet.h"

#include <QByteArray>

namespace ph::data {
struct Limits;
}

namespace ph::data::internal {

// A Parquet file with a flat schema as one sheet (docs/data-formats.md, "parquet"):
// every row group, data pages v1 and v2, dictionary pages, PLAIN, dictionary, RLE and
// DELTA encodings, codecs UNCOMPRESSED, SNAPPY, GZIP and ZSTD. Nested or repeated
// columns, other codecs and encrypted files are Unsupported errors.
Result<Sheet> readParquet(const QByteArray &bytes, const QString &title, const Limits &limits);

} // namespace ph::data::internal
