#include "ConfigController.h"

#include "ConfigApi.h"
#include "SiteConfigSchema.h"

#include "core/DomainError.h"
#include "http/Exchange.h"
#include "mcp/McpServer.h"

#include <QJsonArray>

namespace ph::sites {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

int pageLimit(const QString &text)
{
    if (text.isEmpty())
        return 20;
    bool ok = false;
    const int n = text.toInt(&ok);
    if (!ok || n < 1 || n > 100)
        throw DomainError::invalidField(QStringLiteral("limit"),
                                        QStringLiteral("must be a whole number from 1 to 100"));
    return n;
}

QJsonObject str(const QString &description, int maxLength = 0)
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("string")},
                  {QStringLiteral("description"), description},
                  {QStringLiteral("minLength"), 1}};
    if (maxLength > 0)
        o.insert(QStringLiteral("maxLength"), maxLength);
    return o;
}

QJsonObject schema(const QJsonObject &properties, const QStringList &required)
{
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), properties},
            {QStringLiteral("required"), QJsonArray::fromStringList(required)},
            {QStringLiteral("additionalProperties"), false}};
}

QJsonObject siteIdProperty()
{
    return str(QStringLiteral("The site id (site_…) as list_sites returns it."), 64);
}

QJsonObject patchProperty()
{
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("description"),
             QStringLiteral("Top-level configuration fields to change (%1). null clears a "
                            "field. shortcuts and knowledge items are matched by id. Unknown "
                            "fields, aiAccess and analytics are dropped and reported in "
                            "droppedPaths.")
                 .arg(SiteConfigSchema::fields().join(QStringLiteral(", ")))}};
}

QJsonObject journeyProperty()
{
    const QJsonObject step = schema(
        {{QStringLiteral("title"), str(QStringLiteral("What this step does."), 120)},
         {QStringLiteral("prompt"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                                {QStringLiteral("maxLength"), 2000}}},
         {QStringLiteral("url"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}},
        {QStringLiteral("title")});
    return schema(
        {{QStringLiteral("id"),
          str(QStringLiteral("Stable id; derived from clientRequestId when omitted."), 64)},
         {QStringLiteral("label"), str(QStringLiteral("Name shown to visitors."), 80)},
         {QStringLiteral("description"),
          QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                      {QStringLiteral("maxLength"), 500}}},
         {QStringLiteral("prompt"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                                {QStringLiteral("maxLength"), 2000}}},
         {QStringLiteral("engagementKind"),
          QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                      {QStringLiteral("enum"),
                       QJsonArray{QStringLiteral("demo"), QStringLiteral("onboarding"),
                                  QStringLiteral("support"), QStringLiteral("task")}}}},
         {QStringLiteral("steps"), QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                               {QStringLiteral("items"), step},
                                               {QStringLiteral("maxItems"), 20}}}},
        {QStringLiteral("label")});
}

QJsonObject changeEnvelopeProperties(const QJsonObject &extra)
{
    QJsonObject p{{QStringLiteral("siteId"), siteIdProperty()},
                  {QStringLiteral("title"), str(QStringLiteral("Short title for the owner."), 200)},
                  {QStringLiteral("description"),
                   QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                               {QStringLiteral("maxLength"), 4000},
                               {QStringLiteral("description"),
                                QStringLiteral("Why the change helps, for the owner's review.")}}},
                  {QStringLiteral("clientRequestId"),
                   str(QStringLiteral("Your id for this proposal; keep it the same when you "
                                      "retry and the same change is returned."),
                       200)}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        p.insert(it.key(), it.value());
    return p;
}

} // namespace

ConfigController::ConfigController(ConfigApi &api, mcp::McpServer &mcp, QObject *parent)
    : QObject(parent)
    , m_api(api)
{
    registerTools(mcp);
}

QList<Route> ConfigController::routes()
{
    using C = ConfigController;
    const auto A = AuthPolicy::SiteAgent;
    return {
        Route::to("GET", QStringLiteral("/config/v1/sites"), A, this, &C::listSites),
        Route::to("GET", QStringLiteral("/config/v1/sites/{siteId}/config"), A, this,
                  &C::getConfig),
        Route::to("GET", QStringLiteral("/config/v1/sites/{siteId}/journeys"), A, this,
                  &C::listJourneys),
        Route::to("GET", QStringLiteral("/config/v1/sites/{siteId}/journeys/{journeyId}"), A, this,
                  &C::getJourney),
        Route::to("GET", QStringLiteral("/config/v1/sites/{siteId}/analytics/summary"), A, this,
                  &C::analyticsSummary),
        Route::to("GET", QStringLiteral("/config/v1/sites/{siteId}/changes"), A, this,
                  &C::listChanges),
        Route::to("POST", QStringLiteral("/config/v1/sites/{siteId}/changes"), A, this,
                  &C::createChange),
        Route::to("GET", QStringLiteral("/config/v1/sites/{siteId}/briefs/{section}"), A, this,
                  &C::brief),
        Route::to("POST", QStringLiteral("/config/v1/validate"), A, this, &C::validate),
    };
}

