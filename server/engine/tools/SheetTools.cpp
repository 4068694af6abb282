#include "SheetTools.h"

#include "engine/BrowserTab.h"
#include "engine/RunContext.h"

#include "core/Settings.h"
#include "data/CellText.h"
#include "net/NetworkPolicy.h"

#include <QPointer>
#include <QRegularExpression>
#include <QTimer>
#include <QUrl>

#include <cmath>
#include <memory>

namespace ph::engine {

namespace {

constexpr int kDefaultReadRows = 50;
constexpr int kMaxReadRows = 500;
constexpr int kPageTextChars = 2000;

QString sheetList(const RunContext &ctx)
{
    QStringList titles;
    for (const data::Sheet &s : const_cast<RunContext &>(ctx).sheets())
        titles << QStringLiteral("\"%1\"").arg(s.title);
    return titles.isEmpty() ? QStringLiteral("there are no sheets")
                            : QStringLiteral("the sheets are %1").arg(titles.join(u", "));
}

// The sheet an argument names, or a failure naming the sheets there are.
std::optional<int> sheetArg(RunContext &ctx, const QJsonObject &args, ToolResult *failure)
{
    const QJsonValue ref = args.value(QStringLiteral("sheet"));
    const int i = ctx.findSheet(ref);
    if (i >= 0)
        return i;
    *failure = ToolResult::failure(ref.isUndefined() || ref.isNull()
                                       ? QStringLiteral("there is no sheet to work on")
                                       : QStringLiteral("no sheet %1; %2")
                                             .arg(ref.isString()
                                                      ? QStringLiteral("\"%1\"").arg(ref.toString())
                                                      : QString::number(ref.toInt()),
                                                  sheetList(ctx)));
    return std::nullopt;
}

QJsonObject rowObject(const data::Sheet &sheet, int row)
{
    QJsonObject o;
    for (int c = 0; c < sheet.columnCount(); ++c)
        o.insert(sheet.columns.at(c).name, sheet.value(row, c));
    return o;
}

} // namespace

// ---- sheets_access ----------------------------------------------------------------

SheetsAccessTool::SheetsAccessTool()
    : Tool({QStringLiteral("sheets_access"),
            QStringLiteral(
                "Read the in-memory sheets (dataInputs, tabular file_urls, sheets made by "
                "tools). action list: every sheet's title, columns and first rows; describe: "
                "one sheet; read: rows offset..offset+limit as objects (limit ≤ 500); find: "
                "rows where a cell contains query (in column, when given), case-insensitive. "
                "sheet: a title or a 0-based index; default the first sheet."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "action": {"type": "string", "enum": ["list", "describe", "read", "find"]},
        "sheet": {"type": ["string", "integer"]},
        "offset": {"type": "integer", "minimum": 0},
        "limit": {"type": "integer", "minimum": 1, "maximum": 500},
        "columns": {"type": "array", "items": {"type": "string"}},
        "query": {"type": "string"},
        "column": {"type": "string"}
      },
      "required": ["action"]
    })json")})
{}

void SheetsAccessTool::run(RunContext &ctx, const QJsonObject &args,
                           std::function<void(ToolResult)> done)
{
    const QString action = args.value(QStringLiteral("action")).toString(QStringLiteral("list"));
    ToolResult r;
    if (action == QLatin1String("list")) {
        QJsonArray sheets;
        QStringList markdown;
        for (const data::Sheet &s : ctx.sheets()) {
            sheets.append(s.describe(3));
            markdown << QStringLiteral("## %1\n\n%2").arg(s.title, s.toMarkdown());
        }
        r.output = QJsonObject{{QStringLiteral("sheets"), sheets},
                               {QStringLiteral("markdown"), markdown.join(u"\n\n")}};
        r.summary = ctx.sheets().size() == 1 ? QStringLiteral("1 sheet")
                                             : QStringLiteral("%1 sheets").arg(ctx.sheets().size());
        done(r);
        return;
    }
    const auto index = sheetArg(ctx, args, &r);
    if (!index) {
        done(r);
        return;
    }
    const data::Sheet &sheet = ctx.sheets().at(*index);
    if (action == QLatin1String("describe")) {
        r.output = sheet.describe(5);
        r.summary = QStringLiteral("sheet \"%1\": %2 rows, %3 columns")
                        .arg(sheet.title)
                        .arg(sheet.rowCount())
                        .arg(sheet.columnCount());
        done(r);
        return;
    }
    QList<int> columns;
    for (const auto &c : args.value(QStringLiteral("columns")).toArray()) {
        const int col = sheet.column(c.toString());
        if (col < 0) {
            done(ToolResult::failure(
                QStringLiteral("sheet \"%1\" has no column \"%2\"; it has %3")
                    .arg(sheet.title, c.toString(), sheet.columnNames().join(u", "))));
            return;
        }
        columns << col;
    }
    auto project = [&](int row) {
        if (columns.isEmpty())
            return rowObject(sheet, row);
        QJsonObject o;
        for (int c : std::as_const(columns))
            o.insert(sheet.columns.at(c).name, sheet.value(row, c));
        return o;
    };
    const int limit =
        qBound(1, args.value(QStringLiteral("limit")).toInt(kDefaultReadRows), kMaxReadRows);
    if (action == QLatin1String("read")) {
        const int offset = qMax(0, args.value(QStringLiteral("offset")).toInt());
        QJsonArray rows;
        for (int i = offset; i < sheet.rowCount() && rows.size() < limit; ++i)
            rows.append(project(i));
        r.output = QJsonObject{{QStringLiteral("sheet"), sheet.title},
                               {QStringLiteral("offset"), offset},
                               {QStringLiteral("rows"), rows},
                               {QStringLiteral("totalRows"), sheet.rowCount()},
                               {QStringLiteral("more"), offset + rows.size() < sheet.rowCount()}};
        r.summary = QStringLiteral("read %1 of %2 rows of \"%3\"")
                        .arg(rows.size())
                        .arg(sheet.rowCount())
                        .arg(sheet.title);
        done(r);
        return;
    }
    if (action == QLatin1String("find")) {
        const QString query = args.value(QStringLiteral("query")).toString();
        if (query.isEmpty()) {
            done(ToolResult::failure(QStringLiteral("find needs a query")));
            return;
        }
        int only = -1;
        if (args.contains(QStringLiteral("column"))) {
            only = sheet.column(args.value(QStringLiteral("column")).toString());
            if (only < 0) {
                done(ToolResult::failure(
                    QStringLiteral("sheet \"%1\" has no column \"%2\"")
                        .arg(sheet.title, args.value(QStringLiteral("column")).toString())));
                return;
            }
        }
        QJsonArray matches;
        int total = 0;
        for (int row = 0; row < sheet.rowCount(); ++row) {
            bool hit = false;
            for (int c = 0; c < sheet.columnCount() && !hit; ++c) {
                if ((only < 0 || c == only) &&
                    data::cellText(sheet.value(row, c)).contains(query, Qt::CaseInsensitive))
                    hit = true;
            }
            if (!hit)
                continue;
            ++total;
            if (matches.size() < limit)
                matches.append(QJsonObject{{QStringLiteral("row"), row},
                                           {QStringLiteral("values"), project(row)}});
        }
        r.output = QJsonObject{{QStringLiteral("sheet"), sheet.title},
                               {QStringLiteral("matches"), matches},
                               {QStringLiteral("totalMatches"), total}};
        r.summary =
            QStringLiteral("%1 rows of \"%2\" match \"%3\"").arg(total).arg(sheet.title, query);
        done(r);
        return;
    }
    done(ToolResult::failure(
        QStringLiteral("unknown action \"%1\"; use list, describe, read or find").arg(action)));
}

// ---- create_sheet_from_data -------------------------------------------------------

CreateSheetFromDataTool::CreateSheetFromDataTool()
    : Tool(
          {QStringLiteral("create_sheet_from_data"),
           QStringLiteral("Make a new in-memory sheet titled title from rows: an array of objects "
                          "(columns are their keys), arrays or values. Other tools (sheets_access, "
                          "sheets_workflow, generate_sheets) can then use it."),
           schemaOf(R"json({
      "type": "object",
      "properties": {
        "title": {"type": "string"},
        "rows": {"type": "array"}
      },
      "required": ["title", "rows"]
    })json"),
           Tool::Uses::Sheets})
{}

