#include "BridgeController.h"

#include "SessionWork.h"
#include "SnapshotBudget.h"

#include "AgentRequest.h"
#include "DeviceLink.h"
#include "RunService.h"
#include "ScrapeService.h"
#include "ToolLibrary.h"
#include "WebhookOptions.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/JsonSchema.h"
#include "core/RequestLog.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/AgentRun.h"
#include "http/Authenticator.h"
#include "http/Exchange.h"
#include "mcp/McpServer.h"
#include "net/NetworkPolicy.h"
#include "webhooks/WebhookEvents.h"
#include "webhooks/WebhookQueue.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QRegularExpression>
#include <QUrl>

namespace ph::cloud {

using engine::AgentRun;
using engine::ExecuteRequest;
using engine::RunStatus;
using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

QJsonObject schema(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

// The bridge's own tools: name, capability, description and the JSON Schema of params.
struct BuiltIn
{
    const char *name;
    const char *capability;
    const char *description;
    const char *params;
};

const BuiltIn kTools[] = {
    {"agent", "cloudAgent",
     "Do a task end to end from one prompt in a cloud browser: open pages, act, extract. "
     "Takes the fields of POST /agent (input, urls, schema, dataInputs …); user_input and "
     "tab_urls are accepted for input and urls.",
     R"({"type":"object","properties":{"browserSession":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},
        "input":{"type":"string"},"user_input":{"type":"string"},
        "urls":{"type":"array","items":{"type":"string"}},"tab_urls":{"type":"array","items":{"type":"string"}},
        "schema":{"type":"object"},"dataInputs":{"type":"array"},"file_urls":{"type":"array","items":{"type":"string"}},
        "image_urls":{"type":"array","items":{"type":"string"}},"settings":{"type":"object"},"tools":{"type":"object"},
        "response":{"type":"object"},"recording_id":{"type":"string"}}})"},
    {"scrape", "cloudScrape",
     "Read pages: text, accessibility tree, links. Takes the fields of POST /scrape (urls, "
     "formats, timeoutMs …); tab_urls is accepted for urls. The answer's page content stays "
     "within maxChars (default 24000): headings and interactive elements first, the rest "
     "through truncation.cursor; scope (a CSS selector) reads only what it matches.",
     R"({"type":"object","properties":{"browserSession":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},
        "urls":{"type":"array","items":{"type":"string"}},
        "tab_urls":{"type":"array","items":{"type":"string"}},"formats":{"type":"array","items":{"type":"string"}},
        "maxChars":{"type":"integer","minimum":1000,"maximum":1000000},"cursor":{"type":"string"},"scope":{"type":"string"}}})"},
    {"planner", "cloudAgent", "Carry out a multi-step task described in natural language.",
     R"({"type":"object","properties":{"browserSession":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},
        "user_input":{"type":"string"},
        "tab_urls":{"type":"array","items":{"type":"string"}},"schema":{"type":"object"}},
        "required":["user_input"]})"},
    {"extract", "cloudAgent",
     "Extract structured data from pages, shaped like an optional JSON Schema. Page text in "
     "the answer stays within maxChars (default 24000); truncation.cursor brings the rest.",
     R"({"type":"object","properties":{"browserSession":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},
        "maxChars":{"type":"integer","minimum":1000,"maximum":1000000},"cursor":{"type":"string"},"user_input":{"type":"string"},
        "tab_urls":{"type":"array","items":{"type":"string"}},"schema":{"type":"object"}},
        "required":["user_input"]})"},
    {"act", "cloudAgent",
     "One page interaction: navigate, click, type, select, check, uncheck, press, scroll, "
     "wait, search or submit, by accessible name or element id. url (or tab_urls[0]) is "
     "opened first. The page's ariaSnapshot afterwards stays within maxChars (default "
     "24000), narrowed to scope (a CSS selector) when given.",
     R"({"type":"object","properties":{"browserSession":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},
        "action":{"type":"string","enum":["navigate","click","type",
        "select","check","uncheck","press","scroll","wait","search","submit"]},
        "url":{"type":"string"},"tab_urls":{"type":"array","items":{"type":"string"}},
        "target":{"type":"string"},"role":{"type":"string"},"text":{"type":"string"},
        "option":{"type":"string"},"key":{"type":"string"},
        "direction":{"type":"string","enum":["down","up","top","bottom"]},
        "selector":{"type":"string"},"ms":{"type":"integer","minimum":0,"maximum":60000},
        "submit":{"type":"boolean"},"maxChars":{"type":"integer","minimum":1000,"maximum":1000000},"cursor":{"type":"string"},"scope":{"type":"string"}},"required":["action"]})"},
    {"crawl", "cloudAgent",
     "Read a page and follow its next-page links, extracting text or schema-shaped data. Page "
     "text in the answer stays within maxChars (default 24000); truncation.cursor brings the "
     "rest.",
     R"({"type":"object","properties":{"browserSession":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},
        "url":{"type":"string"},
        "tab_urls":{"type":"array","items":{"type":"string"}},"schema":{"type":"object"},
        "maxPages":{"type":"integer","minimum":1,"maximum":1000},"paginate":{"type":"boolean"},
        "maxChars":{"type":"integer","minimum":1000,"maximum":1000000},"cursor":{"type":"string"}}})"},
    {"replay_workflow", "cloudAgent",
     "Run a previous workflow again: its recorded steps, then read the page (with input and "
     "schema, like an agent task). By recording_id (a trajectoryId) or by its URL.",
     R"({"type":"object","properties":{"browserSession":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},
        "recording_id":{"type":"string"},"url":{"type":"string"},
        "input":{"type":"string"},"schema":{"type":"object"}}})"},
    {"get_browser_tabs", "cloudAgent",
     "List the open tabs of the connected browser (needs a connected device).",
     R"({"type":"object","properties":{}})"},
    {"execute_javascript", "cloudAgent",
     "Run JavaScript in the connected browser's sandbox (needs a connected device).",
     R"({"type":"object","properties":{"code":{"type":"string"},"tabId":{"type":"integer"}},
        "required":["code"]})"},
};

