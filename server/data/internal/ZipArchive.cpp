#include "data/internal/ZipArchive.h"

#include <unzip.h>

#include <cstring>

namespace ph::data::internal {

namespace {

using Memory = ZipArchive::Memory;

voidpf openMemory(voidpf opaque, const void *, int mode)
{
    if (mode & ZLIB_FILEFUNC_MODE_WRITE)
        return nullptr;
    static_cast<Memory *>(opaque)->pos = 0;
    return opaque;
}

uLong readMemory(voidpf, voidpf stream, void *buf, uLong size)
{
    auto *m = static_cast<Memory *>(stream);
    const qint64 n = std::min<qint64>(qint64(size), m->size - m->pos);
    if (n <= 0)
        return 0;
    std::memcpy(buf, m->data + m->pos, size_t(n));
    m->pos += n;
    return uLong(n);
}

uLong writeMemory(voidpf, voidpf, const void *, uLong)
{
    return 0;
}

ZPOS64_T tellMemory(voidpf, voidpf stream)
{
    return ZPOS64_T(static_cast<Memory *>(stream)->pos);
}

long seekMemory(voidpf, voidpf stream, ZPOS64_T offset, int origin)
{
    auto *m = static_cast<Memory *>(stream);
    qint64 base = 0;
    switch (origin) {
    case ZLIB_FILEFUNC_SEEK_SET:
        base = 0;
        break;
    case ZLIB_FILEFUNC_SEEK_CUR:
        base = m->pos;
        break;
    case ZLIB_FILEFUNC_SEEK_END:
        base = m->size;
        break;
    default:
        return -1;
    }
    if (offset > ZPOS64_T(m->size))
        return -1;
    const qint64 target = base + qint64(offset);
    if (target < 0 || target > m->size)
        return -1;
    m->pos = target;
    return 0;
}

int closeMemory(voidpf, voidpf)
{
    return 0;
}

int errorMemory(voidpf, voidpf)
{
    return 0;
}

} // namespace

ZipArchive::ZipArchive(const QByteArray &bytes)
    : m_bytes(bytes)
{
    m_memory.data = m_bytes.constData();
    m_memory.size = m_bytes.size();
    zlib_filefunc64_def io{};
    io.zopen64_file = openMemory;
    io.zread_file = readMemory;
    io.zwrite_file = writeMemory;
    io.ztell64_file = tellMemory;
    io.zseek64_file = seekMemory;
    io.zclose_file = closeMemory;
    io.zerror_file = errorMemory;
    io.opaque = &m_memory;
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
