#include "WorkspaceController.h"

#include "ChangeDecisions.h"
#include "WorkspaceActions.h"

#include "AnalyticsRepository.h"
#include "ChangeRepository.h"
#include "ConfigApi.h"
#include "ConnectKeyRepository.h"
#include "SiteConfigSchema.h"
#include "SiteRepository.h"

#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/HttpUrl.h"
#include "core/Ids.h"
#include "core/JsonFields.h"
#include "core/SecretBox.h"
#include "core/Store.h"
#include "http/Exchange.h"

#include <QJsonArray>
#include <QUrl>

namespace ph::sites {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

const QString kMaskedSecret = QStringLiteral("********");

QJsonObject keyJson(const SiteKey &k, qint64 now)
{
    return {{QStringLiteral("keyId"), k.id},
            {QStringLiteral("siteId"), k.siteId},
            {QStringLiteral("label"), k.label},
            {QStringLiteral("publicKey"), k.publicKey},
            {QStringLiteral("environment"), k.environment},
            {QStringLiteral("allowedDomains"), QJsonArray::fromStringList(k.allowedDomains)},
            {QStringLiteral("capabilities"), k.capabilities},
            {QStringLiteral("sitePolicy"), k.sitePolicy},
            {QStringLiteral("active"), k.active},
            {QStringLiteral("expired"), k.isExpired(now)},
            {QStringLiteral("ttlDays"), k.ttlDays},
            {QStringLiteral("expiresAt"), Clock::isoUtcOrNull(k.expiresAt)},
            {QStringLiteral("createdAt"), Clock::isoUtc(k.createdAt)},
            {QStringLiteral("updatedAt"), Clock::isoUtc(k.updatedAt)},
            {QStringLiteral("rotatedAt"), Clock::isoUtcOrNull(k.rotatedAt)}};
}

QJsonObject connectKeyJson(const ConnectKey &k)
{
    return {{QStringLiteral("keyId"), k.id},
            {QStringLiteral("siteId"), k.siteId},
            {QStringLiteral("label"), k.label},
            {QStringLiteral("prefix"), k.prefix},
            {QStringLiteral("active"), k.isActive()},
            {QStringLiteral("createdAt"), Clock::isoUtc(k.createdAt)},
            {QStringLiteral("lastUsedAt"), Clock::isoUtcOrNull(k.lastUsedAt)},
            {QStringLiteral("revokedAt"), Clock::isoUtcOrNull(k.revokedAt)}};
}

// User API keys are for the cloud API: everything but the embed is on by default.
// privateTargets (loopback, private and link-local hosts, while
// network.allowPrivateTargets is on) and pageScripts (a caller's own scripts in the pages
// it scrapes: the Firecrawl API's executeJavascript) are off until the owner grants them.
QJsonObject userKeyCapabilityDefaults()
{
    return {{QStringLiteral("embed"), false},
            {QStringLiteral("externalWebContextScrape"), true},
            {QStringLiteral("cloudAgent"), true},
            {QStringLiteral("cloudScrape"), true},
            {QStringLiteral("privateTargets"), false},
            {QStringLiteral("pageScripts"), false}};
}

QStringList interviewQuestions(const JsonFields &body, bool required)
{
    const auto list = body.stringArray(QStringLiteral("interviewQuestions"), required);
    if (!list)
        return {};
    if (list->size() > 20)
        throw DomainError::invalidField(QStringLiteral("interviewQuestions"),
                                        QStringLiteral("must have at most 20 questions"));
    QStringList out;
    for (qsizetype i = 0; i < list->size(); ++i) {
        const QString q = list->at(i).trimmed();
        if (q.isEmpty() || q.size() > 500)
            throw DomainError::invalidField(QStringLiteral("interviewQuestions[%1]").arg(i),
                                            QStringLiteral("must be 1 to 500 characters"));
        out.append(q);
    }
    return out;
}

} // namespace

