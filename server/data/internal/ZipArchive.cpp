#include "data/internal/ZipArchive.h"

#include <unzip.h>

#include <cstring>

namespace ph::data::internal {

ZipArchive::ZipArchive(const QByteArray &bytes)
    : m_bytes(bytes)
{
    m_memory.bytes = m_bytes;
    zlib_filefunc64_def io;
    m_memory.fill(&io);
    m_zip = unzOpen2_64("memory", &io);
}

ZipArchive::~ZipArchive()
{
    if (m_zip)
        unzClose(m_zip);
}

QStringList ZipArchive::names(qsizetype max)
{
    QStringList out;
    if (!m_zip)
        return out;
    for (int rc = unzGoToFirstFile(m_zip); rc == UNZ_OK && out.size() < max;
         rc = unzGoToNextFile(m_zip)) {
        char name[1024];
        unz_file_info64 info{};
        if (unzGetCurrentFileInfo64(m_zip, &info, name, sizeof name, nullptr, 0, nullptr, 0) !=
            UNZ_OK)
            break;
        // minizip writes at most sizeof name bytes and terminates within them.
        out << QString::fromUtf8(name, qsizetype(qstrnlen(name, sizeof name)));
    }
    return out;
}

bool ZipArchive::contains(const QString &name)
{
    return m_zip && unzLocateFile(m_zip, name.toUtf8().constData(), 2) == UNZ_OK;
}

ZipArchive::Status ZipArchive::read(const QString &name, qint64 maxBytes, QByteArray *out)
{
    out->clear();
    if (!contains(name))
        return Status::Missing;
    unz_file_info64 info{};
    if (unzGetCurrentFileInfo64(m_zip, &info, nullptr, 0, nullptr, 0, nullptr, 0) != UNZ_OK)
        return Status::Damaged;
    if (qint64(info.uncompressed_size) > maxBytes || qint64(info.uncompressed_size) < 0)
        return Status::TooLarge;
    if (unzOpenCurrentFile(m_zip) != UNZ_OK)
        return Status::Damaged;
    // The declared size may lie: read in chunks and stop at the limit.
    char chunk[65536];
    Status status = Status::Ok;
    while (true) {
        const int n = unzReadCurrentFile(m_zip, chunk, sizeof chunk);
        if (n < 0) {
            status = Status::Damaged;
            break;
        }
        if (n == 0)
            break;
        if (out->size() + n > maxBytes) {
            status = Status::TooLarge;
            break;
        }
        out->append(chunk, n);
    }
    const int closed = unzCloseCurrentFile(m_zip); // UNZ_CRCERROR for a bad checksum
    if (status == Status::Ok && closed != UNZ_OK)
        status = Status::Damaged;
    if (status != Status::Ok)
        out->clear();
    return status;
}

} // namespace ph::data::internal
