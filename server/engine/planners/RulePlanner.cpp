#include "RulePlanner.h"

#include "data/Sheet.h"
#include "engine/SheetShape.h"

#include "core/Settings.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>

namespace ph::engine {

namespace {

QJsonObject noObserve(QJsonObject args)
{
    args.insert(QStringLiteral("observe"), false);
    return args;
}

QString questionFor(const QString &key, const QString &label, const QString &host)
{
    const QString what = label.isEmpty() ? key : label;
    return QStringLiteral("What is the %1 to sign in to %2?")
        .arg(what, host.isEmpty() ? QStringLiteral("the site") : host);
}

bool emptyData(const QJsonValue &data)
{
    if (data.isNull() || data.isUndefined())
        return true;
    if (data.isArray())
        return data.toArray().isEmpty();
    if (data.isObject()) {
        const QJsonObject o = data.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!emptyData(it.value()))
                return false;
        }
        return true;
    }
    return false;
}

QJsonValue merge(const QJsonValue &into, const QJsonValue &more)
{
    if (into.isUndefined() || into.isNull())
        return more;
    if (into.isArray() && more.isArray()) {
        QJsonArray a = into.toArray();
        for (const auto &v : more.toArray())
            a.append(v);
        return a;
    }
    if (into.isObject() && more.isObject()) {
        QJsonObject o = into.toObject();
        const QJsonObject m = more.toObject();
        for (auto it = m.begin(); it != m.end(); ++it) {
            if (!o.contains(it.key()) || emptyData(o.value(it.key())))
                o.insert(it.key(), it.value());
            else if (o.value(it.key()).isArray() && it.value().isArray())
                o.insert(it.key(), merge(o.value(it.key()), it.value()));
        }
        return o;
    }
    return into;
}

// An object schema with a scalar property describes one record (a product, a person):
// each page read on its own is its own record, not merged into the first page's.
bool recordSchema(const QJsonObject &schema)
{
    if (schema.value(QStringLiteral("type")).toString() != QLatin1String("object") &&
        !schema.contains(QStringLiteral("properties")))
        return false;
    const QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
    for (auto it = props.begin(); it != props.end(); ++it) {
        const QString t = it.value().toObject().value(QStringLiteral("type")).toString();
        if (t != QLatin1String("array") && t != QLatin1String("object"))
            return true;
    }
    return false;
}

// The records a filter keeps ("under 20 €", "in stock"): of the answer's item array (the
// array itself, or the object's first array of objects), those whose number field (a
// price-like one first) is within the bounds and whose stock field says yes. A filter
// with no field to apply to leaves the records and says so in `note`.
QJsonValue applyFilter(const QJsonValue &data, const QJsonObject &schema, const TaskPlan::Filter &f,
                       QString *note)
{
    QString wrap;
    QJsonObject itemSchema = schema.value(QStringLiteral("items")).toObject();
    if (!data.isArray()) {
        const QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
        for (auto it = props.begin(); it != props.end() && wrap.isEmpty(); ++it)
            if (data.toObject().value(it.key()).isArray() &&
                it.value()
                    .toObject()
                    .value(QStringLiteral("items"))
                    .toObject()
                    .contains(QStringLiteral("properties"))) {
                wrap = it.key();
                itemSchema = it.value().toObject().value(QStringLiteral("items")).toObject();
            }
        if (wrap.isEmpty())
            return data;
    }
    QString numberField;
    QString stockField;
    static const QRegularExpression priceLike(QStringLiteral("price|cost|amount|preis|prix|precio"),
                                              QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression stockLike(QStringLiteral("stock|avail|lager|dispon"),
                                              QRegularExpression::CaseInsensitiveOption);
    const QJsonObject props = itemSchema.value(QStringLiteral("properties")).toObject();
    for (auto it = props.begin(); it != props.end(); ++it) {
        const QString type = it.value().toObject().value(QStringLiteral("type")).toString();
        if ((type == QLatin1String("number") || type == QLatin1String("integer")) &&
            (numberField.isEmpty() || priceLike.match(it.key()).hasMatch()))
            numberField = it.key();
        if (stockLike.match(it.key()).hasMatch())
            stockField = it.key();
    }
    if (((f.max || f.min) && numberField.isEmpty()) || (f.inStock && stockField.isEmpty()))
        *note = QStringLiteral("the task asks for a filter the schema has no field for");
    QJsonArray kept;
    const QJsonArray items =
        wrap.isEmpty() ? data.toArray() : data.toObject().value(wrap).toArray();
    for (const QJsonValue &item : items) {
        const QJsonObject o = item.toObject();
        if (!numberField.isEmpty() && (f.max || f.min)) {
            const QJsonValue v = o.value(numberField);
            if (!v.isDouble() || (f.max && v.toDouble() > *f.max) ||
                (f.min && v.toDouble() < *f.min))
                continue;
        }
        if (f.inStock && !stockField.isEmpty()) {
            const QJsonValue v = o.value(stockField);
            if (v.isBool() ? !v.toBool()
                           : QRegularExpression(QStringLiteral("out of|sold out|ausverkauft|nicht|"
                                                               "épuisé|agotado|^no$|^nein$"),
                                                QRegularExpression::CaseInsensitiveOption)
                                 .match(v.toString())
                                 .hasMatch())
                continue;
        }
        kept.append(item);
    }
    if (wrap.isEmpty())
        return kept;
    QJsonObject out = data.toObject();
    out.insert(wrap, kept);
    return out;
}

} // namespace