WorkspaceController::WorkspaceController(Store &store, SiteRepository &sites,
                                         ConnectKeyRepository &connectKeys,
                                         ChangeRepository &changes, AnalyticsRepository &analytics,
                                         ConfigApi &api, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_sites(sites)
    , m_connectKeys(connectKeys)
    , m_changes(changes)
    , m_analytics(analytics)
    , m_api(api)
{}

QList<Route> WorkspaceController::routes()
{
    using C = WorkspaceController;
    const auto W = AuthPolicy::Workspace;
    return {
        Route::to("POST", QStringLiteral("/generateSiteKey"), W, this, &C::generateSiteKey),
        Route::to("POST", QStringLiteral("/listSiteKeys"), W, this, &C::listSiteKeys),
        Route::to("POST", QStringLiteral("/updateSiteKeyPolicy"), W, this, &C::updateSiteKeyPolicy),
        Route::to("POST", QStringLiteral("/rotateSiteKey"), W, this, &C::rotateSiteKey),
        Route::to("POST", QStringLiteral("/generateSiteSecret"), W, this, &C::generateSiteSecret),
        Route::to("POST", QStringLiteral("/deleteSite"), W, this, &C::deleteSite),
        Route::to("POST", QStringLiteral("/getSiteConfig"), W, this, &C::getSiteConfig),
        Route::to("POST", QStringLiteral("/upsertSiteConfig"), W, this, &C::upsertSiteConfig),
        Route::to("POST", QStringLiteral("/updateApiKeyCapabilities"), W, this,
                  &C::updateApiKeyCapabilities),
        Route::to("POST", QStringLiteral("/getSitePrivateHosts"), W, this, &C::getSitePrivateHosts),
        Route::to("POST", QStringLiteral("/updateSitePrivateHosts"), W, this,
                  &C::updateSitePrivateHosts),
        Route::to("POST", QStringLiteral("/createConnectKey"), W, this, &C::createConnectKey),
        Route::to("POST", QStringLiteral("/listConnectKeys"), W, this, &C::listConnectKeys),
        Route::to("POST", QStringLiteral("/revokeConnectKey"), W, this, &C::revokeConnectKey),
        Route::to("POST", QStringLiteral("/rotateConnectKey"), W, this, &C::rotateConnectKey),
        Route::to("POST", QStringLiteral("/applyConfigChange"), W, this, &C::applyConfigChange),
        Route::to("POST", QStringLiteral("/discardConfigChange"), W, this, &C::discardConfigChange),
        Route::to("GET", QStringLiteral("/review/changes/{changeId}"), W, this, &C::reviewChange),
        Route::to("POST", QStringLiteral("/listAnalytics"), W, this, &C::listAnalytics),
        Route::to("POST", QStringLiteral("/getAnalyticsInteractionDetail"), W, this,
                  &C::getAnalyticsInteractionDetail),
        Route::to("POST", QStringLiteral("/getAnalyticsNotificationSettings"), W, this,
                  &C::getAnalyticsNotificationSettings),
        Route::to("POST", QStringLiteral("/upsertAnalyticsNotificationSettings"), W, this,
                  &C::upsertAnalyticsNotificationSettings),
        Route::to("POST", QStringLiteral("/upsertAnalyticsQuestions"), W, this,
                  &C::upsertAnalyticsQuestions),
    };
}

Site WorkspaceController::ownedSite(const QString &siteId) const
{
    // Every caller here is the owner (AuthPolicy::Workspace): the owner's view of sites.
    return sites::ownedSite(m_sites, siteId);
}

SiteKey WorkspaceController::keyFor(const QString &keyId, const QString &siteId) const
{
    return ownedSiteKey(m_sites, keyId, siteId);
}

void WorkspaceController::generateSiteKey(Exchange &ex)
{
    const GeneratedSiteKey g = sites::generateSiteKey(m_store, m_sites, ex.request().jsonObject());
    ex.respondJson(201, {{QStringLiteral("siteId"), g.site.id},
                         {QStringLiteral("siteName"), g.site.name},
                         {QStringLiteral("siteCreated"), g.siteCreated},
                         {QStringLiteral("key"), keyJson(g.key, m_store.clock().nowMs())}});
}

void WorkspaceController::listSiteKeys(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("siteId")});
    QList<Site> sites;
    if (const auto siteId = body.optionalString(QStringLiteral("siteId")))
        sites.append(ownedSite(*siteId));
    else
        sites = m_sites.listSites(kLocalOwner);
    const qint64 now = m_store.clock().nowMs();
    QJsonArray out;
    for (const Site &s : sites) {
        QJsonArray keys;
        for (const SiteKey &k : m_sites.listKeys(s.id))
            keys.append(keyJson(k, now));
        out.append(
            QJsonObject{{QStringLiteral("siteId"), s.id},
                        {QStringLiteral("name"), s.name},
                        {QStringLiteral("createdAt"), Clock::isoUtc(s.createdAt)},
                        {QStringLiteral("activeConnectKeys"), m_connectKeys.activeCount(s.id)},
                        {QStringLiteral("keys"), keys}});
    }
    ex.respondJson(200, {{QStringLiteral("sites"), out}});
}

