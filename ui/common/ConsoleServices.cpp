#include "ConsoleServices.h"

#include "Service.h"

#include "core/ApiKeyService.h"

namespace ph::ui {

ConsoleServices ConsoleServices::of(Service &service)
{
    return ConsoleServices{service.keyService(),      service.settings(),
                           service.settingsService(), service.pool(),
                           service.clock(),           service.requestLog(),
                           service.activityStats(),   service.runs(),
                           service.trajectories(),    service.library(),
                           service.toolLibrary(),     service.runService(),
                           service.webhooks(),        service.a2w(),
                           service.runtime(),         service.sites(),
                           service.sessions(),        service.oauth(),
                           service.devices(),         [&service] { return service.apiAddress(); },
                           service.dataDir(),         service.databasePath()};
}

Principal ConsoleServices::operatorPrincipal() const
{
    Principal p;
    p.kind = Principal::Kind::ApiKey;
    p.keyId = keyService.activeOwnerId();
    p.label = QStringLiteral("console");
    p.owner = true;
    return p;
}

} // namespace ph::ui
