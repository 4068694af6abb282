#include "data/internal/ZipWriter.h"

#include <QDateTime>

#include <zip.h>

#include <cstring>

namespace ph::data::internal {

ZipWriter::ZipWriter()
{
    m_memory.writable = true;
    zlib_filefunc64_def io;
    m_memory.fill(&io);
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
