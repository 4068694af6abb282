#pragma once

// Suites that run on both browser engines (docs/engines.md): their initTestCase_data()
// adds a row per engine, and init() switches to the row's engine; every test function
// then runs once on QtWebEngine and once on Debian's chromium over the DevTools protocol.
// The chromium rows are skipped only when chromium is not installed.
#include "TestService.h"

#include "browser/BrowserPool.h"
#include "browser/chromium/ChromiumEngine.h"
#include "core/Settings.h"

#include <QtTest>

namespace ph::test {

inline void addEngineRows()
{
    QTest::addColumn<QString>("engine");
    QTest::newRow("on qtwebengine") << QStringLiteral("qtwebengine");
    QTest::newRow("on chromium") << QStringLiteral("chromium");
}

inline bool chromiumInstalled()
{
    return !ChromiumEngine::findExecutable(QString()).isEmpty();
}

// In init(): `shared` (the suite's own service, if any) and every TestService made later
// use the row's engine. Returns false (the caller QSKIPs) when that engine is missing.
inline bool useRowEngine(TestService *shared)
{
    QFETCH_GLOBAL(QString, engine);
    if (engine == QLatin1String("chromium") && !chromiumInstalled())
        return false;
    TestService::setDefaultEngine(engine);
    if (shared) {
        shared->service().settings().set(SettingKeys::browserEngine, engine);
        // The engine is started and a page prepared before the test's clock runs.
        (void)QTest::qWaitFor([shared] { return shared->service().pool().stats().standby > 0; },
                              30000);
    }
    return true;
}

} // namespace ph::test

#define PH_USE_ROW_ENGINE(shared)                                                                  \
    do {                                                                                           \
        if (!ph::test::useRowEngine(shared))                                                       \
            QSKIP("chromium is not installed (packaging/dev/deps.sh --bench installs it)");        \
    } while (false)
