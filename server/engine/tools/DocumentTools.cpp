#include "DocumentTools.h"

#include "engine/RunContext.h"
#include "engine/tools/GeneratorTools.h"

#include "core/ObjectStore.h"
#include "core/Store.h"
#include "data/OfficeDocument.h"
#include "data/Reader.h"

#include <QJsonArray>
#include <QPointer>
#include <QTextDocument>

#include <cmath>
#include <optional>

namespace ph::engine {

namespace {

constexpr int kDefaultReadChars = 10000;
constexpr int kMaxReadChars = 50000;
constexpr int kMaxSlides = 200;

// A bad argument: the failure names it.
struct ArgError
{
    QString message;
};

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("missing");
}

// An optional string argument; a value of another type is an error naming it.
QString stringArg(const QJsonObject &args, const QString &key, const QString &path,
                  std::optional<ArgError> &error)
{
    const QJsonValue v = args.value(key);
    if (v.isUndefined() || v.isNull())
        return {};
    if (!v.isString()) {
        if (!error)
            error = ArgError{QStringLiteral("%1 must be a string, not %2").arg(path, typeName(v))};
        return {};
    }
    return v.toString();
}

// The action argument, one of `allowed`.
QString actionArg(const QString &tool, const QJsonObject &args, const QStringList &allowed,
                  std::optional<ArgError> &error)
{
    const QJsonValue v = args.value(QStringLiteral("action"));
    if (!v.isString() || !allowed.contains(v.toString())) {
        error = ArgError{QStringLiteral("%1: action must be one of %2%3")
                             .arg(tool, allowed.join(QStringLiteral(", ")),
                                  v.isUndefined() ? QStringLiteral(" (it is missing)")
                                  : v.isString()  ? QStringLiteral(", not \"%1\"").arg(v.toString())
                                                  : QStringLiteral(", not %1").arg(typeName(v)))};
        return {};
    }
    return v.toString();
}

QString formatArg(const QJsonObject &args, const QStringList &formats,
                  std::optional<ArgError> &error)
{
    const QString format =
        stringArg(args, QStringLiteral("format"), QStringLiteral("format"), error);
    if (format.isEmpty())
        return formats.first();
    const QString f = format.trimmed().toLower().remove(QLatin1Char('.'));
    if (!formats.contains(f)) {
        if (!error)
            error = ArgError{QStringLiteral("format must be %1, not \"%2\"")
                                 .arg(formats.join(QStringLiteral(" or ")), format)};
        return {};
    }
    return f;
}

// The title of a created file: the argument, else the fallback.
QString titleArg(const QJsonObject &args, const QString &fallback, std::optional<ArgError> &error)
{
    const QString title =
        stringArg(args, QStringLiteral("title"), QStringLiteral("title"), error).simplified();
    return title.isEmpty() ? fallback : title.left(200);
}

// A name for a new file that no earlier file of the run has.
QString uniqueName(RunContext &ctx, const QString &title, const QString &extension)
{
    const QString base = generatedFileName(title, extension);
    QString name = base;
    for (int n = 2;; ++n) {
        const bool taken = std::any_of(ctx.files().cbegin(), ctx.files().cend(),
                                       [&](const GeneratedFile &f) { return f.name == name; });
        if (!taken)
            return name;
        name = base.chopped(extension.size() + 1) + QStringLiteral("-%1.").arg(n) + extension;
    }
}

// ---- the content of a text document -----------------------------------------------

QList<data::DocBlock> sectionBlocks(const QJsonValue &sections, std::optional<ArgError> &error)
{
    QList<data::DocBlock> out;
    if (sections.isUndefined() || sections.isNull())
        return out;
    if (!sections.isArray()) {
        error = ArgError{
            QStringLiteral("sections must be an array of objects, not %1").arg(typeName(sections))};
        return out;
    }
    const QJsonArray list = sections.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString path = QStringLiteral("sections[%1]").arg(i);
        if (!list.at(i).isObject()) {
            error = ArgError{
                QStringLiteral("%1 must be an object, not %2").arg(path, typeName(list.at(i)))};
            return {};
        }
        const QJsonObject s = list.at(i).toObject();
        const QString heading =
            stringArg(s, QStringLiteral("heading"), path + QStringLiteral(".heading"), error);
        const QString text =
            stringArg(s, QStringLiteral("text"), path + QStringLiteral(".text"), error);
        const QString markdown =
            stringArg(s, QStringLiteral("markdown"), path + QStringLiteral(".markdown"), error);
        const QJsonValue level = s.value(QStringLiteral("level"));
        if (!level.isUndefined() && !level.isNull() &&
            (!level.isDouble() || level.toDouble() != std::floor(level.toDouble()) ||
             level.toInt() < 1 || level.toInt() > 6) &&
            !error)
            error = ArgError{QStringLiteral("%1.level must be an integer from 1 to 6").arg(path)};
        if (error)
            return {};
        if (!heading.trimmed().isEmpty())
            out.append(data::DocBlock::heading(level.toInt(1), heading.trimmed()));
        for (const QString &p : text.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
            if (!p.trimmed().isEmpty())
                out.append(data::DocBlock::paragraph(p.trimmed()));
        if (!markdown.trimmed().isEmpty())
            out.append(data::blocksFromMarkdown(markdown));
        const QJsonValue bullets = s.value(QStringLiteral("bullets"));
        if (!bullets.isUndefined() && !bullets.isNull()) {
            if (!bullets.isArray()) {
                error = ArgError{QStringLiteral("%1.bullets must be an array of strings, not %2")
                                     .arg(path, typeName(bullets))};
                return {};
            }
            const QJsonArray items = bullets.toArray();
            for (qsizetype b = 0; b < items.size(); ++b) {
                if (!items.at(b).isString()) {
                    error = ArgError{QStringLiteral("%1.bullets[%2] must be a string, not %3")
                                         .arg(path)
                                         .arg(b)
                                         .arg(typeName(items.at(b)))};
                    return {};
                }
                data::DocBlock item = data::DocBlock::paragraph(items.at(b).toString());
                item.kind = data::DocBlock::Kind::ListItem;
                item.list = 2000 + int(i);
                out.append(item);
            }
        }
        const QJsonValue rows = s.value(QStringLiteral("rows"));
        if (!rows.isUndefined() && !rows.isNull()) {
            if (!rows.isArray() || !std::all_of(rows.toArray().begin(), rows.toArray().end(),
                                                [](const QJsonValue &r) { return r.isObject(); })) {
                error = ArgError{
                    QStringLiteral("%1.rows must be an array of objects (one per table row)")
                        .arg(path)};
                return {};
            }
            out.append(data::blocksFromData(rows));
        }
    }
    return out;
}

// The blocks of `markdown`, `sections` and `data`, in that order.
QList<data::DocBlock> contentBlocks(const QJsonObject &args, std::optional<ArgError> &error)
{
    QList<data::DocBlock> blocks;
    const QString markdown =
        stringArg(args, QStringLiteral("markdown"), QStringLiteral("markdown"), error);
    const QString text = stringArg(args, QStringLiteral("text"), QStringLiteral("text"), error);
    if (error)
        return {};
    if (!markdown.trimmed().isEmpty())
        blocks.append(data::blocksFromMarkdown(markdown));
    for (const QString &p : text.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
        if (!p.trimmed().isEmpty())
            blocks.append(data::DocBlock::paragraph(p.trimmed()));
    blocks.append(sectionBlocks(args.value(QStringLiteral("sections")), error));
    const QJsonValue data = args.value(QStringLiteral("data"));
    if (!data.isUndefined() && !data.isNull())
        blocks.append(data::blocksFromData(data));
    return error ? QList<data::DocBlock>() : blocks;
}

// ---- the run's documents ----------------------------------------------------------

bool isTextDocument(const QString &contentType)
{
    return contentType == DocumentTypes::docx || contentType == DocumentTypes::odt ||
           contentType.startsWith(QLatin1String("text/markdown")) ||
           contentType.startsWith(QLatin1String("text/html")) ||
           contentType.startsWith(QLatin1String("text/plain")) ||
           contentType == QLatin1String("application/pdf");
}

bool isDeck(const QString &contentType)
{
    return contentType == DocumentTypes::pptx || contentType == DocumentTypes::odp;
}

// One of the run's documents: an input text (file_urls) or a generated file.
struct DocRef
{
    int index = -1;
    int input = -1; // into ctx.documents()
    int file = -1;  // into ctx.files()
    QString name;
};

QList<DocRef> documentsOf(RunContext &ctx, bool (*kind)(const QString &), bool inputs)
{
    QList<DocRef> out;
    if (inputs) {
        for (qsizetype i = 0; i < ctx.documents().size(); ++i)
            out.append({int(out.size()), int(i), -1, ctx.documents().at(i).first});
    }
    for (qsizetype i = 0; i < ctx.files().size(); ++i)
        if (kind(ctx.files().at(i).contentType))
            out.append({int(out.size()), -1, int(i), ctx.files().at(i).name});
    return out;
}

// The document an argument names: a name (exact, then case-insensitive; the latest of
// that name) or an index from list.
std::optional<DocRef> findDocument(const QList<DocRef> &docs, const QJsonValue &ref,
                                   const QString &argument, const QString &what,
                                   std::optional<ArgError> &error)
{
    if (ref.isDouble()) {
        const int i = ref.toInt(-1);
        if (i >= 0 && i < docs.size())
            return docs.at(i);
    } else if (ref.isString()) {
        const QString name = ref.toString().trimmed();
        for (auto cs : {Qt::CaseSensitive, Qt::CaseInsensitive})
            for (qsizetype i = docs.size() - 1; i >= 0; --i)
                if (docs.at(i).name.compare(name, cs) == 0)
                    return docs.at(i);
    } else if (ref.isUndefined() || ref.isNull()) {
        if (docs.size() == 1)
            return docs.first();
    }
    QStringList names;
    for (const DocRef &d : docs)
        names << QStringLiteral("%1 \"%2\"").arg(d.index).arg(d.name);
    const QString there =
        names.isEmpty() ? QStringLiteral("there are none")
                        : QStringLiteral("there are %1").arg(names.join(QStringLiteral(", ")));
    error = ArgError{
        ref.isUndefined() || ref.isNull()
            ? QStringLiteral("%1 must name the %2 (its name or index); %3")
                  .arg(argument, what, there)
        : ref.isString() || ref.isDouble()
            ? QStringLiteral("%1: no %2 %3; %4")
                  .arg(argument, what,
                       ref.isString() ? QStringLiteral("\"%1\"").arg(ref.toString())
                                      : QString::number(ref.toDouble()),
                       there)
            : QStringLiteral("%1 must be a name or an index, not %2").arg(argument, typeName(ref))};
    return std::nullopt;
}

QJsonObject fileJson(const DocRef &d, RunContext &ctx)
{
    if (d.input >= 0)
        return {{QStringLiteral("index"), d.index},
                {QStringLiteral("name"), d.name},
                {QStringLiteral("source"), QStringLiteral("input")},
                {QStringLiteral("chars"), int(ctx.documents().at(d.input).second.size())}};
    const GeneratedFile &f = ctx.files().at(d.file);
    return {{QStringLiteral("index"), d.index},
            {QStringLiteral("name"), f.name},
            {QStringLiteral("source"), QStringLiteral("generated")},
            {QStringLiteral("tool"), f.tool},
            {QStringLiteral("contentType"), f.contentType},
            {QStringLiteral("sizeBytes"), double(f.sizeBytes)}};
}

// The text of a document of the run.
std::optional<QString> documentText(RunContext &ctx, const DocRef &d, QString *problem)
{
    if (d.input >= 0)
        return ctx.documents().at(d.input).second;
    const GeneratedFile &f = ctx.files().at(d.file);
    const QByteArray bytes = ctx.services().store.objects().data(f.objectId);
    if (f.contentType == DocumentTypes::docx || f.contentType == DocumentTypes::odt ||
        isDeck(f.contentType)) {
        const auto text = data::documentText(bytes);
        if (!text) {
            *problem = text.error().message;
            return std::nullopt;
        }
        return *text;
    }
    if (f.contentType == QLatin1String("application/pdf")) {
        const auto text = data::Reader().pdfText(bytes);
        if (!text) {
            *problem = text.error().message;
            return std::nullopt;
        }
        return *text;
    }
    if (f.contentType.startsWith(QLatin1String("text/html"))) {
        QTextDocument doc;
        doc.setHtml(QString::fromUtf8(bytes));
        return doc.toPlainText();
    }
    return QString::fromUtf8(bytes);
}

ToolResult argFailure(const QString &tool, const ArgError &e)
{
    return ToolResult::failure(
        e.message.startsWith(tool) ? e.message : tool + QStringLiteral(": ") + e.message);
}

ToolResult listResult(RunContext &ctx, const QList<DocRef> &docs, const QString &key,
                      const QString &noun)
{
    QJsonArray list;
    for (const DocRef &d : docs)
        list.append(fileJson(d, ctx));
    ToolResult r;
    r.output = QJsonObject{{key, list}};
    r.summary = QStringLiteral("%1 %2%3")
                    .arg(docs.size())
                    .arg(noun)
                    .arg(docs.size() == 1 ? QString() : QStringLiteral("s"));
    return r;
}

} // namespace

// ------------------------------------------------------------------------ docs_access

DocsAccessTool::DocsAccessTool()
    : Tool({QStringLiteral("docs_access"),
            QStringLiteral(
                "The run's documents. action list: every document (texts of file_urls, and "
                "documents made in this run) with its index and name; read: a document's text "
                "(document: its name or index; offset/limit in characters); create: write a "
                "Word document (.docx, or format odt for OpenDocument) titled title from "
                "markdown (# headings, paragraphs, - bullets, 1. numbered items, | tables |), "
                "sections, and/or data (an array of objects becomes a table); append: add "
                "content (markdown, sections or data) at the end of a document created in this "
                "run. A created document is stored and returned as a download link."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "action": {"type": "string", "enum": ["list", "read", "create", "append"]},
        "document": {"type": ["string", "integer"],
                     "description": "read, append: the document's name or index (from list)"},
        "title": {"type": "string", "description": "create: the document's title; names the file"},
        "markdown": {"type": "string", "description": "content as markdown"},
        "sections": {
          "type": "array",
          "description": "content as sections, in order",
          "items": {
            "type": "object",
            "properties": {
              "heading": {"type": "string"},
              "level": {"type": "integer", "minimum": 1, "maximum": 6, "description": "heading level, default 1"},
              "text": {"type": "string", "description": "paragraphs, separated by blank lines"},
              "markdown": {"type": "string"},
              "bullets": {"type": "array", "items": {"type": "string"}},
              "rows": {"type": "array", "items": {"type": "object"}, "description": "a table: one object per row"}
            }
          }
        },
        "data": {"description": "content as JSON: an array of objects is a table, an object's properties are listed"},
        "format": {"type": "string", "enum": ["docx", "odt"], "description": "create: default docx"},
        "offset": {"type": "integer", "minimum": 0, "description": "read: first character"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50000, "description": "read: characters, default 10000"}
      },
      "required": ["action"]
    })json")})
{}

namespace {

// docs_access read: a window of a document's text.
ToolResult readDocument(RunContext &ctx, const QString &toolName, const QJsonObject &args)
{
    std::optional<ArgError> error;
    const auto doc =
        findDocument(documentsOf(ctx, isTextDocument, true), args.value(QStringLiteral("document")),
                     QStringLiteral("document"), QStringLiteral("document"), error);
    for (const QString &key : {QStringLiteral("offset"), QStringLiteral("limit")}) {
        const QJsonValue v = args.value(key);
        if (!v.isUndefined() && !v.isNull() && (!v.isDouble() || v.toDouble() < 0) && !error)
            error = ArgError{QStringLiteral("%1 must be a number of characters").arg(key)};
    }
    if (error)
        return argFailure(toolName, *error);
    QString problem;
    const auto text = documentText(ctx, *doc, &problem);
    if (!text)
        return ToolResult::failure(
            QStringLiteral("docs_access: \"%1\" could not be read: %2").arg(doc->name, problem));
    const int offset = qMax(0, args.value(QStringLiteral("offset")).toInt());
    const int limit =
        qBound(1, args.value(QStringLiteral("limit")).toInt(kDefaultReadChars), kMaxReadChars);
    const QString part = text->mid(offset, limit);
    ToolResult r;
    r.output = QJsonObject{{QStringLiteral("document"), doc->name},
                           {QStringLiteral("text"), part},
                           {QStringLiteral("offset"), offset},
                           {QStringLiteral("totalChars"), int(text->size())},
                           {QStringLiteral("more"), offset + part.size() < text->size()}};
    r.summary = QStringLiteral("read %1 of %2 characters of \"%3\"")
                    .arg(part.size())
                    .arg(text->size())
                    .arg(doc->name);
    return r;
}

// docs_access create: a new .docx or .odt of the call's content.
ToolResult createDocument(RunContext &ctx, const QString &toolName, const QJsonObject &args,
                          const QList<data::DocBlock> &blocks, std::optional<ArgError> &error)
{
    const QString title = titleArg(args, QStringLiteral("Document"), error);
    const QString format = formatArg(args, {QStringLiteral("docx"), QStringLiteral("odt")}, error);
    if (!error && blocks.isEmpty())
        error = ArgError{QStringLiteral(
            "create needs content: markdown, text, sections or data (all were empty)")};
    if (error)
        return argFailure(toolName, *error);
    const bool odt = format == QLatin1String("odt");
    const auto bytes = odt ? data::writeOdt(title, blocks) : data::writeDocx(title, blocks);
    if (!bytes)
        return ToolResult::failure(
            QStringLiteral("docs_access: the document could not be written: %1")
                .arg(bytes.error().message));
    const GeneratedFile f =
        storeGeneratedFile(ctx, toolName, uniqueName(ctx, title, format),
                           odt ? DocumentTypes::odt : DocumentTypes::docx, *bytes);
    ToolResult r = generatedFileResult(f);
    QJsonObject out = r.output.toObject();
    out.insert(QStringLiteral("document"), f.name);
    out.insert(QStringLiteral("blocks"), int(blocks.size()));
    r.output = out;
    return r;
}

// docs_access append: to a document this run created (its parts are ours to extend).
ToolResult appendDocument(RunContext &ctx, const QString &toolName, const QJsonObject &args,
                          const QList<data::DocBlock> &blocks, std::optional<ArgError> &error)
{
    const auto doc =
        findDocument(documentsOf(
                         ctx,
                         [](const QString &type) {
                             return type == DocumentTypes::docx || type == DocumentTypes::odt;
                         },
                         false),
                     args.value(QStringLiteral("document")), QStringLiteral("document"),
                     QStringLiteral("document created in this run (.docx or .odt)"), error);
    if (!error && blocks.isEmpty())
        error = ArgError{QStringLiteral(
            "append needs content: markdown, text, sections or data (all were empty)")};
    if (error)
        return argFailure(toolName, *error);
    GeneratedFile &f = ctx.files()[doc->file];
    const auto bytes =
        data::appendToDocument(ctx.services().store.objects().data(f.objectId), blocks);
    if (!bytes)
        return ToolResult::failure(QStringLiteral("docs_access: could not append to \"%1\": %2")
                                       .arg(f.name, bytes.error().message));
    // The new version replaces the old one in the run's files.
    const StoredObject o = ctx.services().store.objects().put(
        ctx.keyId(), QStringLiteral("artifact"), f.name, f.contentType, *bytes);
    f.objectId = o.id;
    f.sizeBytes = o.size;
    ToolResult r = generatedFileResult(f);
    QJsonObject out = r.output.toObject();
    out.insert(QStringLiteral("document"), f.name);
    out.insert(QStringLiteral("appendedBlocks"), int(blocks.size()));
    r.output = out;
    r.summary = QStringLiteral("appended %1 blocks to %2 (%3 bytes)")
                    .arg(blocks.size())
                    .arg(f.name)
                    .arg(f.sizeBytes);
    return r;
}

} // namespace

void DocsAccessTool::run(RunContext &ctx, const QJsonObject &args,
                         std::function<void(ToolResult)> done)
{
    std::optional<ArgError> error;
    const QString action = actionArg(name(), args,
                                     {QStringLiteral("list"), QStringLiteral("read"),
                                      QStringLiteral("create"), QStringLiteral("append")},
                                     error);
    if (error) {
        done(argFailure(name(), *error));
        return;
    }
    if (action == QLatin1String("list")) {
        done(listResult(ctx, documentsOf(ctx, isTextDocument, true), QStringLiteral("documents"),
                        QStringLiteral("document")));
        return;
    }
    if (action == QLatin1String("read")) {
        done(readDocument(ctx, name(), args));
        return;
    }
    const QList<data::DocBlock> blocks = contentBlocks(args, error);
    if (action == QLatin1String("create"))
        done(createDocument(ctx, name(), args, blocks, error));
    else
        done(appendDocument(ctx, name(), args, blocks, error));
}

// ---------------------------------------------------------------------- slides_access

namespace {

QList<data::Slide> slidesArg(const QJsonValue &value, std::optional<ArgError> &error)
{
    QList<data::Slide> out;
    if (value.isUndefined() || value.isNull())
        return out;
    if (!value.isArray()) {
        error =
            ArgError{QStringLiteral("slides must be an array of {title, bullets, notes}, not %1")
                         .arg(typeName(value))};
        return {};
    }
    const QJsonArray list = value.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString path = QStringLiteral("slides[%1]").arg(i);
        if (!list.at(i).isObject()) {
            error = ArgError{QStringLiteral("%1 must be an object {title, bullets, notes}, not %2")
                                 .arg(path, typeName(list.at(i)))};
            return {};
        }
        const QJsonObject o = list.at(i).toObject();
        data::Slide s;
        s.title = stringArg(o, QStringLiteral("title"), path + QStringLiteral(".title"), error)
                      .simplified();
        s.notes = stringArg(o, QStringLiteral("notes"), path + QStringLiteral(".notes"), error);
        const QJsonValue bullets = o.value(QStringLiteral("bullets"));
        if (!bullets.isUndefined() && !bullets.isNull() && !bullets.isArray() && !error)
            error = ArgError{QStringLiteral("%1.bullets must be an array of strings, not %2")
                                 .arg(path, typeName(bullets))};
        if (error)
            return {};
        const QJsonArray items = bullets.toArray();
        for (qsizetype b = 0; b < items.size(); ++b) {
            const QJsonValue item = items.at(b);
            if (item.isString()) {
                s.bullets.append({0, item.toString().simplified()});
                continue;
            }
            // An array of strings right after a bullet: its sub-bullets.
            const bool subList =
                item.isArray() && std::all_of(item.toArray().begin(), item.toArray().end(),
                                              [](const QJsonValue &v) { return v.isString(); });
            if (!subList) {
                error = ArgError{QStringLiteral("%1.bullets[%2] must be a string (or an array of "
                                                "strings: sub-bullets), not %3")
                                     .arg(path)
                                     .arg(b)
                                     .arg(typeName(item))};
                return {};
            }
            for (const QJsonValue &sub : item.toArray())
                s.bullets.append({1, sub.toString().simplified()});
        }
        if (s.title.isEmpty() && s.bullets.isEmpty() && !error) {
            error = ArgError{QStringLiteral("%1 needs a title or bullets").arg(path)};
            return {};
        }
        out.append(s);
    }
    return out;
}

} // namespace