void WorkspaceController::updateSiteKeyPolicy(Exchange &ex)
{
    const SiteKey key = sites::updateSiteKeyPolicy(m_sites, ex.request().jsonObject());
    ex.respondJson(200, {{QStringLiteral("key"), keyJson(key, m_store.clock().nowMs())}});
}

void WorkspaceController::rotateSiteKey(Exchange &ex)
{
    const SiteKey rotated = sites::rotateSiteKey(m_store, m_sites, ex.request().jsonObject());
    ex.respondJson(200, {{QStringLiteral("key"), keyJson(rotated, m_store.clock().nowMs())},
                         {QStringLiteral("previousKeyInvalidated"), true}});
}

void WorkspaceController::generateSiteSecret(Exchange &ex)
{
    const GeneratedSecret g = sites::generateSiteSecret(m_sites, ex.request().jsonObject());
    ex.respondJson(201, {{QStringLiteral("keyId"), g.key.id},
                         {QStringLiteral("siteId"), g.key.siteId},
                         {QStringLiteral("secretKey"), g.secret},
                         {QStringLiteral("shownOnce"), true}});
}

void WorkspaceController::deleteSite(Exchange &ex)
{
    const DeletedSite deleted =
        sites::deleteSite(m_sites, m_connectKeys, ex.request().jsonObject());
    ex.respondJson(
        200,
        {{QStringLiteral("siteId"), deleted.site.id},
         {QStringLiteral("deleted"), true},
         {QStringLiteral("removed"),
          QJsonObject{{QStringLiteral("siteKeys"), deleted.siteKeys},
                      {QStringLiteral("connectKeys"), deleted.connectKeys},
                      {QStringLiteral("siteConfig"), true},
                      {QStringLiteral("analyticsOwnerSettings"), true},
                      {QStringLiteral("analyticsQuestions"), true},
                      {QStringLiteral("configChanges"), true}}},
         {QStringLiteral("retained"),
          QJsonArray{QStringLiteral("analytics_sites"), QStringLiteral("analytics_interactions"),
                     QStringLiteral("analytics_daily"), QStringLiteral("analytics_profiles"),
                     QStringLiteral("analytics_visits"), QStringLiteral("analytics_scores"),
                     QStringLiteral("analytics_reviews"), QStringLiteral("analytics_interviews"),
                     QStringLiteral("analytics_notes"), QStringLiteral("analytics_posts")}},
         {QStringLiteral("detachedInstalls"), QJsonArray()}});
}

QJsonObject WorkspaceController::configJson(const SiteKey &key) const
{
    const SiteConfigRecord r = m_sites.config(key.siteId);
    return {{QStringLiteral("siteId"), key.siteId},
            {QStringLiteral("keyId"), key.id},
            {QStringLiteral("version"), r.version},
            {QStringLiteral("updatedAt"),
             r.version ? QJsonValue(Clock::isoUtc(r.updatedAt)) : QJsonValue()},
            {QStringLiteral("updatedBy"), r.version ? QJsonValue(r.updatedBy) : QJsonValue()},
            {QStringLiteral("siteConfig"), r.config},
            {QStringLiteral("effective"), SiteConfigSchema::effective(r.config)}};
}

void WorkspaceController::getSiteConfig(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("keyId"), QStringLiteral("siteId")});
    const SiteKey key = keyFor(body.requiredString(QStringLiteral("keyId")),
                               body.optionalString(QStringLiteral("siteId")).value_or(QString()));
    ex.respondJson(200, configJson(key));
}

