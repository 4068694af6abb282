#pragma once

// The checks of MCP's stateless transport (revision 2026-07-28) that need no server
// state: which transport a request is for, the per-request _meta envelope, and the
// MCP-Protocol-Version / Mcp-Method / Mcp-Name headers against the body. McpServer
// (McpStateless.cpp) applies them before it dispatches; fuzz_mcp and tst_mcpstateless
// drive them directly too.

#include "McpRpc.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace ph::mcp::stateless {

inline const QString kVersionKey = QStringLiteral("io.modelcontextprotocol/protocolVersion");
inline const QString kCapabilitiesKey =
    QStringLiteral("io.modelcontextprotocol/clientCapabilities");
inline const QString kClientInfoKey = QStringLiteral("io.modelcontextprotocol/clientInfo");
inline const QString kServerInfoKey = QStringLiteral("io.modelcontextprotocol/serverInfo");
inline const QString kSubscriptionKey = QStringLiteral("io.modelcontextprotocol/subscriptionId");

// The request headers the checks read (empty when absent).
struct Headers
{
    QByteArray protocolVersion; // MCP-Protocol-Version
    QByteArray method;          // Mcp-Method
    QByteArray name;            // Mcp-Name
};

// True when `message` is for the stateless transport: a lone JSON-RPC object whose
// params._meta carries a protocol version, or any non-initialize message sent with a
// stateless MCP-Protocol-Version header (which then must carry the envelope too).
bool isStatelessRequest(const QByteArray &versionHeader, const QJsonObject &message);

// A header value as the body would hold it: the Base64 sentinel `=?base64?…?=` decoded
// (UTF-8), else the value itself. Null when the value holds a character a header value
// may not (controls other than tab, non-ASCII) or the sentinel's Base64 is invalid.
std::optional<QString> decodeHeaderValue(const QByteArray &raw);

// Which body value Mcp-Name mirrors for `method` (params.name or params.uri), or empty
// when the method has none.
QString nameSourceOf(const QString &method);

// The request's envelope and headers checked, in the specification's order: a JSON-RPC
// request (-32600), the _meta protocol version (-32602), MCP-Protocol-Version present
// and equal to it (-32020 HeaderMismatch), a version this server speaks (-32022
// UnsupportedProtocolVersion, data {supported, requested}), Mcp-Method present and equal
// to `method` (-32020), Mcp-Name present and equal to params.name/params.uri where the
// method has one (-32020), client capabilities an object (-32602). Every failure answers
// HTTP 400. Null when all hold; `*version` is then the request's protocol version.
std::optional<rpc::Failure> check(const Headers &headers, const QJsonObject &message,
                                  QString *version);

} // namespace ph::mcp::stateless
