#include "WebhookEvents.h"

#include "core/Clock.h"
#include "core/CreditLedger.h"

namespace ph::webhooks {

namespace {
QJsonValue credits(std::optional<qint64> milli)
{
    return milli ? QJsonValue(creditsFromMilli(*milli)) : QJsonValue();
}
} // namespace

QList<Event> eventsFor(const Outcome &o, const Clock &clock)
{
    const QString timestamp = Clock::isoUtc(clock.nowMs());
    const qint64 executionTime = qMax<qint64>(0, o.finishedAt - o.startedAt);
    // The request as the subscriber may see it: no secrets, header values masked.
    const QJsonObject original{
        {QStringLiteral("tool"), o.tool},
        {QStringLiteral("params"), WebhookSubscription::redactedRequest(o.params)}};
    QList<Event> events;
    if (o.success || o.inputRequired) {
        // The spec's success payload, field by field.
        const QString name = o.success ? QStringLiteral("workflow.completed")
                                       : QStringLiteral("workflow.input_required");
        QJsonObject data{{QStringLiteral("taskCompleted"), o.success},
                         {QStringLiteral("output"), o.output},
                         {QStringLiteral("extractedData"), o.extractedData},
                         {QStringLiteral("creditsUsed"), creditsFromMilli(o.creditsUsedMilli)}};
        if (o.inputRequired)
            data.insert(QStringLiteral("questions"), o.output.value(QStringLiteral("questions")));
        events.append(
            {name,
             {{QStringLiteral("event"), name},
              {QStringLiteral("timestamp"), timestamp},
              {QStringLiteral("requestId"), o.requestId},
              {QStringLiteral("success"), o.success},
              {QStringLiteral("data"), data},
              {QStringLiteral("metadata"),
               QJsonObject{{QStringLiteral("tool"), o.tool},
                           {QStringLiteral("deviceId"), o.deviceId},
                           {QStringLiteral("executionTime"), executionTime},
                           {QStringLiteral("creditsRemaining"), credits(o.creditsLeftMilli)}}},
              {QStringLiteral("originalRequest"), original}}});
    } else {
        // The spec's failure payload, field by field.
        events.append(
            {QStringLiteral("workflow.failed"),
             {{QStringLiteral("event"), QStringLiteral("workflow.failed")},
              {QStringLiteral("timestamp"), timestamp},
              {QStringLiteral("requestId"), o.requestId},
              {QStringLiteral("success"), false},
              {QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), o.errorMessage},
                                                    {QStringLiteral("code"), o.errorCode},
                                                    {QStringLiteral("details"), o.errorDetails}}},
              {QStringLiteral("metadata"),
               QJsonObject{{QStringLiteral("tool"), o.tool},
                           {QStringLiteral("executionTime"), executionTime}}}}});
    }
    if (!o.inputRequired) {
        // svc.execution.*: the whole execution record with the full response, for
        // services that want everything in one place.
        const QString name = o.success ? QStringLiteral("svc.execution.succeeded")
                                       : QStringLiteral("svc.execution.failed");
        QJsonObject execution{{QStringLiteral("id"), o.requestId},
                              {QStringLiteral("endpoint"), o.endpoint},
                              {QStringLiteral("tool"), o.tool},
                              {QStringLiteral("status"), o.status},
                              {QStringLiteral("success"), o.success},
                              {QStringLiteral("startedAt"), Clock::isoUtc(o.startedAt)},
                              {QStringLiteral("finishedAt"), Clock::isoUtc(o.finishedAt)},
                              {QStringLiteral("executionTime"), executionTime},
                              {QStringLiteral("creditsUsed"), creditsFromMilli(o.creditsUsedMilli)},
                              {QStringLiteral("creditsRemaining"), credits(o.creditsLeftMilli)}};
        if (!o.trajectoryId.isEmpty()) {
            execution.insert(QStringLiteral("trajectoryId"), o.trajectoryId);
            execution.insert(QStringLiteral("phase"), o.phase);
        }
        QJsonObject payload{{QStringLiteral("event"), name},
                            {QStringLiteral("timestamp"), timestamp},
                            {QStringLiteral("requestId"), o.requestId},
                            {QStringLiteral("success"), o.success},
                            {QStringLiteral("execution"), execution},
                            {QStringLiteral("data"), o.output},
                            {QStringLiteral("originalRequest"), original}};
        if (!o.success)
            payload.insert(QStringLiteral("error"),
                           QJsonObject{{QStringLiteral("message"), o.errorMessage},
                                       {QStringLiteral("code"), o.errorCode},
                                       {QStringLiteral("details"), o.errorDetails}});
        events.append({name, payload});
    }
    return events;
}

Event testEvent(const Clock &clock, int sequence)
{
    const qint64 now = clock.nowMs();
    return {QStringLiteral("webhook.test"),
            {{QStringLiteral("event"), QStringLiteral("webhook.test")},
             {QStringLiteral("timestamp"), Clock::isoUtc(now)},
             {QStringLiteral("sequence"), sequence},
             {QStringLiteral("enqueuedAtMs"), double(now)}}};
}

} // namespace ph::webhooks
