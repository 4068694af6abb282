#pragma once

#include "data/internal/ZipMemory.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace ph::data::internal {

// Reads members of a zip archive held in memory, through the system minizip
// (libminizip, the one libxlsxwriter links). Not QuaZip: QuaZip exports minizip's
// function names with its own, incompatible I/O layer, and a process that loads both
// QuaZip and libxlsxwriter calls one from the other and crashes.
class ZipArchive
{
public:
    enum class Status { Ok, Missing, Damaged, TooLarge };

    explicit ZipArchive(const QByteArray &bytes);
    ~ZipArchive();
    ZipArchive(const ZipArchive &) = delete;
    ZipArchive &operator=(const ZipArchive &) = delete;

    bool isOpen() const { return m_zip != nullptr; }
    // Names of the members in central-directory order, at most `max` of them; a damaged
    // directory ends the list where it breaks.
    QStringList names(qsizetype max = 100000);
    // Member names compare case-insensitively, as Office does.
    bool contains(const QString &name);
    // The member's bytes, at most `maxBytes` of them (TooLarge past that); Damaged for
    // a bad CRC or a broken deflate stream.
    Status read(const QString &name, qint64 maxBytes, QByteArray *out);

private:
    QByteArray m_bytes;
    ZipMemory m_memory;
    void *m_zip = nullptr;
};

} // namespace ph::data::internal
