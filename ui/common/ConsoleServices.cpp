#include "ConsoleServices.h"

#include "Service.h"

namespace ph::ui {

ConsoleServices ConsoleServices::of(Service &service)
{
    return ConsoleServices{service.keyService(),
                           service.settings(),
                           service.settingsService(),
                           service.pool(),
                           service.clock(),
                           service.requestLog(),
                           service.activityStats(),
                           service.runs(),
                           service.trajectories(),
                           service.library(),
                           service.toolLibrary(),
                           service.runService(),
                           service.webhooks(),
                           service.a2w(),
                           service.runtime(),
                           service.sites(),
                           [&service] { return service.apiAddress(); },
                           service.dataDir(),
                           service.databasePath()};
}

} // namespace ph::ui