void WorkspaceController::upsertSiteConfig(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown(
        {QStringLiteral("keyId"), QStringLiteral("siteId"), QStringLiteral("siteConfig")});
    const SiteKey key = keyFor(body.requiredString(QStringLiteral("keyId")),
                               body.optionalString(QStringLiteral("siteId")).value_or(QString()));
    const auto patch = body.optionalObject(QStringLiteral("siteConfig"));
    if (!patch)
        throw DomainError::missingField(QStringLiteral("siteConfig"));
    sites::upsertSiteConfig(m_store, m_sites, key.siteId, patch->object(),
                            ex.request().principal.actor());
    ex.respondJson(200, configJson(key));
}

void WorkspaceController::updateApiKeyCapabilities(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("keyId"), QStringLiteral("capabilities")});
    const QString keyId = body.requiredString(QStringLiteral("keyId"));
    const auto patch = body.optionalObject(QStringLiteral("capabilities"));
    if (!patch)
        throw DomainError::missingField(QStringLiteral("capabilities"));
    if (m_sites.findKey(keyId)) {
        SiteKey key = keyFor(keyId, {});
        key.capabilities = SiteConfigSchema::mergeCapabilities(key.capabilities, patch->object(),
                                                               QStringLiteral("capabilities"));
        m_sites.updateKey(key);
        ex.respondJson(200, {{QStringLiteral("keyId"), key.id},
                             {QStringLiteral("keyType"), QStringLiteral("site")},
                             {QStringLiteral("capabilities"), key.capabilities}});
        return;
    }
    const auto apiKey = m_store.apiKeys().find(keyId);
    if (!apiKey || !apiKey->isActive())
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("KEY_NOT_FOUND"),
                          QStringLiteral("no active site key or API key %1").arg(keyId),
                          QStringLiteral("keyId"));
    if (apiKey->isOwner())
        throw DomainError::invalidField(QStringLiteral("keyId"),
                                        QStringLiteral("is the owner's key, which has every "
                                                       "capability; name a user or site key"));
    // A site's A2W account acts for anonymous callers, visiting agents and visitors:
    // what it reaches is the site's own hosts and its private-host allowlist, never
    // private targets at large (docs/security.md).
    if (patch->object().value(QStringLiteral("privateTargets")).toBool() &&
        m_sites.siteOfVisitorAccount(keyId))
        throw DomainError::invalidField(
            QStringLiteral("capabilities.privateTargets"),
            QStringLiteral("cannot be granted to a site's A2W visitors' account; list the "
                           "private hosts its visitors' work may reach with "
                           "/updateSitePrivateHosts"));
    const QJsonObject caps = SiteConfigSchema::mergeCapabilities(
        m_sites.apiKeyCapabilities(keyId).value_or(userKeyCapabilityDefaults()), patch->object(),
        QStringLiteral("capabilities"), userKeyCapabilityDefaults());
    m_sites.setApiKeyCapabilities(keyId, caps);
    ex.respondJson(200, {{QStringLiteral("keyId"), keyId},
                         {QStringLiteral("keyType"), QStringLiteral("user")},
                         {QStringLiteral("capabilities"), caps}});
}

namespace {

QJsonObject privateHostsJson(const Site &site, const QStringList &hosts)
{
    return {{QStringLiteral("siteId"), site.id},
            {QStringLiteral("privateHosts"), QJsonArray::fromStringList(hosts)}};
}

} // namespace

void WorkspaceController::getSitePrivateHosts(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("siteId")});
    const Site site = ownedSite(body.requiredString(QStringLiteral("siteId")));
    ex.respondJson(200, privateHostsJson(site, m_sites.privateHosts(site.id)));
}

void WorkspaceController::updateSitePrivateHosts(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("siteId"), QStringLiteral("privateHosts")});
    const Site site = ownedSite(body.requiredString(QStringLiteral("siteId")));
    const auto list = body.stringArray(QStringLiteral("privateHosts"), true);
    const QStringList hosts = normalizePrivateHosts(*list, QStringLiteral("privateHosts"));
    m_sites.setPrivateHosts(site.id, hosts);
    ex.respondJson(200, privateHostsJson(site, hosts));
}

