#include "McpStateless.h"

#include "McpServer.h"

#include "core/Store.h"
#include "http/Exchange.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QStringDecoder>
#include <QTimer>

Q_DECLARE_LOGGING_CATEGORY(lcMcp)

namespace ph::mcp {

using http::Exchange;

namespace stateless {

namespace {

// A header or body value as an error message shows it: bounded, so a long value
// cannot make the answer large.
QString shown(const QString &value)
{
    constexpr qsizetype kMax = 120;
    return value.size() > kMax ? value.left(kMax) + QStringLiteral("…") : value;
}

rpc::Failure mismatch(const QString &message)
{
    return {rpc::kHeaderMismatch, QStringLiteral("Header mismatch: %1").arg(message), 400};
}

rpc::Failure invalidParams(const QString &message)
{
    return {rpc::kInvalidParams, QStringLiteral("Invalid params: %1").arg(message), 400};
}

} // namespace

bool isStatelessRequest(const QByteArray &versionHeader, const QJsonObject &message)
{
    if (message.value(QStringLiteral("method")).toString() == QLatin1String("initialize"))
        return false;
    const QJsonObject meta = message.value(QStringLiteral("params"))
                                 .toObject()
                                 .value(QStringLiteral("_meta"))
                                 .toObject();
    if (meta.contains(kVersionKey))
        return true;
    // A version at or after the first stateless revision, compared as the dates they are.
    const QString header = QString::fromLatin1(versionHeader.trimmed());
    return header.size() == 10 && header >= McpServer::statelessVersions().last();
}

std::optional<QString> decodeHeaderValue(const QByteArray &raw)
{
    for (const char c : raw) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && u != 0x09) || u > 0x7E)
            return std::nullopt;
    }
    static const QByteArray prefix = QByteArrayLiteral("=?base64?");
    static const QByteArray suffix = QByteArrayLiteral("?=");
    if (!raw.startsWith(prefix) || !raw.endsWith(suffix) ||
        raw.size() < prefix.size() + suffix.size())
        return QString::fromLatin1(raw);
    const QByteArray inner = raw.mid(prefix.size(), raw.size() - prefix.size() - suffix.size());
    const auto decoded =
        QByteArray::fromBase64Encoding(inner, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = utf8.decode(*decoded);
    if (utf8.hasError())
        return std::nullopt;
    return text;
}

QString nameSourceOf(const QString &method)
{
    if (method == QLatin1String("tools/call") || method == QLatin1String("prompts/get"))
        return QStringLiteral("name");
    if (method == QLatin1String("resources/read"))
        return QStringLiteral("uri");
    return {};
}