void CreateSheetFromDataTool::run(RunContext &ctx, const QJsonObject &args,
                                  std::function<void(ToolResult)> done)
{
    const QJsonValue rows = args.value(QStringLiteral("rows"));
    if (!rows.isArray()) {
        done(ToolResult::failure(QStringLiteral("rows must be an array")));
        return;
    }
    const int index = ctx.addSheet(data::Sheet::fromObjects(
        args.value(QStringLiteral("title")).toString().trimmed(), rows.toArray()));
    const data::Sheet &sheet = ctx.sheets().at(index);
    ToolResult r;
    r.touchedSheets = true;
    r.output = sheet.describe(3);
    r.summary = QStringLiteral("made sheet \"%1\" (%2 rows, %3 columns)")
                    .arg(sheet.title)
                    .arg(sheet.rowCount())
                    .arg(sheet.columnCount());
    done(r);
}

// ---- sheets_workflow --------------------------------------------------------------

SheetsWorkflowTool::SheetsWorkflowTool()
    : Tool({QStringLiteral("sheets_workflow"),
            QStringLiteral(
                "Work through a sheet row by row: open each row's URL (urlColumn, or the column "
                "that holds URLs) and extract data shaped like schema (without one: the page's "
                "title and text). Returns one object per row (the row's cells plus what was "
                "extracted; _error when the page failed) and keeps them as a new sheet. "
                "instruction says what the rows are for."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "instruction": {"type": "string"},
        "sheet": {"type": ["string", "integer"]},
        "urlColumn": {"type": "string"},
        "schema": {"type": "object", "description": "JSON Schema of the data to extract per row"},
        "maxRows": {"type": "integer", "minimum": 1},
        "title": {"type": "string", "description": "title of the result sheet"}
      }
    })json"),
            Tool::Uses::Sheets})
{}

