#include "ConfigApi.h"

#include "AnalyticsRepository.h"
#include "SiteConfig.h"
#include "SiteConfigSchema.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace ph::sites {

namespace {

QJsonObject journeySummary(const QJsonObject &j)
{
    return {{QStringLiteral("id"), j.value(QStringLiteral("id"))},
            {QStringLiteral("label"), j.value(QStringLiteral("label"))},
            {QStringLiteral("description"), j.value(QStringLiteral("description")).toString()},
            {QStringLiteral("engagementKind"), j.value(QStringLiteral("engagementKind"))},
            {QStringLiteral("stepCount"), j.value(QStringLiteral("steps")).toArray().size()},
            {QStringLiteral("enabled"), j.value(QStringLiteral("enabled")).toBool(true)}};
}

QJsonArray journeysOf(const QJsonArray &shortcuts)
{
    QJsonArray out;
    for (const QJsonValue &s : shortcuts) {
        if (s.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("journey"))
            out.append(s);
    }
    return out;
}

} // namespace

ConfigApi::ConfigApi(SiteRepository &sites, ChangeRepository &changes,
                     AnalyticsRepository &analytics)
    : m_sites(sites)
    , m_changes(changes)
    , m_analytics(analytics)
{}

const QStringList &ConfigApi::briefSections()
{
    static const QStringList sections = {QStringLiteral("journeys"), QStringLiteral("knowledge"),
                                         QStringLiteral("appearance"), QStringLiteral("audience")};
    return sections;
}

Site ConfigApi::siteFor(const Principal &principal, const QString &siteId,
                        const QString &field) const
{
    if (siteId.isEmpty())
        throw DomainError::missingField(field);
    if (principal.isSiteScoped() && principal.siteId != siteId)
        throwSiteNotFound(siteId, field);
    const auto site = m_sites.findSite(siteId);
    if (!site || (!principal.isSiteScoped() && site->ownerUid != kLocalOwner))
        throwSiteNotFound(siteId, field);
    return *site;
}

QJsonObject ConfigApi::listSites(const Principal &principal) const
{
    QList<Site> sites;
    if (principal.isSiteScoped()) {
        if (auto s = m_sites.findSite(principal.siteId))
            sites.append(*s);
    } else {
        sites = m_sites.listSites(kLocalOwner);
    }
    QJsonArray out;
    for (const Site &s : sites) {
        const SiteConfigRecord config = m_sites.config(s.id);
        out.append(QJsonObject{{QStringLiteral("siteId"), s.id},
                               {QStringLiteral("name"), s.name},
                               {QStringLiteral("createdAt"), Clock::isoUtc(s.createdAt)},
                               {QStringLiteral("configVersion"), config.version}});
    }
    return {{QStringLiteral("sites"), out}};
}

QJsonObject ConfigApi::getConfig(const Principal &principal, const QString &siteId,
                                 const QStringList &fields) const
{
    const Site site = siteFor(principal, siteId);
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (!SiteConfigSchema::fields().contains(fields.at(i)))
            throw DomainError::invalidField(
                QStringLiteral("fields[%1]").arg(i),
                QStringLiteral("'%1' is not a configuration field (%2)")
                    .arg(fields.at(i), SiteConfigSchema::fields().join(QStringLiteral(", "))));
    }
    const SiteConfigRecord record = m_sites.config(site.id);
    const QJsonObject effective = SiteConfigSchema::effective(record.config);
    QJsonObject config;
    for (auto it = effective.begin(); it != effective.end(); ++it) {
        if (fields.isEmpty() || fields.contains(it.key()))
            config.insert(it.key(), it.value());
    }
    return {{QStringLiteral("siteId"), site.id},
            {QStringLiteral("version"), record.version},
            {QStringLiteral("updatedAt"),
             record.version ? QJsonValue(Clock::isoUtc(record.updatedAt)) : QJsonValue()},
            {QStringLiteral("setFields"), QJsonArray::fromStringList(record.config.keys())},
            {QStringLiteral("config"), SiteConfigSchema::redact(config)}};
}

QJsonObject ConfigApi::listJourneys(const Principal &principal, const QString &siteId) const
{
    const Site site = siteFor(principal, siteId);
    QJsonArray out;
    for (const QJsonValue &j : journeysOf(SiteConfig(m_sites.config(site.id).config).shortcuts()))
        out.append(SiteConfigSchema::redact(journeySummary(j.toObject())));
    return {{QStringLiteral("siteId"), site.id}, {QStringLiteral("journeys"), out}};
}

