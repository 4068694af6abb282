#include "McpServer.h"

#include "McpRpc.h"
#include "McpStateless.h"

#include "core/Clock.h"
#include "core/Ids.h"
#include "core/JsonSchema.h"
#include "core/Store.h"
#include "http/ErrorMapping.h"
#include "http/Exchange.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPointer>

Q_LOGGING_CATEGORY(lcMcp, "pilothouse.mcp")

namespace ph::mcp {

using http::Exchange;
using http::Route;

namespace {

using namespace rpc;
using RpcFailure = rpc::Failure;

const QString kSessionHeader = QStringLiteral("Mcp-Session-Id");

// What a session costs besides its clientInfo: ids, version, timestamps.
constexpr qint64 kSessionOverheadBytes = 128;

bool batchesAllowed(const QString &version)
{
    return version == QLatin1String("2025-03-26") || version == QLatin1String("2024-11-05");
}

QJsonObject rpcError(const QJsonValue &id, int code, const QString &message)
{
    return rpc::error(id, code, message);
}

QJsonObject rpcResult(const QJsonValue &id, const QJsonObject &result)
{
    return rpc::result(id, result);
}

} // namespace

const QStringList &McpServer::supportedVersions()
{
    static const QStringList versions = {QStringLiteral("2025-06-18"), QStringLiteral("2025-03-26"),
                                         QStringLiteral("2024-11-05")};
    return versions;
}

QString McpServer::latestVersion()
{
    return supportedVersions().first();
}

McpServer::McpServer(QString path, http::AuthPolicy policy, Info info, const Clock &clock,
                     QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_policy(policy)
    , m_info(std::move(info))
    , m_clock(clock)
{}

void McpServer::addTool(Tool tool)
{
    m_tools.append(std::move(tool));
}

QStringList McpServer::toolNames() const
{
    QStringList out;
    for (const Tool &t : m_tools)
        out.append(t.name);
    return out;
}

QList<Route> McpServer::routes()
{
    using C = McpServer;
    return {Route::to("POST", m_path, m_policy, this, &C::post),
            Route::to("DELETE", m_path, m_policy, this, &C::remove),
            Route::to("GET", m_path, m_policy, this, &C::get)};
}

QString McpServer::checkSchema(const QJsonObject &schema, const QJsonValue &value,
                               const QString &path)
{
    return JsonSchema::check(schema, value, path);
}

void McpServer::fail(Exchange &ex, int status, int code, const QString &message)
{
    ex.respondJson(status, rpcError(QJsonValue(), code, message));
}

void McpServer::expireIdle()
{
    const qint64 now = m_clock.nowMs();
    for (auto it = m_sessions.begin(); it != m_sessions.end();) {
        if (now - it->lastSeenMs > m_limits.idleTimeoutMs)
            it = m_sessions.erase(it);
        else
            ++it;
    }
}

McpServer::Caller McpServer::callerOf(const http::Request &request)
{
    const QString actor = request.principal.actor();
    return {actor, actor};
}

void McpServer::makeRoomFor(const Caller &caller)
{
    // The least recently used session among those `mine` selects, or end().
    auto oldest = [this](auto mine) {
        auto found = m_sessions.end();
        for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it) {
            if (mine(*it) && (found == m_sessions.end() || it->lastSeenMs < found->lastSeenMs))
                found = it;
        }
        return found;
    };
    auto evict = [this](QHash<QString, Session>::iterator it, const char *why) {
        qCInfo(lcMcp).noquote() << m_path << "evicted the least recently used session of"
                                << it->actor << "(" << why << ")";
        m_sessions.erase(it);
        ++m_evicted;
    };
    // Of the keys `keyOf` gives the sessions `mine` selects: the one holding the most
    // (the newcomer's key counting the session it asks for too), ties going to the one
    // whose least recently used session is older.
    auto heaviest = [this](auto mine, auto keyOf, const QString &newcomer) {
        QHash<QString, std::pair<qsizetype, qint64>> held; // count, oldest lastSeenMs
        for (const Session &s : std::as_const(m_sessions)) {
            if (!mine(s))
                continue;
            auto &h = held[keyOf(s)];
            h.second = h.first == 0 ? s.lastSeenMs : std::min(h.second, s.lastSeenMs);
            ++h.first;
        }
        if (const auto it = held.find(newcomer); it != held.end())
            ++it->first;
        QString best;
        std::pair<qsizetype, qint64> most{0, 0};
        for (auto it = held.cbegin(); it != held.cend(); ++it) {
            if (it->first > most.first || (it->first == most.first && it->second < most.second)) {
                best = it.key();
                most = it.value();
            }
        }
        return best;
    };
    for (;;) {
        qsizetype own = 0;
        for (const Session &s : std::as_const(m_sessions))
            own += s.actor == caller.owner ? 1 : 0;
        if (own < m_limits.maxSessionsPerCredential)
            break;
        evict(oldest([&caller](const Session &s) { return s.actor == caller.owner; }),
              "mcp.maxSessionsPerCredential");
    }
    while (!m_sessions.isEmpty() && m_sessions.size() >= m_limits.maxSessions) {
        const QString group = heaviest([](const Session &) { return true; },
                                       [](const Session &s) { return s.group; }, caller.group);
        const QString owner = heaviest([&group](const Session &s) { return s.group == group; },
                                       [](const Session &s) { return s.actor; }, caller.owner);
        evict(oldest([&owner, &group](const Session &s) {
                  return s.group == group && s.actor == owner;
              }),
              "mcp.maxSessions");
    }
}

McpServer::Session *McpServer::sessionFor(Exchange &ex, const Caller &caller, QString *sessionId)
{
    expireIdle();
    *sessionId = QString::fromLatin1(ex.request().header("mcp-session-id").trimmed());
    if (sessionId->isEmpty()) {
        fail(ex, 400, kBadRequest,
             QStringLiteral("Bad Request: the Mcp-Session-Id header is "
                            "required after initialize"));
        return nullptr;
    }
    auto it = m_sessions.find(*sessionId);
    if (it == m_sessions.end() || it->actor != caller.owner) {
        fail(ex, 404, kSessionNotFound,
             QStringLiteral("Session not found: it ended or expired; initialize again"));
        return nullptr;
    }
    const QString version = QString::fromLatin1(ex.request().header("mcp-protocol-version"));
    if (!version.isEmpty() && version != it->protocolVersion) {
        fail(ex, 400, kBadRequest,
             supportedVersions().contains(version)
                 ? QStringLiteral("Bad Request: MCP-Protocol-Version %1 differs from the "
                                  "session's %2")
                       .arg(version, it->protocolVersion)
                 : QStringLiteral("Bad Request: unsupported MCP-Protocol-Version %1 (supported: "
                                  "%2)")
                       .arg(version, supportedVersions().join(QStringLiteral(", "))));
        return nullptr;
    }
    it->lastSeenMs = m_clock.nowMs();
    return &it.value();
}

void McpServer::get(Exchange &ex)
{
    // No server-initiated stream: the spec lets a server answer 405 here.
    ex.respondJson(405,
                   rpcError(QJsonValue(), kBadRequest,
                            QStringLiteral("this server sends no stream on GET; POST requests")),
                   {{"Allow", "POST, DELETE"}});
}

void McpServer::remove(Exchange &ex)
{
    removeAs(ex, callerOf(ex.request()));
}

void McpServer::removeAs(Exchange &ex, const Caller &caller)
{
    QString sessionId;
    if (!sessionFor(ex, caller, &sessionId))
        return;
    m_sessions.remove(sessionId);
    ex.respond(204, {}, {});
}

void McpServer::post(Exchange &ex)
{
    postAs(ex, callerOf(ex.request()));
}

void McpServer::postAs(Exchange &ex, const Caller &caller)
{
    const http::Request &request = ex.request();
    const QByteArray contentType = request.header("content-type").toLower();
    if (!contentType.startsWith("application/json")) {
        fail(ex, 415, kBadRequest,
             QStringLiteral("Unsupported Media Type: send Content-Type: application/json"));
        return;
    }
    const QByteArray accept = request.header("accept").toLower();
    if (!accept.isEmpty() && !accept.contains("application/json") && !accept.contains("*/*")) {
        fail(ex, 406, kBadRequest,
             QStringLiteral("Not Acceptable: this server answers with application/json"));
        return;
    }
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || doc.isNull()) {
        fail(ex, 400, kParseError, QStringLiteral("Parse error: %1").arg(parseError.errorString()));
        return;
    }
    const bool batch = doc.isArray();
    const QJsonArray messages = batch ? doc.array() : QJsonArray{doc.object()};
    if (batch && messages.isEmpty()) {
        fail(ex, 400, kInvalidRequest, QStringLiteral("Invalid Request: an empty batch"));
        return;
    }
    bool hasInitialize = false;
    for (const QJsonValue &m : messages) {
        if (m.toObject().value(QStringLiteral("method")).toString() == QLatin1String("initialize"))
            hasInitialize = true;
    }
    // The 2026-07-28 stateless transport: one request per POST, no session.
    const QByteArray versionHeader = request.header("mcp-protocol-version");
    if (!batch && stateless::isStatelessRequest(versionHeader, doc.object())) {
        postStateless(ex, doc.object());
        return;
    }
    if (batch && isStatelessVersion(QString::fromLatin1(versionHeader.trimmed()))) {
        fail(ex, 400, kInvalidRequest,
             QStringLiteral("Invalid Request: a stateless POST carries one request, not a batch"));
        return;
    }

