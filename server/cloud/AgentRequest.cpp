#include "AgentRequest.h"

#include "WebhookOptions.h"

#include "SessionWork.h"
#include "browser/LeaseOptions.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/Settings.h"
#include "engine/Tool.h"
#include "net/NetworkPolicy.h"

#include <QUrl>

namespace ph::cloud {

namespace {

const QStringList kFormats = {QStringLiteral("text"),   QStringLiteral("markdown"),
                              QStringLiteral("csv"),    QStringLiteral("tsv"),
                              QStringLiteral("json"),   QStringLiteral("xlsx"),
                              QStringLiteral("parquet")};

// A list over its cap, before any item is looked at: 400 naming the list and the setting.
void checkCount(const QString &field, qsizetype count, const QString &setting,
                const Settings &settings, const QString &code)
{
    const int cap = settings.intValue(setting);
    if (count <= cap)
        return;
    throw DomainError(DomainError::Kind::Invalid, code,
                      QStringLiteral("%1 holds %2 items; the limit is %3 per request (%4)")
                          .arg(field)
                          .arg(count)
                          .arg(cap)
                          .arg(setting),
                      field,
                      QJsonObject{{QStringLiteral("limit"), cap},
                                  {QStringLiteral("received"), double(count)},
                                  {QStringLiteral("setting"), setting}});
}

} // namespace

QStringList checkedUrls(const QStringList &list, const QString &listField, const EgressGrant &grant,
                        const Settings *settings, const QString &capSetting)
{
    if (settings)
        checkCount(listField, list.size(), capSetting, *settings, QStringLiteral("TOO_MANY_URLS"));
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString field = QStringLiteral("%1[%2]").arg(listField).arg(i);
        const QUrl url(list.at(i).trimmed());
        if (!url.scheme().isEmpty() && !NetworkPolicy::isBrowsableScheme(url))
            throw DomainError(
                DomainError::Kind::Invalid, QStringLiteral("UNSUPPORTED_SCHEME"),
                QStringLiteral("%1 uses the scheme '%2'; only http and https are allowed")
                    .arg(field, url.scheme()),
                field);
        if (!url.isValid() || url.host().isEmpty())
            throw DomainError::invalidField(field, QStringLiteral("is not a valid absolute URL"));
        NetworkPolicy::requireReachable(url, field, grant);
    }
    QStringList out;
    for (const QString &u : list)
        out << u.trimmed();
    return out;
}

QJsonObject maskedAnswers(const QJsonObject &answers)
{
    QJsonObject masked;
    for (auto it = answers.begin(); it != answers.end(); ++it)
        masked.insert(it.key(), QStringLiteral("••••••"));
    return masked;
}

EgressGrant pinnedGrant(const EgressGrant &grant, const QString &firstUrl)
{
    return NetworkPolicy::pinReach(grant, QUrl(firstUrl.trimmed()));
}

namespace {

QStringList readUrlList(const JsonFields &body, const QString &key, const EgressGrant &grant,
                        const Settings *settings = nullptr, const QString &capSetting = {})
{
    const auto list = body.stringArray(key, false);
    if (!list)
        return {};
    return checkedUrls(*list, body.path(key), grant, settings, capSetting);
}

void checkDataInputs(const QJsonArray &inputs, const EgressGrant &grant)
{
    for (qsizetype i = 0; i < inputs.size(); ++i) {
        const QString path = QStringLiteral("dataInputs[%1]").arg(i);
        if (!inputs.at(i).isObject())
            throw DomainError::invalidField(path, QStringLiteral("must be an object"));
        const JsonFields item(inputs.at(i).toObject(), path);
        item.optionalString(QStringLiteral("description"));
        item.optionalEnum(QStringLiteral("format"), kFormats);
        int sources = 0;
        if (item.optionalString(QStringLiteral("inline")))
            ++sources;
        if (item.has(QStringLiteral("url"))) {
            ++sources;
            readUrlList(
                JsonFields(QJsonObject{{QStringLiteral("url"),
                                        QJsonArray{item.object().value(QStringLiteral("url"))}}},
                           path),
                QStringLiteral("url"), grant);
            item.optionalString(QStringLiteral("url"));
        }
        if (const auto ref = item.optionalObject(QStringLiteral("storageRef"))) {
            ++sources;
            if (!ref->has(QStringLiteral("id")) && !ref->has(QStringLiteral("downloadUrl")))
                throw DomainError::missingField(ref->path(QStringLiteral("id")));
            ref->optionalString(QStringLiteral("id"));
        }
        if (sources != 1)
            throw DomainError::invalidField(
                path, QStringLiteral("needs exactly one of inline, url or storageRef"));
    }
}

} // namespace