QJsonObject ConfigApi::getJourney(const Principal &principal, const QString &siteId,
                                  const QString &journeyId) const
{
    const Site site = siteFor(principal, siteId);
    for (const QJsonValue &j : journeysOf(SiteConfig(m_sites.config(site.id).config).shortcuts())) {
        if (j.toObject().value(QStringLiteral("id")).toString() == journeyId)
            return {{QStringLiteral("siteId"), site.id},
                    {QStringLiteral("journey"), SiteConfigSchema::redact(j)}};
    }
    throw DomainError(DomainError::Kind::NotFound, QStringLiteral("JOURNEY_NOT_FOUND"),
                      QStringLiteral("no journey %1 on this site").arg(journeyId),
                      QStringLiteral("journeyId"));
}

QJsonObject ConfigApi::analyticsSummary(const Principal &principal, const QString &siteId,
                                        const QString &range) const
{
    const Site site = siteFor(principal, siteId);
    const QString r = range.isEmpty() ? QStringLiteral("7d") : range;
    if (r != QLatin1String("7d") && r != QLatin1String("30d"))
        throw DomainError::invalidField(QStringLiteral("range"),
                                        QStringLiteral("must be 7d or 30d"));
    return m_analytics.summary(site.id, r == QLatin1String("7d") ? 7 : 30);
}

QJsonObject ConfigApi::changeJson(const ConfigChange &c, const QString &reviewBase) const
{
    QJsonObject o{{QStringLiteral("changeId"), c.id},
                  {QStringLiteral("siteId"), c.siteId},
                  {QStringLiteral("kind"), c.kind},
                  {QStringLiteral("status"), c.status},
                  {QStringLiteral("title"), c.title},
                  {QStringLiteral("description"), c.description},
                  {QStringLiteral("patch"), SiteConfigSchema::redact(c.patch)},
                  {QStringLiteral("droppedPaths"), QJsonArray::fromStringList(c.droppedPaths)},
                  {QStringLiteral("clientRequestId"), c.clientRequestId},
                  {QStringLiteral("baseVersion"), c.baseVersion},
                  {QStringLiteral("proposedBy"), c.author},
                  {QStringLiteral("createdAt"), Clock::isoUtc(c.createdAt)},
                  {QStringLiteral("reviewUrl"),
                   QStringLiteral("%1/review/changes/%2").arg(reviewBase, c.id)}};
    if (c.decidedAt) {
        o.insert(QStringLiteral("decidedAt"), Clock::isoUtc(*c.decidedAt));
        o.insert(QStringLiteral("decidedBy"), c.decidedBy);
        if (!c.decisionNote.isEmpty())
            o.insert(QStringLiteral("decisionNote"), c.decisionNote);
    }
    if (c.appliedVersion)
        o.insert(QStringLiteral("appliedVersion"), *c.appliedVersion);
    return o;
}

QJsonObject ConfigApi::listPendingChanges(const Principal &principal, const QString &siteId,
                                          int limit, const QString &cursor,
                                          const QString &reviewBase) const
{
    const Site site = siteFor(principal, siteId);
    const QList<ConfigChange> page = m_changes.pending(site.id, cursor, limit + 1);
    QJsonArray out;
    for (qsizetype i = 0; i < page.size() && i < limit; ++i)
        out.append(changeJson(page.at(i), reviewBase));
    return {{QStringLiteral("siteId"), site.id},
            {QStringLiteral("changes"), out},
            {QStringLiteral("nextCursor"),
             page.size() > limit ? QJsonValue(page.at(limit - 1).id) : QJsonValue()}};
}