const BuiltIn *builtIn(const QString &name)
{
    for (const BuiltIn &t : kTools) {
        if (name == QLatin1String(t.name))
            return &t;
    }
    return nullptr;
}

// The page-reading tools, whose answers are bounded snapshots (SnapshotBudget).
bool budgeted(const QString &tool)
{
    return tool == QLatin1String("scrape") || tool == QLatin1String("act") ||
           tool == QLatin1String("extract") || tool == QLatin1String("crawl");
}

bool deviceOnly(const QString &tool)
{
    return tool == QLatin1String("get_browser_tabs") || tool == QLatin1String("execute_javascript");
}

const QString kSavedPrefix = QStringLiteral("user_");

// params.X under its bridge name: user_input → input, tab_urls → urls.
QJsonObject agentFields(const QJsonObject &params)
{
    QJsonObject out = params;
    if (!out.contains(QStringLiteral("input")) && out.contains(QStringLiteral("user_input")))
        out.insert(QStringLiteral("input"), out.value(QStringLiteral("user_input")));
    if (!out.contains(QStringLiteral("urls")) && out.contains(QStringLiteral("tab_urls")))
        out.insert(QStringLiteral("urls"), out.value(QStringLiteral("tab_urls")));
    out.remove(QStringLiteral("user_input"));
    out.remove(QStringLiteral("tab_urls"));
    // Callbacks belong to the bridge request, not to params.
    for (const char *k : {"webhookUrl", "webhookSecret", "webhooks", "trajectoryId", "history"})
        out.remove(QLatin1String(k));
    return out;
}

// An DomainError about a field of the mapped request, named as the caller wrote it.
DomainError underParams(const DomainError &e, const QJsonObject &params)
{
    QString field = e.field();
    if (field.isEmpty() || field == QLatin1String("body"))
        field = QStringLiteral("params");
    else {
        const QString head = field.section(QRegularExpression(QStringLiteral("[.\\[]")), 0, 0);
        const QString rest = field.mid(head.size());
        QString name = head;
        if (head == QLatin1String("input") && !params.contains(QStringLiteral("input")) &&
            params.contains(QStringLiteral("user_input")))
            name = QStringLiteral("user_input");
        if (head == QLatin1String("urls") && !params.contains(QStringLiteral("urls")) &&
            params.contains(QStringLiteral("tab_urls")))
            name = QStringLiteral("tab_urls");
        field = QStringLiteral("params.") + name + rest;
    }
    QString message = e.message();
    if (!e.field().isEmpty() && message.startsWith(e.field()))
        message = field + message.mid(e.field().size());
    return DomainError(e.kind(), e.code(), message, field, e.details());
}

