#pragma once

#include "browser/LeaseOptions.h"
#include "core/CreditLedger.h"
#include "core/RequestLog.h"
#include "engine/RunSettings.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

class QObject;

namespace ph {
class BrowserLease;
}

namespace ph::engine {

// Execution status of a phase, exactly the spec's values.
enum class RunStatus { Executing, Success, Error, Cancelled, RequiresInput };
QString toString(RunStatus status);
RunStatus runStatusFromString(const QString &status);
inline bool isTerminal(RunStatus s)
{
    return s == RunStatus::Success || s == RunStatus::Error || s == RunStatus::Cancelled;
}

// The body of POST /agent and /execute, validated (cloud/AgentRequest.cpp reads it).
class BrowserTab;

// Opens a page of a browser session for a run working inside it (SessionBrowser::openPage;
// docs/api/sessions.md, "Work inside a session"): `granted` once, from the event loop,
// with the lease or with null and why; never after `context` is gone.
using SessionPageOpener = std::function<void(
    const QString &label, QObject *context,
    std::function<void(std::unique_ptr<ph::BrowserLease> lease, const QString &error)> granted)>;

struct ExecuteRequest
{
    QString input;
    QStringList urls;
    QJsonObject schema; // empty: no schema
    QString trajectoryId;
    int phase = 0; // 0: not given
    QJsonArray dataInputs;
    QStringList fileUrls;
    QStringList imageUrls;
    QString recordingId;
    QJsonObject settings;    // as given (settings.proxy's password in clear: never stored)
    RunSettings runSettings; // the same, validated (RunSettings::read)
    LeaseOptions browser;    // `browser`: the engine and polyfills of the run's pages
    bool historyContinue = false;
    QJsonArray previousSteps;
    QJsonObject lastToolPreviousSteps;
    QJsonObject answers; // history.answers (our addition): question key -> answer
    QStringList additionalTools;
    QString verbosity = QStringLiteral("final");
    std::optional<qint64> inlineOutputMaxBytes;
    bool skipToolsStorageLoad = false;
    bool emitEvents = false;
    // options.liveView (docs/api/agent.md#live-view): the answers carry a live view link.
    bool liveView = false;
    QList<WebhookSubscription> webhooks;
    QJsonObject stored; // the request as kept in the store: secrets removed
    // Bridge runs (docs/api/bridge.md): steps {tool, args} the script planner runs in
    // order instead of planning, and the bridge tool and params that started the run
    // (for the callbacks' metadata.tool and originalRequest).
    QJsonArray script;
    QString origin;
    QJsonObject originParams;
    // A2W runs under a confirmation policy (docs/api/a2w.md): an action that would
    // submit a form other than by GET (and is not a sign-in) waits for a person's
    // confirmation, asked as the question `confirm_action`.
    bool confirmSubmits = false;
    // A2W runs under the crossHost policy `same_host`: the run's pages may land on this
    // origin only ("scheme://host:port", NetworkPolicy::originOf; empty: anywhere the
    // network policy allows). Enforced on every main-frame load (EgressGrant).
    QString sameOrigin;
    // Where the run's visitor reach is pinned (NetworkPolicy::pinReach) when it is not
    // its first URL: the visitor's page of a runtime act. Not stored.
    QUrl reachStart;
    // A run of the embedded runtime acts on the visitor's own page: this makes its tab
    // (runtime/RemoteTab) instead of leasing a page of the pool. Not stored.
    std::function<std::unique_ptr<BrowserTab>()> remoteTab;
    // `browserSession.id`: the caller's browser session the run works in (its pages are
    // tabs of the session's browser, not the pool's). Read by the cloud's readers only;
    // A2W and runtime runs never take one.
    QString browserSession;
    // Opens the run's pages in that session (set where the session is found: RunService).
    // Not stored.
    SessionPageOpener sessionPage;
};

// How a phase ended (or paused for input), as its callbacks announce it. The engine
// hands it to the settle hook (RunManager::setSettleHook) inside the transaction that
// stores that end, so the end and the callbacks it owes commit together.
struct Settlement
{
    QString trajectoryId;
    int phase = 0;
    QString keyId;
    QString requestId;              // the request that drove the phase last
    QStringList subscriberRequests; // every request whose subscriptions hear it
    RunStatus status = RunStatus::Executing;
    QJsonObject response; // the ApiExecuteResponse as stored
    QString error;
    qint64 startedAt = 0;
    qint64 creditsUsedMilli = 0;
    std::optional<qint64> creditsLeftMilli;
    QString tool = QStringLiteral("agent"); // the bridge tool for bridge runs
    bool bridged = false;
    QJsonObject params; // the request as stored, or the bridge call's params
};

using SettleHook = std::function<void(const Settlement &)>;

// A question of an ask_user pause.
struct Question
{
    QString key;
    QString question;
    QString label;
    bool secret = false;
    QStringList options;
    QJsonObject toJson() const;
    static Question fromJson(const QJsonObject &o);
};

// What a tool came to.
struct ToolResult
{
    bool ok = true;
    QJsonValue output;
    QString error;
    QString summary; // a line for logs, previews and the model
    bool touchedSheets = false;
    bool generatedContent = false;
    bool pause = false; // ask_user: the run waits for answers
    QList<Question> questions;
    Usage usage; // pages and browser time of this tool call