std::optional<rpc::Failure> check(const Headers &headers, const QJsonObject &message,
                                  QString *version)
{
    const QJsonValue id = message.value(QStringLiteral("id"));
    if (message.value(QStringLiteral("jsonrpc")) != QJsonValue(QStringLiteral("2.0")) ||
        !message.value(QStringLiteral("method")).isString() || !(id.isString() || id.isDouble()))
        return rpc::Failure{rpc::kInvalidRequest,
                            QStringLiteral("Invalid Request: a stateless POST carries one "
                                           "JSON-RPC 2.0 request with a method and an id"),
                            400};
    const QString method = message.value(QStringLiteral("method")).toString();
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    const QJsonObject meta = params.value(QStringLiteral("_meta")).toObject();
    const QJsonValue declared = meta.value(kVersionKey);
    if (!declared.isString() || declared.toString().isEmpty())
        return invalidParams(
            QStringLiteral("params._meta[\"%1\"] is required (a string)").arg(kVersionKey));
    *version = declared.toString();

    if (headers.protocolVersion.isEmpty())
        return mismatch(QStringLiteral("the MCP-Protocol-Version header is required"));
    const QString headerVersion = QString::fromLatin1(headers.protocolVersion);
    if (headerVersion != *version)
        return mismatch(QStringLiteral("MCP-Protocol-Version header value '%1' does not match "
                                       "body value '%2'")
                            .arg(shown(headerVersion), shown(*version)));
    if (!McpServer::isStatelessVersion(*version)) {
        const QStringList all = McpServer::allVersions();
        return rpc::Failure{
            rpc::kUnsupportedProtocolVersion,
            QStringLiteral("Unsupported protocol version %1: per-request _meta speaks %2; %3 "
                           "open a session with initialize")
                .arg(shown(*version), McpServer::statelessVersions().join(QStringLiteral(", ")),
                     McpServer::supportedVersions().join(QStringLiteral(", "))),
            400,
            QJsonObject{{QStringLiteral("supported"), QJsonArray::fromStringList(all)},
                        {QStringLiteral("requested"), *version}}};
    }

    if (headers.method.isEmpty())
        return mismatch(QStringLiteral("the Mcp-Method header is required"));
    const QString headerMethod = QString::fromLatin1(headers.method);
    if (headerMethod != method)
        return mismatch(
            QStringLiteral("Mcp-Method header value '%1' does not match body value '%2'")
                .arg(shown(headerMethod), shown(method)));

    const QString source = nameSourceOf(method);
    if (!source.isEmpty()) {
        if (headers.name.isEmpty())
            return mismatch(QStringLiteral("the Mcp-Name header is required for %1").arg(method));
        const std::optional<QString> name = decodeHeaderValue(headers.name);
        if (!name)
            return mismatch(QStringLiteral("the Mcp-Name header value is not a valid header "
                                           "value or Base64 sentinel"));
        const QJsonValue body = params.value(source);
        if (!body.isString() || *name != body.toString())
            return mismatch(QStringLiteral("Mcp-Name header value '%1' does not match body "
                                           "value params.%2 '%3'")
                                .arg(shown(*name), source, shown(body.toString())));
    }
    if (!meta.value(kCapabilitiesKey).isObject())
        return invalidParams(
            QStringLiteral("params._meta[\"%1\"] is required (an object)").arg(kCapabilitiesKey));
    return std::nullopt;
}

} // namespace stateless

const QStringList &McpServer::statelessVersions()
{
    static const QStringList versions = {QStringLiteral("2026-07-28")};
    return versions;
}

bool McpServer::isStatelessVersion(const QString &version)
{
    return statelessVersions().contains(version);
}

QStringList McpServer::allVersions()
{
    return statelessVersions() + supportedVersions();
}

bool McpServer::structuredFor(const QString &version)
{
    return version == latestVersion() || isStatelessVersion(version);
}

QJsonObject McpServer::serverInfoMeta() const
{
    QJsonObject info{{QStringLiteral("name"), m_info.name},
                     {QStringLiteral("version"), m_info.version}};
    if (!m_info.title.isEmpty())
        info.insert(QStringLiteral("title"), m_info.title);
    return {{stateless::kServerInfoKey, info}};
}

QJsonObject McpServer::stamped(QJsonObject result, const QString &version,
                               const QJsonObject &serverMeta)
{
    if (!isStatelessVersion(version))
        return result;
    result.insert(QStringLiteral("resultType"), QStringLiteral("complete"));
    QJsonObject meta = result.value(QStringLiteral("_meta")).toObject();
    for (auto it = serverMeta.begin(); it != serverMeta.end(); ++it)
        meta.insert(it.key(), it.value());
    result.insert(QStringLiteral("_meta"), meta);
    return result;
}

QJsonObject McpServer::discover() const
{
    QJsonObject result{
        {QStringLiteral("supportedVersions"), QJsonArray::fromStringList(allVersions())},
        {QStringLiteral("capabilities"),
         QJsonObject{
             {QStringLiteral("tools"), QJsonObject{{QStringLiteral("listChanged"), false}}}}},
        {QStringLiteral("ttlMs"), kListTtlMs},
        {QStringLiteral("cacheScope"), QStringLiteral("private")}};
    if (!m_info.instructions.isEmpty())
        result.insert(QStringLiteral("instructions"), m_info.instructions);
    return result;
}