QString firstUrl(const QJsonObject &params)
{
    const QString url = params.value(QStringLiteral("url")).toString();
    return url.isEmpty() ? params.value(QStringLiteral("tab_urls")).toArray().at(0).toString()
                         : url;
}

// The bridge's answer: the work's body, with the tool and the credits it used on top.
QJsonObject withTool(QJsonObject body, const QString &tool, const QString &triggerId)
{
    body.insert(QStringLiteral("tool"), tool);
    body.insert(QStringLiteral("creditsUsed"), body.value(QStringLiteral("usage"))
                                                   .toObject()
                                                   .value(QStringLiteral("creditsUsed"))
                                                   .toDouble());
    if (!triggerId.isEmpty())
        body.insert(QStringLiteral("triggerId"), triggerId);
    return body;
}

} // namespace

BridgeController::BridgeController(Store &store, Settings &settings, NetworkPolicy &policy,
                                   http::Authenticator &auth, RunService &runs,
                                   ScrapeService &scrape, ToolLibrary &library,
                                   webhooks::WebhookQueue &webhooks, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_policy(policy)
    , m_auth(auth)
    , m_runs(runs)
    , m_scrape(scrape)
    , m_library(library)
    , m_webhooks(webhooks)
{
    mcp::McpServer::Info info;
    info.name = QStringLiteral("pilothouse-browser-bridge");
    info.title = QStringLiteral("Pilothouse browser bridge");
    info.version = QStringLiteral("0.1.0");
    info.instructions = QStringLiteral(
        "Browser automation in Pilothouse's cloud browser: agent does a task from one prompt; "
        "scrape reads pages; extract returns schema-shaped data; act and crawl are single "
        "steps; your saved tools are the user_ tools. Long runs answer status executing with a "
        "trajectoryId; GET /agent/{trajectoryId} has the outcome.");
    m_mcp = std::make_unique<mcp::McpServer>(QStringLiteral("/mcp"), AuthPolicy::ApiKey, info,
                                             store.clock());
    registerMcpTools();
}

BridgeController::~BridgeController() = default;

QList<Route> BridgeController::routes()
{
    using C = BridgeController;
    mcp::McpServer *mcp = m_mcp.get();
    return {
        Route::to("POST", QStringLiteral("/mcp"), AuthPolicy::ApiKey, this, &C::post),
        Route::to("GET", QStringLiteral("/mcp"), AuthPolicy::ApiKey, mcp, &mcp::McpServer::get),
        Route::to("DELETE", QStringLiteral("/mcp"), AuthPolicy::ApiKey, mcp,
                  &mcp::McpServer::remove),
        Route::to("POST", QStringLiteral("/mcp/v1/webhooks/trigger/{id}"), AuthPolicy::ApiKey, this,
                  &C::fireTrigger),
        Route::to("POST", QStringLiteral("/v1/webhooks/trigger/{id}"), AuthPolicy::ApiKey, this,
                  &C::fireTrigger),
    };
}

void BridgeController::registerMcpTools()
{
    for (const BuiltIn &t : kTools) {
        mcp::Tool tool;
        tool.name = QLatin1String(t.name);
        tool.description = QLatin1String(t.description);
        tool.inputSchema = schema(t.params);
        const QString name = tool.name;
        tool.asyncHandler = [this, name](const QJsonObject &arguments,
                                         const mcp::CallContext &context, mcp::ToolReply reply) {
            Exchange *ex = context.exchange;
            Q_ASSERT(ex);
            invoke({name, arguments, {}, {}, {}, {}}, *ex,
                   [reply](int, const QJsonObject &body, const DomainError *error) {
                       reply(body, error);
                   });
        };
        m_mcp->addTool(tool);
    }
    // The caller's saved tools, as user_<name>.
    m_mcp->setToolProvider([this](const http::Request &request) {
        const http::Principal &principal = request.principal;
        QList<mcp::Tool> out;
        for (const SavedTool &saved : m_library.tools(principal.keyId)) {
            mcp::Tool tool;
            tool.name = kSavedPrefix + saved.name;
            tool.description = saved.description.isEmpty()
                                   ? QStringLiteral("Saved %1 %2").arg(saved.kind, saved.name)
                                   : saved.description;
            tool.inputSchema = saved.parameters;
            const QString name = tool.name;
            tool.asyncHandler = [this, name](const QJsonObject &arguments,
                                             const mcp::CallContext &context,
                                             mcp::ToolReply reply) {
                Exchange *ex = context.exchange;
                Q_ASSERT(ex);
                invoke({name, arguments, {}, {}, {}, {}}, *ex,
                       [reply](int, const QJsonObject &body, const DomainError *error) {
                           reply(body, error);
                       });
            };
            out << tool;
        }
        return out;
    });
}

void BridgeController::post(Exchange &ex)
{
    // JSON-RPC (an object with "jsonrpc", or a batch) is the MCP face; anything else is
    // the plain JSON bridge.
    const QByteArray body = ex.request().body.trimmed();
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (doc.isArray() || (doc.isObject() && doc.object().contains(QStringLiteral("jsonrpc")))) {
        m_mcp->post(ex);
        return;
    }
    const JsonFields fields(ex.request().jsonObject());
    Call call;
    call.tool = fields.requiredString(QStringLiteral("tool"));
    if (const auto params = fields.optionalObject(QStringLiteral("params")))
        call.params = params->object();
    else
        throw DomainError::missingField(QStringLiteral("params"));
    call.target = fields
                      .optionalEnum(QStringLiteral("target"),
                                    {QStringLiteral("cloud"), QStringLiteral("device")})
                      .value_or(QString());
    call.deviceId = fields.optionalString(QStringLiteral("deviceId")).value_or(QString());
    call.webhooks = readWebhooks(fields, m_policy.grantFor(ex.request().principal.keyId));
    QPointer<Exchange> guard(&ex);
    invoke(call, ex, [guard](int status, const QJsonObject &answer, const DomainError *error) {
        if (!guard)
            return;
        if (error)
            guard->fail(*error);
        else
            guard->respondJson(status, answer);
    });
}

[[noreturn]] void BridgeController::deviceUnavailable(const Call &call, Exchange &ex,
                                                      const QString &why)
{
    throw deviceFailure(call, ex.request().id, ex.request().principal.keyId,
                        QStringLiteral("%1; no device of this API key is connected").arg(why));
}

DomainError BridgeController::deviceFailure(const Call &call, const QString &requestId,
                                            const QString &keyId, const QString &message)
{
    const QJsonObject details{{QStringLiteral("tool"), call.tool},
                              {QStringLiteral("target"), call.target},
                              {QStringLiteral("deviceId"), call.deviceId}};
    // A caller with a callback hears it there too, as the spec's workflow.failed.
    if (!call.webhooks.isEmpty()) {
        webhooks::Outcome o;
        o.requestId = requestId;
        o.endpoint = QStringLiteral("/mcp");
        o.tool = call.tool;
        o.deviceId = call.deviceId.isEmpty() ? QStringLiteral("device") : call.deviceId;
        o.status = QStringLiteral("error");
        o.startedAt = o.finishedAt = m_store.clock().nowMs();
        o.errorMessage = message;
        o.errorCode = QStringLiteral("DEVICE_UNAVAILABLE");
        o.errorDetails = details;
        o.params = call.params;
        // The request, its end and its callbacks in one commit.
        m_store.transaction([&] {
            m_store.requests().begin(requestId, keyId, QStringLiteral("/mcp"));
            m_store.requests().addSubscriptions(requestId, call.webhooks);
            m_store.requests().finish(
                requestId, QStringLiteral("error"),
                {{QStringLiteral("code"), QStringLiteral("DEVICE_UNAVAILABLE")}});
            m_webhooks.enqueue(requestId, keyId, call.webhooks,
                               webhooks::eventsFor(o, m_store.clock()));
        });
    }
    return DomainError(DomainError::Kind::Unavailable, QStringLiteral("DEVICE_UNAVAILABLE"),
                       message, QString(), details);
}

void BridgeController::runOnDevice(const QString &deviceId, const Call &call, Exchange &ex,
                                   Reply reply)
{
    const QString keyId = ex.request().principal.keyId;
    QString method = QStringLiteral("tabs");
    QJsonObject params;
    if (call.tool == QLatin1String("execute_javascript")) {
        // Opt-in: what runs in the user's signed-in tabs is beyond the network policy.
        if (!m_devices->scriptsAllowed(keyId))
            throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("CAPABILITY_DISABLED"),
                              QStringLiteral("the owner has not let this API key run "
                                             "execute_javascript on its devices "
                                             "(PUT /devices/scripts/{keyId})"));
        method = QStringLiteral("executeJavascript");
        params = call.params;
    }
    Call c = call;
    c.deviceId = deviceId;
    const QString requestId = ex.request().id;
    const QString tool = call.tool;
    const QString triggerId = call.triggerId;
    const int timeoutMs = m_settings.intValue(SettingKeys::bridgeSyncWindowMs);
    QPointer<BridgeController> self(this);
    m_devices->request(deviceId, method, params, timeoutMs,
                       [self, c, requestId, keyId, reply, tool, triggerId,
                        deviceId](const QJsonObject &result, const QString &error) {
                           if (!self)
                               return;
                           if (!error.isEmpty()) {
                               const DomainError failed = self->deviceFailure(
                                   c, requestId, keyId,
                                   QStringLiteral("device %1: %2").arg(deviceId, error));
                               reply(503, {}, &failed);
                               return;
                           }
                           QJsonObject body = result;
                           body.insert(QStringLiteral("deviceId"), deviceId);
                           body.insert(QStringLiteral("status"), QStringLiteral("success"));
                           reply(200, withTool(body, tool, triggerId), nullptr);
                       });
}