SlidesAccessTool::SlidesAccessTool()
    : Tool({QStringLiteral("slides_access"),
            QStringLiteral(
                "Slide decks. action create: a PowerPoint deck (.pptx, or format odp for "
                "OpenDocument) with a title slide (title, subtitle) and slides from slides "
                "[{title, bullets, notes}], from markdown (a new slide at each heading; lists "
                "and paragraphs become bullets) or from data (one slide per object, titled by "
                "its name); more than 8 bullets continue on a next slide. list: the decks made "
                "in this run; read: a deck's slides (deck: its name or index). A created deck "
                "is stored and returned as a download link."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "action": {"type": "string", "enum": ["create", "list", "read"]},
        "deck": {"type": ["string", "integer"], "description": "read: the deck's name or index (from list)"},
        "title": {"type": "string", "description": "create: the deck's title (its title slide); names the file"},
        "subtitle": {"type": "string", "description": "create: the title slide's subtitle"},
        "titleSlide": {"type": "boolean", "description": "create: begin with a title slide; default true"},
        "slides": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "title": {"type": "string"},
              "bullets": {"type": "array", "items": {"type": ["string", "array"]},
                          "description": "strings; an array of strings after a bullet holds its sub-bullets"},
              "notes": {"type": "string", "description": "speaker notes"}
            }
          }
        },
        "markdown": {"type": "string", "description": "create: slides from markdown"},
        "data": {"description": "create: slides from JSON rows (an array of objects, or an object holding such arrays)"},
        "format": {"type": "string", "enum": ["pptx", "odp"], "description": "create: default pptx"}
      },
      "required": ["action"]
    })json")})
{}

