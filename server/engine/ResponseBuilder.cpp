#include "ResponseBuilder.h"

#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/ObjectStore.h"
#include "core/Settings.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>

namespace ph::engine {

namespace {

constexpr int kPreviewChars = 2000;
constexpr qint64 kSnapshotTtlMs = 7LL * 24 * 3600 * 1000;

QByteArray serialize(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString preview(const QJsonValue &v, int chars)
{
    QString s;
    if (v.isObject())
        s = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    else if (v.isArray())
        s = QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    else if (v.isString())
        s = v.toString();
    else
        s = QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
                .mid(1)
                .chopped(1);
    return s.size() > chars ? s.left(chars) + QStringLiteral("…") : s;
}

QJsonObject stepSummary(const StepRecord &s)
{
    return {{QStringLiteral("seq"), s.seq},
            {QStringLiteral("toolName"), s.toolName},
            {QStringLiteral("status"), s.status},
            {QStringLiteral("duration"), s.durationMs},
            {QStringLiteral("creditsUsed"), creditsFromMilli(s.creditsMilli)},
            {QStringLiteral("hasOutput"), s.hasOutput},
            {QStringLiteral("hasSheets"), s.hasSheets},
            {QStringLiteral("hasGeneratedContent"), s.hasGeneratedContent},
            {QStringLiteral("summary"), s.summary}};
}

// A fingerprint of a response that ignores what changes with the clock alone: the
// signed links (and their expiry) of generated files.
QByteArray digestOf(QJsonObject response)
{
    QJsonObject metadata = response.value(QStringLiteral("metadata")).toObject();
    if (metadata.contains(QStringLiteral("generatedFiles"))) {
        QJsonArray files;
        for (const QJsonValue &f : metadata.value(QStringLiteral("generatedFiles")).toArray()) {
            QJsonObject o = f.toObject();
            o.remove(QStringLiteral("downloadUrl"));
            o.remove(QStringLiteral("expiresAt"));
            files.append(o);
        }
        metadata.insert(QStringLiteral("generatedFiles"), files);
        response.insert(QStringLiteral("metadata"), metadata);
    }
    return QCryptographicHash::hash(serialize(response), QCryptographicHash::Sha256);
}

} // namespace

QJsonObject ResponseBuilder::storageRef(ObjectStore &objects, const Settings &settings,
                                        const QString &id, const QString &name,
                                        const QString &contentType, qint64 size)
{
    const qint64 ttl = settings.int64Value(SettingKeys::storageUrlTtlSeconds) * 1000;
    const qint64 expires = QDateTime::currentMSecsSinceEpoch() + ttl;
    const QString base = settings.stringValue(SettingKeys::publicBaseUrl);
    return {{QStringLiteral("id"), id},
            {QStringLiteral("name"), name},
            {QStringLiteral("contentType"), contentType},
            {QStringLiteral("sizeBytes"), double(size)},
            {QStringLiteral("downloadUrl"),
             base + (ObjectStore::isSiteId(id) ? objects.signedSitePath(id, expires)
                                               : objects.signedPath(id, expires))},
            {QStringLiteral("expiresAt"), Clock::isoUtc(expires)}};
}

namespace {

// The run's text: its answer, or the questions of a run that waits for input.
QString answerText(const RunSnapshot &run)
{
    if (run.status != RunStatus::RequiresInput || !run.text.isEmpty())
        return run.text;
    QStringList lines{QStringLiteral("I need some information to continue:")};
    for (const Question &q : run.questions)
        lines << QStringLiteral("- %1").arg(q.question);
    return lines.join(QLatin1Char('\n'));
}

// output[]: a text block, a JSON block, and with debug every step's tool_result.
QJsonArray outputBlocks(const RunSnapshot &run, const QString &text, bool debug)
{
    QJsonArray output;
    if (!text.isEmpty())
        output.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                  {QStringLiteral("text"), text}});
    // One block per JSON answer; result.json holds the one, or the array of several.
    const QList<QJsonValue> blocks =
        !run.jsonBlocks.isEmpty() ? run.jsonBlocks
                                  : (run.json ? QList<QJsonValue>{*run.json} : QList<QJsonValue>{});
    for (const QJsonValue &block : blocks)
        output.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("json")},
                                  {QStringLiteral("data"), block}});
    if (!debug)
        return output;
    for (const StepRecord &s : run.steps) {
        output.append(QJsonObject{
            {QStringLiteral("type"), QStringLiteral("tool_result")},
            {QStringLiteral("tool_result"),
             QJsonObject{
                 {QStringLiteral("stepId"),
                  QStringLiteral("%1.%2.%3").arg(run.trajectoryId).arg(run.phase).arg(s.seq)},
                 {QStringLiteral("toolName"), s.toolName},
                 {QStringLiteral("args"), s.args},
                 {QStringLiteral("status"), s.status},
                 {QStringLiteral("durationMs"), s.durationMs},
                 {QStringLiteral("thought"), s.thought},
                 {QStringLiteral("summary"), s.summary},
                 {QStringLiteral("outputPreview"), preview(s.output, kPreviewChars)}}}});
    }
    return output;
}