bool BridgeController::routeToDevice(const Call &call, Exchange &ex, const Reply &reply)
{
    const QString keyId = ex.request().principal.keyId;
    const bool namedDevice = !call.deviceId.isEmpty() && call.deviceId != QLatin1String("cloud");
    if (!deviceOnly(call.tool) && call.target != QLatin1String("device") && !namedDevice)
        return false;
    {
        const QString deviceId =
            m_devices ? m_devices->choose(keyId, namedDevice ? call.deviceId : QString())
                      : QString();
        if (deviceId.isEmpty()) {
            if (namedDevice)
                deviceUnavailable(call, ex,
                                  QStringLiteral("device %1 is not connected").arg(call.deviceId));
            if (deviceOnly(call.tool))
                deviceUnavailable(call, ex,
                                  QStringLiteral("%1 runs in a connected browser").arg(call.tool));
            deviceUnavailable(call, ex, QStringLiteral("target is \"device\""));
        }
        if (!deviceOnly(call.tool))
            deviceUnavailable(call, ex,
                              QStringLiteral("%1 does not run on a device yet").arg(call.tool));
        if (!m_auth.allows(ex.request().principal, QStringLiteral("cloudAgent")))
            throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("CAPABILITY_DISABLED"),
                              QStringLiteral("the cloudAgent capability of this API key is "
                                             "turned off"));
        const QString problem = JsonSchema::check(schema(builtIn(call.tool)->params), call.params,
                                                  QStringLiteral("params"));
        if (!problem.isEmpty())
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("INVALID_FIELD"), problem,
                              problem.section(QLatin1Char(' '), 0, 0));
        runOnDevice(deviceId, call, ex, reply);
        return true;
    }
}

