// BuiltinPlanners, the PlannerFactory server/Service gives RunManager: which planner a
// name builds, and what of a request reaches the rule planner's judgement (its
// TaskContext). No store, browser or model: the factory only builds.
#include "core/Clock.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/Planner.h"
#include "engine/planners/BuiltinPlanners.h"
#include "engine/planners/TaskParser.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace ph;
using engine::BuiltinPlanners;
using engine::ExecuteRequest;

namespace {
const QString kPdfTask = QStringLiteral(
    "Fill the form at https://forms.example/a.pdf with city \"London\" and check \"Subscribe\"");
}

class tst_BuiltinPlanners : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void buildsThePlannerANameAsksFor_data();
    void buildsThePlannerANameAsksFor();
    void judgesATaskWithTheRequestsContext_data();
    void judgesATaskWithTheRequestsContext();
    void givesTheRulePlannerWhatTheRequestHolds();

private:
    QTemporaryDir m_dir;
    SystemClock m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<Settings> m_settings;
    QNetworkAccessManager m_network;
};

void tst_BuiltinPlanners::initTestCase()
{
    m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("planners.db")), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_settings = std::make_unique<Settings>(*m_store);
}

void tst_BuiltinPlanners::buildsThePlannerANameAsksFor_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("planner");
    QTest::newRow("llm builds the LLM planner") << "llm"
                                                << "llm";
    QTest::newRow("script builds the script planner") << "script"
                                                      << "script";
    QTest::newRow("rule builds the rule planner") << "rule"
                                                  << "rule";
    QTest::newRow("no name builds the rule planner") << ""
                                                     << "rule";
    QTest::newRow("a name it does not know builds the rule planner") << "oracle"
                                                                     << "rule";
}

void tst_BuiltinPlanners::buildsThePlannerANameAsksFor()
{
    QFETCH(QString, name);
    QFETCH(QString, planner);
    BuiltinPlanners planners(*m_settings, m_network);
    ExecuteRequest request;
    request.input = QStringLiteral("Open https://example.org and extract the title");
    const std::unique_ptr<engine::Planner> made = planners.make(name, request);
    QVERIFY(made);
    QCOMPARE(made->name(), planner);
}

void tst_BuiltinPlanners::judgesATaskWithTheRequestsContext_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QStringList>("additionalTools");
    QTest::addColumn<bool>("understood");
    QTest::newRow("a page and what to read from it is understood")
        << "Open https://example.org and extract the title" << QStringList() << true;
    QTest::newRow("a form to send with nothing to put in it is not understood")
        << "Fill in the form and send it" << QStringList() << false;
    QTest::newRow("a PDF form to fill is understood when the request enables pdf_filling")
        << kPdfTask << QStringList{QStringLiteral("pdf_filling")} << true;
}

void tst_BuiltinPlanners::judgesATaskWithTheRequestsContext()
{
    QFETCH(QString, input);
    QFETCH(QStringList, additionalTools);
    QFETCH(bool, understood);
    BuiltinPlanners planners(*m_settings, m_network);
    ExecuteRequest request;
    request.input = input;
    request.additionalTools = additionalTools;
    QCOMPARE(planners.understood(request), understood);
}

void tst_BuiltinPlanners::givesTheRulePlannerWhatTheRequestHolds()
{
    ExecuteRequest request;
    request.urls = {QStringLiteral("https://example.org/")};
    request.schema = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}};
    request.fileUrls = {QStringLiteral("https://example.org/a.csv")};
    request.additionalTools = {QStringLiteral("generate_sheets")};
    request.recordingId = QStringLiteral("traj_recorded");
    const engine::TaskContext c = BuiltinPlanners::taskContext(request);
    QCOMPARE(c.urls, request.urls);
    QVERIFY(c.hasSchema);
    QVERIFY(c.hasData);
    QCOMPARE(c.additionalTools, request.additionalTools);
    QVERIFY(c.pageOpen);

    const engine::TaskContext empty = BuiltinPlanners::taskContext(ExecuteRequest());
    QVERIFY(!empty.hasSchema);
    QVERIFY(!empty.hasData);
    QVERIFY(!empty.pageOpen);
}

QTEST_GUILESS_MAIN(tst_BuiltinPlanners)
#include "tst_builtinplanners.moc"