QJsonObject ConfigApi::brief(const Principal &principal, const QString &siteId,
                             const QString &section) const
{
    const Site site = siteFor(principal, siteId);
    if (!briefSections().contains(section))
        throw DomainError::invalidField(
            QStringLiteral("section"),
            QStringLiteral("must be one of %1").arg(briefSections().join(QStringLiteral(", "))));
    const SiteConfig config(m_sites.config(site.id).config);
    QJsonObject brief;
    QString summary;
    if (section == QLatin1String("journeys")) {
        QJsonArray journeys;
        for (const QJsonValue &j : journeysOf(config.shortcuts()))
            journeys.append(journeySummary(j.toObject()));
        const auto shortcuts = config.shortcuts().size();
        brief = {{QStringLiteral("journeys"), journeys},
                 {QStringLiteral("shortcutCount"), shortcuts - journeys.size()}};
        summary = QStringLiteral("%1 journeys and %2 other shortcuts")
                      .arg(journeys.size())
                      .arg(shortcuts - journeys.size());
    } else if (section == QLatin1String("knowledge")) {
        QJsonArray entries;
        QJsonObject byKind;
        for (const QJsonValue &v : config.knowledge()) {
            const QJsonObject e = v.toObject();
            const QString kind = e.value(QStringLiteral("kind")).toString();
            byKind.insert(kind, byKind.value(kind).toInt() + 1);
            entries.append(QJsonObject{
                {QStringLiteral("id"), e.value(QStringLiteral("id"))},
                {QStringLiteral("title"), e.value(QStringLiteral("title"))},
                {QStringLiteral("kind"), kind},
                {QStringLiteral("excerpt"), e.value(QStringLiteral("body")).toString().left(280)}});
        }
        brief = {{QStringLiteral("entries"), entries}, {QStringLiteral("byKind"), byKind}};
        summary = QStringLiteral("%1 knowledge entries").arg(entries.size());
    } else if (section == QLatin1String("appearance")) {
        brief = {{QStringLiteral("experience"), config.experience().effective()},
                 {QStringLiteral("greeting"), config.greeting().effective()},
                 {QStringLiteral("voice"), config.voice().effective()},
                 {QStringLiteral("discoverySurface"),
                  config.agentDiscovery().discoverySurface().effective()}};
        summary = QStringLiteral("anchored %1, live actions %2")
                      .arg(config.experience().anchor(), config.experience().liveActionMode());
    } else {
        const QJsonObject totals =
            m_analytics.summary(site.id, 30).value(QStringLiteral("totals")).toObject();
        brief = {{QStringLiteral("businessType"), config.businessType()},
                 {QStringLiteral("last30Days"), totals},
                 {QStringLiteral("interviewQuestionCount"), m_analytics.questions(site.id).size()}};
        summary = QStringLiteral("%1 site; %2 visits and %3 interactions in 30 days")
                      .arg(config.businessType())
                      .arg(totals.value(QStringLiteral("visits")).toInteger())
                      .arg(totals.value(QStringLiteral("interactions")).toInteger());
    }
    return {{QStringLiteral("siteId"), site.id},
            {QStringLiteral("section"), section},
            {QStringLiteral("summary"), summary},
            {QStringLiteral("brief"), SiteConfigSchema::redact(brief)}};
}

QJsonObject ConfigApi::validate(const Principal &principal, const QJsonObject &body) const
{
    const JsonFields fields(body);
    fields.rejectUnknown({QStringLiteral("patch"), QStringLiteral("siteId")});
    if (const auto siteId = fields.optionalString(QStringLiteral("siteId")))
        siteFor(principal, *siteId);
    const auto patch = fields.optionalObject(QStringLiteral("patch"));
    if (!patch)
        throw DomainError::missingField(QStringLiteral("patch"));
    QStringList dropped;
    try {
        const QJsonObject normalized = SiteConfigSchema::sanitizePatch(
            patch->object(), SiteConfigSchema::Mode::Lenient, QStringLiteral("patch"), &dropped);
        return {
            {QStringLiteral("valid"), !normalized.isEmpty()},
            {QStringLiteral("patch"), SiteConfigSchema::redact(normalized)},
            {QStringLiteral("droppedPaths"), QJsonArray::fromStringList(dropped)},
            {QStringLiteral("errors"),
             normalized.isEmpty()
                 ? QJsonArray{QJsonObject{{QStringLiteral("code"), QStringLiteral("EMPTY_PATCH")},
                                          {QStringLiteral("error"),
                                           QStringLiteral("the patch changes no supported field")},
                                          {QStringLiteral("field"), QStringLiteral("patch")}}}
                 : QJsonArray()}};
    } catch (const DomainError &e) {
        return {{QStringLiteral("valid"), false},
                {QStringLiteral("droppedPaths"), QJsonArray::fromStringList(dropped)},
                {QStringLiteral("errors"),
                 QJsonArray{QJsonObject{{QStringLiteral("code"), e.code()},
                                        {QStringLiteral("error"), e.message()},
                                        {QStringLiteral("field"), e.field()}}}}};
    }
}

