#include "PdfFillingTool.h"

#include "engine/InputLoader.h"
#include "engine/RunContext.h"
#include "engine/RunFetch.h"
#include "engine/tools/GeneratorTools.h"

#include "core/ObjectStore.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "data/PdfForm.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QPointer>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>

namespace ph::engine {

namespace {

// One call's work, shared with the worker thread that reads and fills the form.
struct Job
{
    QByteArray pdf;
    QString base; // names the filled files
    bool listOnly = false;
    QJsonObject values;
    QList<QJsonObject> rows; // one form per row (merged with `values`); empty: one form
    // What the worker came to.
    std::optional<data::DataError> error;
    QList<data::PdfFormField> fields;
    QList<data::PdfFormFill> fills;
};

// Field values as an object, or as [{name|field|key, value}] (how models sometimes write
// them).
QJsonObject valuesOf(const QJsonValue &v)
{
    if (v.isObject())
        return v.toObject();
    QJsonObject out;
    for (const QJsonValue &item : v.toArray()) {
        const QJsonObject o = item.toObject();
        QString key;
        for (const char *k : {"name", "field", "key"})
            if (key.isEmpty())
                key = o.value(QLatin1String(k)).toString();
        if (!key.isEmpty() && o.contains(QStringLiteral("value")))
            out.insert(key, o.value(QStringLiteral("value")));
    }
    return out;
}

bool looksLikePdf(const QString &url)
{
    return QUrl(url).path().endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive);
}

QString fieldNames(const QList<data::PdfFormField> &fields)
{
    QStringList names;
    for (const data::PdfFormField &f : fields)
        names << f.name;
    return names.join(QStringLiteral(", "));
}

// Reads or fills the form (on a worker thread: poppler's work never blocks the loop).
void work(Job &job)
{
    if (job.listOnly) {
        auto fields = data::readPdfForm(job.pdf);
        if (fields)
            job.fields = fields.value();
        else
            job.error = fields.error();
        return;
    }
    const QList<QJsonObject> forms = job.rows.isEmpty() ? QList<QJsonObject>{job.values} : job.rows;
    for (const QJsonObject &row : forms) {
        QJsonObject values = row;
        for (auto it = job.values.begin(); it != job.values.end(); ++it)
            values.insert(it.key(), it.value()); // the call's own values hold for every row
        auto fill = data::fillPdfForm(job.pdf, values);
        if (!fill) {
            job.error = fill.error();
            return;
        }
        job.fills << std::move(fill).value();
    }
}

// The call's `rows`: one form per row of a sheet (empty cells left out), at most
// agent.maxWorkflowRows. Returns why it cannot, or empty.
QString readRows(RunContext &ctx, const QJsonValue &ref, Job &job, QStringList &warnings)
{
    const int i = ctx.findSheet(ref.isBool() ? QJsonValue() : ref);
    if (i < 0)
        return QStringLiteral("pdf_filling: no sheet %1")
            .arg(ref.isString() ? ref.toString() : QString::number(ref.toInt()));
    const data::Sheet &sheet = ctx.sheets().at(i);
    const int cap = ctx.services().settings.intValue(SettingKeys::agentMaxWorkflowRows);
    for (const QJsonValue &row : sheet.toObjects()) {
        if (job.rows.size() >= cap) {
            warnings << QStringLiteral("pdf_filling: filled the first %1 of %2 rows "
                                       "(agent.maxWorkflowRows)")
                            .arg(cap)
                            .arg(sheet.rowCount());
            break;
        }
        QJsonObject values;
        const QJsonObject o = row.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!it.value().isNull() && !(it.value().isString() && it.value().toString().isEmpty()))
                values.insert(it.key(), it.value());
        job.rows << values;
    }
    if (job.rows.isEmpty())
        return QStringLiteral("pdf_filling: the sheet %1 has no rows").arg(sheet.title);
    return {};
}

// Where the form comes from: a stored object of this key, or a URL to fetch.
struct FormSource
{
    QString objectId;
    QString url;
};

// The form: a stored object of this key, a URL, or the PDF among the run's files.
FormSource formSource(RunContext &ctx, const QJsonObject &args)
{
    ObjectStore &objects = ctx.services().store.objects();
    const QJsonObject ref = args.value(QStringLiteral("storageRef")).toObject();
    FormSource src{ref.value(QStringLiteral("id")).toString(),
                   args.value(QStringLiteral("url")).toString().trimmed()};
    if (src.objectId.isEmpty() && ref.contains(QStringLiteral("downloadUrl"))) {
        const QString link = ref.value(QStringLiteral("downloadUrl")).toString();
        src.objectId = ownObjectId(link, objects);
        if (src.objectId.isEmpty() && src.url.isEmpty())
            src.url = link; // a storage link elsewhere: fetched like a URL
    }
    if (src.objectId.isEmpty() && !src.url.isEmpty())
        src.objectId = ownObjectId(src.url, objects);
    if (src.objectId.isEmpty() && src.url.isEmpty()) {
        const QStringList files = ctx.request().fileUrls;
        for (const QString &f : files)
            if (src.url.isEmpty() && looksLikePdf(f))
                src.url = f;
        if (src.url.isEmpty() && files.size() == 1)
            src.url = files.first();
    }
    return src;
}