void WorkspaceController::createConnectKey(Exchange &ex)
{
    const auto minted = sites::createConnectKey(m_sites, m_connectKeys, ex.request().jsonObject(),
                                                ex.request().principal.actor());
    ex.respondJson(
        201, {{QStringLiteral("connectKey"), connectKeyJson(minted.key)},
              {QStringLiteral("key"), minted.secret},
              {QStringLiteral("activeConnectKeys"), m_connectKeys.activeCount(minted.key.siteId)},
              {QStringLiteral("limit"), ConnectKeyRepository::kMaxActivePerSite}});
}

void WorkspaceController::listConnectKeys(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("siteId")});
    const Site site = ownedSite(body.requiredString(QStringLiteral("siteId")));
    QJsonArray keys;
    for (const ConnectKey &k : m_connectKeys.list(site.id))
        keys.append(connectKeyJson(k));
    ex.respondJson(200, {{QStringLiteral("siteId"), site.id},
                         {QStringLiteral("activeConnectKeys"), m_connectKeys.activeCount(site.id)},
                         {QStringLiteral("limit"), ConnectKeyRepository::kMaxActivePerSite},
                         {QStringLiteral("connectKeys"), keys}});
}

void WorkspaceController::revokeConnectKey(Exchange &ex)
{
    const RevokedConnectKey r =
        sites::revokeConnectKey(m_sites, m_connectKeys, ex.request().jsonObject());
    ex.respondJson(200, {{QStringLiteral("keyId"), r.keyId},
                         {QStringLiteral("revoked"), true},
                         {QStringLiteral("alreadyRevoked"), r.alreadyRevoked}});
}

void WorkspaceController::rotateConnectKey(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("keyId")});
    const QString keyId = body.requiredString(QStringLiteral("keyId"));
    if (const auto key = m_connectKeys.find(keyId))
        ownedSite(key->siteId);
    const auto minted = m_connectKeys.rotate(keyId, ex.request().principal.actor());
    ex.respondJson(201, {{QStringLiteral("connectKey"), connectKeyJson(minted.key)},
                         {QStringLiteral("key"), minted.secret},
                         {QStringLiteral("previousKeyId"), keyId}});
}

void WorkspaceController::applyConfigChange(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown(
        {QStringLiteral("changeId"), QStringLiteral("siteId"), QStringLiteral("note")});
    const QString changeId = body.requiredString(QStringLiteral("changeId"));
    const QString note = body.optionalString(QStringLiteral("note")).value_or(QString()).left(1000);
    const auto found = m_changes.find(changeId);
    const auto siteId = body.optionalString(QStringLiteral("siteId"));
    if (!found || (siteId && *siteId != found->siteId))
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("CHANGE_NOT_FOUND"),
                          QStringLiteral("no change %1").arg(changeId), QStringLiteral("changeId"));
    ownedSite(found->siteId);
    const ConfigChange change =
        applyChange(m_store, m_sites, m_changes, changeId, ex.request().principal.actor(), note);
    ex.respondJson(200,
                   {{QStringLiteral("change"), m_api.changeJson(change, ex.request().origin())},
                    {QStringLiteral("siteConfig"), m_sites.config(change.siteId).config},
                    {QStringLiteral("version"), *change.appliedVersion}});
}

void WorkspaceController::discardConfigChange(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown(
        {QStringLiteral("changeId"), QStringLiteral("siteId"), QStringLiteral("reason")});
    const QString changeId = body.requiredString(QStringLiteral("changeId"));
    const auto found = m_changes.find(changeId);
    const auto siteId = body.optionalString(QStringLiteral("siteId"));
    if (!found || (siteId && *siteId != found->siteId))
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("CHANGE_NOT_FOUND"),
                          QStringLiteral("no change %1").arg(changeId), QStringLiteral("changeId"));
    ownedSite(found->siteId);
    const QString reason =
        body.optionalString(QStringLiteral("reason")).value_or(QString()).left(1000);
    const ConfigChange change =
        discardChange(m_changes, changeId, ex.request().principal.actor(), reason);
    ex.respondJson(200,
                   {{QStringLiteral("change"), m_api.changeJson(change, ex.request().origin())}});
}

