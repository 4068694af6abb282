#include "ToolLibrary.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/JsonSchema.h"
#include "engine/RunManager.h"
#include "engine/TrajectoryRepository.h"
#include "net/NetworkPolicy.h"

#include <QRegularExpression>
#include <QUrl>

namespace ph::cloud {

namespace {

constexpr int kMaxSteps = 100;
constexpr int kMaxCodeChars = 100000;
const QString kMasked = QStringLiteral("••••••");
const QString kSavedPrefix = QStringLiteral("user_");
const QStringList kStepTools{QStringLiteral("act_on_tab"),
                             QStringLiteral("crawl_and_extract_from_tab")};
const QStringList kParamTypes{QStringLiteral("string"),  QStringLiteral("number"),
                              QStringLiteral("integer"), QStringLiteral("boolean"),
                              QStringLiteral("array"),   QStringLiteral("object")};
const QRegularExpression kName(QStringLiteral("^[a-z][a-z0-9_]{0,47}$"));
// {{name}} placeholders.
const QRegularExpression
    kPlaceholder(QStringLiteral("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\}\\}"));

// Every {{name}} in `value`.
void placeholders(const QJsonValue &value, QStringList *out)
{
    if (value.isString()) {
        auto it = kPlaceholder.globalMatch(value.toString());
        while (it.hasNext())
            out->append(it.next().captured(1));
    } else if (value.isArray()) {
        for (const auto &v : value.toArray())
            placeholders(v, out);
    } else if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            placeholders(it.value(), out);
    }
}

// A string that is only a placeholder takes the argument's JSON value; otherwise each
// placeholder is replaced by its text.
QJsonValue substitute(const QJsonValue &value, const QJsonObject &arguments)
{
    if (value.isString()) {
        const QString s = value.toString();
        const auto whole = kPlaceholder.match(s);
        if (whole.hasMatch() && whole.capturedStart() == 0 && whole.capturedLength() == s.size())
            return arguments.value(whole.captured(1));
        QString out;
        qsizetype at = 0;
        auto it = kPlaceholder.globalMatch(s);
        while (it.hasNext()) {
            const auto m = it.next();
            out += s.mid(at, m.capturedStart() - at);
            const QJsonValue v = arguments.value(m.captured(1));
            out +=
                v.isString() ? v.toString()
                : v.isDouble()
                    ? QString::number(v.toDouble(), 'g', 15)
                    : (v.isBool() ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                                  : QString());
            at = m.capturedEnd();
        }
        return out + s.mid(at);
    }
    if (value.isArray()) {
        QJsonArray out;
        for (const auto &v : value.toArray())
            out.append(substitute(v, arguments));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            out.insert(it.key(), substitute(it.value(), arguments));
        return out;
    }
    return value;
}

QJsonObject readParameters(const std::optional<QJsonObject> &given)
{
    if (!given)
        return {{QStringLiteral("type"), QStringLiteral("object")},
                {QStringLiteral("properties"), QJsonObject()}};
    const JsonFields fields(*given, QStringLiteral("parameters"));
    QJsonObject schema = fields.object();
    const QString type =
        fields.optionalString(QStringLiteral("type")).value_or(QStringLiteral("object"));
    if (type != QLatin1String("object"))
        throw DomainError::invalidField(fields.path(QStringLiteral("type")),
                                        QStringLiteral("must be \"object\""));
    schema.insert(QStringLiteral("type"), type);
    QJsonObject properties;
    if (const auto props = fields.optionalObject(QStringLiteral("properties"))) {
        properties = props->object();
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            const QString path = props->path(it.key());
            if (!kName.match(it.key()).hasMatch())
                throw DomainError::invalidField(
                    path, QStringLiteral("parameter names are lowercase letters, digits and _"));
            const QString t = it.value().toObject().value(QStringLiteral("type")).toString();
            if (!it.value().isObject() || !kParamTypes.contains(t))
                throw DomainError::invalidField(path + QStringLiteral(".type"),
                                                QStringLiteral("must be one of %1")
                                                    .arg(kParamTypes.join(QStringLiteral(", "))));
        }
    }
    schema.insert(QStringLiteral("properties"), properties);
    if (const auto required = fields.stringArray(QStringLiteral("required"), false)) {
        for (qsizetype i = 0; i < required->size(); ++i) {
            if (!properties.contains(required->at(i)))
                throw DomainError::invalidField(
                    QStringLiteral("%1[%2]").arg(fields.path(QStringLiteral("required"))).arg(i),
                    QStringLiteral("names no parameter"));
        }
    }
    return schema;
}

