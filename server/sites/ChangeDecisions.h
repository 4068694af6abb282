#pragma once

#include "ChangeRepository.h"

namespace ph {
class Store;
}

namespace ph::sites {

class SiteRepository;

// The owner's decisions on proposals, shared by the workspace API and the console:
// apply re-validates the patch against the configuration as it is now (409
// CHANGE_CONFLICT when it no longer fits) and writes a new version in the same
// transaction; discard only marks it. Both throw DomainError (404 CHANGE_NOT_FOUND,
// 409 CHANGE_NOT_PENDING).
ConfigChange applyChange(Store &store, SiteRepository &sites, ChangeRepository &changes,
                         const QString &changeId, const QString &actor, const QString &note);
ConfigChange discardChange(ChangeRepository &changes, const QString &changeId, const QString &actor,
                           const QString &reason);

} // namespace ph::sites
