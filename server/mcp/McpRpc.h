#pragma once

// JSON-RPC pieces the two MCP transports share (McpServer.cpp: the 2025 session
// transport; McpStateless.cpp: the 2026-07-28 stateless one). Internal to server/mcp.

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace ph {
class DomainError;
}

namespace ph::mcp::rpc {

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;
constexpr int kBadRequest = -32000;
constexpr int kSessionNotFound = -32001;
// Reserved by MCP 2026-07-28 (basic/index "Error codes").
constexpr int kHeaderMismatch = -32020;
constexpr int kMissingClientCapability = -32021;
constexpr int kUnsupportedProtocolVersion = -32022;

// A protocol error raised while handling one message; `httpStatus` set when the whole
// exchange should answer with that status instead of 200; `data` the error's data.
struct Failure
{
    int code;
    QString message;
    int httpStatus = 0;
    QJsonObject data = {};
};

QJsonObject error(const QJsonValue &id, int code, const QString &message,
                  const QJsonObject &data = {});
QJsonObject result(const QJsonValue &id, const QJsonObject &result);
// A tools/call result that reports an error the model can act on.
QJsonObject toolErrorResult(const QJsonObject &error);
QJsonObject apiErrorResult(const DomainError &e);
// A tool's output as a tools/call result: text content, plus structuredContent when
// `structured` (2025-06-18 and the stateless revision).
QJsonObject toolResult(const QJsonObject &output, bool structured);

} // namespace ph::mcp::rpc