RulePlanner::RulePlanner(const QString &input, const TaskContext &context,
                         const QJsonObject &schema)
    : m_plan(parseTask(input, context))
    , m_schema(schema)
{}

QString RulePlanner::name() const
{
    return QStringLiteral("rule");
}

bool RulePlanner::understood(const QString &input, const TaskContext &context, bool hasSchema)
{
    const TaskPlan plan = parseTask(input, context);
    // Understood: a form to fill, spelled-out steps, a search, a sheet workflow, a
    // sign-in, or a direct "list/extract/collect …" of a page. Questions ("what does …
    // cost", "figure out …", "compare …") are open-ended: the LLM planner takes them when
    // configured.
    Q_UNUSED(hasSchema);
    if (!plan.unfulfillable.isEmpty())
        return false;
    return plan.fillForm || plan.explicitSteps || plan.eachRow || plan.loginIntent ||
           plan.directExtraction ||
           std::any_of(plan.ops.begin(), plan.ops.end(),
                       [](const TaskOp &op) { return op.kind == TaskOp::Kind::Search; });
}

QString RulePlanner::valueFor(PlanningContext &ctx, const QString &key) const
{
    const QJsonObject &answers = ctx.answers();
    const QStringList candidates =
        key == QLatin1String("email")
            ? QStringList{QStringLiteral("email"), QStringLiteral("username")}
        : key == QLatin1String("username")
            ? QStringList{QStringLiteral("username"), QStringLiteral("email")}
            : QStringList{key};
    for (const QString &k : candidates) {
        if (answers.contains(k))
            return answers.value(k).toString();
        if (m_plan.credentials.contains(k))
            return m_plan.credentials.value(k).toString();
    }
    return {};
}

void RulePlanner::next(PlanningContext &ctx, const ToolResult *last,
                       std::function<void(Decision)> decide)
{
    if (!last && m_index == 0 && !m_plan.unfulfillable.isEmpty()) {
        // Reading the page instead would answer something else: say what is missing.
        decide(Decision::fail(
            m_plan.unfulfillableForm
                ? QStringLiteral("the rule planner cannot %1: the task gives no values to put "
                                 "in it. Name each field and its value as steps (type \"Ada\" "
                                 "into \"Name\", then click \"Send\"), enable pdf_filling for "
                                 "a PDF form, or configure an LLM planner (llm.baseUrl)")
                      .arg(m_plan.unfulfillable.toLower())
                : QStringLiteral("the rule planner cannot %1: it has no step for that. Spell "
                                 "out the steps (click \"Book\", type \"2\" into "
                                 "\"Guests\" …), or configure an LLM planner (llm.baseUrl)")
                      .arg(m_plan.unfulfillable.toLower())));
        return;
    }
    if (last && m_expect != Expect::Nothing && !takeResult(ctx, *last, decide))
        return;
    if (std::exchange(m_pendingLoginCheck, false)) {
        lookForLoginForm(decide);
        return;
    }
    if (!m_login.isEmpty()) {
        fillLoginForm(ctx, decide);
        return;
    }
    if (m_index >= m_plan.ops.size()) {
        finish(ctx, decide);
        return;
    }
    startOp(ctx, m_plan.ops.at(m_index), decide);
}

// What the previous call came to. False when that ends the run (decided already).
bool RulePlanner::takeResult(PlanningContext &ctx, const ToolResult &last,
                             std::function<void(Decision)> &decide)
{
    const Expect expected = std::exchange(m_expect, Expect::Nothing);
    if (!last.ok) {
        // The rule planner has no way around a failed step: it reports it.
        decide(Decision::fail(QStringLiteral("%1 failed: %2").arg(m_lastTool, last.error)));
        return false;
    }
    const QJsonObject out = last.output.toObject();
    switch (expected) {
    case Expect::LoginForm:
        return takeLoginForm(out, decide);
    case Expect::LoginSubmit:
        // Look again: the form should be gone.
        m_pendingLoginCheck = true;
        break;
    case Expect::LoginStep:
        ++m_loginField;
        break;
    case Expect::Extract:
        takeExtract(out);
        break;
    case Expect::Workflow:
        takeWorkflow(out, last.summary);
        break;
    case Expect::ReadSheets:
        takeSheets(ctx, out);
        break;
    case Expect::Generate:
        m_generated << last.summary;
        ++m_index;
        break;
    case Expect::Answers:
        // Answers arrive through resumeWithAnswers(); nothing to read here.
        break;
    case Expect::Step:
        m_lastSummary = last.summary;
        ++m_index;
        break;
    case Expect::Nothing:
        break;
    }
    return true;
}

