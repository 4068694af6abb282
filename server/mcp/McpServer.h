#pragma once

#include "http/Request.h"
#include "http/Route.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace ph {
class DomainError;
class Clock;
} // namespace ph

namespace ph::mcp {

// What a tool handler knows about its call: who called (the HTTP principal), the HTTP
// request (for links back to this service) and the negotiated protocol version.
struct CallContext
{
    const http::Principal &principal;
    const http::Request &request;
    QString sessionId;
    QString protocolVersion;
    http::Exchange *exchange = nullptr; // set for asynchronous tools: the call's exchange
};

// One tool: a name, a description, a JSON Schema for its arguments and a handler.
// The handler returns the result as a JSON object (sent as text content and, from
// 2025-06-18 on, as structuredContent). It reports a tool error by throwing
// DomainError: the client gets a result with `isError: true` naming the code and
// the field, so a model can correct its call. Arguments are checked against
// `inputSchema` before the handler runs (types, required, enum, bounds, no unknown
// properties where additionalProperties is false).
// How an asynchronous tool answers, once: its output, or the error (then output is
// ignored).
using ToolReply = std::function<void(const QJsonObject &output, const DomainError *error)>;

struct Tool
{
    QString name;
    QString title;
    QString description;
    QJsonObject inputSchema;
    std::function<QJsonObject(const QJsonObject &arguments, const CallContext &context)> handler;
    // Instead of `handler`, for work that takes time (browser runs): the HTTP response
    // waits for `reply`. The context's references live only during the call; copy what
    // is needed later. It may also throw DomainError before replying. A batch
    // cannot hold asynchronous calls: they answer an error there.
    std::function<void(const QJsonObject &arguments, const CallContext &context, ToolReply reply)>
        asyncHandler = nullptr;
};

// The server side of the MCP streamable-HTTP transport, for any area that offers MCP
// tools: JSON-RPC 2.0 over POST on one path, answered with application/json. Both
// generations share the path and the tools; the request picks one (docs/api/mcp.md):
// `initialize`, or a session id, is the 2025 session transport below; a request whose
// params._meta carries io.modelcontextprotocol/protocolVersion (or whose
// MCP-Protocol-Version header names a stateless version) is the 2026-07-28 stateless
// transport (McpStateless.cpp: server/discover, tools/list, tools/call,
// subscriptions/listen; headers checked against the body, McpStateless.h).
//
// - `initialize` negotiates the protocol version (the client's when supported, else
//   our latest) and issues `Mcp-Session-Id`; every later request must carry it: 400
//   when missing, 404 when unknown or expired (the client then initializes again).
// - `DELETE` on the path ends a session; `GET` is 405 (no server-initiated stream).
// - `MCP-Protocol-Version`, when sent, must be supported and match the session's.
// - Batches (JSON arrays) are accepted for sessions on 2025-03-26 and 2024-11-05 and
//   refused for 2025-06-18, which removed them; `initialize` is never batched.
// - Notifications and responses alone are answered 202 with no body.
// - A session belongs to the caller that opened it (by default its credential; an
//   endpoint for anonymous callers names them itself, see Caller); another gets 404.
// - Sessions are bounded (Limits): a caller keeps at most `maxSessionsPerCredential`
//   (a new one evicts that caller's least recently used), an endpoint at most
//   `maxSessions`: beyond it, the caller group holding the most sessions gives up its
//   heaviest caller's least recently used one, so one caller's flood evicts its own
//   sessions, never a lighter caller's. Sessions unused for `idleTimeoutMs`
//   end. The client of an ended or evicted session gets 404 on its next request and,
//   as the streamable-HTTP transport requires, initializes again. An initialize whose
//   state (clientInfo) exceeds `maxSessionBytes` is refused (-32602, HTTP 400).
class McpServer : public QObject, public http::Controller
{
    Q_OBJECT
public:
    struct Info
    {
        QString name;
        QString title;
        QString version;
        QString instructions;
    };

    // Who a session belongs to: `owner` must match on every later request and is what
    // maxSessionsPerCredential counts; `group` gathers owners for eviction under
    // maxSessions (anonymous callers: their client address). post() and remove() take
    // both from the credential (Principal::actor()).
    struct Caller
    {
        QString owner;
        QString group;
    };

    struct Limits
    {
        int maxSessions = 1000;
        int maxSessionsPerCredential = 32;
        qint64 maxSessionBytes = 16 * 1024;
        qint64 idleTimeoutMs = 3'600'000;
    };

    // The session-based (2025) versions, newest first: initialize, Mcp-Session-Id.
    static const QStringList &supportedVersions();
    static QString latestVersion();
    // The stateless versions (2026-07-28): no initialize, each request carries its version
    // in _meta and the Mcp-Method / Mcp-Name / MCP-Protocol-Version headers (McpStateless.h).
    static const QStringList &statelessVersions();
    static bool isStatelessVersion(const QString &version);
    // Every version either transport speaks (server/discover, UnsupportedProtocolVersion).
    static QStringList allVersions();
    // How long a stateless client may cache tools/list and server/discover (ttlMs).
    static constexpr qint64 kListTtlMs = 60'000;
    // A subscriptions/listen stream writes a comment this often when idle.
    static constexpr int kListenKeepAliveMs = 25'000;

