#pragma once

// Planner tests without a browser: a PlanningContext of the test's own, and a fake tab
// that answers the browser tools' calls (act_on_tab, crawl_and_extract_from_tab) the way
// the real tools do, from pages the test describes. PlannerDriver runs a planner against
// them to its end, answering ask_user from the answers the test gives.

#include "data/Sheet.h"
#include "engine/Planner.h"
#include "engine/Tool.h"
#include "engine/tools/BuiltinTools.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <memory>

namespace ph::test {

struct FakePage
{
    QString title;
    QString markdown;
    QJsonArray items;    // what an extraction finds here (objects shaped like the schema's items)
    QString next;        // the "next" page's URL, if any
    QJsonArray fields;   // a login form's fields [{key, label, id, secret}]: empty, no form
    QString loginKind;   // the sign-in step the form is: password (default), otp, magic_link
    QJsonArray missing;  // what an extraction reports missing (required fields not found)
    QJsonArray warnings; // values an extraction could not fit to their field
    QString submit;      // the login form's submit button
    QJsonObject credentials;       // what the form accepts, by field key
    QString afterLogin;            // where a correct sign-in leads
    QString search;                // where the site's search box leads ("?q=<query>" appended)
    QHash<QString, QString> links; // accessible name -> URL
};

class FakeContext final : public engine::PlanningContext
{
public:
    FakeContext()
        : m_tools(engine::builtinTools())
    {}
    const engine::ExecuteRequest &request() const override { return m_request; }
    QJsonObject &answers() override { return m_answers; }
    QList<data::Sheet> &sheets() override { return m_sheets; }
    QList<QPair<QString, QString>> &documents() override { return m_documents; }
    QStringList &images() override { return m_images; }
    QStringList &warnings() override { return m_warnings; }
    const engine::ToolRegistry &tools() const override { return *m_tools; }

    engine::ExecuteRequest m_request;
    QJsonObject m_answers;
    QList<data::Sheet> m_sheets;
    QList<QPair<QString, QString>> m_documents;
    QStringList m_images;
    QStringList m_warnings;
    std::unique_ptr<engine::ToolRegistry> m_tools;
};

class FakeTab
{
public:
    QHash<QString, FakePage> pages;
    QString url;       // the page shown
    QJsonObject typed; // field id/name -> text typed into it
    QStringList log;   // "navigate https://…", "click Sign in", "type e2", "search rope"
    bool signedIn = false;

    const FakePage *page() const
    {
        const auto it = pages.constFind(url);
        return it == pages.cend() ? nullptr : &*it;
    }

    engine::ToolResult run(const QString &tool, const QJsonObject &args)
    {
        if (tool == QLatin1String("act_on_tab"))
            return act(args);
        if (tool == QLatin1String("crawl_and_extract_from_tab"))
            return crawl(args);
        if (tool.startsWith(QLatin1String("generate_")) ||
            tool == QLatin1String("create_sheet_from_data") ||
            tool == QLatin1String("docs_access") || tool == QLatin1String("slides_access") ||
            tool == QLatin1String("pdf_generator")) {
            // A file written from the data (or the text) the planner passes, in the format
            // it names ("docs_access data odt").
            log << QStringLiteral("%1 %2%3").arg(
                tool,
                args.contains(QStringLiteral("data")) ? QStringLiteral("data")
                                                      : QStringLiteral("markdown"),
                args.contains(QStringLiteral("format"))
                    ? QLatin1Char(' ') + args.value(QStringLiteral("format")).toString()
                    : QString());
            return ok({{QStringLiteral("file"), QStringLiteral("result")}},
                      QStringLiteral("Wrote result with %1.").arg(tool));
        }
        if (tool == QLatin1String("pdf_filling")) {
            // The form's source and values, as the planner passes them.
            log << QStringLiteral("pdf_filling %1")
                       .arg(QString::fromUtf8(QJsonDocument(args).toJson(QJsonDocument::Compact)));
            return ok({{QStringLiteral("file"), QStringLiteral("a-filled.pdf")}},
                      QStringLiteral("filled the form: a-filled.pdf"));
        }
        return engine::ToolResult::failure(QStringLiteral("the fake tab has no tool %1").arg(tool));
    }

private:
    static engine::ToolResult ok(const QJsonObject &output, const QString &summary)
    {
        engine::ToolResult r;
        r.output = output;
        r.summary = summary;
        return r;
    }