void WorkspaceController::reviewChange(Exchange &ex)
{
    const QString changeId = ex.request().param(QStringLiteral("changeId"));
    const auto change = m_changes.find(changeId);
    if (!change)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("CHANGE_NOT_FOUND"),
                          QStringLiteral("no change %1").arg(changeId), QStringLiteral("changeId"));
    ownedSite(change->siteId);
    const QJsonObject current = m_sites.config(change->siteId).config;
    QJsonObject out{{QStringLiteral("change"), m_api.changeJson(*change, ex.request().origin())},
                    {QStringLiteral("currentConfig"), current}};
    if (change->status == QLatin1String("pending"))
        out.insert(QStringLiteral("preview"),
                   SiteConfigSchema::applyProposal(current, change->patch));
    ex.respondJson(200, out);
}

void WorkspaceController::listAnalytics(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("siteId"), QStringLiteral("collection"),
                        QStringLiteral("limit"), QStringLiteral("cursor")});
    const QString siteId = body.requiredString(QStringLiteral("siteId"));
    const auto collection =
        body.optionalEnum(QStringLiteral("collection"), AnalyticsRepository::readableCollections());
    if (!collection)
        throw DomainError::missingField(QStringLiteral("collection"));
    const int limit = int(body.optionalInt(QStringLiteral("limit"), 1, 500).value_or(100));
    const auto page = m_analytics.listDocuments(
        kLocalOwner, siteId, *collection, limit,
        body.optionalString(QStringLiteral("cursor")).value_or(QString()));
    ex.respondJson(200, {{QStringLiteral("siteId"), siteId},
                         {QStringLiteral("collection"), *collection},
                         {QStringLiteral("documents"), page.documents},
                         {QStringLiteral("nextCursor"),
                          page.nextCursor.isEmpty() ? QJsonValue() : QJsonValue(page.nextCursor)}});
}

void WorkspaceController::getAnalyticsInteractionDetail(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("siteId"), QStringLiteral("interactionId")});
    const QString siteId = body.requiredString(QStringLiteral("siteId"));
    const QString interactionId = body.requiredString(QStringLiteral("interactionId"));
    const auto detail = m_analytics.interactionDetail(kLocalOwner, siteId, interactionId);
    if (!detail)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("INTERACTION_NOT_FOUND"),
                          QStringLiteral("no interaction %1 on site %2").arg(interactionId, siteId),
                          QStringLiteral("interactionId"));
    ex.respondJson(200, {{QStringLiteral("interaction"), *detail}});
}

QJsonObject WorkspaceController::notificationJson(const QString &siteId) const
{
    const auto settings = m_analytics.notificationSettings(siteId);
    QJsonArray webhooks;
    for (const QJsonValue &w : settings.webhooks) {
        QJsonObject o = w.toObject();
        const bool hasSecret = !o.take(QStringLiteral("sealedSecret")).toString().isEmpty();
        o.insert(QStringLiteral("hasSecret"), hasSecret);
        o.insert(QStringLiteral("secret"), hasSecret ? QJsonValue(kMaskedSecret) : QJsonValue());
        webhooks.append(o);
    }
    return {{QStringLiteral("siteId"), siteId},
            {QStringLiteral("enabled"), settings.enabled},
            {QStringLiteral("webhooks"), webhooks},
            {QStringLiteral("interviewQuestions"),
             QJsonArray::fromStringList(m_analytics.questions(siteId))},
            {QStringLiteral("availableEvents"),
             QJsonArray::fromStringList(AnalyticsRepository::webhookEvents())}};
}

void WorkspaceController::getAnalyticsNotificationSettings(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("siteId")});
    const Site site = ownedSite(body.requiredString(QStringLiteral("siteId")));
    ex.respondJson(200, notificationJson(site.id));
}

