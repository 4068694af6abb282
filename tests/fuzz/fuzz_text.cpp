// Text decoding (server/data/internal/TextDecoding: BOMs, strict UTF-8 and UTF-16) and
// format inference (server/data/Format: extension, content type, content sniffing).
// The first line is a file name or URL, the second a content type, the rest the bytes.
#include "FuzzData.h"

#include "data/Format.h"
#include "data/internal/TextDecoding.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    const QByteArray bytes = bytesOf(data, size);
    const auto strict = ph::data::internal::decodeText(bytes);
    requireExplained(strict);
    const QString lenient = ph::data::internal::decodeTextLenient(bytes);
    if (strict.ok() && !bytes.startsWith("\xFF\xFE") && !bytes.startsWith("\xFE\xFF"))
        require(strict.value() == lenient, "strict and lenient UTF-8 decoding disagree");

    Cursor in(bytes);
    const QString name = QString::fromUtf8(in.until('\n'));
    const QString contentType = QString::fromUtf8(in.until('\n'));
    const QByteArray body = in.rest();
    ph::data::sniffFormat(body);
    ph::data::inferFormat(name, contentType, body);
    ph::data::formatFromName(name);
    return 0;
}