// action list_fields: the form's fields.
ToolResult fieldList(const Job &job)
{
    ToolResult r;
    QJsonArray fields;
    for (const data::PdfFormField &f : std::as_const(job.fields))
        fields.append(f.toJson());
    r.output = QJsonObject{{QStringLiteral("fields"), fields}};
    r.summary = QStringLiteral("the form has %1 field%2: %3")
                    .arg(job.fields.size())
                    .arg(job.fields.size() == 1 ? QString() : QStringLiteral("s"))
                    .arg(fieldNames(job.fields));
    return r;
}

// The filled forms, stored as the run's files, and what could not be filled.
struct Filled
{
    QStringList unknown;
    QStringList refused;
    QJsonArray files;
    GeneratedFile last;
    int fields = 0;
};

Filled storeFills(RunContext &c, const QString &toolName, const Job &job, const QString &base,
                  QStringList &warnings)
{
    const bool perRow = !job.rows.isEmpty();
    Filled out;
    for (qsizetype i = 0; i < job.fills.size(); ++i) {
        const data::PdfFormFill &fill = job.fills.at(i);
        const QString where = perRow ? QStringLiteral("row %1: ").arg(i + 1) : QString();
        for (const QString &u : fill.unknown)
            if (!out.unknown.contains(u))
                out.unknown << u;
        for (const QString &why : fill.refused)
            out.refused << where + why;
        if (fill.filled.isEmpty()) {
            if (perRow)
                warnings
                    << QStringLiteral("pdf_filling: row %1: no field could be filled").arg(i + 1);
            continue;
        }
        const QString fileName =
            generatedFileName(perRow ? QStringLiteral("%1-filled-%2").arg(base).arg(i + 1)
                                     : QStringLiteral("%1-filled").arg(base),
                              QStringLiteral("pdf"));
        out.last =
            storeGeneratedFile(c, toolName, fileName, QStringLiteral("application/pdf"), fill.pdf);
        out.fields += int(fill.filled.size());
        QJsonObject filled;
        for (const auto &[field, value] : fill.filled)
            filled.insert(field, value);
        QJsonObject file{{QStringLiteral("file"), out.last.name},
                         {QStringLiteral("objectId"), out.last.objectId},
                         {QStringLiteral("sizeBytes"), double(out.last.sizeBytes)},
                         {QStringLiteral("filled"), filled}};
        if (perRow)
            file.insert(QStringLiteral("row"), int(i + 1));
        out.files.append(file);
    }
    return out;
}

// The result of filling: the files (one per row, or the one form), the run's warnings
// for unknown and refused fields; a failure if nothing could be filled.
ToolResult fillResult(RunContext &c, const QString &toolName, const Job &job, const QString &title,
                      QStringList warnings)
{
    const bool perRow = !job.rows.isEmpty();
    const Filled f = storeFills(c, toolName, job, title.isEmpty() ? job.base : title, warnings);
    const QList<data::PdfFormField> fields =
        job.fills.isEmpty() ? QList<data::PdfFormField>() : job.fills.first().fields;
    if (!f.unknown.isEmpty())
        warnings << QStringLiteral("pdf_filling: the form has no field %1 (its fields: %2)")
                        .arg(f.unknown.join(QStringLiteral(", ")), fieldNames(fields));
    for (const QString &why : std::as_const(f.refused))
        warnings << QStringLiteral("pdf_filling: %1").arg(why);
    if (f.files.isEmpty()) {
        // Nothing filled is no success: say why, and what the form does have.
        QStringList why;
        if (!f.unknown.isEmpty())
            why << QStringLiteral("no field named %1").arg(f.unknown.join(QStringLiteral(", ")));
        why << f.refused;
        return ToolResult::failure(
            QStringLiteral("pdf_filling: no field could be filled (%1); the form's fields: %2")
                .arg(why.join(QStringLiteral("; ")), fieldNames(fields)));
    }
    c.warnings() << warnings;
    ToolResult r;
    r.generatedContent = true;
    if (perRow) {
        r.output = QJsonObject{{QStringLiteral("files"), f.files},
                               {QStringLiteral("rows"), int(job.rows.size())},
                               {QStringLiteral("contentType"), QStringLiteral("application/pdf")}};
        r.summary = QStringLiteral("filled %1 PDF forms, one per row (%2 of %3 rows)")
                        .arg(f.files.size())
                        .arg(f.files.size())
                        .arg(job.rows.size());
        return r;
    }
    QJsonObject out = f.files.first().toObject();
    out.insert(QStringLiteral("contentType"), QStringLiteral("application/pdf"));
    if (!f.unknown.isEmpty())
        out.insert(QStringLiteral("unknown"), QJsonArray::fromStringList(f.unknown));
    if (!f.refused.isEmpty())
        out.insert(QStringLiteral("refused"), QJsonArray::fromStringList(f.refused));
    r.output = out;
    r.summary = QStringLiteral("filled %1 field%2 of the form: %3 (%4 bytes)")
                    .arg(f.fields)
                    .arg(f.fields == 1 ? QString() : QStringLiteral("s"))
                    .arg(f.last.name)
                    .arg(f.last.sizeBytes);
    return r;
}

} // namespace