    QString sessionId;
    Session *session = nullptr;
    if (hasInitialize) {
        if (batch) {
            fail(ex, 400, kInvalidRequest,
                 QStringLiteral("Invalid Request: initialize must not be part of a batch"));
            return;
        }
    } else {
        session = sessionFor(ex, caller, &sessionId);
        if (!session)
            return;
        if (batch && !batchesAllowed(session->protocolVersion)) {
            fail(ex, 400, kInvalidRequest,
                 QStringLiteral("Invalid Request: protocol version %1 does not allow batches")
                     .arg(session->protocolVersion));
            return;
        }
    }

    // A lone call of an asynchronous tool: the answer waits for the tool.
    const QJsonObject first = messages.first().toObject();
    if (!batch && session &&
        first.value(QStringLiteral("method")).toString() == QLatin1String("tools/call") &&
        first.contains(QStringLiteral("id")) &&
        first.value(QStringLiteral("jsonrpc")) == QJsonValue(QStringLiteral("2.0")) &&
        first.value(QStringLiteral("params")).isObject() &&
        callAsync(ex, first, session->protocolVersion, sessionId))
        return;

    QJsonArray responses;
    QString newSessionId;
    int status = 200;
    for (const QJsonValue &m : messages) {
        const QJsonValue response =
            handleMessage(m, session, sessionId, request, caller, &newSessionId, &status);
        if (!response.isUndefined())
            responses.append(response);
    }
    if (responses.isEmpty()) {
        ex.respond(202, {}, {});
        return;
    }
    http::HeaderList headers;
    if (!newSessionId.isEmpty())
        headers.append({kSessionHeader.toLatin1(), newSessionId.toLatin1()});
    const QByteArray body =
        batch ? QJsonDocument(responses).toJson(QJsonDocument::Compact)
              : QJsonDocument(responses.first().toObject()).toJson(QJsonDocument::Compact);
    ex.respond(status, body, "application/json", headers);
}