    // One class serves several endpoints (/mcp for the bridge, /config/mcp for the owner's
    // AI), so its path is the one route path not written in a routes() table: the owner
    // passes it as a literal where it creates the server (BridgeController, SitesArea).
    McpServer(QString path, http::AuthPolicy policy, Info info, const Clock &clock,
              QObject *parent = nullptr);

    void addTool(Tool tool);
    QStringList toolNames() const;
    // Tools that depend on the caller (saved tools of an API key) or on the request (the
    // site a per-site path names), listed after the fixed ones and callable like them.
    using ToolProvider = std::function<QList<Tool>(const http::Request &)>;
    void setToolProvider(ToolProvider provider) { m_provider = std::move(provider); }
    int sessionCount() const { return int(m_sessions.size()); }
    // Idle sessions expire after this long (default one hour).
    void setSessionIdleTimeoutMs(qint64 ms) { m_limits.idleTimeoutMs = ms; }
    void setLimits(const Limits &limits) { m_limits = limits; }
    const Limits &limits() const { return m_limits; }
    // Sessions evicted to make room since start.
    qint64 evictedCount() const { return m_evicted; }

    QList<http::Route> routes() override;

    // The transport's handlers, for a controller that shares the path with other
    // traffic (the browser bridge's plain JSON on /mcp) and routes it itself.
    void post(http::Exchange &ex);
    void remove(http::Exchange &ex);
    void get(http::Exchange &ex);
    // The same for a caller the endpoint identified itself (site MCP servers: a verified
    // agent, else the client address and client id).
    void postAs(http::Exchange &ex, const Caller &caller);
    void removeAs(http::Exchange &ex, const Caller &caller);

    // core/JsonSchema's check (kept for the callers of this name).
    static QString checkSchema(const QJsonObject &schema, const QJsonValue &value,
                               const QString &path);

private:
    struct Session
    {
        QString protocolVersion;
        QString actor; // the Caller's owner (Principal::actor() of the credential)
        QString group; // the Caller's group
        QJsonObject clientInfo;
        bool initialized = false;
        qint64 lastSeenMs = 0;
        qint64 bytes = 0;
    };

    // A lone tools/call of an asynchronous tool: handled (true), or not one (false).
    bool callAsync(http::Exchange &ex, const QJsonObject &message, const QString &version,
                   const QString &sessionId);
    // The stateless transport (McpStateless.cpp): one request per POST, no session.
    void postStateless(http::Exchange &ex, const QJsonObject &message);
    void answerStateless(http::Exchange &ex, const QJsonObject &message, const QString &version);
    QJsonObject discover() const;
    // subscriptions/listen: an SSE stream that acknowledges and stays open.
    void listen(http::Exchange &ex, const QJsonValue &id, const QJsonObject &params);
    QJsonObject serverInfoMeta() const;
    static bool structuredFor(const QString &version);
    // A stateless result carries resultType and the server's identity in _meta.
    static QJsonObject stamped(QJsonObject result, const QString &version,
                               const QJsonObject &serverMeta);
    // One JSON-RPC message; returns the response, or an undefined value for
    // notifications and responses.
    QJsonValue handleMessage(const QJsonValue &message, Session *session, const QString &sessionId,
                             const http::Request &request, const Caller &caller,
                             QString *newSessionId, int *httpStatus = nullptr);
    QJsonObject initialize(const QJsonObject &params, const Caller &caller, QString *newSessionId);
    QJsonObject callTool(const QJsonObject &params, const CallContext &context);
    QJsonObject listTools(const http::Request &request) const;
    // The tool `params` names, checked with its arguments: null when the call is
    // answered already (`*early` holds the result: unknown arguments and the like).
    std::optional<Tool> resolveCall(const QJsonObject &params, const http::Request &request,
                                    QJsonObject *arguments, QJsonObject *early) const;
    QList<Tool> toolsFor(const http::Request &request) const;
    Session *sessionFor(http::Exchange &ex, const Caller &caller, QString *sessionId);
    void expireIdle();
    // Evicts sessions until one more for `caller` fits the limits.
    void makeRoomFor(const Caller &caller);
    static Caller callerOf(const http::Request &request);
    static void fail(http::Exchange &ex, int status, int code, const QString &message);

    QString m_path;
    http::AuthPolicy m_policy;
    Info m_info;
    const Clock &m_clock;
    QList<Tool> m_tools;
    ToolProvider m_provider;
    QHash<QString, Session> m_sessions;
    Limits m_limits;
    qint64 m_evicted = 0;
};

} // namespace ph::mcp
