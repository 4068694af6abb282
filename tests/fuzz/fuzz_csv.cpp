// The text-table readers through Reader::parse: CSV and TSV (server/data/internal/
// Delimited), markdown pipe tables and text lines (TextTable), after text decoding. The
// first byte picks the format; the rest is the input.
#include "FuzzData.h"

#include "data/Format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::data::Format;
    Cursor in(bytesOf(data, size));
    static const Format formats[] = {Format::Csv, Format::Tsv, Format::Markdown, Format::Text};
    const Format format = formats[in.byte() % 4];
    const auto sheet = ph::data::Reader(fuzzLimits()).parse(in.rest(), format, QString());
    requireExplained(sheet);
    if (sheet.ok())
        exerciseSheet(*sheet);
    return 0;
}