QJsonObject usageJson(const RunSnapshot &run)
{
    QJsonObject usage{
        {QStringLiteral("creditsUsed"), creditsFromMilli(run.creditsMilli)},
        {QStringLiteral("currentCreditsUsed"), creditsFromMilli(run.trajectoryCreditsMilli)},
        {QStringLiteral("creditsLeft"), run.creditsLeftMilli
                                            ? QJsonValue(creditsFromMilli(*run.creditsLeftMilli))
                                            : QJsonValue()}};
    if (!run.expiryReason.isEmpty())
        usage.insert(QStringLiteral("expiryReason"), run.expiryReason);
    // The usage behind the price (docs/api/credits.md), and each tool's share.
    usage.insert(QStringLiteral("pages"), run.usage.pages);
    usage.insert(QStringLiteral("browserMs"), double(run.usage.browserMs));
    if (run.usage.tokens > 0)
        usage.insert(QStringLiteral("tokens"), double(run.usage.tokens));
    QMap<QString, QPair<int, qint64>> byTool;
    for (const StepRecord &s : run.steps) {
        auto &t = byTool[s.toolName];
        ++t.first;
        t.second += s.creditsMilli;
    }
    QJsonObject tools;
    for (auto it = byTool.cbegin(); it != byTool.cend(); ++it)
        tools.insert(it.key(), QJsonObject{{QStringLiteral("steps"), it.value().first},
                                           {QStringLiteral("creditsUsed"),
                                            creditsFromMilli(it.value().second)}});
    if (!tools.isEmpty())
        usage.insert(QStringLiteral("byTool"), tools);
    return usage;
}

// history: what a continuation (history.continue) sends back.
QJsonObject historyJson(const RunSnapshot &run)
{
    QJsonArray previous;
    for (const StepRecord &s : run.steps)
        previous.append(QJsonObject{{QStringLiteral("seq"), s.seq},
                                    {QStringLiteral("toolName"), s.toolName},
                                    {QStringLiteral("args"), s.args},
                                    {QStringLiteral("status"), s.status},
                                    {QStringLiteral("summary"), s.summary}});
    QJsonObject lastTool;
    if (!run.steps.isEmpty()) {
        const StepRecord &s = run.steps.last();
        lastTool = {{QStringLiteral("toolName"), s.toolName},
                    {QStringLiteral("args"), s.args},
                    {QStringLiteral("status"), s.status}};
    }
    return {{QStringLiteral("previousSteps"), previous},
            {QStringLiteral("lastToolPreviousSteps"), lastTool}};
}

// The response cut to fit `inlineCap`: previews of the text and the JSON, halved until
// they fit; at the very least, no output at all.
QJsonObject preview(QJsonObject small, const RunSnapshot &run, const QString &text,
                    qint64 inlineCap)
{
    small.remove(QStringLiteral("steps"));
    small.remove(QStringLiteral("history"));
    for (int chars = kPreviewChars; chars >= 0; chars = chars > 16 ? chars / 2 : -1) {
        QJsonArray previewBlocks;
        QJsonObject previewResult;
        if (!text.isEmpty()) {
            const QString t = text.size() > chars ? text.left(chars) + QStringLiteral("…") : text;
            previewBlocks.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                             {QStringLiteral("text"), t}});
            previewResult.insert(QStringLiteral("text"), t);
        }
        if (run.json) {
            previewBlocks.append(
                QJsonObject{{QStringLiteral("type"), QStringLiteral("json")},
                            {QStringLiteral("data"),
                             QJsonObject{{QStringLiteral("preview"), preview(*run.json, chars)},
                                         {QStringLiteral("truncated"), true}}}});
        }
        small.insert(QStringLiteral("output"), previewBlocks);
        if (previewResult.isEmpty())
            small.remove(QStringLiteral("result"));
        else
            small.insert(QStringLiteral("result"), previewResult);
        if (serialize(small).size() <= inlineCap || chars == 0)
            break;
    }
    if (serialize(small).size() > inlineCap) {
        // Even an empty preview does not fit (a tiny cap): drop the warnings' detail.
        small.remove(QStringLiteral("warnings"));
        small.insert(QStringLiteral("output"), QJsonArray());
    }
    return small;
}

} // namespace