QJsonArray readSteps(const QJsonArray &steps, const QJsonObject &parameters)
{
    if (steps.isEmpty() || steps.size() > kMaxSteps)
        throw DomainError::invalidField(QStringLiteral("steps"),
                                        QStringLiteral("needs 1 to %1 steps").arg(kMaxSteps));
    const QJsonObject properties = parameters.value(QStringLiteral("properties")).toObject();
    QJsonArray out;
    for (qsizetype i = 0; i < steps.size(); ++i) {
        const QString path = QStringLiteral("steps[%1]").arg(i);
        if (!steps.at(i).isObject())
            throw DomainError::invalidField(path, QStringLiteral("must be an object"));
        const JsonFields step(steps.at(i).toObject(), path);
        const QString tool = step.requiredString(QStringLiteral("tool"));
        if (!kStepTools.contains(tool))
            throw DomainError::invalidField(step.path(QStringLiteral("tool")),
                                            QStringLiteral("must be act_on_tab or "
                                                           "crawl_and_extract_from_tab"));
        const auto args = step.optionalObject(QStringLiteral("args"));
        if (!args)
            throw DomainError::missingField(step.path(QStringLiteral("args")));
        if (tool == QLatin1String("act_on_tab"))
            args->requiredString(QStringLiteral("action"));
        QStringList names;
        placeholders(args->object(), &names);
        for (const QString &n : std::as_const(names)) {
            if (!properties.contains(n))
                throw DomainError::invalidField(
                    step.path(QStringLiteral("args")),
                    QStringLiteral("uses {{%1}}, which is not one of the parameters").arg(n));
        }
        out.append(
            QJsonObject{{QStringLiteral("tool"), tool}, {QStringLiteral("args"), args->object()}});
    }
    return out;
}

// A recording's replayable steps as a subroutine: typed secrets (masked in the store)
// become required parameters.
QJsonArray stepsFromRecording(const QList<engine::StepRecord> &recorded, QJsonObject *parameters)
{
    QJsonObject properties = parameters->value(QStringLiteral("properties")).toObject();
    QJsonArray required = parameters->value(QStringLiteral("required")).toArray();
    QJsonArray steps;
    int secrets = 0;
    for (const engine::StepRecord &s : recorded) {
        if (s.status != QLatin1String("success") || !kStepTools.contains(s.toolName))
            continue;
        QJsonObject args = s.args;
        const QString action = args.value(QStringLiteral("action")).toString();
        if (action == QLatin1String("login_form") || action == QLatin1String("snapshot"))
            continue;
        args.remove(QStringLiteral("observe"));
        for (auto it = args.begin(); it != args.end(); ++it) {
            if (it.value().toString() != kMasked)
                continue;
            QString name = args.value(QStringLiteral("answerKey")).toString();
            if (!kName.match(name).hasMatch())
                name = QStringLiteral("secret_%1").arg(++secrets);
            properties.insert(name,
                              QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                          {QStringLiteral("description"),
                                           QStringLiteral("typed as a secret when recorded")}});
            if (!required.contains(name))
                required.append(name);
            it.value() = QStringLiteral("{{%1}}").arg(name);
        }
        steps.append(
            QJsonObject{{QStringLiteral("tool"), s.toolName}, {QStringLiteral("args"), args}});
    }
    parameters->insert(QStringLiteral("properties"), properties);
    if (!required.isEmpty())
        parameters->insert(QStringLiteral("required"), required);
    return steps;
}

DomainError toolNotFound(const QString &name, const QString &field)
{
    return DomainError(DomainError::Kind::NotFound, QStringLiteral("TOOL_NOT_FOUND"),
                       QStringLiteral("you have no saved tool named %1").arg(name), field);
}

DomainError triggerNotFound(const QString &message)
{
    return DomainError(DomainError::Kind::NotFound, QStringLiteral("TRIGGER_NOT_FOUND"), message);
}

DomainError recordingNotFound(const QString &id, const QString &field)
{
    return DomainError(DomainError::Kind::NotFound, QStringLiteral("RECORDING_NOT_FOUND"),
                       QStringLiteral("no recording %1 for this API key").arg(id), field);
}

