#pragma once

#include "LibraryRepository.h"

#include "engine/EngineTypes.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph::engine {
class RunManager;
class TrajectoryRepository;
struct TrajectoryRow;
} // namespace ph::engine

namespace ph::cloud {

// A saved tool as a caller writes it (POST/PUT /tools, the console's editor): exactly
// one of steps, fromRecording (a subroutine) or code with url (a JavaScript tool).
struct ToolDraft
{
    QString name; // creating only; replacing keeps the stored name
    QString description;
    std::optional<QJsonObject> parameters; // JSON Schema of type object; unset: none
    std::optional<QJsonArray> steps;       // [{tool, args}] with {{parameter}} placeholders
    std::optional<QString> fromRecording;  // a trajectory id of the same key
    std::optional<QString> code;           // a function body; `params` holds the arguments
    std::optional<QString> url;            // the page the code runs in
};

// A trigger as a caller asks for it (POST /triggers, the console's triggers panel):
// exactly one target.
struct TriggerDraft
{
    QString label;
    std::optional<QString> tool;         // a saved tool's name (or user_<name>)
    std::optional<QString> trajectoryId; // a past run, again
    std::optional<QString> prompt;       // an agent task
    std::optional<QStringList> urls;     // prompt: its pages
    std::optional<QJsonObject> schema;   // prompt: the shape of its answer
};

// What a fired trigger runs: the bridge call it stands for.
struct TriggerCall
{
    QString triggerId;
    QString tool; // a bridge tool: user_<name>, agent, act, …
    QJsonObject params;
};

// A recording: a run's every phase, as the steps a saved tool can keep.
struct Recording
{
    QString id;
    QString task;
    QString status;
    QList<engine::StepRecord> steps;
};

// The browser bridge's library, per API key (docs/decisions.md, "Domain services"):
// saved tools, the recordings they can be made from, triggers and their firing, and
// the script a saved tool runs. LibraryController (/tools, /recordings, /triggers),
// BridgeController (user_<name>, trigger URLs), RunService and the console's tools and
// triggers panels call it. Failures are DomainErrors naming the field; a refused
// change stores nothing.
class ToolLibrary
{
public:
    ToolLibrary(LibraryRepository &library, engine::RunManager &runs,
                engine::TrajectoryRepository &trajectories);

    // Saved tools.
    QList<SavedTool> tools(const QString &keyId) const;
    std::optional<SavedTool> findTool(const QString &keyId, const QString &name) const;
    // 404 TOOL_NOT_FOUND (field name).
    SavedTool tool(const QString &keyId, const QString &name) const;
    // 400 naming the field (name first), 404 RECORDING_NOT_FOUND, 409 TOOL_EXISTS.
    SavedTool createTool(const QString &keyId, const ToolDraft &draft);
    // 404 TOOL_NOT_FOUND before the draft is read; then as createTool.
    SavedTool replaceTool(const QString &keyId, const QString &name, const ToolDraft &draft);
    // 404 TOOL_NOT_FOUND.
    void removeTool(const QString &keyId, const QString &name);

    // The steps `tool` runs with `arguments`: checked against its parameters (400 under
    // `fieldPrefix`), defaults filled in, {{placeholders}} replaced; a JavaScript tool
    // opens its page and runs its code there.
    static QJsonArray scriptFor(const SavedTool &tool, const QJsonObject &arguments,
                                const QString &fieldPrefix);
    // A run of `script` started by the bridge tool `tool` with `params`, as `task`.
    static engine::ExecuteRequest scriptRequest(const QString &tool, const QJsonObject &params,
                                                const QJsonArray &script, const QString &task);
    // The run of the key's saved tool `name` with `params` (the bridge's user_<name>):
    // 404 TOOL_NOT_FOUND (field tool), 400 under params.
    engine::ExecuteRequest savedToolRequest(const QString &keyId, const QString &name,
                                            const QJsonObject &params) const;

    // Recordings (every run of the key is one), newest first.
    QList<engine::TrajectoryRow> recordings(const QString &keyId, int limit) const;
    // 404 RECORDING_NOT_FOUND.
    Recording recording(const QString &keyId, const QString &id) const;

    // Triggers: the key's, newest first; every key's when `keyId` is empty (the console).
    QList<Trigger> triggers(const QString &keyId) const;
    // Any key's trigger (the console), or nullopt.
    std::optional<Trigger> findTrigger(const QString &id) const;
    // The key's trigger; 404 TRIGGER_NOT_FOUND.
    Trigger trigger(const QString &keyId, const QString &id) const;
    // 400 naming the field, 404 TOOL_NOT_FOUND / TRAJECTORY_NOT_FOUND.
    Trigger createTrigger(const QString &keyId, const TriggerDraft &draft);
    // Its URL answers 404 from now on; 404 TRIGGER_NOT_FOUND.
    Trigger revokeTrigger(const QString &keyId, const QString &id);
    // The trigger `id` if the caller may fire it (its own, or any as the owner) and it is
    // not revoked; 404 TRIGGER_NOT_FOUND otherwise.
    Trigger activeTrigger(const QString &id, const QString &callerKeyId, bool callerIsOwner) const;
    // Fires the trigger `id` for the caller (its own trigger, or any as the owner):
    // what it runs, with `input` (the caller's body without its callbacks) as the
    // saved tool's parameters or the prompt's addition; the firing is counted.
    // 404 as activeTrigger().
    TriggerCall fireTrigger(const QString &id, const QString &callerKeyId, bool callerIsOwner,
                            const QJsonObject &input);

private:
    SavedTool readTool(const QString &keyId, const QString &name, const ToolDraft &draft) const;

    LibraryRepository &m_library;
    engine::RunManager &m_runs;
    engine::TrajectoryRepository &m_trajectories;
};

} // namespace ph::cloud