bool McpServer::callAsync(Exchange &ex, const QJsonObject &message, const QString &version,
                          const QString &sessionId)
{
    const QJsonValue id = message.value(QStringLiteral("id"));
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    auto answer = [](Exchange &to, const QJsonObject &body) {
        to.respond(200, QJsonDocument(body).toJson(QJsonDocument::Compact), "application/json");
    };
    QJsonObject arguments;
    QJsonObject early;
    std::optional<Tool> tool;
    try {
        tool = resolveCall(params, ex.request(), &arguments, &early);
    } catch (const RpcFailure &f) {
        answer(ex, rpc::error(id, f.code, f.message, f.data));
        return true;
    }
    if (!tool) {
        answer(ex, rpcResult(id, stamped(early, version, serverInfoMeta())));
        return true;
    }
    if (!tool->asyncHandler)
        return false; // the ordinary path answers it
    QPointer<Exchange> guard(&ex);
    auto replied = std::make_shared<bool>(false);
    const QJsonObject serverMeta = serverInfoMeta();
    ToolReply reply = [guard, id, version, replied, answer, serverMeta](const QJsonObject &output,
                                                                        const DomainError *error) {
        if (*replied || !guard)
            return;
        *replied = true;
        const QJsonObject result =
            error ? apiErrorResult(*error) : toolResult(output, structuredFor(version));
        answer(*guard, rpcResult(id, stamped(result, version, serverMeta)));
    };
    try {
        const CallContext context{ex.request().principal, ex.request(), sessionId, version, &ex};
        tool->asyncHandler(arguments, context, reply);
    } catch (const DomainError &e) {
        reply({}, &e);
    }
    return true;
}

