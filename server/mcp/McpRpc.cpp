#include "McpRpc.h"

#include "core/DomainError.h"
#include "http/ErrorMapping.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace ph::mcp::rpc {

QJsonObject error(const QJsonValue &id, int code, const QString &message, const QJsonObject &data)
{
    QJsonObject e{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isEmpty())
        e.insert(QStringLiteral("data"), data);
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id.isUndefined() ? QJsonValue() : id},
            {QStringLiteral("error"), e}};
}

QJsonObject result(const QJsonValue &id, const QJsonObject &result)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("result"), result}};
}

QJsonObject toolErrorResult(const QJsonObject &error)
{
    return {{QStringLiteral("content"),
             QJsonArray{QJsonObject{
                 {QStringLiteral("type"), QStringLiteral("text")},
                 {QStringLiteral("text"),
                  QString::fromUtf8(QJsonDocument(error).toJson(QJsonDocument::Compact))}}}},
            {QStringLiteral("isError"), true}};
}

QJsonObject apiErrorResult(const DomainError &e)
{
    QJsonObject error{{QStringLiteral("code"), e.code()},
                      {QStringLiteral("error"), e.message()},
                      {QStringLiteral("status"), http::statusOf(e.kind())}};
    if (!e.field().isEmpty())
        error.insert(QStringLiteral("field"), e.field());
    if (!e.details().isEmpty())
        error.insert(QStringLiteral("details"), e.details());
    return toolErrorResult(error);
}

QJsonObject toolResult(const QJsonObject &output, bool structured)
{
    QJsonObject result{{QStringLiteral("content"),
                        QJsonArray{QJsonObject{
                            {QStringLiteral("type"), QStringLiteral("text")},
                            {QStringLiteral("text"), QString::fromUtf8(QJsonDocument(output).toJson(
                                                         QJsonDocument::Compact))}}}},
                       {QStringLiteral("isError"), false}};
    if (structured)
        result.insert(QStringLiteral("structuredContent"), output);
    return result;
}

} // namespace ph::mcp::rpc
