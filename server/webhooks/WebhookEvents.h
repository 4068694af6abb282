#pragma once

#include "WebhookQueue.h"

#include <QJsonArray>
#include <QJsonObject>

#include <optional>

namespace ph {
class Clock;
}

namespace ph::webhooks {

// How a piece of work ended, in the terms the callback payloads use.
struct Outcome
{
    QString requestId;
    QString endpoint; // /agent, /scrape, /mcp …
    QString tool;     // agent, scrape, planner, user_<name> …
    QString deviceId = QStringLiteral("cloud");
    QString status; // success, error, cancelled, requires_input, partial …
    bool success = false;
    bool inputRequired = false;
    qint64 startedAt = 0;
    qint64 finishedAt = 0;
    qint64 creditsUsedMilli = 0;
    std::optional<qint64> creditsLeftMilli;
    QJsonObject output; // the full response body of the work
    QJsonArray extractedData;
    QString errorMessage;
    QString errorCode;
    QJsonObject errorDetails;
    QJsonObject params; // the request as given (secrets removed)
    QString trajectoryId;
    int phase = 0;
};

// The events of an outcome (docs/api/webhooks.md): workflow.completed or
// workflow.failed (the spec's payloads), workflow.input_required, and the selectable
// svc.execution.succeeded / svc.execution.failed. WebhookQueue keeps those each
// subscription selects.
QList<Event> eventsFor(const Outcome &outcome, const Clock &clock);

// A test event for POST /webhooks/test.
Event testEvent(const Clock &clock, int sequence);

} // namespace ph::webhooks