    engine::ToolResult go(const QString &to)
    {
        log << QStringLiteral("navigate %1").arg(to);
        if (!pages.contains(to))
            return engine::ToolResult::failure(
                QStringLiteral("HTTP_STATUS: HTTP 404 Not Found (%1)").arg(to));
        url = to;
        return ok({{QStringLiteral("url"), to}}, QStringLiteral("opened %1").arg(to));
    }

    engine::ToolResult submitLogin()
    {
        const FakePage *p = page();
        bool accepted = p && !p->fields.isEmpty();
        for (const QJsonValue &f : p ? p->fields : QJsonArray()) {
            const QJsonObject field = f.toObject();
            const QString key = field.value(QStringLiteral("key")).toString();
            if (typed.value(field.value(QStringLiteral("id")).toString()) !=
                p->credentials.value(key))
                accepted = false;
        }
        if (accepted) {
            signedIn = true;
            url = p->afterLogin;
        }
        return ok({{QStringLiteral("url"), url}}, QStringLiteral("submitted"));
    }

    engine::ToolResult act(const QJsonObject &args)
    {
        const QString action = args.value(QStringLiteral("action")).toString();
        const QString target = args.value(QStringLiteral("target")).toString();
        const FakePage *p = page();
        if (action == QLatin1String("navigate"))
            return go(args.value(QStringLiteral("url")).toString());
        if (!p)
            return engine::ToolResult::failure(QStringLiteral("no page is open"));
        if (action == QLatin1String("login_form")) {
            QJsonValue form = QJsonValue::Null;
            if (!p->fields.isEmpty() || !p->loginKind.isEmpty())
                form = QJsonObject{{QStringLiteral("fields"), p->fields},
                                   {QStringLiteral("submit"), p->submit},
                                   {QStringLiteral("kind"), p->loginKind.isEmpty()
                                                                ? QStringLiteral("password")
                                                                : p->loginKind},
                                   {QStringLiteral("host"), QUrl(url).host()}};
            return ok({{QStringLiteral("loginForm"), form}, {QStringLiteral("url"), url}},
                      form.isNull() ? QStringLiteral("no login form on the page")
                                    : QStringLiteral("the page has a login form"));
        }
        if (action == QLatin1String("type")) {
            log << QStringLiteral("type %1").arg(target);
            typed.insert(target, args.value(QStringLiteral("text")));
            return ok({}, QStringLiteral("typed into %1").arg(target));
        }
        if (action == QLatin1String("click")) {
            log << QStringLiteral("click %1").arg(target);
            if (!p->fields.isEmpty() && target == p->submit)
                return submitLogin();
            if (p->links.contains(target))
                return go(p->links.value(target));
            return ok({}, QStringLiteral("clicked %1").arg(target));
        }
        if (action == QLatin1String("press")) {
            log << QStringLiteral("press %1").arg(args.value(QStringLiteral("key")).toString());
            if (!p->fields.isEmpty())
                return submitLogin();
            return ok({}, QStringLiteral("pressed"));
        }
        if (action == QLatin1String("search")) {
            const QString query = args.value(QStringLiteral("text")).toString();
            log << QStringLiteral("search %1").arg(query);
            if (p->search.isEmpty())
                return engine::ToolResult::failure(QStringLiteral("the page has no search box"));
            return go(p->search + QStringLiteral("?q=") + query);
        }
        log << QStringLiteral("%1 %2").arg(action, target);
        return ok({}, action);
    }

