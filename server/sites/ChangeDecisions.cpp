#include "ChangeDecisions.h"

#include "SiteConfigSchema.h"
#include "SiteRepository.h"

#include "core/DomainError.h"
#include "core/Store.h"

namespace ph::sites {

namespace {
DomainError notPending(const ConfigChange &c)
{
    return DomainError(DomainError::Kind::Conflict, QStringLiteral("CHANGE_NOT_PENDING"),
                       QStringLiteral("change %1 is already %2").arg(c.id, c.status),
                       QStringLiteral("changeId"),
                       QJsonObject{{QStringLiteral("status"), c.status}});
}

DomainError notFound(const QString &id)
{
    return DomainError(DomainError::Kind::NotFound, QStringLiteral("CHANGE_NOT_FOUND"),
                       QStringLiteral("no change %1").arg(id), QStringLiteral("changeId"));
}
} // namespace

ConfigChange applyChange(Store &store, SiteRepository &sites, ChangeRepository &changes,
                         const QString &changeId, const QString &actor, const QString &note)
{
    ConfigChange change;
    store.transaction([&] {
        const auto found = changes.find(changeId);
        if (!found)
            throw notFound(changeId);
        if (found->status != QLatin1String("pending"))
            throw notPending(*found);
        // Re-validate against the configuration as it is now, not as it was proposed.
        const SiteConfigRecord current = sites.config(found->siteId);
        QJsonObject merged;
        try {
            const QJsonObject patch = SiteConfigSchema::sanitizePatch(
                found->patch, SiteConfigSchema::Mode::Strict, QStringLiteral("patch"));
            merged = SiteConfigSchema::applyProposal(current.config, patch);
            SiteConfigSchema::checkWhole(merged, QStringLiteral("patch"));
        } catch (const DomainError &e) {
            throw DomainError(DomainError::Kind::Conflict, QStringLiteral("CHANGE_CONFLICT"),
                              QStringLiteral("the change no longer applies to the current "
                                             "configuration: %1")
                                  .arg(e.message()),
                              e.field());
        }
        const SiteConfigRecord written = sites.writeConfig(found->siteId, merged, actor);
        changes.decide(changeId, QStringLiteral("applied"), actor, note, written.version);
        change = *changes.find(changeId);
    });
    return change;
}

ConfigChange discardChange(ChangeRepository &changes, const QString &changeId, const QString &actor,
                           const QString &reason)
{
    const auto found = changes.find(changeId);
    if (!found)
        throw notFound(changeId);
    if (!changes.decide(changeId, QStringLiteral("discarded"), actor, reason, std::nullopt))
        throw notPending(*changes.find(changeId));
    return *changes.find(changeId);
}

} // namespace ph::sites
