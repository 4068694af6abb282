#pragma once

// A reader of office files of the tests' own, independent of the writers under test:
// the zip through minizip's unzip (CRCs checked), the XML parts with QXmlStreamReader,
// and the packaging rules of OPC (.docx, .pptx) and OpenDocument (.odt, .odp).
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <unzip.h>

namespace ph::test {

struct Package
{
    QStringList order;                // member names as the archive lists them
    QHash<QString, QByteArray> parts; // name -> bytes
    QByteArray raw;
};

inline Package unzipAll(const QByteArray &bytes)
{
    Package p;
    p.raw = bytes;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("f.zip"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return p;
    f.close();
    unzFile zip = unzOpen64(QFile::encodeName(path).constData());
    if (!zip)
        return p;
    for (int rc = unzGoToFirstFile(zip); rc == UNZ_OK; rc = unzGoToNextFile(zip)) {
        char name[512];
        unz_file_info64 info{};
        if (unzGetCurrentFileInfo64(zip, &info, name, sizeof name, nullptr, 0, nullptr, 0) !=
                UNZ_OK ||
            unzOpenCurrentFile(zip) != UNZ_OK)
            break;
        QByteArray data(qsizetype(info.uncompressed_size), Qt::Uninitialized);
        const int n = unzReadCurrentFile(zip, data.data(), unsigned(data.size()));
        // CRC checked on close.
        const bool ok = unzCloseCurrentFile(zip) == UNZ_OK && n == data.size();
        p.order << QString::fromUtf8(name);
        p.parts.insert(QString::fromUtf8(name), ok ? data : QByteArray());
    }
    unzClose(zip);
    return p;
}

// Every part is well-formed XML (bar the mimetype); returns the first one that is not.
inline QString malformedPart(const Package &p)
{
    for (const QString &name : p.order) {
        if (name == QLatin1String("mimetype"))
            continue;
        QXmlStreamReader r(p.parts.value(name));
        while (!r.atEnd())
            r.readNext();
        if (r.hasError())
            return QStringLiteral("%1: %2 (line %3)")
                .arg(name, r.errorString())
                .arg(r.lineNumber());
    }
    return {};
}

// Attribute values of elements with `qualifiedName` ("Override" → PartName …).
inline QStringList attributes(const QByteArray &xml, const QString &element,
                              const QString &attribute)
{
    QStringList out;
    QXmlStreamReader r(xml);
    while (!r.atEnd()) {
        r.readNext();
        if (r.isStartElement() && r.qualifiedName() == element)
            out << r.attributes().value(attribute).toString();
    }
    return out;
}

// The text inside each `container` element (paragraph), its `textElements` concatenated.
inline QStringList texts(const QByteArray &xml, const QString &container,
                         const QStringList &textElements)
{
    QStringList out;
    QXmlStreamReader r(xml);
    int depth = 0;
    int inText = 0;
    QString current;
    while (!r.atEnd()) {
        r.readNext();
        if (r.isStartElement()) {
            if (r.qualifiedName() == container && depth++ == 0)
                current.clear();
            if (textElements.contains(r.qualifiedName().toString()))
                ++inText;
        } else if (r.isCharacters() && depth > 0 && (inText > 0 || textElements.isEmpty())) {
            current += r.text();
        } else if (r.isEndElement()) {
            if (textElements.contains(r.qualifiedName().toString()))
                --inText;
            if (r.qualifiedName() == container && --depth == 0)
                out << current;
        }
    }
    return out;
}

// Paragraph style and text of each w:p in a WordprocessingML body.
inline QList<QPair<QString, QString>> wordParagraphs(const QByteArray &xml)
{
    QList<QPair<QString, QString>> out;
    QXmlStreamReader r(xml);
    QString style;
    QString text;
    bool inText = false;
    while (!r.atEnd()) {
        r.readNext();
        const auto n = r.qualifiedName();
        if (r.isStartElement() && n == QLatin1String("w:p")) {
            style.clear();
            text.clear();
        } else if (r.isStartElement() && n == QLatin1String("w:pStyle")) {
            style = r.attributes().value(QLatin1String("w:val")).toString();
        } else if (r.isStartElement() && n == QLatin1String("w:t")) {
            inText = true;
        } else if (r.isEndElement() && n == QLatin1String("w:t")) {
            inText = false;
        } else if (r.isCharacters() && inText) {
            text += r.text();
        } else if (r.isEndElement() && n == QLatin1String("w:p")) {
            out.append({style, text});
        }
    }
    return out;
}

// A relationship part's (Id → Target, TargetMode) list.
struct Relationship
{
    QString id, type, target;
    bool external = false;
};
inline QList<Relationship> relationshipsOf(const QByteArray &xml)
{
    QList<Relationship> out;
    QXmlStreamReader r(xml);
    while (!r.atEnd()) {
        r.readNext();
        if (r.isStartElement() && r.name() == QLatin1String("Relationship")) {
            const auto a = r.attributes();
            out.append({a.value(QLatin1String("Id")).toString(),
                        a.value(QLatin1String("Type")).toString(),
                        a.value(QLatin1String("Target")).toString(),
                        a.value(QLatin1String("TargetMode")) == QLatin1String("External")});
        }
    }
    return out;
}

// A relationship's target resolved against its source part's folder.
inline QString resolveTarget(const QString &source, const QString &target)
{
    if (target.startsWith(QLatin1Char('/')))
        return target.mid(1);
    const QString base = source.left(source.lastIndexOf(QLatin1Char('/')) + 1);
    return QDir::cleanPath(base + target);
}

// OPC: every part has a content type ([Content_Types].xml Override or Default by
// extension), every Override names a part that exists, and every internal relationship
// of every .rels part resolves to a part that exists. Returns what is wrong.
inline QString checkOpc(const Package &p)
{
    const QByteArray types = p.parts.value(QStringLiteral("[Content_Types].xml"));
    if (types.isEmpty())
        return QStringLiteral("no [Content_Types].xml");
    const QStringList overrides =
        attributes(types, QStringLiteral("Override"), QStringLiteral("PartName"));
    const QStringList defaults =
        attributes(types, QStringLiteral("Default"), QStringLiteral("Extension"));
    for (const QString &o : overrides)
        if (!p.parts.contains(o.mid(1)))
            return QStringLiteral("[Content_Types].xml names %1, which is not in the package")
                .arg(o);
    for (const QString &name : p.order) {
        if (name == QLatin1String("[Content_Types].xml"))
            continue;
        if (!overrides.contains(QLatin1Char('/') + name) &&
            !defaults.contains(name.section(QLatin1Char('.'), -1)))
            return QStringLiteral("%1 has no content type").arg(name);
    }
    for (const QString &name : p.order) {
        if (!name.endsWith(QLatin1String(".rels")))
            continue;
        // "_rels/.rels" belongs to the package root; "a/_rels/b.xml.rels" to "a/b.xml".
        const QString source = name == QLatin1String("_rels/.rels")
                                   ? QStringLiteral("/")
                                   : name.section(QStringLiteral("_rels/"), 0, 0) +
                                         name.section(QLatin1Char('/'), -1).chopped(5);
        if (source != QLatin1String("/") && !p.parts.contains(source))
            return QStringLiteral("%1 describes %2, which is not in the package").arg(name, source);
        for (const Relationship &rel : relationshipsOf(p.parts.value(name))) {
            if (rel.external)
                continue;
            const QString target =
                source == QLatin1String("/") ? rel.target : resolveTarget(source, rel.target);
            if (!p.parts.contains(target))
                return QStringLiteral("%1: %2 points at %3, which is not in the package")
                    .arg(name, rel.id, target);
        }
    }
    return {};
}

// OpenDocument: the mimetype is the first member, stored, with no extra field, and the
// manifest lists the parts.
inline QString checkOdf(const Package &p, const QByteArray &mime)
{
    if (p.order.value(0) != QLatin1String("mimetype") ||
        p.parts.value(QStringLiteral("mimetype")) != mime)
        return QStringLiteral("the mimetype is not the first member");
    // Local header: method at offset 8 (0: stored), name length 26, extra length 28,
    // name at 30, data right after it.
    const auto u16 = [&](int at) { return quint8(p.raw[at]) | quint8(p.raw[at + 1]) << 8; };
    if (!p.raw.startsWith("PK\x03\x04") || u16(8) != 0 || u16(28) != 0 ||
        p.raw.mid(30, 8) != "mimetype" || p.raw.mid(38, mime.size()) != mime)
        return QStringLiteral("the mimetype is not stored plainly at byte 38");
    const QStringList listed =
        attributes(p.parts.value(QStringLiteral("META-INF/manifest.xml")),
                   QStringLiteral("manifest:file-entry"), QStringLiteral("manifest:full-path"));
    for (const QString &part : {QStringLiteral("/"), QStringLiteral("content.xml"),
                                QStringLiteral("styles.xml"), QStringLiteral("meta.xml")})
        if (!listed.contains(part))
            return QStringLiteral("the manifest does not list %1").arg(part);
    for (const QString &part : listed)
        if (part != QLatin1String("/") && !p.parts.contains(part))
            return QStringLiteral("the manifest lists %1, which is not in the package").arg(part);
    return {};
}

} // namespace ph::test