// The login form read: a form to fill (or the same form again after a submit: a failed
// sign-in), or none any more (signed in, or no sign-in needed).
bool RulePlanner::takeLoginForm(const QJsonObject &out, std::function<void(Decision)> &decide)
{
    const QJsonValue form = out.value(QStringLiteral("loginForm"));
    if (form.isObject()) {
        const QJsonObject step = form.toObject();
        const QString kind = step.value(QStringLiteral("kind")).toString();
        // After a submit, the same form again is a failed sign-in; another kind (a
        // one-time code after the password, an emailed link) is its next step.
        if (m_loginSubmitted && (kind == m_loginKind || m_loginSteps >= 3)) {
            decide(Decision::fail(
                QStringLiteral("signing in did not succeed: the login form is still shown")));
            return false;
        }
        m_loginSubmitted = false;
        m_login = step;
        m_loginKind = kind;
        m_loginField = 0;
        ++m_loginSteps;
        return true;
    }
    // No login form (any more).
    const bool justSignedIn = std::exchange(m_loginSubmitted, false);
    if (justSignedIn)
        m_loggedIn = true;
    if (m_retryExtract) {
        m_retryExtract = false;
        if (justSignedIn) {
            m_index = m_extractIndex; // extract again, now signed in
        } else {
            applyExtract(m_lastExtract);
            m_index = m_extractIndex + 1;
        }
    } else {
        ++m_index; // past the Login op
    }
    return true;
}

// An extraction's result. Nothing found where data was asked for: maybe the content is
// behind a login form, so look for one once before accepting the empty result.
void RulePlanner::takeExtract(const QJsonObject &out)
{
    const QJsonValue data = out.value(QStringLiteral("data"));
    if (!m_schema.isEmpty() && emptyData(data) && !m_loggedIn && !m_triedLoginForData) {
        m_triedLoginForData = true;
        m_retryExtract = true;
        m_extractIndex = m_index;
        m_lastExtract = out;
        m_pendingLoginCheck = true;
        return;
    }
    applyExtract(out);
    ++m_index;
}

// A sheet workflow's rows, shaped as the schema asks (engine/SheetShape.h: workflowShape).
void RulePlanner::takeWorkflow(const QJsonObject &out, const QString &summary)
{
    const QString wrap = workflowShape(m_schema).wrapKey;
    const QJsonValue rows = out.value(QStringLiteral("rows"));
    m_data = wrap.isEmpty() ? rows : QJsonValue(QJsonObject{{wrap, rows}});
    m_text = QStringLiteral("Worked through %1: %2.")
                 .arg(out.value(QStringLiteral("source")).toString(), summary);
    m_workflowDone = true;
    ++m_index;
}

// The inputs read: the text of each file, then the sheets; with a schema, the first
// sheet's rows shaped into it.
void RulePlanner::takeSheets(PlanningContext &ctx, const QJsonObject &out)
{
    QStringList parts;
    for (const auto &doc : std::as_const(ctx.documents()))
        parts << QStringLiteral("## %1\n\n%2").arg(doc.first, doc.second.trimmed());
    if (const QString sheets = out.value(QStringLiteral("markdown")).toString(); !sheets.isEmpty())
        parts << sheets;
    m_text = parts.join(QStringLiteral("\n\n"));
    // With a schema, the first sheet's rows are the JSON answer.
    if (!m_schema.isEmpty() && !ctx.sheets().isEmpty()) {
        // The rows shaped into the schema: its properties matched to the headers,
        // a list of names from the column that names them.
        QStringList gaps;
        m_data = shapeRows(m_schema, ctx.sheets().first().toObjects(), &gaps);
        for (const QString &g : std::as_const(gaps))
            ctx.warnings().append(QStringLiteral("schema: %1").arg(g));
        m_workflowDone = true;
    }
    ++m_index;
}

// After a sign-in, or when an extraction found nothing: is there a login form?
void RulePlanner::lookForLoginForm(std::function<void(Decision)> &decide)
{
    m_expect = Expect::LoginForm;
    m_lastTool = QStringLiteral("act_on_tab");
    decide(
        Decision::call(m_lastTool, {{QStringLiteral("action"), QStringLiteral("login_form")}},
                       QStringLiteral("Nothing matched the schema; checking for a sign-in form.")));
}

