#include "LlmPlanner.h"

#include "data/Sheet.h"
#include "engine/Tool.h"
#include "engine/planners/LlmClient.h"

#include "core/Settings.h"

#include <QJsonDocument>

namespace ph::engine {

namespace {

constexpr int kToolMessageChars = 24000;
constexpr int kDocumentChars = 20000;

const QString kSystemPrompt = QStringLiteral(
    "You are Pilothouse's planner. You complete web tasks by calling tools that drive a real "
    "browser tab and work with data. Rules:\n"
    "- Read the page from the aria snapshot the tools return. Elements have ids like e12; "
    "prefer them as targets, or use an element's accessible name.\n"
    "- One action at a time; look at the result before the next.\n"
    "- If the task needs information you do not have (credentials, a choice only the user "
    "can make), call ask_user. Never invent credentials.\n"
    "- If a tool fails, read the error and try another way (another element, another page).\n"
    "- When done, call finish with a short text answer and, when a JSON schema was given, "
    "json shaped exactly like it.");

QString compactJson(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    return v.toVariant().toString();
}

QString clip(const QString &s, int max)
{
    return s.size() > max ? s.left(max) + QStringLiteral("\n… (cut)") : s;
}

} // namespace

LlmPlanner::LlmPlanner(const ExecuteRequest &request, const Settings &settings,
                       QNetworkAccessManager &network)
    : m_settings(settings)
{
    m_model = request.settings.value(QStringLiteral("model")).toString();
    if (m_model.isEmpty())
        m_model = settings.stringValue(SettingKeys::llmModel);
    m_client = std::make_unique<LlmClient>(network, settings.stringValue(SettingKeys::llmBaseUrl),
                                           settings.stringValue(SettingKeys::llmApiKey),
                                           settings.intValue(SettingKeys::llmTimeoutMs));
}

LlmPlanner::~LlmPlanner() = default;

QString LlmPlanner::name() const
{
    return QStringLiteral("llm");
}

QStringList LlmPlanner::toolNames(PlanningContext &ctx) const
{
    QStringList names{QStringLiteral("act_on_tab"), QStringLiteral("crawl_and_extract_from_tab"),
                      QStringLiteral("ask_user")};
    for (const QString &t :
         {QStringLiteral("sheets_access"), QStringLiteral("sheets_workflow"),
          QStringLiteral("create_sheet_from_data"), QStringLiteral("docs_access"),
          QStringLiteral("slides_access"), QStringLiteral("pdf_generator")}) {
        if (ctx.tools().find(t))
            names << t;
    }
    for (const QString &t : ctx.request().additionalTools) {
        if (ctx.tools().find(t))
            names << t;
    }
    return names;
}

QJsonObject LlmPlanner::finishTool(const QJsonObject &schema) const
{
    QJsonObject props{
        {QStringLiteral("text"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                     {QStringLiteral("description"), QStringLiteral("the answer in words")}}}};
    if (!schema.isEmpty())
        props.insert(QStringLiteral("json"), schema);
    return {
        {QStringLiteral("type"), QStringLiteral("function")},
        {QStringLiteral("function"),
         QJsonObject{
             {QStringLiteral("name"), QStringLiteral("finish")},
             {QStringLiteral("description"), QStringLiteral("End the task with the final answer.")},
             {QStringLiteral("parameters"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                          {QStringLiteral("properties"), props},
                          {QStringLiteral("required"), QJsonArray{QStringLiteral("text")}}}}}}};
}

QJsonValue LlmPlanner::firstMessage(PlanningContext &ctx) const
{
    const ExecuteRequest &r = ctx.request();
    QStringList parts{QStringLiteral("Task: %1").arg(r.input)};
    if (!r.urls.isEmpty())
        parts << QStringLiteral("Pages: %1").arg(r.urls.join(QStringLiteral(", ")));
    if (!r.schema.isEmpty())
        parts << QStringLiteral("Return JSON shaped like this JSON Schema: %1")
                     .arg(compactJson(r.schema));
    for (const auto &doc : std::as_const(ctx.documents()))
        parts << QStringLiteral("File %1:\n%2").arg(doc.first, clip(doc.second, kDocumentChars));
    // The in-memory sheets: each one's columns and first rows; the tools read the rest.
    for (const data::Sheet &sheet : std::as_const(ctx.sheets()))
        parts << QStringLiteral("Sheet \"%1\" (%2 rows; read it with sheets_access, visit its "
                                "URLs with sheets_workflow): %3")
                     .arg(sheet.title)
                     .arg(sheet.rowCount())
                     .arg(clip(compactJson(sheet.describe(5)), kDocumentChars));
    if (!m_initialPage.isEmpty())
        parts << QStringLiteral("The first page is open in the tab:\n%1")
                     .arg(clip(m_initialPage, kToolMessageChars));
    const QString text = parts.join(QStringLiteral("\n\n"));
    if (ctx.images().isEmpty())
        return text;
    QJsonArray content{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                   {QStringLiteral("text"), text}}};
    for (const QString &image : std::as_const(ctx.images()))
        content.append(QJsonObject{
            {QStringLiteral("type"), QStringLiteral("image_url")},
            {QStringLiteral("image_url"), QJsonObject{{QStringLiteral("url"), image}}}});
    return content;
}