QJsonObject ResponseBuilder::metadataJson(const RunSnapshot &run, qint64 inlineCap,
                                          ObjectStore &objects, const Settings &settings)
{
    QJsonObject metadata{
        {QStringLiteral("taskRef"), QStringLiteral("%1/%2").arg(run.trajectoryId).arg(run.phase)},
        {QStringLiteral("inlineOutputMaxBytes"), double(inlineCap)},
        {QStringLiteral("toolsUsed"), QJsonArray::fromStringList(run.toolsUsed)},
        {QStringLiteral("planner"), run.planner}};
    if (!run.files.isEmpty()) {
        QJsonArray files;
        for (const GeneratedFile &f : run.files) {
            QJsonObject ref =
                storageRef(objects, settings, f.objectId, f.name, f.contentType, f.sizeBytes);
            ref.insert(QStringLiteral("tool"), f.tool);
            files.append(ref);
        }
        metadata.insert(QStringLiteral("generatedFiles"), files);
    }
    return metadata;
}

QJsonObject ResponseBuilder::build(const RunSnapshot &run, const QString &verbosity,
                                   qint64 inlineCap, ObjectStore &objects, const Settings &settings,
                                   const QString &keyId, SnapshotMemo *memo)
{
    const bool steps = verbosity == QLatin1String("steps") || verbosity == QLatin1String("debug");
    const QString text = answerText(run);
    QJsonObject result;
    if (!text.isEmpty())
        result.insert(QStringLiteral("text"), text);
    if (run.json)
        result.insert(QStringLiteral("json"), *run.json);
    QJsonObject metadata = metadataJson(run, inlineCap, objects, settings);

    QJsonObject response{
        {QStringLiteral("success"), run.status == RunStatus::Success},
        {QStringLiteral("status"), toString(run.status)},
        {QStringLiteral("trajectoryId"), run.trajectoryId},
        {QStringLiteral("phase"), run.phase},
        {QStringLiteral("requestId"), run.requestId},
        {QStringLiteral("output"), outputBlocks(run, text, verbosity == QLatin1String("debug"))},
        {QStringLiteral("usage"), usageJson(run)},
        {QStringLiteral("metadata"), metadata}};
    if (!result.isEmpty())
        response.insert(QStringLiteral("result"), result);
    if (steps) {
        QJsonArray list;
        for (const StepRecord &s : run.steps)
            list.append(stepSummary(s));
        response.insert(QStringLiteral("steps"), list);
    }
    if (!run.warnings.isEmpty())
        response.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(run.warnings));
    if (!run.error.isEmpty())
        response.insert(QStringLiteral("error"), run.error);
    if (run.status == RunStatus::RequiresInput) {
        QJsonArray questions;
        for (const Question &q : run.questions)
            questions.append(q.toJson());
        response.insert(QStringLiteral("questions"), questions);
    }
    // On every response, at any verbosity (docs/api/agent.md): the spec's continuation
    // pattern sends back "the history from the previous response".
    response.insert(QStringLiteral("history"), historyJson(run));

    const QByteArray full = serialize(response);
    if (full.size() <= inlineCap)
        return response;

    // Too large: store the whole response and answer with a preview that fits the cap.
    // The same response read again reuses its snapshot while the snapshot lives. A run
    // still executing changes with every step: polling it stores nothing, the snapshot
    // comes once it settles.
    metadata.insert(QStringLiteral("outputTooLarge"), true);
    if (run.status != RunStatus::Executing) {
        const StoredObject stored = storeSnapshot(run, response, full, objects, keyId, memo);
        metadata.insert(
            QStringLiteral("responseRef"),
            storageRef(objects, settings, stored.id, stored.name, stored.contentType, stored.size));
    }
    response.insert(QStringLiteral("metadata"), metadata);
    return preview(response, run, text, inlineCap);
}

StoredObject ResponseBuilder::storeSnapshot(const RunSnapshot &run, const QJsonObject &response,
                                            const QByteArray &full, ObjectStore &objects,
                                            const QString &keyId, SnapshotMemo *memo)
{
    const QByteArray digest = memo ? digestOf(response) : QByteArray();
    StoredObject stored;
    if (memo && memo->digest == digest && objects.find(memo->objectId)) {
        stored.id = memo->objectId;
        stored.name = memo->name;
        stored.contentType = memo->contentType;
        stored.size = memo->size;
        return stored;
    }
    stored = objects.put(keyId, QStringLiteral("response"),
                         QStringLiteral("%1-%2.json").arg(run.trajectoryId).arg(run.phase),
                         QStringLiteral("application/json"), full, kSnapshotTtlMs);
    if (memo)
        *memo = {digest, stored.id, stored.name, stored.contentType, stored.size};
    return stored;
}

} // namespace ph::engine