// A string the caller must give, not blank (as JsonFields::requiredString says it).
QString required(const std::optional<QString> &value, const QString &field)
{
    if (!value)
        throw DomainError::missingField(field);
    if (value->trimmed().isEmpty())
        throw DomainError::invalidField(field, QStringLiteral("must not be empty"));
    return *value;
}

bool isBrowsable(const QString &text)
{
    const QUrl url(text);
    return url.isValid() && !url.host().isEmpty() && NetworkPolicy::isBrowsableScheme(url);
}

} // namespace

ToolLibrary::ToolLibrary(LibraryRepository &library, engine::RunManager &runs,
                         engine::TrajectoryRepository &trajectories)
    : m_library(library)
    , m_runs(runs)
    , m_trajectories(trajectories)
{}

QList<SavedTool> ToolLibrary::tools(const QString &keyId) const
{
    return m_library.tools(keyId);
}

std::optional<SavedTool> ToolLibrary::findTool(const QString &keyId, const QString &name) const
{
    return m_library.tool(keyId, name);
}

SavedTool ToolLibrary::tool(const QString &keyId, const QString &name) const
{
    const auto found = m_library.tool(keyId, name);
    if (!found)
        throw toolNotFound(name, QStringLiteral("name"));
    return *found;
}

SavedTool ToolLibrary::readTool(const QString &keyId, const QString &name,
                                const ToolDraft &draft) const
{
    SavedTool t;
    t.keyId = keyId;
    t.name = name;
    t.description = draft.description;
    t.parameters = readParameters(draft.parameters);
    const bool hasCode = draft.code.has_value();
    const bool hasSteps = draft.steps.has_value();
    const bool hasRecording = draft.fromRecording.has_value();
    if (int(hasCode) + int(hasSteps) + int(hasRecording) != 1)
        throw DomainError::invalidField(
            QStringLiteral("body"),
            QStringLiteral("needs exactly one of steps, fromRecording (a subroutine) or code "
                           "(a JavaScript tool)"));
    if (hasCode) {
        t.kind = QStringLiteral("javascript");
        t.code = required(draft.code, QStringLiteral("code"));
        if (t.code.size() > kMaxCodeChars)
            throw DomainError::invalidField(
                QStringLiteral("code"),
                QStringLiteral("must be 1 to %1 characters of JavaScript").arg(kMaxCodeChars));
        t.url = required(draft.url, QStringLiteral("url"));
        if (!isBrowsable(t.url))
            throw DomainError::invalidField(QStringLiteral("url"),
                                            QStringLiteral("must be an absolute http(s) URL"));
        return t;
    }
    t.kind = QStringLiteral("subroutine");
    if (hasSteps) {
        t.steps = readSteps(*draft.steps, t.parameters);
        return t;
    }
    const QString recording = required(draft.fromRecording, QStringLiteral("fromRecording"));
    const auto recorded = m_runs.recordingSteps(recording, keyId);
    if (!recorded)
        throw recordingNotFound(recording, QStringLiteral("fromRecording"));
    t.steps = stepsFromRecording(*recorded, &t.parameters);
    if (t.steps.isEmpty())
        throw DomainError::invalidField(
            QStringLiteral("fromRecording"),
            QStringLiteral("the recording has no browser steps to keep"));
    return t;
}

SavedTool ToolLibrary::createTool(const QString &keyId, const ToolDraft &draft)
{
    const QString name = draft.name;
    if (name.trimmed().isEmpty())
        throw DomainError::invalidField(QStringLiteral("name"),
                                        QStringLiteral("must not be empty"));
    if (!kName.match(name).hasMatch())
        throw DomainError::invalidField(
            QStringLiteral("name"),
            QStringLiteral("must start with a lowercase letter and hold only lowercase letters, "
                           "digits and _ (at most 48); it becomes the tool user_<name>"));
    SavedTool t = readTool(keyId, name, draft);
    if (!m_library.insertTool(t))
        throw DomainError(
            DomainError::Kind::Conflict, QStringLiteral("TOOL_EXISTS"),
            QStringLiteral("a saved tool named %1 exists; PUT /tools/%1 replaces it").arg(name),
            QStringLiteral("name"));
    return t;
}

