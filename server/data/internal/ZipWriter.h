#pragma once

#include "data/internal/ZipMemory.h"

#include <QByteArray>
#include <QString>

namespace ph::data::internal {

// Writes a zip archive in memory through the system minizip (the one ZipArchive reads
// with). Members keep the order they are added in; no zip64 extra fields are written,
// so a first member added `stored` is what OpenDocument's `mimetype` must be.
class ZipWriter
{
public:
    ZipWriter();
    ~ZipWriter();
    ZipWriter(const ZipWriter &) = delete;
    ZipWriter &operator=(const ZipWriter &) = delete;

    enum class Method { Deflated, Stored };
    // False once anything failed; later calls do nothing.
    bool add(const QString &name, const QByteArray &data, Method method = Method::Deflated);
    // Closes the archive and returns its bytes (empty when anything failed).
    QByteArray finish();

private:
    ZipMemory m_memory;
    void *m_zip = nullptr;
    bool m_ok = true;
};

} // namespace ph::data::internal