namespace {

struct Workflow
{
    QPointer<RunContext> ctx;
    data::Sheet source;
    int urlColumn = -1;
    QJsonObject schema;
    int rows = 0;
    int row = 0;
    QJsonArray out;
    QList<int> failed;
    int loaded = 0;
    QString title;
    std::function<void(ToolResult)> done;
};

QUrl rowUrl(const QJsonValue &cell)
{
    QString s = cell.toString().trimmed();
    if (s.isEmpty())
        return {};
    if (!s.contains(QLatin1String("://")))
        s.prepend(QStringLiteral("https://"));
    const QUrl url(s, QUrl::StrictMode);
    return url.isValid() && !url.host().isEmpty() ? url : QUrl();
}

void finishWorkflow(const std::shared_ptr<Workflow> &w)
{
    RunContext &ctx = *w->ctx;
    const int index = ctx.addSheet(data::Sheet::fromObjects(w->title, w->out));
    ToolResult r;
    r.touchedSheets = true;
    r.usage.pages = w->loaded;
    const QString resultTitle = ctx.sheets().at(index).title;
    r.output = QJsonObject{{QStringLiteral("sheet"), resultTitle},
                           {QStringLiteral("source"), w->source.title},
                           {QStringLiteral("rows"), w->out},
                           {QStringLiteral("visited"), w->loaded},
                           {QStringLiteral("failed"), int(w->failed.size())}};
    r.summary = QStringLiteral("visited %1 of %2 rows of \"%3\"")
                    .arg(w->out.size())
                    .arg(w->source.rowCount())
                    .arg(w->source.title);
    if (!w->failed.isEmpty()) {
        QStringList rows;
        for (int i : std::as_const(w->failed))
            rows << QString::number(i + 1);
        r.summary += QStringLiteral("; %1 failed").arg(w->failed.size());
        ctx.warnings().append(QStringLiteral("sheets_workflow: %1 of %2 rows failed (rows %3)")
                                  .arg(w->failed.size())
                                  .arg(w->out.size())
                                  .arg(rows.join(u", ")));
    }
    if (w->rows < w->source.rowCount())
        ctx.warnings().append(
            QStringLiteral(
                "sheets_workflow: visited the first %1 of %2 rows (agent.maxWorkflowRows)")
                .arg(w->rows)
                .arg(w->source.rowCount()));
    w->done(r);
}

void nextRow(const std::shared_ptr<Workflow> &w, BrowserTab *tab)
{
    if (!w->ctx || w->ctx->isCancelled())
        return;
    if (w->row >= w->rows) {
        finishWorkflow(w);
        return;
    }
    const int row = w->row++;
    QJsonObject item = rowObject(w->source, row);
    auto rowFailed = [w, tab, row, item](const QString &error) mutable {
        item.insert(QStringLiteral("_error"), error);
        w->out.append(item);
        w->failed << row;
        // Queued: a long run of rows without URLs must not recurse.
        QTimer::singleShot(0, w->ctx, [w, tab] { nextRow(w, tab); });
    };
    const QUrl url = rowUrl(w->source.value(row, w->urlColumn));
    if (url.isEmpty()) {
        rowFailed(
            QStringLiteral("no URL in column \"%1\"").arg(w->source.columns.at(w->urlColumn).name));
        return;
    }
    const QString refusal = NetworkPolicy::refusal(url, w->ctx->grant());
    if (!refusal.isEmpty()) {
        rowFailed(QStringLiteral("the URL %1").arg(refusal));
        return;
    }
    ++w->loaded;
    w->ctx->usage().pages += 1;
    tab->navigate(
        url, w->ctx->navigationTimeoutMs(),
        [w, tab, item, rowFailed](const NavigationResult &nav) mutable {
            if (!w->ctx || w->ctx->isCancelled())
                return;
            if (!nav.ok) {
                rowFailed(nav.httpStatus >= 400
                              ? QStringLiteral("the page answered HTTP %1").arg(nav.httpStatus)
                              : QStringLiteral("%1: %2").arg(nav.errorCode, nav.errorMessage));
                return;
            }
            auto merge = [w, tab, item](const QJsonObject &found) mutable {
                for (auto it = found.begin(); it != found.end(); ++it) {
                    // Extracted values fill the schema's fields; a cell keeps its value when
                    // the page had nothing for it.
                    if (!it.value().isNull() || !item.contains(it.key()))
                        item.insert(it.key(), it.value());
                }
                w->out.append(item);
                nextRow(w, tab);
            };
            if (!w->schema.isEmpty()) {
                tab->call(QStringLiteral("extract"), w->schema, 20000,
                          [merge, rowFailed](bool ok, const QJsonValue &result,
                                             const QString &err) mutable {
                              if (!ok) {
                                  rowFailed(err);
                                  return;
                              }
                              const QJsonValue d = result.toObject().value(QStringLiteral("data"));
                              merge(d.isObject() ? d.toObject()
                                                 : QJsonObject{{QStringLiteral("items"), d}});
                          });
                return;
            }
            tab->snapshot(
                {{QStringLiteral("formats"), QJsonArray{QStringLiteral("text")}}},
                [merge, rowFailed, tab](const SnapshotResult &snap) mutable {
                    if (!snap.ok) {
                        rowFailed(snap.errorMessage);
                        return;
                    }
                    QString text = snap.data.value(QStringLiteral("text")).toString();
                    if (text.size() > kPageTextChars)
                        text = text.left(kPageTextChars) + QStringLiteral(" …");
                    merge({{QStringLiteral("pageTitle"), snap.data.value(QStringLiteral("title"))},
                           {QStringLiteral("pageUrl"), tab->url().toString()},
                           {QStringLiteral("pageText"), text}});
                });
        });
}

} // namespace

