#pragma once

// Builds small zip archives (the system minizip, as the data library uses) for xlsx
// tests: hand-made workbooks and damaged ones; and reads parts back out of workbooks
// the writer made.
#include "data/internal/ZipArchive.h"

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QPair>
#include <QString>
#include <QTemporaryDir>

#include <zip.h>

namespace ph::test {

inline QByteArray makeZip(const QList<QPair<QString, QByteArray>> &files)
{
    QTemporaryDir dir;
    const QByteArray path = QFile::encodeName(dir.filePath(QStringLiteral("t.zip")));
    zipFile zip = zipOpen64(path.constData(), APPEND_STATUS_CREATE);
    if (!zip)
        return {};
    for (const auto &[name, data] : files) {
        zip_fileinfo info{};
        if (zipOpenNewFileInZip64(zip, name.toUtf8().constData(), &info, nullptr, 0, nullptr, 0,
                                  nullptr, Z_DEFLATED, Z_BEST_COMPRESSION, 0) != ZIP_OK)
            return {};
        zipWriteInFileInZip(zip, data.constData(), unsigned(data.size()));
        zipCloseFileInZip(zip);
    }
    zipClose(zip, nullptr);
    QFile f(QFile::decodeName(path));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline QByteArray zipPart(const QByteArray &archive, const QString &name)
{
    ph::data::internal::ZipArchive zip(archive);
    QByteArray out;
    zip.read(name, 1 << 30, &out);
    return out;
}
// The parts of a minimal workbook with one sheet, its XML given.
inline QList<QPair<QString, QByteArray>> minimalWorkbook(const QByteArray &sheetXml,
                                                         const QByteArray &sharedStrings = {})
{
    QList<QPair<QString, QByteArray>> parts{
        {QStringLiteral("[Content_Types].xml"), QByteArray("<Types/>")},
        {QStringLiteral("xl/workbook.xml"),
         QByteArray("<workbook xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/"
                    "relationships\"><sheets><sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/>"
                    "</sheets></workbook>")},
        {QStringLiteral("xl/_rels/workbook.xml.rels"),
         QByteArray("<Relationships><Relationship Id=\"rId1\" Type=\"x/worksheet\" "
                    "Target=\"worksheets/sheet1.xml\"/><Relationship Id=\"rId2\" "
                    "Type=\"x/sharedStrings\" Target=\"sharedStrings.xml\"/></Relationships>")},
        {QStringLiteral("xl/worksheets/sheet1.xml"), sheetXml},
    };
    if (!sharedStrings.isEmpty())
        parts.append({QStringLiteral("xl/sharedStrings.xml"), sharedStrings});
    return parts;
}

} // namespace ph::test
