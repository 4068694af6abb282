#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace ph::test {

class FixtureServer;

// An OpenAI-compatible chat-completions endpoint served by a test's FixtureServer at
// /v1/chat/completions: each call pops the next scripted answer (after answering any
// queued failure statuses) and every request body is kept for the test to inspect.
struct ModelScript
{
    QList<QJsonObject> answers;
    QList<int> failures; // HTTP statuses to answer before the next scripted answer
    QList<QJsonObject> requests;

    // Routes /v1/chat/completions on `server` to this script (which must outlive it).
    void serveOn(FixtureServer &server);
    // Clears answers, failures and requests.
    void reset();
};

// One tool call of an assistant message, with `args` as its JSON-encoded arguments.
QJsonObject toolCall(const QString &id, const QString &name, const QJsonObject &args);
// A chat-completions answer whose message makes `calls`, billing `tokens` tokens.
QJsonObject assistantCalls(const QJsonArray &calls, int tokens);

} // namespace ph::test
