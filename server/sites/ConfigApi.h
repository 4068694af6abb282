#pragma once

#include "ChangeRepository.h"
#include "SiteRepository.h"

#include "core/Principal.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace ph::sites {

class AnalyticsRepository;

// The owner's-AI surface, shared by the configuration REST controller and the
// configuration MCP tools so both answer alike. Every call is scoped by the principal:
// a Connect AI key sees only its bound site, the owner sees the owner's sites, and
// any other site id is 404 SITE_NOT_FOUND (never 403, so ids cannot be probed).
// Reads are redacted (SiteConfigSchema::redact). Nothing here applies a change.
class ConfigApi
{
public:
    ConfigApi(SiteRepository &sites, ChangeRepository &changes, AnalyticsRepository &analytics);

    // The site `siteId` as `principal` may see it; throws 404 otherwise.
    Site siteFor(const Principal &principal, const QString &siteId,
                 const QString &field = QStringLiteral("siteId")) const;

    QJsonObject listSites(const Principal &principal) const;
    QJsonObject getConfig(const Principal &principal, const QString &siteId,
                          const QStringList &fields) const;
    QJsonObject listJourneys(const Principal &principal, const QString &siteId) const;
    QJsonObject getJourney(const Principal &principal, const QString &siteId,
                           const QString &journeyId) const;
    QJsonObject analyticsSummary(const Principal &principal, const QString &siteId,
                                 const QString &range) const;
    QJsonObject listPendingChanges(const Principal &principal, const QString &siteId, int limit,
                                   const QString &cursor, const QString &reviewBase) const;
    QJsonObject brief(const Principal &principal, const QString &siteId,
                      const QString &section) const;
    // Dry run through the proposal sanitizer: {valid, patch, droppedPaths, errors}.
    QJsonObject validate(const Principal &principal, const QJsonObject &body) const;

    // Creates a pending proposal (or returns the one this author already made with
    // the same clientRequestId). `created` tells which.
    QJsonObject propose(const Principal &principal, const QString &siteId, const QJsonObject &body,
                        const QString &reviewBase, bool *created);
    // One preview journey as a pending proposal.
    QJsonObject draftJourney(const Principal &principal, const QString &siteId,
                             const QJsonObject &body, const QString &reviewBase, bool *created);

    QJsonObject changeJson(const ConfigChange &change, const QString &reviewBase) const;
    // "http://<Host>" of the request, the base of review URLs.

    static const QStringList &briefSections();

private:
    QJsonObject createChange(const Principal &principal, const Site &site, const QString &kind,
                             const QJsonObject &patch, const QStringList &dropped,
                             const QJsonObject &envelope, const QString &reviewBase, bool *created);

    SiteRepository &m_sites;
    ChangeRepository &m_changes;
    AnalyticsRepository &m_analytics;
};

} // namespace ph::sites
