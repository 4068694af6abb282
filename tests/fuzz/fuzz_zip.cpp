// The zip layer (server/data/internal/ZipArchive over the system minizip): the central
// directory, local headers, deflate streams, CRCs and the size limit, on raw bytes.
#include "FuzzInput.h"

#include "data/internal/ZipArchive.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::data::internal::ZipArchive;
    ZipArchive zip(bytesOf(data, size));
    if (!zip.isOpen())
        return 0;
    const QStringList names = zip.names(64);
    for (const QString &name : names) {
        QByteArray out;
        const ZipArchive::Status status = zip.read(name, 1 << 20, &out);
        require(status == ZipArchive::Status::Ok || out.isEmpty(),
                "a member that failed to read left bytes behind");
        require(out.size() <= (1 << 20), "a member read past its limit");
    }
    QByteArray out;
    zip.read(QStringLiteral("xl/workbook.xml"), 4096, &out);
    zip.contains(QStringLiteral("[Content_Types].xml"));
    return 0;
}
