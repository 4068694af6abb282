#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace ph::data {

// A set of named files as one zip archive in memory, and back (the sessions' sealed
// profiles). Names are relative paths with '/'; the reader refuses a member whose name
// is absolute or climbs out ("..").
struct ZipFile
{
    QString name;
    QByteArray bytes;
};

// Empty when anything failed.
QByteArray zipFiles(const QList<ZipFile> &files);
// Every member, or nothing when the archive is damaged, a name is unsafe or the members
// come to more than `maxBytes` together.
std::optional<QList<ZipFile>> unzipFiles(const QByteArray &archive, qint64 maxBytes);

} // namespace ph::data