// A login form in progress: fill its fields one by one, asking for what is missing,
// then submit it.
void RulePlanner::fillLoginForm(PlanningContext &ctx, std::function<void(Decision)> &decide)
{
    if (m_login.value(QStringLiteral("kind")).toString() == QLatin1String("magic_link")) {
        followSignInLink(ctx, decide);
        return;
    }
    const QJsonArray fields = m_login.value(QStringLiteral("fields")).toArray();
    QList<Question> missing;
    for (const auto &f : fields) {
        const QJsonObject field = f.toObject();
        const QString key = field.value(QStringLiteral("key")).toString();
        if (valueFor(ctx, key).isEmpty()) {
            Question q;
            q.key = key;
            q.label = field.value(QStringLiteral("label")).toString();
            q.question =
                questionFor(key, q.label, m_login.value(QStringLiteral("host")).toString());
            // A code page that shows where it sent the code: the question says so (A2W's
            // authInput.emailMasked reads it from there).
            const QString sentTo = m_login.value(QStringLiteral("emailMasked")).toString();
            if (key == QLatin1String("code") && !sentTo.isEmpty())
                q.question += QStringLiteral(" It was sent to %1.").arg(sentTo);
            q.secret = field.value(QStringLiteral("secret")).toBool();
            missing.append(q);
        }
    }
    if (!missing.isEmpty()) {
        QJsonArray questions;
        for (const Question &q : missing)
            questions.append(q.toJson());
        m_expect = Expect::Answers;
        m_lastTool = QStringLiteral("ask_user");
        decide(Decision::call(
            m_lastTool, {{QStringLiteral("questions"), questions}},
            QStringLiteral("The page asks to sign in and the task gives no credentials.")));
        return;
    }
    if (m_loginField < fields.size()) {
        const QJsonObject field = fields.at(m_loginField).toObject();
        const QString key = field.value(QStringLiteral("key")).toString();
        m_expect = Expect::LoginStep;
        m_lastTool = QStringLiteral("act_on_tab");
        QJsonObject args = noObserve({{QStringLiteral("action"), QStringLiteral("type")},
                                      {QStringLiteral("target"), field.value(QStringLiteral("id"))},
                                      {QStringLiteral("text"), valueFor(ctx, key)}});
        if (field.value(QStringLiteral("secret")).toBool()) {
            args.insert(QStringLiteral("secret"), true);
            args.insert(QStringLiteral("answerKey"), key); // lets a replay type it again
        }
        decide(Decision::call(
            m_lastTool, args,
            QStringLiteral("Filling in %1.").arg(field.value(QStringLiteral("label")).toString())));
        return;
    }
    // All filled: submit, then look again to see whether the form has gone.
    const QString submit = m_login.value(QStringLiteral("submit")).toString();
    m_login = QJsonObject();
    m_loginSubmitted = true;
    m_expect = Expect::LoginSubmit;
    m_lastTool = QStringLiteral("act_on_tab");
    const QJsonObject args = submit.isEmpty()
                                 ? noObserve({{QStringLiteral("action"), QStringLiteral("press")},
                                              {QStringLiteral("key"), QStringLiteral("Enter")}})
                                 : noObserve({{QStringLiteral("action"), QStringLiteral("click")},
                                              {QStringLiteral("target"), submit}});
    decide(Decision::call(m_lastTool, args, QStringLiteral("Submitting the sign-in form.")));
}

// The page says a sign-in link was emailed: ask for it (a secret: it signs in), then
// open it in the tab and look again.
void RulePlanner::followSignInLink(PlanningContext &ctx, std::function<void(Decision)> &decide)
{
    const QString key = QStringLiteral("magic_link");
    const QString link = valueFor(ctx, key);
    if (link.isEmpty()) {
        Question q;
        q.key = key;
        q.label = QStringLiteral("Sign-in link");
        const QString email = m_login.value(QStringLiteral("emailMasked")).toString();
        q.question = QStringLiteral("%1 emailed a sign-in link%2. What is the link?")
                         .arg(m_login.value(QStringLiteral("host")).toString(),
                              email.isEmpty() ? QString() : QStringLiteral(" to ") + email);
        q.secret = true;
        m_expect = Expect::Answers;
        m_lastTool = QStringLiteral("ask_user");
        decide(Decision::call(m_lastTool, {{QStringLiteral("questions"), QJsonArray{q.toJson()}}},
                              QStringLiteral("The site signs in by an emailed link.")));
        return;
    }
    m_login = QJsonObject();
    m_loginSubmitted = true;
    m_expect = Expect::LoginSubmit;
    m_lastTool = QStringLiteral("act_on_tab");
    decide(Decision::call(m_lastTool,
                          noObserve({{QStringLiteral("action"), QStringLiteral("navigate")},
                                     {QStringLiteral("url"), link}}),
                          QStringLiteral("Opening the sign-in link.")));
}