    static ToolResult failure(const QString &error)
    {
        ToolResult r;
        r.ok = false;
        r.error = error;
        r.summary = error;
        return r;
    }
};

// One step of a phase as stored and reported.
struct StepRecord
{
    qint64 id = 0;
    int seq = 0;
    QString toolName;
    QJsonObject args;
    QString status; // executing, success, error
    qint64 startedAt = 0;
    qint64 durationMs = 0;
    qint64 creditsMilli = 0;
    QString thought;
    QJsonValue output;
    QString summary;
    bool hasOutput = false;
    bool hasSheets = false;
    bool hasGeneratedContent = false;
};

// A planner's next move.
struct Decision
{
    enum class Kind { Call, Finish, Fail };
    Kind kind = Kind::Fail;
    QString tool;
    QJsonObject args;
    QString thought;
    QString text;                   // Finish: the text answer
    std::optional<QJsonValue> json; // Finish: the JSON answer
    // Finish: several JSON answers (one per record the run read), each its own output
    // block; result.json is then the array of them.
    QList<QJsonValue> jsonBlocks;
    QString error; // Fail
    Usage usage;   // model tokens spent on this decision

    static Decision call(const QString &tool, const QJsonObject &args, const QString &thought = {})
    {
        Decision d;
        d.kind = Kind::Call;
        d.tool = tool;
        d.args = args;
        d.thought = thought;
        return d;
    }
    static Decision finish(const QString &text, std::optional<QJsonValue> json)
    {
        Decision d;
        d.kind = Kind::Finish;
        d.text = text;
        d.json = std::move(json);
        return d;
    }
    static Decision finish(const QString &text, const QList<QJsonValue> &blocks)
    {
        if (blocks.size() <= 1)
            return finish(text, blocks.isEmpty() ? std::nullopt
                                                 : std::optional<QJsonValue>(blocks.first()));
        QJsonArray all;
        for (const QJsonValue &b : blocks)
            all.append(b);
        Decision d = finish(text, std::optional<QJsonValue>(all));
        d.jsonBlocks = blocks;
        return d;
    }
    static Decision fail(const QString &error)
    {
        Decision d;
        d.kind = Kind::Fail;
        d.error = error;
        return d;
    }
};

// A file a tool generated (xlsx, pdf, document), served by signed URL.
struct GeneratedFile
{
    QString tool;
    QString objectId;
    QString name;
    QString contentType;
    qint64 sizeBytes = 0;
};

} // namespace ph::engine
