#pragma once

#include <QByteArray>

struct zlib_filefunc64_def_s; // minizip's ioapi.h, kept out of this header

namespace ph::data::internal {

// A QByteArray as minizip's file, for ZipArchive (reading) and ZipWriter (writing):
// the one set of zlib_filefunc64 callbacks over memory.
struct ZipMemory
{
    QByteArray bytes;
    qint64 pos = 0;
    // A reader's memory refuses to be opened for writing and writes nothing.
    bool writable = false;

    // Fills `io` with the callbacks over this memory (which must outlive the zip
    // handle), for unzOpen2_64 and zipOpen2_64.
    void fill(zlib_filefunc64_def_s *io);
};

} // namespace ph::data::internal
