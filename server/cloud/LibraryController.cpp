#include "LibraryController.h"

#include "LibraryRepository.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/RunManager.h"
#include "engine/TrajectoryRepository.h"
#include "http/Exchange.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>

namespace ph::cloud {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

constexpr int kMaxSteps = 100;
constexpr int kMaxCodeChars = 100000;
const QString kMasked = QStringLiteral("••••••");
const QStringList kStepTools{QStringLiteral("act_on_tab"),
                             QStringLiteral("crawl_and_extract_from_tab")};
const QStringList kParamTypes{QStringLiteral("string"),  QStringLiteral("number"),
                              QStringLiteral("integer"), QStringLiteral("boolean"),
                              QStringLiteral("array"),   QStringLiteral("object")};
const QRegularExpression kName(QStringLiteral("^[a-z][a-z0-9_]{0,47}$"));
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

QJsonObject readParameters(const JsonFields &body)
{
    const auto fields = body.optionalObject(QStringLiteral("parameters"));
    if (!fields)
        return {{QStringLiteral("type"), QStringLiteral("object")},
                {QStringLiteral("properties"), QJsonObject()}};
    QJsonObject schema = fields->object();
    const QString type =
        fields->optionalString(QStringLiteral("type")).value_or(QStringLiteral("object"));
    if (type != QLatin1String("object"))
        throw DomainError::invalidField(fields->path(QStringLiteral("type")),
                                        QStringLiteral("must be \"object\""));
    schema.insert(QStringLiteral("type"), type);
    QJsonObject properties;
    if (const auto props = fields->optionalObject(QStringLiteral("properties"))) {
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
    if (const auto required = fields->stringArray(QStringLiteral("required"), false)) {
        for (qsizetype i = 0; i < required->size(); ++i) {
            if (!properties.contains(required->at(i)))
                throw DomainError::invalidField(
                    QStringLiteral("%1[%2]").arg(fields->path(QStringLiteral("required"))).arg(i),
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

DomainError toolNotFound(const QString &name)
{
    return DomainError(DomainError::Kind::NotFound, QStringLiteral("TOOL_NOT_FOUND"),
                       QStringLiteral("you have no saved tool named %1").arg(name),
                       QStringLiteral("name"));
}

} // namespace

LibraryController::LibraryController(Store &store, Settings &settings, NetworkPolicy &policy,
                                     engine::RunManager &runs,
                                     engine::TrajectoryRepository &trajectories,
                                     LibraryRepository &library, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_policy(policy)
    , m_runs(runs)
    , m_trajectories(trajectories)
    , m_library(library)
{}

QList<Route> LibraryController::routes()
{
    using C = LibraryController;
    return {
        Route::to("POST", QStringLiteral("/tools"), AuthPolicy::ApiKey, this, &C::postTool),
        Route::to("GET", QStringLiteral("/tools"), AuthPolicy::ApiKey, this, &C::listTools),
        Route::to("GET", QStringLiteral("/tools/{name}"), AuthPolicy::ApiKey, this, &C::getTool),
        Route::to("PUT", QStringLiteral("/tools/{name}"), AuthPolicy::ApiKey, this, &C::putTool),
        Route::to("DELETE", QStringLiteral("/tools/{name}"), AuthPolicy::ApiKey, this,
                  &C::deleteTool),
        Route::to("GET", QStringLiteral("/recordings"), AuthPolicy::ApiKey, this,
                  &C::listRecordings),
        Route::to("GET", QStringLiteral("/recordings/{id}"), AuthPolicy::ApiKey, this,
                  &C::getRecording),
        Route::to("POST", QStringLiteral("/triggers"), AuthPolicy::ApiKey, this, &C::createTrigger),
        Route::to("GET", QStringLiteral("/triggers"), AuthPolicy::ApiKey, this, &C::listTriggers),
        Route::to("GET", QStringLiteral("/triggers/{id}"), AuthPolicy::ApiKey, this,
                  &C::getTrigger),
        Route::to("DELETE", QStringLiteral("/triggers/{id}"), AuthPolicy::ApiKey, this,
                  &C::revokeTrigger),
    };
}

QString LibraryController::baseUrl() const
{
    return m_settings.stringValue(SettingKeys::publicBaseUrl);
}

SavedTool LibraryController::readTool(const QJsonObject &raw, const QString &name,
                                      const QString &keyId, engine::RunManager &runs)
{
    const JsonFields body(raw);
    SavedTool t;
    t.keyId = keyId;
    t.name = name;
    t.description = body.optionalString(QStringLiteral("description")).value_or(QString());
    t.parameters = readParameters(body);
    const bool hasCode = body.has(QStringLiteral("code"));
    const bool hasSteps = body.has(QStringLiteral("steps"));
    const bool hasRecording = body.has(QStringLiteral("fromRecording"));
    if (int(hasCode) + int(hasSteps) + int(hasRecording) != 1)
        throw DomainError::invalidField(
            QStringLiteral("body"),
            QStringLiteral("needs exactly one of steps, fromRecording (a subroutine) or code "
                           "(a JavaScript tool)"));
    if (hasCode) {
        t.kind = QStringLiteral("javascript");
        t.code = body.requiredString(QStringLiteral("code"));
        if (t.code.trimmed().isEmpty() || t.code.size() > kMaxCodeChars)
            throw DomainError::invalidField(
                QStringLiteral("code"),
                QStringLiteral("must be 1 to %1 characters of JavaScript").arg(kMaxCodeChars));
        t.url = body.requiredString(QStringLiteral("url"));
        const QUrl url(t.url);
        if (!url.isValid() || url.host().isEmpty() || !NetworkPolicy::isBrowsableScheme(url))
            throw DomainError::invalidField(QStringLiteral("url"),
                                            QStringLiteral("must be an absolute http(s) URL"));
        return t;
    }
    t.kind = QStringLiteral("subroutine");
    if (hasSteps) {
        const auto steps = body.optionalArray(QStringLiteral("steps"));
        t.steps = readSteps(steps.value_or(QJsonArray()), t.parameters);
        return t;
    }
    const QString recording = body.requiredString(QStringLiteral("fromRecording"));
    const auto recorded = runs.recordingSteps(recording, keyId);
    if (!recorded)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("RECORDING_NOT_FOUND"),
                          QStringLiteral("no recording %1 for this API key").arg(recording),
                          QStringLiteral("fromRecording"));
    t.steps = stepsFromRecording(*recorded, &t.parameters);
    if (t.steps.isEmpty())
        throw DomainError::invalidField(
            QStringLiteral("fromRecording"),
            QStringLiteral("the recording has no browser steps to keep"));
    return t;
}

SavedTool LibraryController::createTool(const QJsonObject &raw, const QString &keyId,
                                        LibraryRepository &library, engine::RunManager &runs)
{
    const QString name = JsonFields(raw).requiredString(QStringLiteral("name"));
    if (!kName.match(name).hasMatch())
        throw DomainError::invalidField(
            QStringLiteral("name"),
            QStringLiteral("must start with a lowercase letter and hold only lowercase letters, "
                           "digits and _ (at most 48); it becomes the tool user_<name>"));
    SavedTool tool = readTool(raw, name, keyId, runs);
    if (!library.insertTool(tool))
        throw DomainError(
            DomainError::Kind::Conflict, QStringLiteral("TOOL_EXISTS"),
            QStringLiteral("a saved tool named %1 exists; PUT /tools/%1 replaces it").arg(name),
            QStringLiteral("name"));
    return tool;
}

SavedTool LibraryController::replaceTool(const QString &name, const QJsonObject &raw,
                                         const QString &keyId, LibraryRepository &library,
                                         engine::RunManager &runs)
{
    if (!library.tool(keyId, name))
        throw toolNotFound(name);
    SavedTool tool = readTool(raw, name, keyId, runs);
    if (!library.replaceTool(tool))
        throw toolNotFound(name);
    return tool;
}

void LibraryController::removeTool(const QString &name, const QString &keyId,
                                   LibraryRepository &library)
{
    if (!library.removeTool(keyId, name))
        throw toolNotFound(name);
}

void LibraryController::postTool(Exchange &ex)
{
    const SavedTool tool =
        createTool(ex.request().jsonObject(), ex.request().principal.keyId, m_library, m_runs);
    ex.respondJson(201, {{QStringLiteral("tool"), tool.toJson()}});
}

void LibraryController::listTools(Exchange &ex)
{
    QJsonArray out;
    for (const SavedTool &t : m_library.tools(ex.request().principal.keyId))
        out.append(t.toJson());
    ex.respondJson(200, {{QStringLiteral("tools"), out}});
}

void LibraryController::getTool(Exchange &ex)
{
    const QString name = ex.request().param(QStringLiteral("name"));
    const auto tool = m_library.tool(ex.request().principal.keyId, name);
    if (!tool)
        throw toolNotFound(name);
    ex.respondJson(200, {{QStringLiteral("tool"), tool->toJson()}});
}

void LibraryController::putTool(Exchange &ex)
{
    const QString name = ex.request().param(QStringLiteral("name"));
    const QString keyId = ex.request().principal.keyId;
    // An unknown name is 404 before the body is read (as it always was).
    if (!m_library.tool(keyId, name))
        throw toolNotFound(name);
    const SavedTool tool = replaceTool(name, ex.request().jsonObject(), keyId, m_library, m_runs);
    ex.respondJson(200, {{QStringLiteral("tool"), tool.toJson()}});
}

void LibraryController::deleteTool(Exchange &ex)
{
    const QString name = ex.request().param(QStringLiteral("name"));
    removeTool(name, ex.request().principal.keyId, m_library);
    ex.respondJson(200, {{QStringLiteral("deleted"), true}, {QStringLiteral("name"), name}});
}

void LibraryController::listRecordings(Exchange &ex)
{
    const int limit = qBound(1, ex.request().queryValue(QStringLiteral("limit")).toInt(), 200);
    const int limitOrDefault =
        ex.request().queryValue(QStringLiteral("limit")).isEmpty() ? 50 : limit;
    QJsonArray out;
    for (const engine::TrajectoryRow &t :
         m_trajectories.list(ex.request().principal.keyId, QString(), limitOrDefault, 0)) {
        out.append(
            QJsonObject{{QStringLiteral("id"), t.id},
                        {QStringLiteral("task"), t.task},
                        {QStringLiteral("status"), t.status},
                        {QStringLiteral("phases"), t.phase},
                        {QStringLiteral("toolsUsed"), QJsonArray::fromStringList(t.toolsUsed)},
                        {QStringLiteral("createdAt"), Clock::isoUtc(t.createdAt)}});
    }
    ex.respondJson(200, {{QStringLiteral("recordings"), out}});
}

void LibraryController::getRecording(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    const auto trajectory = m_trajectories.find(id);
    const auto steps = m_runs.recordingSteps(id, ex.request().principal.keyId);
    if (!trajectory || !steps)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("RECORDING_NOT_FOUND"),
                          QStringLiteral("no recording %1 for this API key").arg(id));
    QJsonArray out;
    for (const engine::StepRecord &s : *steps)
        out.append(QJsonObject{{QStringLiteral("seq"), s.seq},
                               {QStringLiteral("tool"), s.toolName},
                               {QStringLiteral("args"), s.args},
                               {QStringLiteral("status"), s.status},
                               {QStringLiteral("summary"), s.summary}});
    ex.respondJson(200, {{QStringLiteral("id"), id},
                         {QStringLiteral("task"), trajectory->task},
                         {QStringLiteral("status"), trajectory->status},
                         {QStringLiteral("steps"), out}});
}

Trigger LibraryController::readTrigger(const QJsonObject &raw, const QString &keyId,
                                       LibraryRepository &library, engine::RunManager &runs)
{
    const JsonFields body(raw);
    Trigger t;
    t.keyId = keyId;
    t.label = body.optionalString(QStringLiteral("label")).value_or(QString());
    const auto tool = body.optionalString(QStringLiteral("tool"));
    const auto run = body.optionalString(QStringLiteral("trajectoryId"));
    const auto prompt = body.optionalString(QStringLiteral("prompt"));
    if (int(tool.has_value()) + int(run.has_value()) + int(prompt.has_value()) != 1)
        throw DomainError::invalidField(
            QStringLiteral("body"),
            QStringLiteral("needs exactly one target: tool (a saved tool's name), trajectoryId "
                           "(a past run) or prompt"));
    if (tool) {
        QString name = *tool;
        if (name.startsWith(QLatin1String("user_")) && !library.tool(keyId, name))
            name = name.mid(5);
        if (!library.tool(keyId, name))
            throw DomainError(DomainError::Kind::NotFound, QStringLiteral("TOOL_NOT_FOUND"),
                              QStringLiteral("you have no saved tool named %1").arg(*tool),
                              QStringLiteral("tool"));
        t.targetKind = QStringLiteral("tool");
        t.target = name;
    } else if (run) {
        if (!runs.firstRequest(*run, keyId))
            throw DomainError(DomainError::Kind::NotFound, QStringLiteral("TRAJECTORY_NOT_FOUND"),
                              QStringLiteral("no trajectory %1").arg(*run),
                              QStringLiteral("trajectoryId"));
        t.targetKind = QStringLiteral("run");
        t.target = *run;
    } else {
        if (prompt->trimmed().isEmpty())
            throw DomainError::invalidField(QStringLiteral("prompt"),
                                            QStringLiteral("must not be empty"));
        t.targetKind = QStringLiteral("prompt");
        t.target = *prompt;
        if (const auto urls = body.stringArray(QStringLiteral("urls"), false)) {
            for (qsizetype i = 0; i < urls->size(); ++i) {
                const QUrl u(urls->at(i));
                if (!u.isValid() || u.host().isEmpty() || !NetworkPolicy::isBrowsableScheme(u))
                    throw DomainError::invalidField(
                        QStringLiteral("urls[%1]").arg(i),
                        QStringLiteral("must be an absolute http(s) URL"));
            }
            t.options.insert(QStringLiteral("urls"), QJsonArray::fromStringList(*urls));
        }
        if (const auto schema = body.optionalObject(QStringLiteral("schema")))
            t.options.insert(QStringLiteral("schema"), schema->object());
    }
    return t;
}

void LibraryController::createTrigger(Exchange &ex)
{
    Trigger t =
        readTrigger(ex.request().jsonObject(), ex.request().principal.keyId, m_library, m_runs);
    t = m_library.insertTrigger(t);
    ex.respondJson(201, {{QStringLiteral("trigger"), t.toJson(baseUrl())}});
}

void LibraryController::listTriggers(Exchange &ex)
{
    QJsonArray out;
    for (const Trigger &t : m_library.triggers(ex.request().principal.keyId))
        out.append(t.toJson(baseUrl()));
    ex.respondJson(200, {{QStringLiteral("triggers"), out}});
}

void LibraryController::getTrigger(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    const auto t = m_library.trigger(id);
    if (!t || t->keyId != ex.request().principal.keyId)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("TRIGGER_NOT_FOUND"),
                          QStringLiteral("no trigger %1").arg(id));
    ex.respondJson(200, {{QStringLiteral("trigger"), t->toJson(baseUrl())}});
}

void LibraryController::revokeTrigger(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    const QString keyId = ex.request().principal.keyId;
    const auto t = m_library.trigger(id);
    if (!t || t->keyId != keyId)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("TRIGGER_NOT_FOUND"),
                          QStringLiteral("no trigger %1").arg(id));
    m_library.revokeTrigger(keyId, id);
    ex.respondJson(200, {{QStringLiteral("trigger"), m_library.trigger(id)->toJson(baseUrl())}});
}

} // namespace ph::cloud