void BridgeController::invoke(const Call &call, Exchange &ex, Reply reply)
{
    const bool saved = call.tool.startsWith(kSavedPrefix);
    const BuiltIn *known = builtIn(call.tool);
    if (!saved && !known)
        throw DomainError::invalidField(
            QStringLiteral("tool"),
            QStringLiteral("must be one of agent, scrape, planner, extract, act, crawl, "
                           "replay_workflow, get_browser_tabs, execute_javascript or user_<name>"));
    if (routeToDevice(call, ex, reply))
        return;

    const QString capability =
        known ? QLatin1String(known->capability) : QStringLiteral("cloudAgent");
    if (!m_auth.allows(ex.request().principal, capability))
        throw DomainError(
            DomainError::Kind::Forbidden, QStringLiteral("CAPABILITY_DISABLED"),
            QStringLiteral("the %1 capability of this API key is turned off").arg(capability));

    if (known) {
        const QString problem =
            JsonSchema::check(schema(known->params), call.params, QStringLiteral("params"));
        if (!problem.isEmpty())
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("INVALID_FIELD"), problem,
                              problem.section(QLatin1Char(' '), 0, 0));
    }

    if (!budgeted(call.tool)) {
        dispatch(call, ex, std::move(reply), {});
        return;
    }
    // A bounded snapshot: the tool runs without maxChars, scope and cursor; its answer is
    // cut to the budget (MCP and plain callers alike).
    const SnapshotBudget::Request budget = SnapshotBudget::read(call.params);
    const QString scope = call.params.value(QStringLiteral("scope")).toString().trimmed();
    Call inner = call;
    inner.params = SnapshotBudget::withoutBudgetFields(call.params);
    dispatch(
        inner, ex,
        [reply, budget](int status, const QJsonObject &body, const DomainError *error) {
            if (error || status != 200)
                reply(status, body, error);
            else
                reply(status, SnapshotBudget::apply(body, budget), nullptr);
        },
        scope);
}

