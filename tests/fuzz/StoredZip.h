#pragma once

// Builds a zip archive whose members are stored (not deflated) with correct CRCs, so the
// xlsx target can mutate the XML of a workbook and still reach the workbook reader;
// mutating a real (deflated, checksummed) xlsx mostly exercises the zip layer, which
// fuzz_zip covers.
#include <QByteArray>
#include <QList>
#include <QPair>

#include <zlib.h>

#include <algorithm>

namespace ph::fuzz {

inline void putLe(QByteArray *out, quint32 value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out->append(char((value >> (8 * i)) & 0xFF));
}

inline QByteArray storedZip(const QList<QPair<QByteArray, QByteArray>> &members)
{
    QByteArray archive;
    QByteArray directory;
    for (const auto &member : members) {
        // Named references, not a structured binding: clang 14 cannot capture those.
        const QByteArray &name = member.first;
        const QByteArray &data = member.second;
        const quint32 crc =
            quint32(crc32(0, reinterpret_cast<const Bytef *>(data.constData()), uInt(data.size())));
        const quint32 offset = quint32(archive.size());
        const auto common = [&](QByteArray *out) {
            putLe(out, 20, 2);   // version needed
            putLe(out, 0, 2);    // flags
            putLe(out, 0, 2);    // stored
            putLe(out, 0, 2);    // time
            putLe(out, 0x21, 2); // 1980-01-01
            putLe(out, crc, 4);
            putLe(out, quint32(data.size()), 4);
            putLe(out, quint32(data.size()), 4);
            putLe(out, quint32(name.size()), 2);
            putLe(out, 0, 2); // extra
        };
        putLe(&archive, 0x04034b50, 4);
        common(&archive);
        archive += name;
        archive += data;

        putLe(&directory, 0x02014b50, 4);
        putLe(&directory, 20, 2); // made by
        common(&directory);
        putLe(&directory, 0, 2); // comment
        putLe(&directory, 0, 2); // disk
        putLe(&directory, 0, 2); // internal attributes
        putLe(&directory, 0, 4); // external attributes
        putLe(&directory, offset, 4);
        directory += name;
    }
    const quint32 directoryOffset = quint32(archive.size());
    archive += directory;
    putLe(&archive, 0x06054b50, 4);
    putLe(&archive, 0, 2);
    putLe(&archive, 0, 2);
    putLe(&archive, quint32(members.size()), 2);
    putLe(&archive, quint32(members.size()), 2);
    putLe(&archive, quint32(directory.size()), 4);
    putLe(&archive, directoryOffset, 4);
    putLe(&archive, 0, 2); // comment
    return archive;
}

// "--- name\n" starts a member; its bytes run to the next such line.
inline QList<QPair<QByteArray, QByteArray>> membersOf(const QByteArray &text)
{
    QList<QPair<QByteArray, QByteArray>> members;
    qsizetype pos = text.startsWith("--- ") ? 0 : text.indexOf("\n--- ");
    if (pos > 0)
        ++pos;
    while (pos >= 0 && pos < text.size()) {
        const qsizetype nameEnd = text.indexOf('\n', pos);
        if (nameEnd < 0)
            break;
        const QByteArray name = text.mid(pos + 4, nameEnd - pos - 4);
        const qsizetype next = text.indexOf("\n--- ", nameEnd);
        const qsizetype end = next < 0 ? text.size() : next;
        members.append({name, text.mid(nameEnd + 1, std::max<qsizetype>(0, end - nameEnd - 1))});
        pos = next < 0 ? -1 : next + 1;
        if (members.size() >= 256)
            break;
    }
    return members;
}

} // namespace ph::fuzz
