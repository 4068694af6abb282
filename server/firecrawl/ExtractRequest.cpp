#include "ExtractRequest.h"

#include "FirecrawlScrape.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"

#include <QJsonArray>

namespace ph::firecrawl {

namespace {

DomainError unsupported(const QString &field, const QString &message)
{
    return DomainError(DomainError::Kind::Invalid, QStringLiteral("UNSUPPORTED_OPTION"), message,
                       field);
}

// A field given with a value that asks for something Pilothouse does not do.
bool asks(const QJsonObject &body, const QString &key)
{
    const QJsonValue v = body.value(key);
    if (v.isUndefined() || v.isNull())
        return false;
    if (v.isBool())
        return v.toBool();
    if (v.isObject())
        return !v.toObject().isEmpty();
    if (v.isString())
        return !v.toString().isEmpty();
    return true;
}

QList<QUrl> readUrls(const JsonFields &body, bool required)
{
    const auto list = body.stringArray(QStringLiteral("urls"), false);
    if (!list || list->isEmpty()) {
        if (required)
            throw unsupported(QStringLiteral("urls"),
                              QStringLiteral("Pilothouse extracts from the pages you list: give "
                                             "urls (extraction through web search is not "
                                             "served)"));
        return {};
    }
    if (list->size() > kMaxExtractUrls)
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("TOO_MANY_URLS"),
                          QStringLiteral("urls holds %1 URLs; the limit is %2 per extract")
                              .arg(list->size())
                              .arg(kMaxExtractUrls),
                          QStringLiteral("urls"));
    QList<QUrl> urls;
    for (qsizetype i = 0; i < list->size(); ++i) {
        const QString field = QStringLiteral("urls[%1]").arg(i);
        if (list->at(i).contains(QLatin1String("/*")))
            throw unsupported(field,
                              QStringLiteral("wildcards (/*) are not served: list the pages "
                                             "(POST /firecrawl/v2/map finds a site's pages)"));
        urls << readUrl(list->at(i), field);
    }
    return urls;
}

QJsonObject agentBody(const QString &prompt, const QJsonObject &schema, const QList<QUrl> &urls)
{
    QJsonArray list;
    for (const QUrl &u : urls)
        list.append(u.toString(QUrl::FullyEncoded));
    QJsonObject body{{QStringLiteral("input"),
                      prompt.trimmed().isEmpty()
                          ? QStringLiteral("Extract the data the schema describes from the page %1")
                                .arg(list.isEmpty() ? QString() : list.first().toString())
                          : prompt}};
    if (!list.isEmpty())
        body.insert(QStringLiteral("urls"), list);
    if (!schema.isEmpty())
        body.insert(QStringLiteral("schema"), schema);
    return body;
}

} // namespace

QJsonObject ExtractRequest::agentRequest(const QUrl &url) const
{
    return agentBody(prompt, schema, {url});
}

QJsonObject AgentJobRequest::agentRequest() const
{
    return agentBody(prompt, schema, urls);
}

ExtractRequest readExtractRequest(const QJsonObject &object)
{
    const JsonFields body(object);
    ExtractRequest r;
    r.urls = readUrls(body, true);
    r.prompt = body.optionalString(QStringLiteral("prompt")).value_or(QString());
    if (const auto schema = body.optionalObject(QStringLiteral("schema")))
        r.schema = schema->object();
    if (r.prompt.trimmed().isEmpty() && r.schema.isEmpty())
        throw DomainError::invalidField(QStringLiteral("prompt"),
                                        QStringLiteral("Either 'prompt' or 'schema' must be "
                                                       "provided."));
    if (const auto system = body.optionalString(QStringLiteral("systemPrompt"));
        system && !system->trimmed().isEmpty())
        r.prompt = *system + QStringLiteral("\n\n") + r.prompt;
    const QList<QPair<QString, QString>> refused = {
        {QStringLiteral("enableWebSearch"), QStringLiteral("web search is not served")},
        {QStringLiteral("allowExternalLinks"),
         QStringLiteral("following links off the listed pages is not served")},
        {QStringLiteral("showSources"), QStringLiteral("sources are not reported")},
        {QStringLiteral("agent"), QStringLiteral("the extraction runs Pilothouse's own planner "
                                                 "or configured model; no other is chosen")},
        {QStringLiteral("webhook"), QStringLiteral("extract webhooks are not sent; poll GET "
                                                   "/firecrawl/v2/extract/{id}")},
        {QStringLiteral("scrapeOptions"),
         QStringLiteral("the pages are read by the agent run; scrape options do not apply")}};
    for (const auto &[key, why] : refused)
        if (asks(object, key))
            throw unsupported(key, why);
    return r;
}

AgentJobRequest readAgentJobRequest(const QJsonObject &object)
{
    const JsonFields body(object);
    AgentJobRequest r;
    r.prompt = body.requiredString(QStringLiteral("prompt"));
    if (r.prompt.trimmed().isEmpty())
        throw DomainError::invalidField(QStringLiteral("prompt"),
                                        QStringLiteral("must not be empty"));
    r.urls = readUrls(body, false);
    if (const auto schema = body.optionalObject(QStringLiteral("schema")))
        r.schema = schema->object();
    if (const auto mode = body.optionalString(QStringLiteral("mode"));
        mode && *mode != QLatin1String("extract"))
        throw unsupported(QStringLiteral("mode"),
                          QStringLiteral("only the extract mode is served"));
    const QList<QPair<QString, QString>> refused = {
        {QStringLiteral("maxCredits"), QStringLiteral("a spending cap per run is not served; "
                                                      "the key's credits apply")},
        {QStringLiteral("model"), QStringLiteral("the run uses Pilothouse's rule planner or its "
                                                 "configured model; no other is chosen")},
        {QStringLiteral("effort"), QStringLiteral("a reasoning effort is not chosen")},
        {QStringLiteral("strictConstrainToURLs"),
         QStringLiteral("keeping the run to the listed URLs is not enforced")},
        {QStringLiteral("webhook"), QStringLiteral("agent webhooks are not sent through this "
                                                   "API; poll GET /firecrawl/v2/agent/{id}")},
        {QStringLiteral("threadId"), QStringLiteral("conversation threads are not served")},
        {QStringLiteral("exchange"), QStringLiteral("toolkits are not served")},
        {QStringLiteral("threatProtection"), QStringLiteral("threat protection is not served")}};
    for (const auto &[key, why] : refused)
        if (asks(object, key))
            throw unsupported(key, why);
    return r;
}

QJsonValue mergeExtracted(const QJsonValue &first, const QJsonValue &second)
{
    if (first.isUndefined() || first.isNull())
        return second;
    if (second.isUndefined() || second.isNull())
        return first;
    if (first.isArray() && second.isArray()) {
        QJsonArray out = first.toArray();
        for (const QJsonValue &v : second.toArray())
            out.append(v);
        return out;
    }
    if (first.isObject() && second.isObject()) {
        QJsonObject out = first.toObject();
        const QJsonObject more = second.toObject();
        for (auto it = more.begin(); it != more.end(); ++it) {
            const QJsonValue had = out.value(it.key());
            const bool empty =
                had.isUndefined() || had.isNull() || (had.isString() && had.toString().isEmpty());
            if (had.isArray() && it.value().isArray())
                out.insert(it.key(), mergeExtracted(had, it.value()));
            else if (empty)
                out.insert(it.key(), it.value());
        }
        return out;
    }
    return first;
}

} // namespace ph::firecrawl