SavedTool ToolLibrary::replaceTool(const QString &keyId, const QString &name,
                                   const ToolDraft &draft)
{
    tool(keyId, name);
    SavedTool t = readTool(keyId, name, draft);
    if (!m_library.replaceTool(t))
        throw toolNotFound(name, QStringLiteral("name"));
    return t;
}

void ToolLibrary::removeTool(const QString &keyId, const QString &name)
{
    if (!m_library.removeTool(keyId, name))
        throw toolNotFound(name, QStringLiteral("name"));
}

QJsonArray ToolLibrary::scriptFor(const SavedTool &tool, const QJsonObject &arguments,
                                  const QString &fieldPrefix)
{
    const QString problem = JsonSchema::check(tool.parameters, arguments, fieldPrefix);
    if (!problem.isEmpty())
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("INVALID_FIELD"), problem,
                          problem.section(QLatin1Char(' '), 0, 0));
    // Defaults of the parameters' schema fill what the call leaves out.
    QJsonObject args = arguments;
    const QJsonObject properties = tool.parameters.value(QStringLiteral("properties")).toObject();
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QJsonValue fallback = it.value().toObject().value(QStringLiteral("default"));
        if (!args.contains(it.key()) && !fallback.isUndefined())
            args.insert(it.key(), fallback);
    }
    if (tool.kind == QLatin1String("javascript")) {
        QString url = args.value(QStringLiteral("url")).toString();
        if (url.isEmpty())
            url = tool.url;
        return {
            QJsonObject{{QStringLiteral("tool"), QStringLiteral("act_on_tab")},
                        {QStringLiteral("args"),
                         QJsonObject{{QStringLiteral("action"), QStringLiteral("navigate")},
                                     {QStringLiteral("url"), url},
                                     {QStringLiteral("observe"), false}}}},
            QJsonObject{{QStringLiteral("tool"), QStringLiteral("run_page_script")},
                        {QStringLiteral("args"), QJsonObject{{QStringLiteral("code"), tool.code},
                                                             {QStringLiteral("params"), args}}}}};
    }
    QJsonArray steps;
    for (const auto &step : tool.steps) {
        QJsonObject s = step.toObject();
        s.insert(QStringLiteral("args"), substitute(s.value(QStringLiteral("args")), args));
        steps.append(s);
    }
    return steps;
}

engine::ExecuteRequest ToolLibrary::scriptRequest(const QString &tool, const QJsonObject &params,
                                                  const QJsonArray &script, const QString &task)
{
    engine::ExecuteRequest r;
    r.input = task;
    r.script = script;
    r.origin = tool;
    r.originParams = params;
    r.stored = {{QStringLiteral("tool"), tool}, {QStringLiteral("params"), params}};
    return r;
}

engine::ExecuteRequest ToolLibrary::savedToolRequest(const QString &keyId, const QString &name,
                                                     const QJsonObject &params) const
{
    const auto saved = m_library.tool(keyId, name);
    if (!saved)
        throw toolNotFound(name, QStringLiteral("tool"));
    const QString tool = kSavedPrefix + name;
    return scriptRequest(tool, params, scriptFor(*saved, params, QStringLiteral("params")), tool);
}

QList<engine::TrajectoryRow> ToolLibrary::recordings(const QString &keyId, int limit) const
{
    return m_trajectories.list(keyId, QString(), limit, 0);
}

Recording ToolLibrary::recording(const QString &keyId, const QString &id) const
{
    const auto trajectory = m_trajectories.find(id);
    const auto steps = m_runs.recordingSteps(id, keyId);
    if (!trajectory || !steps)
        throw recordingNotFound(id, QString());
    return {id, trajectory->task, trajectory->status, *steps};
}

QList<Trigger> ToolLibrary::triggers(const QString &keyId) const
{
    return m_library.triggers(keyId);
}

std::optional<Trigger> ToolLibrary::findTrigger(const QString &id) const
{
    return m_library.trigger(id);
}

Trigger ToolLibrary::trigger(const QString &keyId, const QString &id) const
{
    const auto t = m_library.trigger(id);
    if (!t || t->keyId != keyId)
        throw triggerNotFound(QStringLiteral("no trigger %1").arg(id));
    return *t;
}

