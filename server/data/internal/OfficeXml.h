#pragma once

#include "data/OfficeDocument.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

#include <functional>

class QXmlStreamWriter;

namespace ph::data::internal {

class ZipArchive;

// Text as XML may hold it: characters XML 1.0 forbids (most controls, lone surrogates,
// U+FFFE/U+FFFF) left out.
QString xmlText(const QString &text);
// Now as an ISO 8601 UTC timestamp without fractions ("2024-03-05T10:20:30Z").
QString isoNow();
// An OOXML package's docProps/core.xml: the title, Pilothouse as creator, created and
// modified now (the same for .docx and .pptx).
QByteArray coreProperties(const QString &title);
// A package of (name, bytes) parts as a zip, in order; `storedFirst` stores the first
// part uncompressed (OpenDocument's mimetype).
Result<QByteArray> zipParts(const QList<QPair<QString, QByteArray>> &parts,
                            bool storedFirst = false);
// The archive's parts in their order, with `replaced` ones swapped in.
Result<QByteArray> rezip(ZipArchive &zip, const QHash<QString, QByteArray> &replaced,
                         bool storedFirst);

// ODF text content: spaces beyond the first as <text:s/>, tabs and line breaks as
// elements.
void writeOdfText(QXmlStreamWriter &w, const QString &text);
// Items of (depth, writer of the item's paragraph) as nested <text:list>s.
struct OdfListItem
{
    int depth = 0;
    int list = 0; // a different list at the same depth starts a new <text:list>
    QString style;
    std::function<void(QXmlStreamWriter &)> paragraph;
};
void writeOdfLists(QXmlStreamWriter &w, const QList<OdfListItem> &items);

Result<QByteArray> appendDocx(ZipArchive &zip, const QList<DocBlock> &blocks);
Result<QByteArray> appendOdt(ZipArchive &zip, const QList<DocBlock> &blocks);

} // namespace ph::data::internal