void SlidesAccessTool::run(RunContext &ctx, const QJsonObject &args,
                           std::function<void(ToolResult)> done)
{
    std::optional<ArgError> error;
    const QString action = actionArg(
        name(), args, {QStringLiteral("create"), QStringLiteral("list"), QStringLiteral("read")},
        error);
    if (error) {
        done(argFailure(name(), *error));
        return;
    }
    const QList<DocRef> decks = documentsOf(ctx, isDeck, false);
    if (action == QLatin1String("list")) {
        done(listResult(ctx, decks, QStringLiteral("decks"), QStringLiteral("deck")));
        return;
    }
    if (action == QLatin1String("read")) {
        const auto deck =
            findDocument(decks, args.value(QStringLiteral("deck")), QStringLiteral("deck"),
                         QStringLiteral("deck made in this run"), error);
        if (error) {
            done(argFailure(name(), *error));
            return;
        }
        const GeneratedFile &f = ctx.files().at(deck->file);
        const auto slides = data::deckSlides(ctx.services().store.objects().data(f.objectId));
        if (!slides) {
            done(ToolResult::failure(QStringLiteral("slides_access: \"%1\" could not be read: %2")
                                         .arg(f.name, slides.error().message)));
            return;
        }
        QJsonArray list;
        for (const data::Slide &s : *slides) {
            QJsonArray bullets;
            for (const auto &[level, text] : s.bullets)
                bullets.append(level == 0 ? text : QString(level * 2, QLatin1Char(' ')) + text);
            QJsonObject o{{QStringLiteral("title"), s.title}, {QStringLiteral("bullets"), bullets}};
            if (!s.notes.isEmpty())
                o.insert(QStringLiteral("notes"), s.notes);
            list.append(o);
        }
        ToolResult r;
        r.output = QJsonObject{{QStringLiteral("deck"), f.name}, {QStringLiteral("slides"), list}};
        r.summary = QStringLiteral("read %1 slides of \"%2\"").arg(list.size()).arg(f.name);
        done(r);
        return;
    }

    // create
    data::Deck deck;
    deck.title = titleArg(args, QStringLiteral("Slides"), error);
    deck.subtitle =
        stringArg(args, QStringLiteral("subtitle"), QStringLiteral("subtitle"), error).simplified();
    const QString format = formatArg(args, {QStringLiteral("pptx"), QStringLiteral("odp")}, error);
    const QJsonValue titleSlide = args.value(QStringLiteral("titleSlide"));
    if (!titleSlide.isUndefined() && !titleSlide.isNull() && !titleSlide.isBool() && !error)
        error = ArgError{
            QStringLiteral("titleSlide must be true or false, not %1").arg(typeName(titleSlide))};
    const QString markdown =
        stringArg(args, QStringLiteral("markdown"), QStringLiteral("markdown"), error);
    QList<data::Slide> slides = slidesArg(args.value(QStringLiteral("slides")), error);
    if (error) {
        done(argFailure(name(), *error));
        return;
    }
    if (!markdown.trimmed().isEmpty()) {
        QString lead;
        slides.append(data::slidesFromBlocks(data::blocksFromMarkdown(markdown), &lead));
        if (deck.subtitle.isEmpty() && !lead.isEmpty() &&
            lead.compare(deck.title, Qt::CaseInsensitive) != 0)
            deck.subtitle = lead;
    }
    const QJsonValue rows = args.value(QStringLiteral("data"));
    if (!rows.isUndefined() && !rows.isNull())
        slides.append(data::slidesFromData(rows));
    slides = data::paginateSlides(slides);
    if (slides.isEmpty()) {
        done(argFailure(name(), {QStringLiteral("create needs slides, markdown or data (all "
                                                "were empty)")}));
        return;
    }
    if (slides.size() > kMaxSlides) {
        ctx.warnings().append(QStringLiteral("slides_access: the deck holds the first %1 of %2 "
                                             "slides")
                                  .arg(kMaxSlides)
                                  .arg(slides.size()));
        slides = slides.mid(0, kMaxSlides);
    }
    deck.slides = slides;
    const QString fileTitle = deck.title;
    if (!titleSlide.toBool(true))
        deck.title.clear();
    const bool odp = format == QLatin1String("odp");
    const auto bytes = odp ? data::writeOdp(deck) : data::writePptx(deck);
    if (!bytes) {
        done(ToolResult::failure(QStringLiteral("slides_access: the deck could not be written: %1")
                                     .arg(bytes.error().message)));
        return;
    }
    const GeneratedFile f =
        storeGeneratedFile(ctx, name(), uniqueName(ctx, fileTitle, format),
                           odp ? DocumentTypes::odp : DocumentTypes::pptx, *bytes);
    ToolResult r = generatedFileResult(f);
    QJsonObject out = r.output.toObject();
    out.insert(QStringLiteral("deck"), f.name);
    out.insert(QStringLiteral("slides"), int(slides.size() + (deck.title.isEmpty() ? 0 : 1)));
    r.output = out;
    r.summary = QStringLiteral("generated %1: %2 slides (%3 bytes)")
                    .arg(f.name)
                    .arg(out.value(QStringLiteral("slides")).toInt())
                    .arg(f.sizeBytes);
    done(r);
}

