#pragma once

// Console tests of browser sessions without a browser: a SessionService of the test's
// own on the real service's store, settings and policy, whose browsers only pretend
// (PretendSessionBrowser), and the console's services with it in place of the
// service's. For tests that link pilothouse_ui.

#include "PretendSessionBrowser.h"
#include "TestService.h"

#include "Service.h"
#include "common/ConsoleServices.h"
#include "sessions/SessionService.h"

namespace ph::test {

struct PretendSessions
{
    // `inputs`: where the sessions' pages record what they are handed (null: no pages).
    PretendSessions(TestService &ph, std::shared_ptr<QList<LiveInput>> inputs = {})
        : service(
              ph.service().store(), ph.service().settings(), ph.service().policy(), ph.dataDir(),
              [this, inputs](const SessionBrowserSpec &) -> std::unique_ptr<SessionBrowser> {
                  auto browser = std::make_unique<PretendSessionBrowser>(inputs);
                  browsers << browser.get();
                  return browser;
              },
              [] { return QString(); })
        , console(withSessions(ui::ConsoleServices::of(ph.service()), service))
    {
        service.start();
    }

    static ui::ConsoleServices withSessions(const ui::ConsoleServices &s,
                                            sessions::SessionService &sessions)
    {
        return {s.keyService,   s.settings,   s.settingsService, s.pool,
                s.clock,        s.requestLog, s.activityStats,   s.runs,
                s.trajectories, s.library,    s.toolLibrary,     s.runService,
                s.webhooks,     s.a2w,        s.runtime,         s.sites,
                sessions,       s.apiAddress, s.dataDir,         s.databasePath};
    }

    sessions::SessionService service;
    ui::ConsoleServices console;
    // Every browser made, in order (null once its session let go of it).
    QList<QPointer<PretendSessionBrowser>> browsers;
};

} // namespace ph::test
