#include "LibraryController.h"

#include "ToolLibrary.h"

#include "core/Clock.h"
#include "core/JsonFields.h"
#include "core/Settings.h"
#include "engine/TrajectoryRepository.h"
#include "http/Exchange.h"

#include <QJsonArray>

namespace ph::cloud {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

// A POST/PUT /tools body as a draft; the types are checked here, the rest by the library.
ToolDraft readToolDraft(const JsonFields &body)
{
    ToolDraft d;
    d.description = body.optionalString(QStringLiteral("description")).value_or(QString());
    if (const auto parameters = body.optionalObject(QStringLiteral("parameters")))
        d.parameters = parameters->object();
    if (body.has(QStringLiteral("code"))) {
        d.code = body.optionalString(QStringLiteral("code"));
        d.url = body.optionalString(QStringLiteral("url"));
    }
    d.steps = body.optionalArray(QStringLiteral("steps"));
    d.fromRecording = body.optionalString(QStringLiteral("fromRecording"));
    return d;
}

TriggerDraft readTriggerDraft(const JsonFields &body)
{
    TriggerDraft d;
    d.label = body.optionalString(QStringLiteral("label")).value_or(QString());
    d.tool = body.optionalString(QStringLiteral("tool"));
    d.trajectoryId = body.optionalString(QStringLiteral("trajectoryId"));
    d.prompt = body.optionalString(QStringLiteral("prompt"));
    if (d.prompt && !d.tool && !d.trajectoryId) {
        d.urls = body.stringArray(QStringLiteral("urls"), false);
        if (const auto schema = body.optionalObject(QStringLiteral("schema")))
            d.schema = schema->object();
    }
    return d;
}

} // namespace

LibraryController::LibraryController(Settings &settings, ToolLibrary &library, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
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

void LibraryController::postTool(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    const QString name = body.requiredString(QStringLiteral("name"));
    ToolDraft draft = readToolDraft(body);
    draft.name = name;
    const SavedTool tool = m_library.createTool(ex.request().principal.keyId, draft);
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
    const SavedTool tool =
        m_library.tool(ex.request().principal.keyId, ex.request().param(QStringLiteral("name")));
    ex.respondJson(200, {{QStringLiteral("tool"), tool.toJson()}});
}

void LibraryController::putTool(Exchange &ex)
{
    const QString name = ex.request().param(QStringLiteral("name"));
    const QString keyId = ex.request().principal.keyId;
    // An unknown name is 404 before the body is read (as it always was).
    m_library.tool(keyId, name);
    const SavedTool tool =
        m_library.replaceTool(keyId, name, readToolDraft(JsonFields(ex.request().jsonObject())));
    ex.respondJson(200, {{QStringLiteral("tool"), tool.toJson()}});
}

void LibraryController::deleteTool(Exchange &ex)
{
    const QString name = ex.request().param(QStringLiteral("name"));
    m_library.removeTool(ex.request().principal.keyId, name);
    ex.respondJson(200, {{QStringLiteral("deleted"), true}, {QStringLiteral("name"), name}});
}

void LibraryController::listRecordings(Exchange &ex)
{
    const QString given = ex.request().queryValue(QStringLiteral("limit"));
    const int limit = given.isEmpty() ? 50 : qBound(1, given.toInt(), 200);
    QJsonArray out;
    for (const engine::TrajectoryRow &t : m_library.recordings(ex.request().principal.keyId, limit))
        out.append(
            QJsonObject{{QStringLiteral("id"), t.id},
                        {QStringLiteral("task"), t.task},
                        {QStringLiteral("status"), t.status},
                        {QStringLiteral("phases"), t.phase},
                        {QStringLiteral("toolsUsed"), QJsonArray::fromStringList(t.toolsUsed)},
                        {QStringLiteral("createdAt"), Clock::isoUtc(t.createdAt)}});
    ex.respondJson(200, {{QStringLiteral("recordings"), out}});
}

void LibraryController::getRecording(Exchange &ex)
{
    const Recording r =
        m_library.recording(ex.request().principal.keyId, ex.request().param(QStringLiteral("id")));
    QJsonArray out;
    for (const engine::StepRecord &s : r.steps)
        out.append(QJsonObject{{QStringLiteral("seq"), s.seq},
                               {QStringLiteral("tool"), s.toolName},
                               {QStringLiteral("args"), s.args},
                               {QStringLiteral("status"), s.status},
                               {QStringLiteral("summary"), s.summary}});
    ex.respondJson(200, {{QStringLiteral("id"), r.id},
                         {QStringLiteral("task"), r.task},
                         {QStringLiteral("status"), r.status},
                         {QStringLiteral("steps"), out}});
}

void LibraryController::createTrigger(Exchange &ex)
{
    const Trigger t = m_library.createTrigger(
        ex.request().principal.keyId, readTriggerDraft(JsonFields(ex.request().jsonObject())));
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
    const Trigger t =
        m_library.trigger(ex.request().principal.keyId, ex.request().param(QStringLiteral("id")));
    ex.respondJson(200, {{QStringLiteral("trigger"), t.toJson(baseUrl())}});
}

void LibraryController::revokeTrigger(Exchange &ex)
{
    const Trigger t = m_library.revokeTrigger(ex.request().principal.keyId,
                                              ex.request().param(QStringLiteral("id")));
    ex.respondJson(200, {{QStringLiteral("trigger"), t.toJson(baseUrl())}});
}

} // namespace ph::cloud