QJsonValue McpServer::handleMessage(const QJsonValue &value, Session *session,
                                    const QString &sessionId, const http::Request &request,
                                    const Caller &caller, QString *newSessionId, int *httpStatus)
{
    const QJsonObject message = value.toObject();
    const QJsonValue id = message.value(QStringLiteral("id"));
    const bool isRequest = message.contains(QStringLiteral("id"));
    if (!value.isObject() ||
        message.value(QStringLiteral("jsonrpc")) != QJsonValue(QStringLiteral("2.0")))
        return rpcError(id, kInvalidRequest, QStringLiteral("Invalid Request: not JSON-RPC 2.0"));
    const QJsonValue methodValue = message.value(QStringLiteral("method"));
    if (!methodValue.isString()) {
        if (message.contains(QStringLiteral("result")) || message.contains(QStringLiteral("error")))
            return QJsonValue(QJsonValue::Undefined); // a response to nothing we asked: ignored
        return rpcError(id, kInvalidRequest, QStringLiteral("Invalid Request: method is missing"));
    }
    if (isRequest && !id.isString() && !id.isDouble())
        return rpcError(QJsonValue(), kInvalidRequest,
                        QStringLiteral("Invalid Request: id must be a string or a number"));
    const QString method = methodValue.toString();
    const QJsonValue paramsValue = message.value(QStringLiteral("params"));
    if (!paramsValue.isUndefined() && !paramsValue.isObject())
        return isRequest ? QJsonValue(
                               rpcError(id, kInvalidParams,
                                        QStringLiteral("Invalid params: params must be an object")))
                         : QJsonValue(QJsonValue::Undefined);
    const QJsonObject params = paramsValue.toObject();

    if (!isRequest) {
        if (method == QLatin1String("notifications/initialized") && session)
            session->initialized = true;
        // Other notifications (cancelled, progress) need nothing: every call completes
        // before its response is written.
        return QJsonValue(QJsonValue::Undefined);
    }
    try {
        if (method == QLatin1String("initialize"))
            return rpcResult(id, initialize(params, caller, newSessionId));
        if (method == QLatin1String("ping"))
            return rpcResult(id, {});
        if (method == QLatin1String("tools/list"))
            return rpcResult(id, listTools(request));
        if (method == QLatin1String("tools/call")) {
            const CallContext context{request.principal, request, sessionId,
                                      session ? session->protocolVersion : latestVersion()};
            return rpcResult(id, callTool(params, context));
        }
        return rpcError(id, kMethodNotFound, QStringLiteral("Method not found: %1").arg(method));
    } catch (const RpcFailure &f) {
        if (f.httpStatus && httpStatus)
            *httpStatus = f.httpStatus;
        return rpcError(id, f.code, f.message);
    } catch (const StoreError &e) {
        qCWarning(lcMcp) << "store error in" << method << e.what();
        return rpcError(id, kInternalError, QStringLiteral("Internal error: storage error"));
    }
}