void LlmPlanner::next(PlanningContext &ctx, const ToolResult *last,
                      std::function<void(Decision)> decide)
{
    // The result of the call we asked for goes back to the model as a tool message.
    if (last) {
        if (m_priming) {
            m_priming = false;
            m_initialPage =
                last->ok ? last->output.toObject().value(QStringLiteral("ariaSnapshot")).toString()
                         : QStringLiteral("(the page could not be opened: %1)").arg(last->error);
            // The same reading the rule planner has: the page's repeated structures.
            QStringList found;
            for (const auto &line :
                 last->output.toObject().value(QStringLiteral("structures")).toArray())
                found << QStringLiteral("- %1").arg(line.toString());
            if (!found.isEmpty())
                m_initialPage +=
                    QStringLiteral("\n\nRepeated structures on the page (kind (records): "
                                   "fields — the first record); crawl_and_extract_from_tab "
                                   "with a schema reads them:\n%1")
                        .arg(found.join(QLatin1Char('\n')));
        } else if (!m_pendingCallId.isEmpty()) {
            const QJsonObject content = last->ok
                                            ? QJsonObject{{QStringLiteral("ok"), true},
                                                          {QStringLiteral("output"), last->output}}
                                            : QJsonObject{{QStringLiteral("ok"), false},
                                                          {QStringLiteral("error"), last->error}};
            m_messages.append(QJsonObject{
                {QStringLiteral("role"), QStringLiteral("tool")},
                {QStringLiteral("tool_call_id"), std::exchange(m_pendingCallId, QString())},
                {QStringLiteral("content"), clip(compactJson(content), kToolMessageChars)}});
        }
    }
    if (m_messages.isEmpty() && !m_priming && m_initialPage.isEmpty() &&
        !ctx.request().urls.isEmpty()) {
        // Open the first URL before the first turn, so the model starts from the page.
        m_priming = true;
        decide(Decision::call(QStringLiteral("act_on_tab"),
                              {{QStringLiteral("action"), QStringLiteral("navigate")},
                               {QStringLiteral("url"), ctx.request().urls.first()}},
                              QStringLiteral("Opening the first page.")));
        return;
    }
    if (m_messages.isEmpty()) {
        m_messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                      {QStringLiteral("content"), kSystemPrompt}});
        m_messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                      {QStringLiteral("content"), firstMessage(ctx)}});
    }
    if (dispatchQueued(decide))
        return;
    if (m_model.isEmpty()) {
        decide(Decision::fail(
            QStringLiteral("no model is configured: set llm.model or settings.model")));
        return;
    }
    if (m_turns >= m_settings.intValue(SettingKeys::llmMaxSteps)) {
        decide(
            Decision::fail(QStringLiteral("the model did not finish within %1 turns (llm.maxSteps)")
                               .arg(m_turns)));
        return;
    }
    ++m_turns;
    QJsonArray tools = ctx.tools().functionSchemas(toolNames(ctx));
    tools.append(finishTool(ctx.request().schema));
    const QJsonObject body{{QStringLiteral("model"), m_model},
                           {QStringLiteral("messages"), m_messages},
                           {QStringLiteral("tools"), tools},
                           {QStringLiteral("tool_choice"), QStringLiteral("auto")},
                           {QStringLiteral("temperature"), 0}};
    m_client->chat(body, [this, decide, &ctx](const ChatResult &r) {
        if (!r.ok) {
            decide(Decision::fail(r.error));
            return;
        }
        m_tokens += r.totalTokens;
        m_turnTokens = r.totalTokens;
        QJsonObject message = r.message;
        message.insert(QStringLiteral("role"), QStringLiteral("assistant"));
        const QJsonArray calls = message.value(QStringLiteral("tool_calls")).toArray();
        if (calls.isEmpty()) {
            // A plain answer ends the task; its text may carry the JSON.
            const QString text = message.value(QStringLiteral("content")).toString().trimmed();
            std::optional<QJsonValue> json;
            if (!ctx.request().schema.isEmpty()) {
                QString answer = text;
                const qsizetype fence = answer.indexOf(QLatin1String("```"));
                if (fence >= 0) {
                    answer = answer.mid(answer.indexOf(QLatin1Char('\n'), fence) + 1);
                    answer = answer.left(answer.indexOf(QLatin1String("```")));
                }
                const QJsonDocument doc = QJsonDocument::fromJson(answer.toUtf8());
                if (!doc.isNull())
                    json = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
            }
            Decision d = Decision::finish(text, json);
            d.usage.tokens = std::exchange(m_turnTokens, 0);
            decide(d);
            return;
        }
        m_messages.append(message);
        for (const auto &c : calls)
            m_queue.append(c.toObject());
        dispatchQueued(decide);
    });
}

