#include "ModelStub.h"

#include "FixtureServer.h"

#include <QJsonDocument>

namespace ph::test {

void ModelScript::serveOn(FixtureServer &server)
{
    server.route("/v1/chat/completions", [this](const FixtureRequest &r) {
        requests.append(QJsonDocument::fromJson(r.body).object());
        FixtureResponse resp;
        resp.headers = {{"Content-Type", "application/json"}};
        if (!failures.isEmpty()) {
            resp.status = failures.takeFirst();
            resp.body = R"({"error":{"message":"overloaded"}})";
            return resp;
        }
        if (answers.isEmpty()) {
            resp.status = 500;
            resp.body = R"({"error":{"message":"script exhausted"}})";
            return resp;
        }
        resp.body = QJsonDocument(answers.takeFirst()).toJson(QJsonDocument::Compact);
        return resp;
    });
}

void ModelScript::reset()
{
    answers.clear();
    failures.clear();
    requests.clear();
}

QJsonObject toolCall(const QString &id, const QString &name, const QJsonObject &args)
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("type"), QStringLiteral("function")},
            {QStringLiteral("function"),
             QJsonObject{{QStringLiteral("name"), name},
                         {QStringLiteral("arguments"),
                          QString::fromUtf8(QJsonDocument(args).toJson(QJsonDocument::Compact))}}}};
}

QJsonObject assistantCalls(const QJsonArray &calls, int tokens)
{
    return {
        {QStringLiteral("choices"),
         QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                {QStringLiteral("finish_reason"), QStringLiteral("tool_calls")},
                                {QStringLiteral("message"),
                                 QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                             {QStringLiteral("content"), QJsonValue()},
                                             {QStringLiteral("tool_calls"), calls}}}}}},
        {QStringLiteral("usage"), QJsonObject{{QStringLiteral("prompt_tokens"), tokens - 100},
                                              {QStringLiteral("completion_tokens"), 100},
                                              {QStringLiteral("total_tokens"), tokens}}}};
}

} // namespace ph::test
