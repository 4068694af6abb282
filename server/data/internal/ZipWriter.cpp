#include "data/internal/ZipWriter.h"

#include <QDateTime>

#include <zip.h>

#include <cstring>

namespace ph::data::internal {

namespace {

using Memory = ZipWriter::Memory;

voidpf openMemory(voidpf opaque, const void *, int)
{
    return opaque;
}

uLong readMemory(voidpf, voidpf stream, void *buf, uLong size)
{
    auto *m = static_cast<Memory *>(stream);
    const qint64 n = std::min<qint64>(qint64(size), m->bytes.size() - m->pos);
    if (n <= 0)
        return 0;
    std::memcpy(buf, m->bytes.constData() + m->pos, size_t(n));
    m->pos += n;
    return uLong(n);
}

uLong writeMemory(voidpf, voidpf stream, const void *buf, uLong size)
{
    auto *m = static_cast<Memory *>(stream);
    const qint64 end = m->pos + qint64(size);
    if (end > m->bytes.size())
        m->bytes.resize(end);
    std::memcpy(m->bytes.data() + m->pos, buf, size_t(size));
    m->pos = end;
    return size;
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
        base = m->bytes.size();
        break;
    default:
        return -1;
    }
    const qint64 target = base + qint64(offset);
    if (target < 0 || target > m->bytes.size())
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

ZipWriter::ZipWriter()
{
    zlib_filefunc64_def io{};
    io.zopen64_file = openMemory;
    io.zread_file = readMemory;
    io.zwrite_file = writeMemory;
    io.ztell64_file = tellMemory;
    io.zseek64_file = seekMemory;
    io.zclose_file = closeMemory;
    io.zerror_file = errorMemory;
    io.opaque = &m_memory;
    m_zip = zipOpen2_64("memory", APPEND_STATUS_CREATE, nullptr, &io);
    m_ok = m_zip != nullptr;
}

ZipWriter::~ZipWriter()
{
    if (m_zip)
        zipClose(m_zip, nullptr);
}

bool ZipWriter::add(const QString &name, const QByteArray &data, Method method)
{
    if (!m_ok)
        return false;
    const QDateTime now = QDateTime::currentDateTime();
    zip_fileinfo info{};
    info.tmz_date.tm_year = uInt(now.date().year());
    info.tmz_date.tm_mon = uInt(now.date().month() - 1);
    info.tmz_date.tm_mday = uInt(now.date().day());
    info.tmz_date.tm_hour = uInt(now.time().hour());
    info.tmz_date.tm_min = uInt(now.time().minute());
    info.tmz_date.tm_sec = uInt(now.time().second());
    const bool stored = method == Method::Stored;
    // zip64 off: no extra fields (a stored `mimetype` must start at byte 38 of an ODF file).
    if (zipOpenNewFileInZip3_64(m_zip, name.toUtf8().constData(), &info, nullptr, 0, nullptr, 0,
                                nullptr, stored ? 0 : Z_DEFLATED,
                                stored ? 0 : Z_DEFAULT_COMPRESSION, 0, -MAX_WBITS, DEF_MEM_LEVEL,
                                Z_DEFAULT_STRATEGY, nullptr, 0, 0) != ZIP_OK) {
        m_ok = false;
        return false;
    }
    if (!data.isEmpty() &&
        zipWriteInFileInZip(m_zip, data.constData(), unsigned(data.size())) != ZIP_OK)
        m_ok = false;
    if (zipCloseFileInZip(m_zip) != ZIP_OK)
        m_ok = false;
    return m_ok;
}

QByteArray ZipWriter::finish()
{
    if (!m_zip)
        return {};
    const int rc = zipClose(m_zip, nullptr);
    m_zip = nullptr;
    if (rc != ZIP_OK || !m_ok)
        return {};
    return m_memory.bytes;
}

} // namespace ph::data::internal