void ConfigController::listSites(Exchange &ex)
{
    ex.respondJson(200, m_api.listSites(ex.request().principal));
}

void ConfigController::getConfig(Exchange &ex)
{
    const QStringList fields = ex.request()
                                   .queryValue(QStringLiteral("fields"))
                                   .split(QLatin1Char(','), Qt::SkipEmptyParts);
    QStringList trimmed;
    for (const QString &f : fields)
        trimmed.append(f.trimmed());
    ex.respondJson(200, m_api.getConfig(ex.request().principal,
                                        ex.request().param(QStringLiteral("siteId")), trimmed));
}

void ConfigController::listJourneys(Exchange &ex)
{
    ex.respondJson(200, m_api.listJourneys(ex.request().principal,
                                           ex.request().param(QStringLiteral("siteId"))));
}

void ConfigController::getJourney(Exchange &ex)
{
    ex.respondJson(200, m_api.getJourney(ex.request().principal,
                                         ex.request().param(QStringLiteral("siteId")),
                                         ex.request().param(QStringLiteral("journeyId"))));
}

void ConfigController::analyticsSummary(Exchange &ex)
{
    ex.respondJson(200, m_api.analyticsSummary(ex.request().principal,
                                               ex.request().param(QStringLiteral("siteId")),
                                               ex.request().queryValue(QStringLiteral("range"))));
}

void ConfigController::listChanges(Exchange &ex)
{
    ex.respondJson(200,
                   m_api.listPendingChanges(
                       ex.request().principal, ex.request().param(QStringLiteral("siteId")),
                       pageLimit(ex.request().queryValue(QStringLiteral("limit"))),
                       ex.request().queryValue(QStringLiteral("cursor")), ex.request().origin()));
}

void ConfigController::createChange(Exchange &ex)
{
    bool created = false;
    const QJsonObject out =
        m_api.propose(ex.request().principal, ex.request().param(QStringLiteral("siteId")),
                      ex.request().jsonObject(), ex.request().origin(), &created);
    ex.respondJson(created ? 201 : 200, out);
}

void ConfigController::brief(Exchange &ex)
{
    ex.respondJson(200,
                   m_api.brief(ex.request().principal, ex.request().param(QStringLiteral("siteId")),
                               ex.request().param(QStringLiteral("section"))));
}

void ConfigController::validate(Exchange &ex)
{
    ex.respondJson(200, m_api.validate(ex.request().principal, ex.request().jsonObject()));
}

namespace {

using mcp::CallContext;

QString siteOf(const QJsonObject &args)
{
    return args.value(QStringLiteral("siteId")).toString();
}

// The tools that read: sites, configuration, journeys, analytics, proposals, briefs.
QList<mcp::Tool> readTools(ConfigApi &api)
{
    QList<mcp::Tool> tools;

    tools.push_back(
        {QStringLiteral("list_sites"), QStringLiteral("List sites"),
         QStringLiteral("Sites this key may read. A Connect AI key sees only its own site."),
         schema({}, {}),
         [&api](const QJsonObject &, const CallContext &c) { return api.listSites(c.principal); }});

    QJsonObject fieldsProperty{
        {QStringLiteral("type"), QStringLiteral("array")},
        {QStringLiteral("description"),
         QStringLiteral("Top-level fields to return; all when omitted.")},
        {QStringLiteral("items"),
         QJsonObject{
             {QStringLiteral("type"), QStringLiteral("string")},
             {QStringLiteral("enum"), QJsonArray::fromStringList(SiteConfigSchema::fields())}}}};
    tools.push_back(
        {QStringLiteral("get_config_section"), QStringLiteral("Read configuration"),
         QStringLiteral("The site's redacted configuration with runtime defaults filled "
                        "in, optionally only some top-level fields."),
         schema({{QStringLiteral("siteId"), siteIdProperty()},
                 {QStringLiteral("fields"), fieldsProperty}},
                {QStringLiteral("siteId")}),
         [&api](const QJsonObject &args, const CallContext &c) {
             QStringList fields;
             for (const QJsonValue &f : args.value(QStringLiteral("fields")).toArray())
                 fields.append(f.toString());
             return api.getConfig(c.principal, siteOf(args), fields);
         }});

    tools.push_back(
        {QStringLiteral("list_journeys"), QStringLiteral("List journeys"),
         QStringLiteral("Summaries of the site's journeys (guided multi-step shortcuts)."),
         schema({{QStringLiteral("siteId"), siteIdProperty()}}, {QStringLiteral("siteId")}),
         [&api](const QJsonObject &args, const CallContext &c) {
             return api.listJourneys(c.principal, siteOf(args));
         }});

    tools.push_back(
        {QStringLiteral("get_journey"), QStringLiteral("Read a journey"),
         QStringLiteral("One full journey with its steps."),
         schema({{QStringLiteral("siteId"), siteIdProperty()},
                 {QStringLiteral("journeyId"), str(QStringLiteral("The journey id."), 64)}},
                {QStringLiteral("siteId"), QStringLiteral("journeyId")}),
         [&api](const QJsonObject &args, const CallContext &c) {
             return api.getJourney(c.principal, siteOf(args),
                                   args.value(QStringLiteral("journeyId")).toString());
         }});

    tools.push_back(
        {QStringLiteral("get_analytics_summary"), QStringLiteral("Analytics summary"),
         QStringLiteral("Aggregate counts (visits, interactions, conversions, reviews, "
                        "interviews, goals) over 7 or 30 days. No visitor-level data."),
         schema({{QStringLiteral("siteId"), siteIdProperty()},
                 {QStringLiteral("range"),
                  QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                              {QStringLiteral("enum"),
                               QJsonArray{QStringLiteral("7d"), QStringLiteral("30d")}},
                              {QStringLiteral("description"), QStringLiteral("Default 7d.")}}}},
                {QStringLiteral("siteId")}),
         [&api](const QJsonObject &args, const CallContext &c) {
             return api.analyticsSummary(c.principal, siteOf(args),
                                         args.value(QStringLiteral("range")).toString());
         }});