// Hands the next tool call the model asked for to the run; finish ends the task.
bool LlmPlanner::dispatchQueued(const std::function<void(Decision)> &decide)
{
    while (!m_queue.isEmpty()) {
        const QJsonObject call = m_queue.takeFirst();
        const QString id = call.value(QStringLiteral("id")).toString();
        const QJsonObject fn = call.value(QStringLiteral("function")).toObject();
        const QString tool = fn.value(QStringLiteral("name")).toString();
        const QJsonValue rawArgs = fn.value(QStringLiteral("arguments"));
        QJsonObject args;
        bool valid = true;
        if (rawArgs.isString()) {
            const QJsonDocument doc = QJsonDocument::fromJson(rawArgs.toString().toUtf8());
            valid = doc.isObject() || rawArgs.toString().trimmed().isEmpty();
            args = doc.object();
        } else {
            args = rawArgs.toObject();
        }
        if (!valid) {
            // Tell the model and let it try again.
            m_messages.append(QJsonObject{
                {QStringLiteral("role"), QStringLiteral("tool")},
                {QStringLiteral("tool_call_id"), id},
                {QStringLiteral("content"),
                 QStringLiteral(
                     "{\"ok\":false,\"error\":\"the arguments are not a JSON object\"}")}});
            continue;
        }
        if (tool == QLatin1String("finish")) {
            std::optional<QJsonValue> json;
            if (args.contains(QStringLiteral("json")))
                json = args.value(QStringLiteral("json"));
            Decision d = Decision::finish(args.value(QStringLiteral("text")).toString(), json);
            d.usage.tokens = std::exchange(m_turnTokens, 0);
            m_queue.clear();
            decide(d);
            return true;
        }
        m_pendingCallId = id;
        Decision d = Decision::call(tool, args, QStringLiteral("The model called %1.").arg(tool));
        d.usage.tokens = std::exchange(m_turnTokens, 0);
        decide(d);
        return true;
    }
    return false;
}

QJsonObject LlmPlanner::saveState() const
{
    QJsonArray queue;
    for (const auto &c : m_queue)
        queue.append(c);
    return {{QStringLiteral("messages"), m_messages},           {QStringLiteral("queue"), queue},
            {QStringLiteral("pendingCallId"), m_pendingCallId}, {QStringLiteral("turns"), m_turns},
            {QStringLiteral("initialPage"), m_initialPage},     {QStringLiteral("model"), m_model}};
}

void LlmPlanner::restoreState(const QJsonObject &s)
{
    m_messages = s.value(QStringLiteral("messages")).toArray();
    m_queue.clear();
    for (const auto &c : s.value(QStringLiteral("queue")).toArray())
        m_queue.append(c.toObject());
    m_pendingCallId = s.value(QStringLiteral("pendingCallId")).toString();
    m_turns = s.value(QStringLiteral("turns")).toInt();
    m_initialPage = s.value(QStringLiteral("initialPage")).toString();
    if (s.contains(QStringLiteral("model")))
        m_model = s.value(QStringLiteral("model")).toString();
}

void LlmPlanner::resumeWithAnswers(PlanningContext &ctx)
{
    // The ask_user call gets its answer as its tool result.
    QJsonObject answers;
    for (auto it = ctx.answers().begin(); it != ctx.answers().end(); ++it) {
        if (!it.key().startsWith(QLatin1String("__")))
            answers.insert(it.key(), it.value());
    }
    if (!m_pendingCallId.isEmpty())
        m_messages.append(
            QJsonObject{{QStringLiteral("role"), QStringLiteral("tool")},
                        {QStringLiteral("tool_call_id"), std::exchange(m_pendingCallId, QString())},
                        {QStringLiteral("content"),
                         compactJson(QJsonObject{{QStringLiteral("answers"), answers}})}});
}

} // namespace ph::engine
