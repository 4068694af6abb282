// The Thrift compact protocol decoder (server/data/internal/Thrift) that reads parquet's
// FileMetaData and PageHeader, and the typed accessors the reader calls on its tree.
#include "FuzzInput.h"

#include "data/internal/Thrift.h"

namespace {

using ph::data::internal::thrift::Value;

// Walks the tree the way the parquet reader does: typed field access at every level.
void walk(const Value &v, int depth)
{
    if (depth > 200)
        return;
    for (const auto &[id, child] : v.fields) {
        v.integerField(id);
        v.boolField(id);
        v.binaryField(id);
        v.listField(id);
        walk(child, depth + 1);
    }
    for (const Value &item : v.list)
        walk(item, depth + 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    ph::data::internal::thrift::CompactReader reader(reinterpret_cast<const char *>(data),
                                                     qint64(size));
    Value value;
    const bool ok = reader.readStruct(&value);
    require(reader.position() >= 0 && reader.position() <= qint64(size),
            "the reader's position left the input");
    require(ok || !reader.error().isEmpty(), "a thrift failure without a message");
    if (ok)
        walk(value, 0);
    return 0;
}
