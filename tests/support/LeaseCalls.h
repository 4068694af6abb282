#pragma once

// Waiting forms of a BrowserLease's calls, for the browser tests of both engines.
#include "browser/BrowserLease.h"

#include <QtTest>

namespace ph::test {

// Navigates and waits; returns the result (TEST_WAIT_EXPIRED if it never came).
inline NavigationResult navigateAndWait(BrowserLease &lease, const QString &url,
                                        NavigateOptions options = {})
{
    NavigationResult out;
    bool done = false;
    lease.navigate(QUrl(url), options, [&](const NavigationResult &r) {
        out = r;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, options.timeoutMs + 5000))
        out.errorCode = QStringLiteral("TEST_WAIT_EXPIRED");
    return out;
}

// Runs a script in the agent's world and waits for its value.
inline QVariant evaluateAndWait(BrowserLease &lease, const QString &script)
{
    QVariant out;
    bool done = false;
    lease.evaluate(script, 10000, [&](bool, const QVariant &v) {
        out = v;
        done = true;
    });
    (void)QTest::qWaitFor([&] { return done; }, 15000);
    return out;
}

} // namespace ph::test