// The next operation of the plan, by kind.
void RulePlanner::startOp(PlanningContext &ctx, const TaskOp &op,
                          std::function<void(Decision)> &decide)
{
    switch (op.kind) {
    case TaskOp::Kind::Login:
        startLogin(decide);
        return;
    case TaskOp::Kind::Extract:
        startExtract(op, decide);
        return;
    case TaskOp::Kind::ReadSheets:
        startReadSheets(decide);
        return;
    case TaskOp::Kind::SheetsWorkflow:
        startWorkflow(ctx, decide);
        return;
    case TaskOp::Kind::Generate:
        startGenerate(ctx, op, decide);
        return;
    case TaskOp::Kind::Ask:
        askForPage(ctx, decide);
        return;
    default:
        actOnPage(op, decide);
        return;
    }
}

// One action on the page (open, click, type, select, check, press, wait, scroll,
// search): a step whose result only moves the plan on.
void RulePlanner::actOnPage(const TaskOp &op, std::function<void(Decision)> &decide)
{
    auto step = [this, &decide](const QJsonObject &args, const QString &thought) {
        m_expect = Expect::Step;
        m_lastTool = QStringLiteral("act_on_tab");
        decide(Decision::call(m_lastTool, noObserve(args), thought));
    };
    switch (op.kind) {
    case TaskOp::Kind::Open:
        step(
            {{QStringLiteral("action"), QStringLiteral("navigate")}, {QStringLiteral("url"), op.a}},
            QStringLiteral("Opening %1.").arg(op.a));
        return;
    case TaskOp::Kind::Click:
        step(
            {{QStringLiteral("action"), QStringLiteral("click")}, {QStringLiteral("target"), op.a}},
            QStringLiteral("Clicking \"%1\".").arg(op.a));
        return;
    case TaskOp::Kind::Type:
        step({{QStringLiteral("action"), QStringLiteral("type")},
              {QStringLiteral("target"), op.b},
              {QStringLiteral("text"), op.a}},
             QStringLiteral("Typing into \"%1\".").arg(op.b));
        return;
    case TaskOp::Kind::Select:
        step({{QStringLiteral("action"), QStringLiteral("select")},
              {QStringLiteral("target"), op.b},
              {QStringLiteral("option"), op.a}},
             QStringLiteral("Selecting \"%1\" in \"%2\".").arg(op.a, op.b));
        return;
    case TaskOp::Kind::Check:
    case TaskOp::Kind::Uncheck:
        step(
            {{QStringLiteral("action"),
              op.kind == TaskOp::Kind::Check ? QStringLiteral("check") : QStringLiteral("uncheck")},
             {QStringLiteral("target"), op.a}},
            QStringLiteral("Setting \"%1\".").arg(op.a));
        return;
    case TaskOp::Kind::Press:
        step({{QStringLiteral("action"), QStringLiteral("press")}, {QStringLiteral("key"), op.a}},
             QStringLiteral("Pressing %1.").arg(op.a));
        return;
    case TaskOp::Kind::WaitText:
        step({{QStringLiteral("action"), QStringLiteral("wait")}, {QStringLiteral("text"), op.a}},
             QStringLiteral("Waiting for \"%1\".").arg(op.a));
        return;
    case TaskOp::Kind::WaitMs:
        step({{QStringLiteral("action"), QStringLiteral("wait")}, {QStringLiteral("ms"), op.n}},
             QStringLiteral("Waiting %1 ms.").arg(op.n));
        return;
    case TaskOp::Kind::Scroll:
        step({{QStringLiteral("action"), QStringLiteral("scroll")},
              {QStringLiteral("direction"), op.a}},
             QStringLiteral("Scrolling %1.").arg(op.a));
        return;
    case TaskOp::Kind::Search:
        step({{QStringLiteral("action"), QStringLiteral("search")}, {QStringLiteral("text"), op.a}},
             QStringLiteral("Searching for \"%1\".").arg(op.a));
        return;
    default:
        decide(Decision::fail(QStringLiteral("the rule planner has no step for this operation")));
        return;
    }
}

// A sign-in the task asks for: read the page's login form first.
void RulePlanner::startLogin(std::function<void(Decision)> &decide)
{
    m_expect = Expect::LoginForm;
    m_lastTool = QStringLiteral("act_on_tab");
    decide(Decision::call(m_lastTool, {{QStringLiteral("action"), QStringLiteral("login_form")}},
                          QStringLiteral("The task needs signing in; reading the login form.")));
}