Trigger ToolLibrary::createTrigger(const QString &keyId, const TriggerDraft &draft)
{
    Trigger t;
    t.keyId = keyId;
    t.label = draft.label;
    if (int(draft.tool.has_value()) + int(draft.trajectoryId.has_value()) +
            int(draft.prompt.has_value()) !=
        1)
        throw DomainError::invalidField(
            QStringLiteral("body"),
            QStringLiteral("needs exactly one target: tool (a saved tool's name), trajectoryId "
                           "(a past run) or prompt"));
    if (draft.tool) {
        QString name = *draft.tool;
        if (name.startsWith(kSavedPrefix) && !m_library.tool(keyId, name))
            name = name.mid(kSavedPrefix.size());
        if (!m_library.tool(keyId, name))
            throw toolNotFound(*draft.tool, QStringLiteral("tool"));
        t.targetKind = QStringLiteral("tool");
        t.target = name;
    } else if (draft.trajectoryId) {
        if (!m_runs.firstRequest(*draft.trajectoryId, keyId))
            throw DomainError(DomainError::Kind::NotFound, QStringLiteral("TRAJECTORY_NOT_FOUND"),
                              QStringLiteral("no trajectory %1").arg(*draft.trajectoryId),
                              QStringLiteral("trajectoryId"));
        t.targetKind = QStringLiteral("run");
        t.target = *draft.trajectoryId;
    } else {
        if (draft.prompt->trimmed().isEmpty())
            throw DomainError::invalidField(QStringLiteral("prompt"),
                                            QStringLiteral("must not be empty"));
        t.targetKind = QStringLiteral("prompt");
        t.target = *draft.prompt;
        if (draft.urls) {
            for (qsizetype i = 0; i < draft.urls->size(); ++i) {
                if (!isBrowsable(draft.urls->at(i)))
                    throw DomainError::invalidField(
                        QStringLiteral("urls[%1]").arg(i),
                        QStringLiteral("must be an absolute http(s) URL"));
            }
            t.options.insert(QStringLiteral("urls"), QJsonArray::fromStringList(*draft.urls));
        }
        if (draft.schema)
            t.options.insert(QStringLiteral("schema"), *draft.schema);
    }
    return m_library.insertTrigger(t);
}

Trigger ToolLibrary::revokeTrigger(const QString &keyId, const QString &id)
{
    trigger(keyId, id);
    m_library.revokeTrigger(keyId, id);
    return *m_library.trigger(id);
}

Trigger ToolLibrary::activeTrigger(const QString &id, const QString &callerKeyId,
                                   bool callerIsOwner) const
{
    const auto trigger = m_library.trigger(id);
    // Another key's trigger, or a revoked one, is not there for this caller.
    if (!trigger || trigger->revokedAt || (trigger->keyId != callerKeyId && !callerIsOwner))
        throw triggerNotFound(QStringLiteral("no active trigger %1").arg(id));
    return *trigger;
}

TriggerCall ToolLibrary::fireTrigger(const QString &id, const QString &callerKeyId,
                                     bool callerIsOwner, const QJsonObject &input)
{
    const std::optional<Trigger> trigger = activeTrigger(id, callerKeyId, callerIsOwner);
    TriggerCall call;
    call.triggerId = trigger->id;
    if (trigger->targetKind == QLatin1String("tool")) {
        call.tool = kSavedPrefix + trigger->target;
        call.params = input;
    } else if (trigger->targetKind == QLatin1String("run")) {
        // The same request again: the first phase's request as it was stored.
        const auto first = m_runs.firstRequest(trigger->target, trigger->keyId);
        if (!first)
            throw triggerNotFound(QStringLiteral("the run this trigger repeats is gone"));
        const QJsonObject stored = *first;
        if (stored.contains(QStringLiteral("tool")) && !stored.contains(QStringLiteral("input"))) {
            call.tool = stored.value(QStringLiteral("tool")).toString();
            call.params = stored.value(QStringLiteral("params")).toObject();
        } else {
            call.tool = QStringLiteral("agent");
            call.params = stored;
        }
    } else {
        call.tool = QStringLiteral("agent");
        call.params = trigger->options;
        QString task = trigger->target;
        const QString extra = input.value(QStringLiteral("input")).toString().trimmed();
        if (!extra.isEmpty())
            task += QStringLiteral("\n\n") + extra;
        call.params.insert(QStringLiteral("input"), task);
    }
    m_library.recordFiring(trigger->id);
    return call;
}

} // namespace ph::cloud