engine::ExecuteRequest readExecuteRequest(const QJsonObject &raw, const EgressGrant &unpinned,
                                          const Settings &settings)
{
    // A visitor's run reaches its site's private hosts on the standard port of its first
    // URL's scheme, other ports only where the owner listed them (RunContext pins the
    // run's grant the same way).
    const EgressGrant grant =
        pinnedGrant(unpinned, raw.value(QStringLiteral("urls")).toArray().at(0).toString());
    const JsonFields body(raw);
    engine::ExecuteRequest r;
    r.trajectoryId = body.optionalString(QStringLiteral("trajectoryId")).value_or(QString());
    if (const auto phase = body.optionalInt(QStringLiteral("phase"), 1, 1000))
        r.phase = int(*phase);
    if (const auto history = body.optionalObject(QStringLiteral("history"))) {
        r.historyContinue = history->optionalBool(QStringLiteral("continue")).value_or(false);
        r.previousSteps =
            history->optionalArray(QStringLiteral("previousSteps")).value_or(QJsonArray());
        if (const auto last = history->optionalObject(QStringLiteral("lastToolPreviousSteps")))
            r.lastToolPreviousSteps = last->object();
        if (const auto answers = history->optionalObject(QStringLiteral("answers"))) {
            for (auto it = answers->object().begin(); it != answers->object().end(); ++it) {
                if (!it.value().isString())
                    throw DomainError::invalidField(answers->path(it.key()),
                                                    QStringLiteral("must be a string"));
            }
            r.answers = answers->object();
        }
    }
    if (r.historyContinue && r.trajectoryId.isEmpty())
        throw DomainError(
            DomainError::Kind::Invalid, QStringLiteral("MISSING_FIELD"),
            QStringLiteral("trajectoryId is required to continue (history.continue is true)"),
            QStringLiteral("trajectoryId"));
    // A continuation may answer with history.answers alone; anything else needs a task.
    if (r.historyContinue && !r.answers.isEmpty())
        r.input = body.optionalString(QStringLiteral("input")).value_or(QString());
    else
        r.input = body.requiredString(QStringLiteral("input"));
    r.urls = readUrlList(body, QStringLiteral("urls"), grant, &settings, SettingKeys::agentMaxUrls);
    if (const auto schema = body.optionalObject(QStringLiteral("schema"))) {
        r.schema = schema->object();
        if (!r.schema.isEmpty() && !r.schema.contains(QStringLiteral("type")) &&
            !r.schema.contains(QStringLiteral("properties")))
            throw DomainError::invalidField(
                QStringLiteral("schema"),
                QStringLiteral("must be a JSON Schema with a type or properties"));
    }
    if (const auto inputs = body.optionalArray(QStringLiteral("dataInputs"))) {
        checkCount(body.path(QStringLiteral("dataInputs")), inputs->size(),
                   SettingKeys::agentMaxDataInputs, settings,
                   QStringLiteral("TOO_MANY_DATA_INPUTS"));
        checkDataInputs(*inputs, grant);
        r.dataInputs = *inputs;
    }
    r.fileUrls = readUrlList(body, QStringLiteral("file_urls"), grant, &settings,
                             SettingKeys::agentMaxFileUrls);
    r.imageUrls = readUrlList(body, QStringLiteral("image_urls"), grant, &settings,
                              SettingKeys::agentMaxImageUrls);
    r.recordingId = body.optionalString(QStringLiteral("recording_id")).value_or(QString());
    if (const auto runSettings = body.optionalObject(QStringLiteral("settings"))) {
        r.runSettings = engine::RunSettings::read(runSettings->object(), grant);
        r.settings = runSettings->object();
    }
    r.browser = LeaseOptions::read(body, QStringLiteral("browser"));
    r.browserSession = readBrowserSession(body, r.browser);
    if (!r.browserSession.isEmpty() && r.runSettings.proxy)
        throw DomainError::invalidField(
            body.path(QStringLiteral("settings")) + QStringLiteral(".proxy"),
            QStringLiteral("cannot be combined with browserSession: a session's pages leave "
                           "through the session's own proxy (POST /sessions settings.proxy)"));
    if (const auto tools = body.optionalObject(QStringLiteral("tools"))) {
        if (const auto extra = tools->stringArray(QStringLiteral("enableAdditionalTools"), false)) {
            for (qsizetype i = 0; i < extra->size(); ++i) {
                if (!engine::AdditionalTools::all().contains(extra->at(i)))
                    throw DomainError::invalidField(
                        QStringLiteral("tools.enableAdditionalTools[%1]").arg(i),
                        QStringLiteral("must be one of %1")
                            .arg(engine::AdditionalTools::all().join(QStringLiteral(", "))));
            }
            r.additionalTools = *extra;
            r.additionalTools.removeDuplicates();
        }
    }
    if (const auto response = body.optionalObject(QStringLiteral("response"))) {
        r.verbosity = response
                          ->optionalEnum(QStringLiteral("verbosity"),
                                         {QStringLiteral("final"), QStringLiteral("steps"),
                                          QStringLiteral("debug")})
                          .value_or(QStringLiteral("final"));
        if (const auto cap =
                response->optionalInt(QStringLiteral("inlineOutputMaxBytes"), 256, 1LL << 30))
            r.inlineOutputMaxBytes = *cap;
    }
    if (const auto options = body.optionalObject(QStringLiteral("options"))) {
        r.skipToolsStorageLoad =
            options->optionalBool(QStringLiteral("skipToolsStorageLoad")).value_or(false);
        if (const auto ui = options->optionalObject(QStringLiteral("ui")))
            r.emitEvents = ui->optionalBool(QStringLiteral("emitEvents")).value_or(false);
        r.liveView = options->optionalBool(QStringLiteral("liveView")).value_or(false);
    }
    r.webhooks = readWebhooks(body, grant);

    // What the store keeps of the request: no callback secrets, no answers in clear.
    // (webhookSecret, webhooks[].secret and .auth removed, webhooks[].headers masked).
    QJsonObject stored = WebhookSubscription::redactedRequest(raw);
    if (stored.contains(QStringLiteral("history"))) {
        QJsonObject history = stored.value(QStringLiteral("history")).toObject();
        const QJsonObject masked = maskedAnswers(r.answers);
        if (!masked.isEmpty())
            history.insert(QStringLiteral("answers"), masked);
        stored.insert(QStringLiteral("history"), history);
    }
    // The run's proxy: its password never stored in clear (RunManager seals it).
    if (stored.contains(QStringLiteral("settings")))
        stored.insert(QStringLiteral("settings"), engine::RunSettings::redacted(r.settings));
    r.stored = stored;
    return r;
}

} // namespace ph::cloud
