#include "ZipFiles.h"

#include "data/internal/ZipArchive.h"
#include "data/internal/ZipWriter.h"

namespace ph::data {

namespace {
bool safeName(const QString &name)
{
    if (name.isEmpty() || name.startsWith(QLatin1Char('/')) || name.contains(QLatin1Char('\\')) ||
        name.contains(QChar(0)))
        return false;
    const QStringList parts = name.split(QLatin1Char('/'));
    for (const QString &part : parts) {
        if (part.isEmpty() || part == QLatin1String(".") || part == QLatin1String(".."))
            return false;
    }
    return true;
}
} // namespace

QByteArray zipFiles(const QList<ZipFile> &files)
{
    internal::ZipWriter writer;
    for (const ZipFile &f : files) {
        if (!writer.add(f.name, f.bytes))
            return {};
    }
    return writer.finish();
}

std::optional<QList<ZipFile>> unzipFiles(const QByteArray &archive, qint64 maxBytes)
{
    internal::ZipArchive zip(archive);
    if (!zip.isOpen())
        return std::nullopt;
    QList<ZipFile> out;
    qint64 total = 0;
    for (const QString &name : zip.names()) {
        if (name.endsWith(QLatin1Char('/')))
            continue; // a directory entry
        if (!safeName(name))
            return std::nullopt;
        ZipFile f;
        f.name = name;
        if (zip.read(name, maxBytes - total, &f.bytes) != internal::ZipArchive::Status::Ok)
            return std::nullopt;
        total += f.bytes.size();
        out.append(std::move(f));
    }
    return out;
}

} // namespace ph::data