// ---------------------------------------------------------------------- pdf_generator

PdfGeneratorTool::PdfGeneratorTool()
    : Tool({QStringLiteral("pdf_generator"),
            QStringLiteral(
                "Write a PDF (A4) titled title from markdown, from HTML, or from data (an array "
                "of objects becomes a table); it is stored and returned as a download link."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "title": {"type": "string", "description": "the document's heading; names the file"},
        "markdown": {"type": "string", "description": "content as markdown"},
        "html": {"type": "string", "description": "content as an HTML page (used as given)"},
        "data": {"description": "content as JSON: an array of objects becomes a table"}
      },
      "required": ["title"]
    })json")})
{}

void PdfGeneratorTool::run(RunContext &ctx, const QJsonObject &args,
                           std::function<void(ToolResult)> done)
{
    std::optional<ArgError> error;
    const QString title = titleArg(args, QStringLiteral("Document"), error);
    const QString html = stringArg(args, QStringLiteral("html"), QStringLiteral("html"), error);
    stringArg(args, QStringLiteral("markdown"), QStringLiteral("markdown"), error);
    stringArg(args, QStringLiteral("text"), QStringLiteral("text"), error);
    QString page = html;
    if (!error && page.trimmed().isEmpty()) {
        const QString markdown = contentMarkdown(args);
        if (markdown.trimmed().isEmpty())
            error = ArgError{QStringLiteral("needs content: markdown, html or data (all were "
                                            "empty)")};
        else
            page = markdownToHtml(title, markdown.startsWith(QLatin1String("# "))
                                             ? markdown
                                             : QStringLiteral("# %1\n\n%2").arg(title, markdown));
    }
    if (error) {
        done(argFailure(name(), *error));
        return;
    }
    QPointer<RunContext> guard(&ctx);
    printHtmlToPdf(
        ctx, page, [guard, title, done, this](const QByteArray &pdf, const QString &why) {
            if (!guard)
                return;
            if (pdf.isEmpty()) {
                done(ToolResult::failure(QStringLiteral("pdf_generator: %1").arg(why)));
                return;
            }
            done(generatedFileResult(
                storeGeneratedFile(*guard, name(), uniqueName(*guard, title, QStringLiteral("pdf")),
                                   QStringLiteral("application/pdf"), pdf)));
        });
}

} // namespace ph::engine