// Read the page: shaped by the schema if there is one, following the next pages when
// the task asks for them.
void RulePlanner::startExtract(const TaskOp &op, std::function<void(Decision)> &decide)
{
    QJsonObject args;
    if (!op.a.isEmpty())
        args.insert(QStringLiteral("url"), op.a);
    if (!m_schema.isEmpty())
        args.insert(QStringLiteral("schema"), m_schema);
    else
        args.insert(QStringLiteral("formats"), QJsonArray{QStringLiteral("markdown")});
    if (m_plan.paginate) {
        args.insert(QStringLiteral("paginate"), true);
        if (m_plan.maxPages > 0)
            args.insert(QStringLiteral("maxPages"), m_plan.maxPages);
    }
    m_expect = Expect::Extract;
    m_lastTool = QStringLiteral("crawl_and_extract_from_tab");
    decide(Decision::call(
        m_lastTool, args,
        m_schema.isEmpty() ? QStringLiteral("Reading the page.")
                           : QStringLiteral("Extracting data shaped like the schema%1.")
                                 .arg(m_plan.paginate ? QStringLiteral(", following the next pages")
                                                      : QString())));
}

// No page and data given: read the inputs.
void RulePlanner::startReadSheets(std::function<void(Decision)> &decide)
{
    m_expect = Expect::ReadSheets;
    m_lastTool = QStringLiteral("sheets_access");
    decide(Decision::call(m_lastTool, {{QStringLiteral("action"), QStringLiteral("list")}},
                          QStringLiteral("The task gives data and no page: reading it.")));
}

// "For each row …": the sheet workflow, row by row.
void RulePlanner::startWorkflow(PlanningContext &ctx, std::function<void(Decision)> &decide)
{
    QJsonObject args{{QStringLiteral("instruction"), ctx.request().input}};
    const QJsonObject rowSchema = workflowShape(m_schema).rowSchema;
    if (!rowSchema.isEmpty())
        args.insert(QStringLiteral("schema"), rowSchema);
    m_expect = Expect::Workflow;
    m_lastTool = QStringLiteral("sheets_workflow");
    decide(
        Decision::call(m_lastTool, args, QStringLiteral("Working through the sheet row by row.")));
}

// A file to write (a document, a sheet, a PDF …) from the data or the text so far.
void RulePlanner::startGenerate(PlanningContext &ctx, const TaskOp &op,
                                std::function<void(Decision)> &decide)
{
    if (op.a == QLatin1String("pdf_filling")) {
        // The form and its values, as the task wrote them.
        m_expect = Expect::Generate;
        m_lastTool = op.a;
        decide(Decision::call(op.a, op.args,
                              op.args.contains(QStringLiteral("rows"))
                                  ? QStringLiteral("Filling the PDF form once per row.")
                                  : QStringLiteral("Filling the PDF form.")));
        return;
    }
    const bool named = op.a == QLatin1String("docs_access") ||
                       op.a == QLatin1String("slides_access") ||
                       op.a == QLatin1String("pdf_generator");
    QString title = ctx.request().input;
    // The spec's document tools are titled by the task without its addresses ("Read the
    // products on https://… and make slides" → "Read the products and make slides").
    static const QRegularExpression address(
        QStringLiteral("(?:\\s+(?:on|at|from|of|in|auf|von))?\\s*\\bhttps?://\\S+"));
    if (named)
        title = title.remove(address).simplified();
    title = title.left(60);
    QJsonObject args{{QStringLiteral("title"), title.isEmpty() ? QStringLiteral("Result") : title}};
    if (op.a == QLatin1String("docs_access") || op.a == QLatin1String("slides_access"))
        args.insert(QStringLiteral("action"), QStringLiteral("create"));
    if (!op.b.isEmpty())
        args.insert(QStringLiteral("format"), op.b);
    if (!m_records.isEmpty()) {
        QJsonArray records = m_records;
        records.append(m_data);
        args.insert(QStringLiteral("data"), records);
    } else if (!m_data.isUndefined() && !m_data.isNull()) {
        args.insert(QStringLiteral("data"), m_data);
    } else {
        args.insert(QStringLiteral("markdown"), m_text);
    }
    m_expect = Expect::Generate;
    m_lastTool = op.a;
    decide(Decision::call(op.a, args, QStringLiteral("Writing the result with %1.").arg(op.a)));
}

// The task names no page: ask for one (with ask_questions), then open and read it.
void RulePlanner::askForPage(PlanningContext &ctx, std::function<void(Decision)> &decide)
{
    if (!ctx.request().additionalTools.contains(QStringLiteral("ask_questions"))) {
        decide(Decision::fail(
            QStringLiteral("the task names no page to work on: give urls, or enable the "
                           "ask_questions tool so the planner can ask")));
        return;
    }
    if (ctx.answers().contains(QStringLiteral("url"))) {
        QString url = ctx.answers().value(QStringLiteral("url")).toString().trimmed();
        if (!url.contains(QLatin1String("://")))
            url.prepend(QStringLiteral("https://"));
        m_plan.ops.replace(m_index, {TaskOp::Kind::Open, url, {}, 0});
        // Read it next: before the files the task asked to write from what it reads.
        m_plan.ops.insert(m_index + 1, {TaskOp::Kind::Extract, {}, {}, 0});
        next(ctx, nullptr, decide);
        return;
    }
    m_expect = Expect::Answers;
    m_lastTool = QStringLiteral("ask_user");
    decide(Decision::call(
        m_lastTool,
        {{QStringLiteral("questions"),
          QJsonArray{QJsonObject{
              {QStringLiteral("key"), QStringLiteral("url")},
              {QStringLiteral("question"), QStringLiteral("Which web page should I work on?")}}}}},
        QStringLiteral("The task names no page.")));
}