void McpServer::postStateless(Exchange &ex, const QJsonObject &message)
{
    const http::Request &request = ex.request();
    if (!message.contains(QStringLiteral("id")) &&
        message.value(QStringLiteral("method")).isString() &&
        message.value(QStringLiteral("jsonrpc")) == QJsonValue(QStringLiteral("2.0"))) {
        // A notification: nothing in this revision needs one over HTTP; accepted.
        ex.respond(202, {}, {});
        return;
    }
    const stateless::Headers headers{request.header("mcp-protocol-version").trimmed(),
                                     request.header("mcp-method").trimmed(),
                                     request.header("mcp-name").trimmed()};
    QString version;
    if (const auto failure = stateless::check(headers, message, &version)) {
        const QJsonValue id = message.value(QStringLiteral("id"));
        ex.respondJson(failure->httpStatus,
                       rpc::error(id.isString() || id.isDouble() ? id : QJsonValue(), failure->code,
                                  failure->message, failure->data));
        return;
    }
    answerStateless(ex, message, version);
}

void McpServer::answerStateless(Exchange &ex, const QJsonObject &message, const QString &version)
{
    const QJsonValue id = message.value(QStringLiteral("id"));
    const QString method = message.value(QStringLiteral("method")).toString();
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    const QJsonObject serverMeta = serverInfoMeta();
    auto answer = [&ex](int status, const QJsonObject &body) {
        ex.respond(status, QJsonDocument(body).toJson(QJsonDocument::Compact), "application/json");
    };
    try {
        if (method == QLatin1String("server/discover")) {
            answer(200, rpc::result(id, stamped(discover(), version, serverMeta)));
        } else if (method == QLatin1String("tools/list")) {
            QJsonObject list = listTools(ex.request());
            list.insert(QStringLiteral("ttlMs"), kListTtlMs);
            // The list depends on the credential (saved tools): no shared cache may keep it.
            list.insert(QStringLiteral("cacheScope"), QStringLiteral("private"));
            answer(200, rpc::result(id, stamped(list, version, serverMeta)));
        } else if (method == QLatin1String("tools/call")) {
            if (callAsync(ex, message, version, {}))
                return;
            const CallContext context{ex.request().principal, ex.request(), {}, version};
            answer(200, rpc::result(id, stamped(callTool(params, context), version, serverMeta)));
        } else if (method == QLatin1String("subscriptions/listen")) {
            listen(ex, id, params);
        } else {
            // The transport page: an unknown method is 404 with -32601.
            answer(404, rpc::error(id, rpc::kMethodNotFound,
                                   QStringLiteral("Method not found: %1").arg(method)));
        }
    } catch (const rpc::Failure &f) {
        answer(f.httpStatus ? f.httpStatus : 200, rpc::error(id, f.code, f.message, f.data));
    } catch (const StoreError &e) {
        qCWarning(lcMcp) << "store error in" << method << e.what();
        answer(200, rpc::error(id, rpc::kInternalError,
                               QStringLiteral("Internal error: storage error")));
    }
}

void McpServer::listen(Exchange &ex, const QJsonValue &id, const QJsonObject &params)
{
    const QJsonValue filter = params.value(QStringLiteral("notifications"));
    if (!filter.isUndefined() && !filter.isObject())
        throw rpc::Failure{rpc::kInvalidParams,
                           QStringLiteral("Invalid params: params.notifications must be an object"),
                           400};
    ex.beginStream(200, "text/event-stream",
                   {{"Cache-Control", "no-cache"}, {"X-Accel-Buffering", "no"}});
    if (!ex.isStreaming())
        return; // refused: too many open streams (429)
    // The tools of an endpoint do not change while a client listens (saved tools are read
    // per call), so the acknowledged subset is empty: no notification will follow.
    const QJsonObject ack{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("method"), QStringLiteral("notifications/subscriptions/acknowledged")},
        {QStringLiteral("params"),
         QJsonObject{{QStringLiteral("_meta"), QJsonObject{{stateless::kSubscriptionKey, id}}},
                     {QStringLiteral("notifications"), QJsonObject{}}}}};
    ex.writeChunk("event: message\ndata: " + QJsonDocument(ack).toJson(QJsonDocument::Compact) +
                  "\n\n");
    // A comment now and then keeps idle intermediaries from closing the stream.
    auto *keepAlive = new QTimer(&ex);
    keepAlive->setInterval(kListenKeepAliveMs);
    QObject::connect(keepAlive, &QTimer::timeout, &ex, [stream = &ex] {
        if (stream->isStreaming())
            stream->writeChunk(":\n\n");
    });
    keepAlive->start();
}

} // namespace ph::mcp