void WorkspaceController::upsertAnalyticsNotificationSettings(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("siteId"), QStringLiteral("enabled"),
                        QStringLiteral("webhooks"), QStringLiteral("interviewQuestions")});
    const Site site = ownedSite(body.requiredString(QStringLiteral("siteId")));
    auto settings = m_analytics.notificationSettings(site.id);
    if (const auto enabled = body.optionalBool(QStringLiteral("enabled")))
        settings.enabled = *enabled;
    if (const auto list = body.optionalArray(QStringLiteral("webhooks"))) {
        if (list->size() > 10)
            throw DomainError::invalidField(QStringLiteral("webhooks"),
                                            QStringLiteral("must have at most 10 subscriptions"));
        QJsonArray next;
        for (qsizetype i = 0; i < list->size(); ++i) {
            const QString path = QStringLiteral("webhooks[%1]").arg(i);
            if (!list->at(i).isObject())
                throw DomainError::invalidField(path, QStringLiteral("must be an object"));
            const JsonFields w(list->at(i).toObject(), path);
            w.rejectUnknown({QStringLiteral("id"), QStringLiteral("url"), QStringLiteral("events"),
                             QStringLiteral("secret"), QStringLiteral("enabled"),
                             QStringLiteral("hasSecret")});
            QJsonObject stored;
            if (const auto id = w.optionalString(QStringLiteral("id"))) {
                for (const QJsonValue &old : std::as_const(settings.webhooks)) {
                    if (old.toObject().value(QStringLiteral("id")).toString() == *id)
                        stored = old.toObject();
                }
                if (stored.isEmpty())
                    throw DomainError(
                        DomainError::Kind::NotFound, QStringLiteral("WEBHOOK_NOT_FOUND"),
                        QStringLiteral("%1.id names no existing subscription").arg(path),
                        w.path(QStringLiteral("id")));
            } else {
                stored.insert(QStringLiteral("id"), Ids::make(QStringLiteral("wh"), 16));
            }
            const QUrl url = HttpUrl::require(w.requiredString(QStringLiteral("url")).trimmed(),
                                              w.path(QStringLiteral("url")));
            stored.insert(QStringLiteral("url"), url.toString(QUrl::FullyEncoded));
            const QStringList events =
                w.stringArray(QStringLiteral("events"), false)
                    .value_or(QStringList{QStringLiteral("interaction.completed")});
            for (qsizetype e = 0; e < events.size(); ++e) {
                if (!AnalyticsRepository::webhookEvents().contains(events.at(e)))
                    throw DomainError::invalidField(
                        QStringLiteral("%1[%2]").arg(w.path(QStringLiteral("events"))).arg(e),
                        QStringLiteral("must be one of %1")
                            .arg(AnalyticsRepository::webhookEvents().join(QStringLiteral(", "))));
            }
            stored.insert(QStringLiteral("events"), QJsonArray::fromStringList(events));
            stored.insert(QStringLiteral("enabled"),
                          w.optionalBool(QStringLiteral("enabled")).value_or(true));
            // Secrets: absent or the mask keeps the stored one; null removes it; a new
            // string replaces it (sealed, never stored in clear).
            const QJsonValue secret = w.object().value(QStringLiteral("secret"));
            if (secret.isNull()) {
                stored.remove(QStringLiteral("sealedSecret"));
            } else if (secret.isString() && secret.toString() != kMaskedSecret) {
                const QString s = secret.toString();
                if (s.size() < 8 || s.size() > 256)
                    throw DomainError::invalidField(w.path(QStringLiteral("secret")),
                                                    QStringLiteral("must be 8 to 256 characters"));
                stored.insert(QStringLiteral("sealedSecret"), m_store.secrets().seal(s));
            } else if (!secret.isUndefined() && !secret.isString()) {
                throw DomainError::invalidField(w.path(QStringLiteral("secret")),
                                                QStringLiteral("must be a string or null"));
            }
            next.append(stored);
        }
        settings.webhooks = next;
    }
    const QStringList questions = interviewQuestions(body, false);
    m_store.transaction([&] {
        m_analytics.setNotificationSettings(site.id, kLocalOwner, settings);
        if (body.has(QStringLiteral("interviewQuestions")))
            m_analytics.setQuestions(site.id, kLocalOwner, questions);
    });
    ex.respondJson(200, notificationJson(site.id));
}

void WorkspaceController::upsertAnalyticsQuestions(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    body.rejectUnknown({QStringLiteral("siteId"), QStringLiteral("interviewQuestions")});
    const Site site = ownedSite(body.requiredString(QStringLiteral("siteId")));
    const QStringList questions = interviewQuestions(body, true);
    m_analytics.setQuestions(site.id, kLocalOwner, questions);
    ex.respondJson(200, {{QStringLiteral("siteId"), site.id},
                         {QStringLiteral("interviewQuestions"),
                          QJsonArray::fromStringList(m_analytics.questions(site.id))}});
}

} // namespace ph::sites
