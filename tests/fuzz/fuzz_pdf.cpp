// PDF text (server/data/internal/PdfText over poppler-qt6): the magic check, damaged and
// encrypted documents, pages and their text.
#include "FuzzData.h"

#include "data/internal/PdfText.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    requireExplained(ph::data::internal::extractPdfText(bytesOf(data, size)));
    return 0;
}
