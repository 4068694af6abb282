#pragma once

// Console tests of browser sessions without a browser: the service's own SessionService
// given fake browsers (FakeSessionBrowser), and the console's services on that
// service. For tests that link pilothouse_ui.

#include "FakeSessionBrowser.h"
#include "TestService.h"

#include "Service.h"
#include "common/ConsoleServices.h"
#include "sessions/SessionService.h"

#include <QPointer>

namespace ph::test {

struct PretendSessions
{
    // `inputs`: where the sessions' pages record what they are handed (null: no pages).
    explicit PretendSessions(TestService &ph, std::shared_ptr<QList<LiveInput>> inputs = {})
        : service(ph.service().sessions())
        , console(ui::ConsoleServices::of(ph.service()))
    {
        service.setBrowserFactory(
            [this, inputs](const SessionBrowserSpec &spec) -> std::unique_ptr<SessionBrowser> {
                auto browser = std::make_unique<FakeSessionBrowser>(spec, true, inputs);
                browsers << browser.get();
                return browser;
            });
    }

    ~PretendSessions() { service.setBrowserFactory({}); }

    sessions::SessionService &service;
    ui::ConsoleServices console;
    // Every browser made, in order (null once its session let go of it).
    QList<QPointer<FakeSessionBrowser>> browsers;
};

} // namespace ph::test
