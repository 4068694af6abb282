#pragma once

#include "EngineTypes.h"

#include <QJsonObject>

#include <optional>

namespace ph {
class ObjectStore;
class Settings;
struct StoredObject;
} // namespace ph

namespace ph::engine {

// Everything an ApiExecuteResponse is made of.
struct RunSnapshot
{
    RunStatus status = RunStatus::Executing;
    QString trajectoryId;
    int phase = 1;
    QString requestId;
    QString text;
    std::optional<QJsonValue> json; // result.json
    QList<QJsonValue> jsonBlocks;   // several JSON blocks (json is their array), or none
    QList<StepRecord> steps;
    QList<Question> questions;
    QStringList warnings;
    QString error;
    QStringList toolsUsed;
    QList<GeneratedFile> files;
    qint64 creditsMilli = 0;           // this phase
    Usage usage;                       // what stands behind it (pages, browser ms, tokens)
    qint64 trajectoryCreditsMilli = 0; // every phase of the trajectory
    std::optional<qint64> creditsLeftMilli;
    QString expiryReason;
    QJsonObject plannerState;
    QString planner;
};

// Builds ApiExecuteResponse bodies: output blocks, result, steps by verbosity, usage,
// metadata, history for continuation, and the large-output snapshot.
class ResponseBuilder
{
public:
    // The large-response snapshot a run stored last, so that building the same response
    // again (every GET /agent/{id}, every long-poll answer, the callbacks) reuses it
    // instead of storing another copy. `digest` covers the response without its
    // time-dependent parts (the signed links of generated files).
    struct SnapshotMemo
    {
        QByteArray digest;
        QString objectId;
        QString name;
        QString contentType;
        qint64 size = 0;
    };

    // The full response at `verbosity` (final, steps, debug). Over `inlineCap` the full
    // response is stored (once per distinct content when `memo` is given) and a preview
    // that fits is answered.
    static QJsonObject build(const RunSnapshot &run, const QString &verbosity, qint64 inlineCap,
                             ObjectStore &objects, const Settings &settings, const QString &keyId,
                             SnapshotMemo *memo = nullptr);

    // metadata: taskRef, inlineOutputMaxBytes, toolsUsed, planner, generatedFiles.
    static QJsonObject metadataJson(const RunSnapshot &run, qint64 inlineCap, ObjectStore &objects,
                                    const Settings &settings);

    // Signed, expiring URL of a stored object; of a generated site (a "site_…" id), its
    // root page, under which its relative links resolve.
    static QJsonObject storageRef(ObjectStore &objects, const Settings &settings, const QString &id,
                                  const QString &name, const QString &contentType, qint64 size);

private:
    // The whole response stored (or the memo's copy reused when unchanged).
    static StoredObject storeSnapshot(const RunSnapshot &run, const QJsonObject &response,
                                      const QByteArray &full, ObjectStore &objects,
                                      const QString &keyId, SnapshotMemo *memo);
};

} // namespace ph::engine