void BridgeController::dispatch(const Call &call, Exchange &ex, Reply reply, const QString &scope)
{
    const QString tool = call.tool;
    const QString triggerId = call.triggerId;
    const bool saved = tool.startsWith(kSavedPrefix);
    if (tool == QLatin1String("scrape")) {
        QJsonObject request = call.params;
        if (!request.contains(QStringLiteral("urls")) &&
            request.contains(QStringLiteral("tab_urls")))
            request.insert(QStringLiteral("urls"), request.take(QStringLiteral("tab_urls")));
        for (const char *k : {"webhookUrl", "webhookSecret", "webhooks"})
            request.remove(QLatin1String(k));
        try {
            ScrapeCall scrape;
            scrape.keyId = ex.request().principal.keyId;
            scrape.requestId = ex.request().id;
            scrape.endpoint = QStringLiteral("/mcp");
            scrape.tool = tool;
            scrape.fieldPrefix = QStringLiteral("params");
            scrape.subscriptions = call.webhooks;
            scrape.params = call.params;
            scrape.contentScope = scope;
            if (!scope.isEmpty() && !request.contains(QStringLiteral("accessibilityTree")))
                request.insert(QStringLiteral("accessibilityTree"),
                               QJsonObject{{QStringLiteral("scope"), scope}});
            m_scrape.start(request, scrape, &ex, [reply, tool, triggerId](const QJsonObject &body) {
                reply(200, withTool(body, tool, triggerId), nullptr);
            });
        } catch (const DomainError &e) {
            throw underParams(e, call.params);
        }
        return;
    }

    if (tool == QLatin1String("act")) {
        QJsonObject args = call.params;
        args.remove(QStringLiteral("url"));
        args.remove(QStringLiteral("tab_urls"));
        QJsonArray script;
        const QString url = firstUrl(call.params);
        if (!url.isEmpty())
            script.append(
                QJsonObject{{QStringLiteral("tool"), QStringLiteral("act_on_tab")},
                            {QStringLiteral("args"),
                             QJsonObject{{QStringLiteral("action"), QStringLiteral("navigate")},
                                         {QStringLiteral("url"), url},
                                         {QStringLiteral("observe"), false}}}});
        if (args.value(QStringLiteral("action")).toString() != QLatin1String("navigate") ||
            url.isEmpty())
            script.append(QJsonObject{{QStringLiteral("tool"), QStringLiteral("act_on_tab")},
                                      {QStringLiteral("args"), args}});
        ExecuteRequest request = scriptRequest(
            call, script,
            QStringLiteral("act: %1").arg(args.value(QStringLiteral("action")).toString()));
        // The snapshot after the step covers only what scope matches.
        if (!scope.isEmpty())
            request.runSettings.extraction.treeScope = scope;
        runAgent(request, call, ex, reply);
        return;
    }
    if (tool == QLatin1String("crawl")) {
        const QString url = firstUrl(call.params);
        if (url.isEmpty())
            throw DomainError::missingField(QStringLiteral("params.url"));
        QJsonObject args{{QStringLiteral("url"), url},
                         {QStringLiteral("paginate"),
                          call.params.value(QStringLiteral("paginate")).toBool(true)}};
        for (const char *k : {"schema", "maxPages"}) {
            if (call.params.contains(QLatin1String(k)))
                args.insert(QLatin1String(k), call.params.value(QLatin1String(k)));
        }
        const QJsonArray script{
            QJsonObject{{QStringLiteral("tool"), QStringLiteral("crawl_and_extract_from_tab")},
                        {QStringLiteral("args"), args}}};
        runAgent(scriptRequest(call, script, QStringLiteral("crawl %1").arg(url)), call, ex, reply);
        return;
    }
    if (saved) {
        ExecuteRequest request = m_library.savedToolRequest(
            ex.request().principal.keyId, tool.mid(kSavedPrefix.size()), call.params);
        request.webhooks = call.webhooks;
        runAgent(request, call, ex, reply);
        return;
    }
    // agent, planner, extract, replay_workflow: a planned run.
    runAgent(agentRequest(call, ex.request().principal.keyId), call, ex, reply);
}

