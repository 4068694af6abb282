#pragma once

// QTEST main for tests that need QtWebEngine: sets up the environment the way
// app/main.cpp does (offscreen, no sandbox as root), and gives Chromium a host
// resolver rule so *.invalid names fail to resolve without any DNS traffic.
#include "net/EgressProxy.h"

#include <QGuiApplication>
#include <QtTest>

#include <unistd.h>
#include <vector>

namespace ph::test {

inline void prepareWebEngineEnvironment()
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (::geteuid() == 0 && !qEnvironmentVariableIsSet("QTWEBENGINE_DISABLE_SANDBOX"))
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");
    qputenv("QT_LOGGING_RULES", "qt.webenginecontext.info=false;js.warning=false");
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
}

inline std::vector<char *> webEngineArgv(int argc, char **argv)
{
    static QByteArray rule = "--host-resolver-rules=MAP *.invalid ~NOTFOUND";
    std::vector<char *> out(argv, argv + argc);
    out.push_back(rule.data());
    out.push_back(nullptr);
    return out;
}

} // namespace ph::test

// The same for widget tests (the test includes <QApplication> and links Widgets).
#define PH_WIDGETS_TEST_MAIN(TestObject)                                                           \
    int main(int argc, char **argv)                                                                \
    {                                                                                              \
        ph::test::prepareWebEngineEnvironment();                                                   \
        auto args = ph::test::webEngineArgv(argc, argv);                                           \
        int appArgc = argc + 1;                                                                    \
        QApplication app(appArgc, args.data());                                                    \
        /* Before QtWebEngine starts: pages connect through the egress proxy. */                   \
        ph::EgressProxy::routeChromium();                                                          \
        TestObject tc;                                                                             \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return QTest::qExec(&tc, argc, argv);                                                      \
    }

#define PH_WEBENGINE_TEST_MAIN(TestObject)                                                         \
    int main(int argc, char **argv)                                                                \
    {                                                                                              \
        ph::test::prepareWebEngineEnvironment();                                                   \
        auto args = ph::test::webEngineArgv(argc, argv);                                           \
        int appArgc = argc + 1;                                                                    \
        QGuiApplication app(appArgc, args.data());                                                 \
        /* Before QtWebEngine starts: pages connect through the egress proxy. */                   \
        ph::EgressProxy::routeChromium();                                                          \
        TestObject tc;                                                                             \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        /* QTest reads only the original arguments; the resolver rule is Chromium's. */            \
        return QTest::qExec(&tc, argc, argv);                                                      \
    }
