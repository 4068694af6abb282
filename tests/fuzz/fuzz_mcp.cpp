// The MCP JSON-RPC layer (server/mcp/McpServer) as a client meets it: a session is
// initialized, then the input is POSTed as the body of the next request: single
// messages and batches, notifications, responses, tools/list and tools/call with
// arguments checked against a tool's input schema. The first byte picks the protocol
// version (batches are allowed on the older ones) and whether the version header is
// sent. Responses are written to a socket that only records them.
// With bit 6 of the first byte set, the input is a request of the stateless 2026-07-28
// transport instead, no session: "<MCP-Protocol-Version>\n<Mcp-Method>\n<Mcp-Name>\n<body>"
// (mcp/McpStateless.h's header checks, server/discover, tools/call, subscriptions/listen).
#include "FuzzInput.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "http/Exchange.h"
#include "mcp/McpServer.h"
#include "mcp/McpStateless.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QPointer>
#include <QTcpSocket>

namespace {

using namespace ph;

// A connected socket that records what is written to it and sends nothing.
class RecordingSocket : public QTcpSocket
{
public:
    RecordingSocket()
    {
        setOpenMode(QIODevice::ReadWrite);
        setSocketState(QAbstractSocket::ConnectedState);
    }
    ~RecordingSocket() override
    {
        setSocketState(QAbstractSocket::UnconnectedState);
        setOpenMode(QIODevice::NotOpen);
    }
    QByteArray written;

protected:
    qint64 writeData(const char *data, qint64 size) override
    {
        written.append(data, qsizetype(size));
        return size;
    }
    qint64 readData(char *, qint64) override { return 0; }
};

// A tool with the schema features the real tools use: nested objects, arrays, enums,
// bounds, required and closed properties.
mcp::Tool schemaTool()
{
    mcp::Tool tool;
    tool.name = QStringLiteral("configure");
    tool.description = QStringLiteral("fuzz");
    tool.inputSchema = QJsonDocument::fromJson(R"({
      "type": "object", "additionalProperties": false, "required": ["siteId"],
      "properties": {
        "siteId": {"type": "string", "minLength": 1, "maxLength": 64},
        "mode": {"type": "string", "enum": ["live", "test", "paused"]},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
        "ratio": {"type": ["number", "null"]},
        "tags": {"type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 8}},
        "patch": {"type": "object", "properties": {
          "enabled": {"type": "boolean"},
          "nested": {"type": "object", "additionalProperties": false,
                     "properties": {"depth": {"type": "integer"}}}}}
      }})")
                           .object();
    tool.handler = [](const QJsonObject &arguments, const mcp::CallContext &) {
        if (arguments.value(QStringLiteral("mode")) == QJsonValue(QStringLiteral("paused")))
            throw DomainError::invalidField(QStringLiteral("mode"), QStringLiteral("paused"));
        return QJsonObject{{QStringLiteral("echo"), arguments}};
    };
    return tool;
}

http::Request request(const QByteArray &body, const QByteArray &session, const QByteArray &version)
{
    http::Request r;
    r.id = QStringLiteral("req_fuzz");
    r.method = "POST";
    r.path = QStringLiteral("/mcp");
    r.headers.insert("content-type", "application/json");
    r.headers.insert("accept", "application/json, text/event-stream");
    if (!session.isEmpty())
        r.headers.insert("mcp-session-id", session);
    if (!version.isEmpty())
        r.headers.insert("mcp-protocol-version", version);
    r.body = body;
    r.principal.kind = http::Principal::Kind::ApiKey;
    r.principal.keyId = QStringLiteral("key_fuzz");
    return r;
}

// POSTs one body; returns what was written to the connection.
QByteArray post(mcp::McpServer &server, http::Request r)
{
    RecordingSocket socket;
    QPointer<http::Exchange> exchange = new http::Exchange(std::move(r), &socket, nullptr, nullptr);
    server.post(*exchange);
    // subscriptions/listen holds its stream open: the client leaves.
    if (exchange && exchange->isStreaming())
        delete exchange.data();
    // The exchange deletes itself later once answered; every call here answers at once.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    ph::fuzz::require(exchange.isNull(), "an exchange outlived its answer");
    return socket.written;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    static ManualClock clock(1'700'000'000'000);
    Cursor in(bytesOf(data, size));
    const quint8 choice = in.byte();
    const QString version = mcp::McpServer::supportedVersions().at(choice % 3);

    mcp::McpServer server(
        QStringLiteral("/mcp"), http::AuthPolicy::ApiKey,
        {QStringLiteral("fuzz"), QStringLiteral("Fuzz"), QStringLiteral("1"), QString()}, clock);
    server.addTool(schemaTool());

    if (choice & 0x40) {
        const QByteArray versionHeader = in.until('\n');
        const QByteArray method = in.until('\n');
        const QByteArray name = in.until('\n');
        const QByteArray body = in.rest();
        // The checks alone, as a proxy in front of the server could run them.
        const QJsonObject message = QJsonDocument::fromJson(body).object();
        QString declared;
        const auto failure =
            mcp::stateless::check({versionHeader, method, name}, message, &declared);
        require(!failure || failure->httpStatus == 400, "a header check failed without a 400");
        (void)mcp::stateless::decodeHeaderValue(name);
        http::Request r = request(body, {}, versionHeader);
        if (!method.isEmpty())
            r.headers.insert("mcp-method", method);
        if (!name.isEmpty())
            r.headers.insert("mcp-name", name);
        const QByteArray answer = post(server, std::move(r));
        require(answer.startsWith("HTTP/1.1 "), "a stateless request left unanswered");
        require(!answer.contains("Mcp-Session-Id"), "the stateless transport minted a session");
        return 0;
    }

    const QByteArray initialize =
        QJsonDocument(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                  {QStringLiteral("id"), 1},
                                  {QStringLiteral("method"), QStringLiteral("initialize")},
                                  {QStringLiteral("params"),
                                   QJsonObject{{QStringLiteral("protocolVersion"), version}}}})
            .toJson(QJsonDocument::Compact);
    const QByteArray reply = post(server, request(initialize, {}, {}));
    const qsizetype at = reply.indexOf("Mcp-Session-Id: ");
    require(at >= 0, "initialize answered without a session");
    const QByteArray session = reply.mid(at + 16, reply.indexOf('\r', at) - at - 16);

    const QByteArray answer =
        post(server, request(in.rest(), session, (choice & 0x80) ? version.toLatin1() : ""));
    require(answer.startsWith("HTTP/1.1 "), "a request left unanswered");
    return 0;
}