void RulePlanner::applyExtract(const QJsonObject &out)
{
    const QJsonValue data = out.value(QStringLiteral("data"));
    if (!m_schema.isEmpty()) {
        if (recordSchema(m_schema) && !emptyData(m_data) && !emptyData(data)) {
            m_records.append(m_data);
            m_data = data;
        } else {
            m_data = merge(m_data, data);
        }
        m_missing = out.value(QStringLiteral("missing")).toArray();
        for (const QJsonValue &w : out.value(QStringLiteral("warnings")).toArray())
            if (!m_valueWarnings.contains(w))
                m_valueWarnings.append(w);
    } else {
        const QString md = out.value(QStringLiteral("markdown")).toString();
        m_text += (m_text.isEmpty() ? QString() : QStringLiteral("\n\n")) +
                  (md.isEmpty() ? out.value(QStringLiteral("text")).toString() : md);
    }
    m_pages += int(out.value(QStringLiteral("pages")).toArray().size());
}

void RulePlanner::finish(PlanningContext &ctx, std::function<void(Decision)> &decide)
{
    QString text;
    std::optional<QJsonValue> json;
    if (m_workflowDone) {
        // A sheet workflow (or the sheets read): its rows are the JSON answer.
        text = m_text;
        json = m_data;
    } else if (!m_schema.isEmpty()) {
        // Honest outcomes: data was asked for and none came back: the run did not do
        // what was asked, so it ends error saying what is missing (partial data ends
        // success with warnings).
        if (emptyData(m_data)) {
            QStringList lacking;
            for (const auto &m : std::as_const(m_missing))
                lacking << m.toString();
            decide(Decision::fail(
                QStringLiteral("the page%1 gave none of the data the schema asks for%2")
                    .arg(m_pages > 1 ? QStringLiteral("s") : QString(),
                         lacking.isEmpty()
                             ? QString()
                             : QStringLiteral(" (%1)").arg(lacking.join(QStringLiteral("; "))))));
            return;
        }
        if (m_plan.filter.any()) {
            // Only the records the task's condition keeps ("under 20 €", "in stock").
            QString note;
            m_data = applyFilter(m_data, m_schema, m_plan.filter, &note);
            if (!note.isEmpty())
                ctx.warnings().append(QStringLiteral("filter: %1").arg(note));
        }
        json = m_data;
        const int items = m_data.isArray() ? int(m_data.toArray().size()) : -1;
        if (!m_records.isEmpty()) {
            // Several records: one JSON answer each (result.json is their array).
            QList<QJsonValue> blocks(m_records.begin(), m_records.end());
            blocks.append(m_data);
            text = QStringLiteral("Extracted %1 records from %2 pages.")
                       .arg(blocks.size())
                       .arg(qMax(int(blocks.size()), m_pages));
            for (const auto &m : std::as_const(m_missing))
                ctx.warnings().append(QStringLiteral("schema: %1").arg(m.toString()));
            for (const auto &w : std::as_const(m_valueWarnings))
                ctx.warnings().append(QStringLiteral("value: %1").arg(w.toString()));
            for (const QString &g : std::as_const(m_generated))
                text += QStringLiteral("\n%1").arg(g);
            decide(Decision::finish(text, blocks));
            return;
        }
        if (items >= 0)
            text = QStringLiteral("Extracted %1 item%2 from %3 page%4.")
                       .arg(items)
                       .arg(items == 1 ? QString() : QStringLiteral("s"))
                       .arg(qMax(1, m_pages))
                       .arg(m_pages == 1 ? QString() : QStringLiteral("s"));
        else {
            // An object schema: count the items of its array properties, if any.
            int n = 0;
            const QJsonObject o = m_data.toObject();
            for (auto it = o.begin(); it != o.end(); ++it)
                n += it.value().isArray() ? int(it.value().toArray().size()) : 0;
            text = n > 0 ? QStringLiteral("Extracted %1 items from %2 page%3.")
                               .arg(n)
                               .arg(qMax(1, m_pages))
                               .arg(m_pages > 1 ? QStringLiteral("s") : QString())
                         : QStringLiteral("Extracted the data from %1 page%2.")
                               .arg(qMax(1, m_pages))
                               .arg(m_pages > 1 ? QStringLiteral("s") : QString());
        }
        for (const auto &m : std::as_const(m_missing))
            ctx.warnings().append(QStringLiteral("schema: %1").arg(m.toString()));
        // A value that did not fit its field is a typed warning, never a silent guess.
        for (const auto &w : std::as_const(m_valueWarnings))
            ctx.warnings().append(QStringLiteral("value: %1").arg(w.toString()));
    } else if (!m_text.isEmpty()) {
        text = m_text;
        if (!m_data.isUndefined() && m_data.isArray() && m_plan.eachRow)
            json = m_data;
    } else if (m_lastSummary.isEmpty() && !m_generated.isEmpty()) {
        // Only files were made (a form filled): they are the answer.
        decide(Decision::finish(m_generated.join(QLatin1Char('\n')), std::nullopt));
        return;
    } else {
        text = m_lastSummary.isEmpty() ? QStringLiteral("Done.")
                                       : QStringLiteral("Done: %1.").arg(m_lastSummary);
    }
    for (const QString &g : std::as_const(m_generated))
        text += QStringLiteral("\n%1").arg(g);
    decide(Decision::finish(text, json));
}