void SheetsWorkflowTool::run(RunContext &ctx, const QJsonObject &args,
                             std::function<void(ToolResult)> done)
{
    ToolResult failure;
    const auto index = sheetArg(ctx, args, &failure);
    if (!index) {
        done(failure);
        return;
    }
    auto w = std::make_shared<Workflow>();
    w->ctx = &ctx;
    w->source = ctx.sheets().at(*index);
    w->schema = args.value(QStringLiteral("schema")).toObject();
    w->done = std::move(done);
    if (args.contains(QStringLiteral("urlColumn"))) {
        const QString name = args.value(QStringLiteral("urlColumn")).toString();
        w->urlColumn = w->source.column(name);
        if (w->urlColumn < 0) {
            w->done(ToolResult::failure(
                QStringLiteral("sheet \"%1\" has no column \"%2\"; it has %3")
                    .arg(w->source.title, name, w->source.columnNames().join(u", "))));
            return;
        }
    } else {
        w->urlColumn = w->source.urlColumn();
        if (w->urlColumn < 0) {
            w->done(ToolResult::failure(
                QStringLiteral(
                    "sheet \"%1\" has no column of URLs (columns: %2); name one with urlColumn")
                    .arg(w->source.title, w->source.columnNames().join(u", "))));
            return;
        }
    }
    const int cap = ctx.services().settings.intValue(SettingKeys::agentMaxWorkflowRows);
    w->rows =
        qMin(w->source.rowCount(), qMin(cap, args.value(QStringLiteral("maxRows")).toInt(cap)));
    w->title = args.value(QStringLiteral("title")).toString().trimmed();
    if (w->title.isEmpty())
        w->title = w->source.title + QStringLiteral(" results");
    if (w->rows == 0) {
        finishWorkflow(w);
        return;
    }
    ctx.tab([w](BrowserTab *tab, const QString &error) {
        if (!w->ctx)
            return;
        if (!tab) {
            w->done(ToolResult::failure(error));
            return;
        }
        nextRow(w, tab);
    });
}

} // namespace ph::engine
