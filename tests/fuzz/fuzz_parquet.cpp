// The parquet reader (server/data/internal/ParquetReader): footer, schema, row groups,
// page headers, codecs (snappy, gzip, zstd), encodings (plain, dictionary, RLE, delta,
// byte stream split) and the logical types.
#include "FuzzData.h"

#include "data/internal/ParquetReader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    const auto sheet =
        ph::data::internal::readParquet(bytesOf(data, size), QStringLiteral("t"), fuzzLimits());
    requireExplained(sheet);
    if (sheet.ok()) {
        for (const QJsonArray &row : sheet->rows)
            require(row.size() == sheet->columns.size(), "a parquet row of the wrong width");
        exerciseSheet(*sheet);
    }
    return 0;
}