QJsonObject ConfigApi::createChange(const Principal &principal, const Site &site,
                                    const QString &kind, const QJsonObject &patch,
                                    const QStringList &dropped, const QJsonObject &envelope,
                                    const QString &reviewBase, bool *created)
{
    const JsonFields fields(envelope);
    ConfigChange change;
    change.siteId = site.id;
    change.author = principal.actor();
    change.clientRequestId = fields.requiredString(QStringLiteral("clientRequestId"));
    if (change.clientRequestId.size() > 200)
        throw DomainError::invalidField(QStringLiteral("clientRequestId"),
                                        QStringLiteral("must be at most 200 characters"));
    change.kind = kind;
    change.title = fields.optionalString(QStringLiteral("title")).value_or(QString()).trimmed();
    if (change.title.isEmpty())
        change.title = kind == QLatin1String("journey") ? QStringLiteral("Draft journey")
                                                        : QStringLiteral("Configuration change");
    if (change.title.size() > 200)
        throw DomainError::invalidField(QStringLiteral("title"),
                                        QStringLiteral("must be at most 200 characters"));
    change.description =
        fields.optionalString(QStringLiteral("description")).value_or(QString()).trimmed();
    if (change.description.size() > 4000)
        throw DomainError::invalidField(QStringLiteral("description"),
                                        QStringLiteral("must be at most 4000 characters"));
    if (patch.isEmpty()) {
        throw DomainError(
            DomainError::Kind::Invalid, QStringLiteral("EMPTY_PATCH"),
            QStringLiteral("the patch changes no supported field"), QStringLiteral("patch"),
            QJsonObject{{QStringLiteral("droppedPaths"), QJsonArray::fromStringList(dropped)}});
    }
    change.patch = patch;
    change.droppedPaths = dropped;
    change.baseVersion = m_sites.config(site.id).version;
    const auto [stored, isNew] = m_changes.createOnce(change);
    *created = isNew;
    QJsonObject out = changeJson(stored, reviewBase);
    out.insert(QStringLiteral("replayed"), !isNew);
    return out;
}

QJsonObject ConfigApi::propose(const Principal &principal, const QString &siteId,
                               const QJsonObject &body, const QString &reviewBase, bool *created)
{
    const Site site = siteFor(principal, siteId);
    const JsonFields fields(body);
    fields.rejectUnknown({QStringLiteral("patch"), QStringLiteral("title"),
                          QStringLiteral("description"), QStringLiteral("clientRequestId"),
                          QStringLiteral("siteId")});
    const auto patch = fields.optionalObject(QStringLiteral("patch"));
    if (!patch)
        throw DomainError::missingField(QStringLiteral("patch"));
    fields.requiredString(QStringLiteral("clientRequestId"));
    QStringList dropped;
    const QJsonObject normalized = SiteConfigSchema::sanitizePatch(
        patch->object(), SiteConfigSchema::Mode::Lenient, QStringLiteral("patch"), &dropped);
    return createChange(principal, site, QStringLiteral("patch"), normalized, dropped, body,
                        reviewBase, created);
}

QJsonObject ConfigApi::draftJourney(const Principal &principal, const QString &siteId,
                                    const QJsonObject &body, const QString &reviewBase,
                                    bool *created)
{
    const Site site = siteFor(principal, siteId);
    const JsonFields fields(body);
    fields.rejectUnknown({QStringLiteral("journey"), QStringLiteral("title"),
                          QStringLiteral("description"), QStringLiteral("clientRequestId"),
                          QStringLiteral("siteId")});
    const auto journeyFields = fields.optionalObject(QStringLiteral("journey"));
    if (!journeyFields)
        throw DomainError::missingField(QStringLiteral("journey"));
    const QString clientRequestId = fields.requiredString(QStringLiteral("clientRequestId"));
    QJsonObject journey = journeyFields->object();
    journey.insert(QStringLiteral("kind"), QStringLiteral("journey"));
    if (!journey.contains(QStringLiteral("id"))) {
        // Stable across retries: derived from the request id, not random.
        QString id = QStringLiteral("journey-") + clientRequestId;
        id.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]")), QStringLiteral("-"));
        journey.insert(QStringLiteral("id"), id.left(64));
    }
    if (!journey.contains(QStringLiteral("enabled")))
        journey.insert(QStringLiteral("enabled"), false); // a preview until the owner enables it
    // The journey is checked as the one shortcut of a patch; paths are reported
    // relative to the caller's `journey` argument.
    const QString asShortcut = QStringLiteral("shortcuts[0]");
    QStringList dropped;
    QJsonObject patch;
    try {
        patch = SiteConfigSchema::sanitizePatch(
            QJsonObject{{QStringLiteral("shortcuts"), QJsonArray{journey}}},
            SiteConfigSchema::Mode::Lenient, QString(), &dropped);
    } catch (const DomainError &e) {
        QString message = e.message();
        QString field = e.field();
        throw DomainError(e.kind(), e.code(),
                          message.replace(asShortcut, QStringLiteral("journey")),
                          field.replace(asShortcut, QStringLiteral("journey")), e.details());
    }
    for (QString &d : dropped)
        d.replace(asShortcut, QStringLiteral("journey"));
    return createChange(principal, site, QStringLiteral("journey"), patch, dropped, body,
                        reviewBase, created);
}

} // namespace ph::sites