ExecuteRequest BridgeController::agentRequest(const Call &call, const QString &keyId) const
{
    QJsonObject fields = agentFields(call.params);
    if (call.tool == QLatin1String("replay_workflow")) {
        QString id = call.params.value(QStringLiteral("recording_id")).toString();
        if (id.isEmpty()) {
            // By URL: the id is the path segment that names a trajectory or recording
            // (…/agent/traj_…, …/recordings/traj_…).
            const QString url = call.params.value(QStringLiteral("url")).toString();
            const auto m = QRegularExpression(QStringLiteral("(traj_[A-Za-z0-9]+)")).match(url);
            if (m.hasMatch())
                id = m.captured(1);
        }
        if (id.isEmpty())
            throw DomainError::missingField(QStringLiteral("params.recording_id"));
        fields.remove(QStringLiteral("url"));
        fields.insert(QStringLiteral("recording_id"), id);
        if (!fields.contains(QStringLiteral("input")))
            fields.insert(QStringLiteral("input"), QStringLiteral("Read the page"));
    }
    ExecuteRequest r;
    try {
        r = readExecuteRequest(fields, m_policy.grantFor(keyId), m_settings);
    } catch (const DomainError &e) {
        throw underParams(e, call.params);
    }
    r.webhooks = call.webhooks;
    r.origin = call.tool;
    r.originParams = call.params;
    return r;
}

ExecuteRequest BridgeController::scriptRequest(const Call &call, const QJsonArray &script,
                                               const QString &task)
{
    ExecuteRequest r = ToolLibrary::scriptRequest(call.tool, call.params, script, task);
    r.webhooks = call.webhooks;
    // act and crawl work in the caller's browser session when params name one.
    r.browserSession =
        readBrowserSession(JsonFields(call.params, QStringLiteral("params")), r.browser);
    return r;
}

void BridgeController::runAgent(const ExecuteRequest &request, const Call &call, Exchange &ex,
                                Reply reply)
{
    AgentRun *run = m_runs.start(request, ex.request().principal.keyId, ex.request().id,
                                 QStringLiteral("/mcp"));
    QPointer<AgentRun> guard(run);
    const QString tool = call.tool;
    const QString triggerId = call.triggerId;
    // The caller waits about 25 s (bridge.syncWindowMs); a longer run answers 202 and
    // goes on, its outcome on the callbacks and GET /agent/{trajectoryId}.
    RunService::awaitRun(
        run, m_settings.intValue(SettingKeys::bridgeSyncWindowMs), &ex,
        [guard, reply, tool, triggerId] {
            if (!guard) {
                const DomainError gone = DomainError::internal(QStringLiteral("the run is gone"));
                reply(500, {}, &gone);
                return;
            }
            if (const auto bad = RunService::inputError(*guard)) {
                reply(400, {}, &*bad);
                return;
            }
            if (guard->status() == RunStatus::Executing) {
                QJsonObject body = guard->response();
                body.insert(QStringLiteral("statusUrl"),
                            QStringLiteral("/agent/%1").arg(guard->trajectoryId()));
                reply(202, withTool(body, tool, triggerId), nullptr);
                return;
            }
            reply(200, withTool(guard->response(), tool, triggerId), nullptr);
        });
}

void BridgeController::fireTrigger(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    const http::Principal &who = ex.request().principal;
    // An unknown trigger is 404 before the body is read (as it always was).
    m_library.activeTrigger(id, who.keyId, who.owner);
    const QJsonObject body = ex.request().jsonObject();
    const QList<WebhookSubscription> webhooks =
        readWebhooks(JsonFields(body), m_policy.grantFor(who.keyId));
    QJsonObject input = body;
    for (const char *k : {"webhookUrl", "webhookSecret", "webhooks", "webhookMetadata"})
        input.remove(QLatin1String(k));
    const TriggerCall fired = m_library.fireTrigger(id, who.keyId, who.owner, input);
    Call call;
    call.triggerId = fired.triggerId;
    call.tool = fired.tool;
    call.params = fired.params;
    call.webhooks = webhooks;
    QPointer<Exchange> guard(&ex);
    invoke(call, ex, [guard](int status, const QJsonObject &answer, const DomainError *error) {
        if (!guard)
            return;
        if (error)
            guard->fail(*error);
        else
            guard->respondJson(status, answer);
    });
}

} // namespace ph::cloud