QJsonObject McpServer::initialize(const QJsonObject &params, const Caller &caller,
                                  QString *newSessionId)
{
    const QJsonValue requested = params.value(QStringLiteral("protocolVersion"));
    if (!requested.isString())
        throw RpcFailure{kInvalidParams,
                         QStringLiteral("Invalid params: protocolVersion is required")};
    const QString version =
        supportedVersions().contains(requested.toString()) ? requested.toString() : latestVersion();
    Session session;
    session.protocolVersion = version;
    session.actor = caller.owner;
    session.group = caller.group;
    session.clientInfo = params.value(QStringLiteral("clientInfo")).toObject();
    session.lastSeenMs = m_clock.nowMs();
    session.bytes = QJsonDocument(session.clientInfo).toJson(QJsonDocument::Compact).size() +
                    session.actor.size() + kSessionOverheadBytes;
    if (session.bytes > m_limits.maxSessionBytes)
        throw RpcFailure{kInvalidParams,
                         QStringLiteral("Invalid params: params.clientInfo makes a session of %1 "
                                        "bytes; the limit is %2 (mcp.maxSessionBytes)")
                             .arg(session.bytes)
                             .arg(m_limits.maxSessionBytes),
                         400};
    expireIdle();
    makeRoomFor(caller);
    *newSessionId = Ids::make(QStringLiteral("mcp"), 32);
    m_sessions.insert(*newSessionId, session);

    QJsonObject serverInfo{{QStringLiteral("name"), m_info.name},
                           {QStringLiteral("version"), m_info.version}};
    if (!m_info.title.isEmpty() && version == latestVersion())
        serverInfo.insert(QStringLiteral("title"), m_info.title);
    QJsonObject result{{QStringLiteral("protocolVersion"), version},
                       {QStringLiteral("capabilities"),
                        QJsonObject{{QStringLiteral("tools"),
                                     QJsonObject{{QStringLiteral("listChanged"), false}}}}},
                       {QStringLiteral("serverInfo"), serverInfo}};
    if (!m_info.instructions.isEmpty())
        result.insert(QStringLiteral("instructions"), m_info.instructions);
    return result;
}

QList<Tool> McpServer::toolsFor(const http::Request &request) const
{
    QList<Tool> tools = m_tools;
    if (m_provider)
        tools << m_provider(request);
    return tools;
}

QJsonObject McpServer::listTools(const http::Request &request) const
{
    QJsonArray tools;
    for (const Tool &t : toolsFor(request)) {
        QJsonObject o{{QStringLiteral("name"), t.name},
                      {QStringLiteral("description"), t.description},
                      {QStringLiteral("inputSchema"), t.inputSchema}};
        if (!t.title.isEmpty())
            o.insert(QStringLiteral("title"), t.title);
        tools.append(o);
    }
    return {{QStringLiteral("tools"), tools}};
}

std::optional<Tool> McpServer::resolveCall(const QJsonObject &params, const http::Request &request,
                                           QJsonObject *arguments, QJsonObject *early) const
{
    const QString name = params.value(QStringLiteral("name")).toString();
    std::optional<Tool> tool;
    for (const Tool &t : toolsFor(request)) {
        if (t.name == name)
            tool = t;
    }
    if (!tool)
        throw RpcFailure{kInvalidParams, QStringLiteral("Unknown tool: %1").arg(name)};
    const QJsonValue argsValue = params.value(QStringLiteral("arguments"));
    if (!argsValue.isUndefined() && !argsValue.isNull() && !argsValue.isObject())
        throw RpcFailure{kInvalidParams,
                         QStringLiteral("Invalid params: arguments must be an object")};
    *arguments = argsValue.toObject();
    const QString problem = JsonSchema::check(tool->inputSchema, *arguments, {});
    if (!problem.isEmpty()) {
        *early = toolErrorResult({{QStringLiteral("code"), QStringLiteral("INVALID_ARGUMENTS")},
                                  {QStringLiteral("error"), problem}});
        return std::nullopt;
    }
    return tool;
}

QJsonObject McpServer::callTool(const QJsonObject &params, const CallContext &context)
{
    QJsonObject arguments;
    QJsonObject early;
    const std::optional<Tool> tool = resolveCall(params, context.request, &arguments, &early);
    if (!tool)
        return early;
    if (!tool->handler) {
        return toolErrorResult({{QStringLiteral("code"), QStringLiteral("NOT_BATCHABLE")},
                                {QStringLiteral("error"),
                                 QStringLiteral("%1 takes time; call it on its own, not in a batch")
                                     .arg(tool->name)}});
    }
    try {
        return toolResult(tool->handler(arguments, context),
                          structuredFor(context.protocolVersion));
    } catch (const DomainError &e) {
        return apiErrorResult(e);
    }
}

} // namespace ph::mcp