    engine::ToolResult crawl(const QJsonObject &args)
    {
        if (args.contains(QStringLiteral("url"))) {
            const engine::ToolResult opened = go(args.value(QStringLiteral("url")).toString());
            if (!opened.ok)
                return opened;
        }
        const QJsonObject schema = args.value(QStringLiteral("schema")).toObject();
        const bool paginate = args.value(QStringLiteral("paginate")).toBool();
        const int maxPages = args.value(QStringLiteral("maxPages")).toInt(50);
        QJsonArray pagesRead;
        QJsonArray items;
        QJsonArray missing;
        QJsonArray warnings;
        QString markdown;
        for (;;) {
            const FakePage *p = page();
            if (!p)
                return engine::ToolResult::failure(QStringLiteral("no page is open"));
            pagesRead.append(QJsonObject{{QStringLiteral("url"), url}});
            for (const QJsonValue &item : p->items)
                items.append(item);
            for (const QJsonValue &m : p->missing)
                missing.append(m);
            for (const QJsonValue &w : p->warnings)
                warnings.append(w);
            markdown += (markdown.isEmpty() ? QString() : QStringLiteral("\n\n")) + p->markdown;
            if (!paginate || p->next.isEmpty() || pagesRead.size() >= maxPages)
                break;
            log << QStringLiteral("next %1").arg(p->next);
            url = p->next;
        }
        QJsonObject out{{QStringLiteral("pages"), pagesRead}, {QStringLiteral("url"), url}};
        if (schema.isEmpty()) {
            out.insert(QStringLiteral("markdown"), markdown);
        } else if (schema.value(QStringLiteral("type")).toString() == QLatin1String("array")) {
            out.insert(QStringLiteral("data"), items);
            out.insert(QStringLiteral("missing"), missing);
            out.insert(QStringLiteral("warnings"), warnings);
        } else {
            // An object schema: its first array property holds the items.
            QJsonObject data;
            const QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
            for (auto it = props.begin(); it != props.end(); ++it) {
                if (it.value().toObject().value(QStringLiteral("type")).toString() ==
                    QLatin1String("array")) {
                    data.insert(it.key(), items);
                    break;
                }
            }
            out.insert(QStringLiteral("data"), data);
            out.insert(QStringLiteral("missing"), missing);
            out.insert(QStringLiteral("warnings"), warnings);
        }
        return ok(out, QStringLiteral("read %1 pages").arg(pagesRead.size()));
    }
};

// Runs a planner against a fake tab until it finishes, fails, or asks what the test has
// no answer for.
struct PlannerOutcome
{
    engine::Decision::Kind kind = engine::Decision::Kind::Fail;
    QString text;
    std::optional<QJsonValue> json;
    QString error;
    QStringList calls;        // "act_on_tab:navigate", "crawl_and_extract_from_tab", …
    QList<QJsonObject> asked; // the questions of each ask_user
    bool waitingForInput = false;
};

inline PlannerOutcome drive(engine::Planner &planner, FakeContext &ctx, FakeTab &tab,
                            const QJsonObject &answers = {}, int maxSteps = 60)
{
    PlannerOutcome out;
    std::optional<engine::ToolResult> last;
    for (int step = 0; step < maxSteps; ++step) {
        std::optional<engine::Decision> decided;
        planner.next(ctx, last ? &*last : nullptr,
                     [&decided](engine::Decision d) { decided = std::move(d); });
        if (!decided) {
            out.error = QStringLiteral("the planner did not decide");
            return out;
        }
        if (decided->kind != engine::Decision::Kind::Call) {
            out.kind = decided->kind;
            out.text = decided->text;
            out.json = decided->json;
            out.error = decided->error;
            return out;
        }
        const QString action = decided->args.value(QStringLiteral("action")).toString();
        out.calls << (action.isEmpty() ? decided->tool : decided->tool + QLatin1Char(':') + action);
        if (decided->tool == QLatin1String("ask_user")) {
            QJsonObject asked;
            bool answered = true;
            for (const QJsonValue &q : decided->args.value(QStringLiteral("questions")).toArray()) {
                const QString key = q.toObject().value(QStringLiteral("key")).toString();
                asked.insert(key, q);
                if (!answers.contains(key))
                    answered = false;
            }
            out.asked << asked;
            if (!answered) {
                out.waitingForInput = true;
                return out;
            }
            for (auto it = asked.begin(); it != asked.end(); ++it)
                ctx.answers().insert(it.key(), answers.value(it.key()));
            planner.resumeWithAnswers(ctx);
            last.reset();
            continue;
        }
        if (decided->tool == QLatin1String("sheets_access")) {
            // The sheets the run holds, as the real tool lists them.
            QStringList tables;
            for (const data::Sheet &sheet : ctx.sheets())
                tables << sheet.toMarkdown();
            engine::ToolResult r;
            r.output =
                QJsonObject{{QStringLiteral("markdown"), tables.join(QStringLiteral("\n\n"))}};
            r.summary = QStringLiteral("listed %1 sheets").arg(ctx.sheets().size());
            last = r;
            continue;
        }
        if (decided->tool == QLatin1String("sheets_workflow")) {
            // Each row of the first sheet, as the real tool returns them once worked.
            engine::ToolResult r;
            const data::Sheet sheet = ctx.sheets().value(0);
            const QJsonArray rows = sheet.toObjects();
            r.output = QJsonObject{{QStringLiteral("rows"), rows},
                                   {QStringLiteral("source"), sheet.title}};
            r.summary = QStringLiteral("%1 rows").arg(rows.size());
            last = r;
            continue;
        }
        last = tab.run(decided->tool, decided->args);
    }
    out.error = QStringLiteral("the planner did not finish in %1 steps").arg(maxSteps);
    return out;
}

} // namespace ph::test