    tools.push_back(
        {QStringLiteral("list_pending_changes"), QStringLiteral("Pending proposals"),
         QStringLiteral("One page of proposals waiting for the owner's review, oldest first."),
         schema({{QStringLiteral("siteId"), siteIdProperty()},
                 {QStringLiteral("limit"),
                  QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")},
                              {QStringLiteral("minimum"), 1},
                              {QStringLiteral("maximum"), 100}}},
                 {QStringLiteral("cursor"),
                  QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                              {QStringLiteral("description"),
                               QStringLiteral("nextCursor of the previous page.")}}}},
                {QStringLiteral("siteId")}),
         [&api](const QJsonObject &args, const CallContext &c) {
             return api.listPendingChanges(
                 c.principal, siteOf(args), args.value(QStringLiteral("limit")).toInt(20),
                 args.value(QStringLiteral("cursor")).toString(), c.request.origin());
         }});

    tools.push_back(
        {QStringLiteral("get_config_brief"), QStringLiteral("Configuration brief"),
         QStringLiteral("A short redacted brief of one area of the site."),
         schema({{QStringLiteral("siteId"), siteIdProperty()},
                 {QStringLiteral("section"),
                  QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                              {QStringLiteral("enum"),
                               QJsonArray::fromStringList(ConfigApi::briefSections())}}}},
                {QStringLiteral("siteId"), QStringLiteral("section")}),
         [&api](const QJsonObject &args, const CallContext &c) {
             return api.brief(c.principal, siteOf(args),
                              args.value(QStringLiteral("section")).toString());
         }});
    return tools;
}

// The tools that check or propose a change (the owner applies it in the console).
QList<mcp::Tool> proposalTools(ConfigApi &api)
{
    QList<mcp::Tool> tools;
    tools.push_back(
        {QStringLiteral("validate_config_patch"), QStringLiteral("Validate a patch"),
         QStringLiteral("Dry run: checks and normalises a patch with the same sanitizer as "
                        "proposals. Writes nothing."),
         schema({{QStringLiteral("siteId"), siteIdProperty()},
                 {QStringLiteral("patch"), patchProperty()}},
                {QStringLiteral("patch")}),
         [&api](const QJsonObject &args, const CallContext &c) {
             return api.validate(c.principal, args);
         }});

    tools.push_back(
        {QStringLiteral("propose_config_change"), QStringLiteral("Propose a change"),
         QStringLiteral("Creates a pending proposal for the owner to apply or discard in the "
                        "console. Nothing changes until the owner applies it; there is no "
                        "apply tool."),
         schema(changeEnvelopeProperties({{QStringLiteral("patch"), patchProperty()}}),
                {QStringLiteral("siteId"), QStringLiteral("patch"), QStringLiteral("title"),
                 QStringLiteral("clientRequestId")}),
         [&api](const QJsonObject &args, const CallContext &c) {
             bool created = false;
             return api.propose(c.principal, siteOf(args), args, c.request.origin(), &created);
         }});

    tools.push_back(
        {QStringLiteral("draft_journey"), QStringLiteral("Draft a journey"),
         QStringLiteral("Drafts one journey as a pending proposal (disabled until the owner "
                        "applies and enables it)."),
         schema(changeEnvelopeProperties({{QStringLiteral("journey"), journeyProperty()}}),
                {QStringLiteral("siteId"), QStringLiteral("journey"),
                 QStringLiteral("clientRequestId")}),
         [&api](const QJsonObject &args, const CallContext &c) {
             bool created = false;
             return api.draftJourney(c.principal, siteOf(args), args, c.request.origin(), &created);
         }});
    return tools;
}

} // namespace

void ConfigController::registerTools(mcp::McpServer &mcp)
{
    for (mcp::Tool &tool : readTools(m_api) + proposalTools(m_api))
        mcp.addTool(std::move(tool));
}

} // namespace ph::sites