PdfFillingTool::PdfFillingTool()
    : Tool({QStringLiteral("pdf_filling"),
            QStringLiteral(
                "Fill a PDF form (AcroForm) and return the filled PDF as a download link. The "
                "form: url (http(s), or a /storage download link), storageRef (an upload of "
                "this key), or, when neither is given, the PDF among the run's file_urls. "
                "values: {field: value} (a field by its name or label; checkboxes take yes/no, "
                "choices and radio groups one of their options). rows: a sheet (title or "
                "index) to fill one PDF per row, its columns naming the fields. action "
                "list_fields only reads the form's fields, their types, options and values."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "action": {"type": "string", "enum": ["fill", "list_fields"]},
        "url": {"type": "string", "description": "the PDF form"},
        "storageRef": {"type": "object", "properties": {
          "id": {"type": "string"}, "downloadUrl": {"type": "string"}}},
        "values": {"type": "object", "description": "field name or label: value",
                   "additionalProperties": {"type": ["string", "number", "boolean", "array"]}},
        "rows": {"type": ["string", "integer"],
                 "description": "a sheet: one filled PDF per row, columns naming fields"},
        "title": {"type": "string", "description": "names the filled file"}
      }
    })json")})
{}

void PdfFillingTool::run(RunContext &ctx, const QJsonObject &args,
                         std::function<void(ToolResult)> done)
{
    auto job = std::make_shared<Job>();
    job->listOnly = args.value(QStringLiteral("action")).toString() == QLatin1String("list_fields");
    job->values = valuesOf(args.value(QStringLiteral("values")));
    const QString title = args.value(QStringLiteral("title")).toString().trimmed();
    QStringList warnings;

    if (!job->listOnly && args.contains(QStringLiteral("rows"))) {
        const QString failure = readRows(ctx, args.value(QStringLiteral("rows")), *job, warnings);
        if (!failure.isEmpty()) {
            done(ToolResult::failure(failure));
            return;
        }
    }
    if (!job->listOnly && job->rows.isEmpty() && job->values.isEmpty()) {
        done(ToolResult::failure(QStringLiteral(
            "pdf_filling needs values ({field: value}) or rows (a sheet) to fill the form with")));
        return;
    }

    const FormSource source = formSource(ctx, args);
    if (source.objectId.isEmpty() && source.url.isEmpty()) {
        done(ToolResult::failure(QStringLiteral(
            "pdf_filling: which form? Give its url or storageRef, or the PDF in file_urls")));
        return;
    }

    QPointer<RunContext> guard(&ctx);
    const QString toolName = name();
    auto finish = [guard, job, title, warnings, toolName, done]() mutable {
        if (!guard)
            return;
        if (job->error)
            done(ToolResult::failure(QStringLiteral("pdf_filling: %1").arg(job->error->message)));
        else if (job->listOnly)
            done(fieldList(*job));
        else
            done(fillResult(*guard, toolName, *job, title, warnings));
    };
    auto start = [guard, job, finish](const QByteArray &pdf, const QString &sourceName) mutable {
        if (!guard)
            return;
        job->pdf = pdf;
        const QString stem = QFileInfo(sourceName).completeBaseName();
        job->base = stem.isEmpty() ? QStringLiteral("form") : stem;
        auto *watcher = new QFutureWatcher<void>(guard.data());
        QObject::connect(watcher, &QFutureWatcher<void>::finished, guard.data(),
                         [watcher, finish]() mutable {
                             watcher->deleteLater();
                             finish();
                         });
        watcher->setFuture(QtConcurrent::run([job] { work(*job); }));
    };

    if (!source.objectId.isEmpty()) {
        ObjectStore &objects = ctx.services().store.objects();
        const auto object = objects.find(source.objectId);
        // A key reads its own uploads only; someone else's id is "not found".
        if (!object || object->keyId != ctx.keyId()) {
            done(ToolResult::failure(
                QStringLiteral("pdf_filling: no stored object %1 for this API key")
                    .arg(source.objectId)));
            return;
        }
        start(objects.data(source.objectId), object->name);
        return;
    }
    const QString url = source.url;
    fetchForRun(ctx, url, InputLoader::kMaxFileBytes, &ctx,
                [guard, url, start, done](const FetchResult &f) mutable {
                    if (!guard)
                        return;
                    if (!f.ok) {
                        done(ToolResult::failure(
                            QStringLiteral("pdf_filling: the form at %1 could not be fetched: %2")
                                .arg(url, f.error)));
                        return;
                    }
                    start(f.body, QFileInfo(QUrl(url).path()).fileName());
                });
}

} // namespace ph::engine
