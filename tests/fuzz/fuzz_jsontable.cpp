// JSON tables (server/data/internal/JsonTable): arrays of objects, of arrays, of scalars,
// an object with one array property; the key-order scanner that re-reads the text.
// Through Reader::parse (text decoding first) and parseJsonTable on the raw bytes.
#include "FuzzData.h"

#include "data/Format.h"
#include "data/internal/JsonTable.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    const QByteArray bytes = bytesOf(data, size);
    const auto viaReader =
        ph::data::Reader(fuzzLimits()).parse(bytes, ph::data::Format::Json, QString());
    requireExplained(viaReader);
    if (viaReader.ok())
        exerciseSheet(*viaReader);
    const auto direct = ph::data::internal::parseJsonTable(bytes, QString(), fuzzLimits());
    requireExplained(direct);
    return 0;
}