QJsonObject RulePlanner::saveState() const
{
    QJsonArray ops;
    for (const TaskOp &op : m_plan.ops)
        ops.append(op.toJson());
    return {{QStringLiteral("ops"), ops},
            {QStringLiteral("index"), m_index},
            {QStringLiteral("expect"), int(m_expect)},
            {QStringLiteral("login"), m_login},
            {QStringLiteral("loginField"), m_loginField},
            {QStringLiteral("loginSubmitted"), m_loginSubmitted},
            {QStringLiteral("loginKind"), m_loginKind},
            {QStringLiteral("loginSteps"), m_loginSteps},
            {QStringLiteral("loggedIn"), m_loggedIn},
            {QStringLiteral("triedLoginForData"), m_triedLoginForData},
            {QStringLiteral("retryExtract"), m_retryExtract},
            {QStringLiteral("extractIndex"), m_extractIndex},
            {QStringLiteral("lastExtract"), m_lastExtract},
            {QStringLiteral("missing"), m_missing},
            {QStringLiteral("valueWarnings"), m_valueWarnings},
            {QStringLiteral("pendingLoginCheck"), m_pendingLoginCheck},
            {QStringLiteral("data"), m_data},
            {QStringLiteral("records"), m_records},
            {QStringLiteral("text"), m_text},
            {QStringLiteral("pages"), m_pages},
            {QStringLiteral("workflowDone"), m_workflowDone}};
}

void RulePlanner::restoreState(const QJsonObject &s)
{
    m_plan.ops.clear();
    for (const auto &op : s.value(QStringLiteral("ops")).toArray())
        m_plan.ops.append(TaskOp::fromJson(op.toObject()));
    m_index = s.value(QStringLiteral("index")).toInt();
    m_expect = Expect(s.value(QStringLiteral("expect")).toInt());
    m_login = s.value(QStringLiteral("login")).toObject();
    m_loginField = s.value(QStringLiteral("loginField")).toInt();
    m_loginSubmitted = s.value(QStringLiteral("loginSubmitted")).toBool();
    m_loginKind = s.value(QStringLiteral("loginKind")).toString();
    m_loginSteps = s.value(QStringLiteral("loginSteps")).toInt();
    m_loggedIn = s.value(QStringLiteral("loggedIn")).toBool();
    m_triedLoginForData = s.value(QStringLiteral("triedLoginForData")).toBool();
    m_retryExtract = s.value(QStringLiteral("retryExtract")).toBool();
    m_extractIndex = s.value(QStringLiteral("extractIndex")).toInt();
    m_lastExtract = s.value(QStringLiteral("lastExtract")).toObject();
    m_missing = s.value(QStringLiteral("missing")).toArray();
    m_valueWarnings = s.value(QStringLiteral("valueWarnings")).toArray();
    m_pendingLoginCheck = s.value(QStringLiteral("pendingLoginCheck")).toBool();
    m_data = s.value(QStringLiteral("data"));
    m_records = s.value(QStringLiteral("records")).toArray();
    m_text = s.value(QStringLiteral("text")).toString();
    m_pages = s.value(QStringLiteral("pages")).toInt();
    m_workflowDone = s.value(QStringLiteral("workflowDone")).toBool();
}

void RulePlanner::resumeWithAnswers(PlanningContext &)
{
    // The answers are read where they are needed (valueFor); the login form, if one was
    // being filled, is read again because the page may have been restored by replay.
    m_expect = Expect::Nothing;
    if (!m_login.isEmpty()) {
        m_login = QJsonObject();
        m_loginField = 0;
        m_pendingLoginCheck = true;
    }
}

} // namespace ph::engine
