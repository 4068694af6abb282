// The xlsx reader (server/data/internal/XlsxReader) over a whole workbook: the package
// and workbook relationships, shared strings, styles and worksheets. An input that starts
// like a zip or an OLE file is read as given; any other input is a list of members
// ("--- name\n" then the bytes) stored into a zip with correct checksums, so mutations
// reach the XML rather than stopping at a CRC.
#include "FuzzData.h"
#include "StoredZip.h"

#include "data/internal/XlsxReader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    QByteArray bytes = bytesOf(data, size);
    if (!bytes.startsWith("PK") && !bytes.startsWith("\xD0\xCF"))
        bytes = storedZip(membersOf(bytes));
    for (const bool firstOnly : {true, false}) {
        const auto sheets = ph::data::internal::readXlsx(bytes, fuzzLimits(), firstOnly);
        requireExplained(sheets);
        if (!sheets.ok())
            continue;
        require(!sheets->isEmpty(), "a workbook read without a sheet");
        for (const ph::data::Sheet &sheet : *sheets)
            exerciseSheet(sheet);
    }
    return 0;
}
