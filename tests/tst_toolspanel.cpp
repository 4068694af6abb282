// The console's saved-tools panel against the real service: the model under
// QAbstractItemModelTester; a tool created and edited in the panel is the one GET /tools
// answers; mistakes show the API's typed error and store nothing; a JavaScript tool's
// test run against a fixture page shows its result; Delete removes it.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/BrowserPool.h"
#include "cloud/LibraryRepository.h"
#include "common/JsonView.h"
#include "core/Store.h"
#include "tools/JsonEdit.h"
#include "tools/ToolsDock.h"
#include "tools/ToolsModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>

using namespace ph;
using namespace ph::test;

class tst_ToolsPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void createsAToolTheApiLists();
    void editsAToolAndFollowsTheApi();
    void showsTypedErrorsAndStoresNothing();
    void testRunsAJavaScriptTool();
    void deletesWithTheDeleteKey();

private:
    std::optional<cloud::SavedTool> stored(const QString &name)
    {
        return m_ph->service().library().tool(m_dock->model()->keyId(), name);
    }

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::ToolsDock> m_dock;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void tst_ToolsPanel::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/shop", "<!doctype html><title>Shop</title><h1>Rope</h1>");
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_dock = std::make_unique<ui::ToolsDock>(ui::ConsoleServices::of(m_ph->service()));
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_dock->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_dock->resize(1100, 700);
    m_dock->show();
    QApplication::setActiveWindow(m_dock.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dock.get()));
    QVERIFY(!m_dock->model()->keyId().isEmpty());
}

void tst_ToolsPanel::cleanupTestCase()
{
    m_tester.reset();
    m_dock.reset();
    m_ph.reset();
}

void tst_ToolsPanel::createsAToolTheApiLists()
{
    m_dock->startNew();
    m_dock->nameField()->setText(QStringLiteral("find_rope"));
    m_dock->descriptionField()->setText(QStringLiteral("Opens the shop"));
    m_dock->parametersField()->setPlainText(
        QStringLiteral(R"({"type": "object", "properties": {"query": {"type": "string"}},
                          "required": ["query"]})"));
    m_dock->kindCombo()->setCurrentIndex(
        m_dock->kindCombo()->findData(QStringLiteral("subroutine")));
    m_dock->stepsField()->setPlainText(
        QStringLiteral(R"([{"tool": "act_on_tab", "args": {"action": "navigate",
                           "url": "%1?q={{query}}"}}])")
            .arg(m_site.url(QStringLiteral("/shop"))));
    m_dock->saveButton()->click();
    QVERIFY2(m_dock->errorLabel()->text().contains(QLatin1String("user_find_rope")),
             qPrintable(m_dock->errorLabel()->text()));
    QCOMPARE(m_dock->model()->rowCount(), 1);
    QCOMPARE(m_dock->model()->rowAt(m_dock->model()->index(0, 0)).name,
             QStringLiteral("find_rope"));
    QCOMPARE(m_dock->model()->index(0, ui::ToolsModel::Parameters).data().toString(),
             QStringLiteral("query"));
    QCOMPARE(m_dock->editing(), QStringLiteral("find_rope"));
    QVERIFY(m_dock->nameField()->isReadOnly()); // PUT keeps the name

    HttpClient c = m_ph->client();
    const auto r = c.get(QStringLiteral("/tools/find_rope"));
    QCOMPARE(r.status, 200);
    const QJsonObject tool = r.json().value(QStringLiteral("tool")).toObject();
    QCOMPARE(tool.value(QStringLiteral("kind")).toString(), QStringLiteral("subroutine"));
    QCOMPARE(tool.value(QStringLiteral("description")).toString(),
             QStringLiteral("Opens the shop"));
    QCOMPARE(tool.value(QStringLiteral("steps")).toArray().size(), 1);
}

void tst_ToolsPanel::editsAToolAndFollowsTheApi()
{
    QVERIFY(m_dock->select(QStringLiteral("find_rope")));
    m_dock->descriptionField()->setText(QStringLiteral("Searches the shop"));
    m_dock->saveButton()->click();
    QCOMPARE(stored(QStringLiteral("find_rope"))->description, QStringLiteral("Searches the shop"));
    QCOMPARE(m_dock->model()->index(0, ui::ToolsModel::Description).data().toString(),
             QStringLiteral("Searches the shop"));

    // A change over REST shows in the list and in the (unedited) editor.
    HttpClient c = m_ph->client();
    const QJsonObject body{
        {QStringLiteral("description"), QStringLiteral("Changed over REST")},
        {QStringLiteral("parameters"), stored(QStringLiteral("find_rope"))->parameters},
        {QStringLiteral("steps"), stored(QStringLiteral("find_rope"))->steps}};
    QCOMPARE(c.send("PUT", QStringLiteral("/tools/find_rope"),
                    QJsonDocument(body).toJson(QJsonDocument::Compact))
                 .status,
             200);
    QTRY_COMPARE(m_dock->model()->index(0, ui::ToolsModel::Description).data().toString(),
                 QStringLiteral("Changed over REST"));
    QCOMPARE(m_dock->descriptionField()->text(), QStringLiteral("Changed over REST"));
}

void tst_ToolsPanel::showsTypedErrorsAndStoresNothing()
{
    // A bad name: the message and code POST /tools answers with, nothing stored.
    m_dock->startNew();
    m_dock->nameField()->setText(QStringLiteral("Bad Name"));
    m_dock->stepsField()->setPlainText(
        QStringLiteral(R"([{"tool": "act_on_tab", "args": {"action": "snapshot"}}])"));
    m_dock->saveButton()->click();
    QString error = m_dock->errorLabel()->text();
    QVERIFY2(error.startsWith(QLatin1String("name must start with a lowercase letter")),
             qPrintable(error));
    QVERIFY(error.contains(QLatin1String("INVALID_FIELD")));
    QCOMPARE(m_dock->model()->rowCount(), 1);
    QVERIFY(!stored(QStringLiteral("Bad Name")));

    // Bad steps: the step's path is named.
    m_dock->nameField()->setText(QStringLiteral("flyer"));
    m_dock->stepsField()->setPlainText(QStringLiteral(R"([{"tool": "fly", "args": {}}])"));
    m_dock->saveButton()->click();
    error = m_dock->errorLabel()->text();
    QVERIFY2(error.contains(QLatin1String("steps[0].tool must be act_on_tab")), qPrintable(error));
    QVERIFY(!stored(QStringLiteral("flyer")));
    // A placeholder that is not a parameter.
    m_dock->stepsField()->setPlainText(QStringLiteral(
        R"([{"tool": "act_on_tab", "args": {"action": "navigate", "url": "{{where}}"}}])"));
    m_dock->saveButton()->click();
    QVERIFY2(m_dock->errorLabel()->text().contains(QLatin1String("{{where}}")),
             qPrintable(m_dock->errorLabel()->text()));
    // Not JSON at all.
    m_dock->stepsField()->setPlainText(QStringLiteral("[{"));
    m_dock->saveButton()->click();
    QVERIFY2(m_dock->errorLabel()->text().contains(QLatin1String("INVALID_JSON")),
             qPrintable(m_dock->errorLabel()->text()));
    QVERIFY(!stored(QStringLiteral("flyer")));
    QCOMPARE(m_dock->model()->rowCount(), 1);

    // Replacing with bad steps keeps the stored ones.
    const QJsonArray before = stored(QStringLiteral("find_rope"))->steps;
    QVERIFY(m_dock->select(QStringLiteral("find_rope")));
    m_dock->stepsField()->setPlainText(QStringLiteral("[]"));
    m_dock->saveButton()->click();
    QVERIFY2(m_dock->errorLabel()->text().contains(QLatin1String("steps needs 1 to 100 steps")),
             qPrintable(m_dock->errorLabel()->text()));
    QCOMPARE(stored(QStringLiteral("find_rope"))->steps, before);
}

void tst_ToolsPanel::testRunsAJavaScriptTool()
{
    m_dock->startNew();
    m_dock->nameField()->setText(QStringLiteral("title_of"));
    m_dock->parametersField()->setPlainText(
        QStringLiteral(R"({"type": "object", "properties": {"suffix": {"type": "string"}}})"));
    m_dock->kindCombo()->setCurrentIndex(
        m_dock->kindCombo()->findData(QStringLiteral("javascript")));
    m_dock->codeField()->setPlainText(
        QStringLiteral("return document.title + ' / ' + params.suffix;"));
    m_dock->urlField()->setText(m_site.url(QStringLiteral("/shop")));
    m_dock->saveButton()->click();
    QCOMPARE(stored(QStringLiteral("title_of"))->kind, QStringLiteral("javascript"));
    QCOMPARE(m_dock->model()->rowCount(), 2);
    QVERIFY(m_dock->runButton()->isEnabled());

    // Parameters that do not fit the schema: the bridge's typed error, no run.
    m_dock->argumentsField()->setPlainText(QStringLiteral(R"({"suffix": 5})"));
    m_dock->runButton()->click();
    QVERIFY2(m_dock->runStatus()->text().contains(QLatin1String("params.suffix")),
             qPrintable(m_dock->runStatus()->text()));
    QVERIFY(m_dock->testRunId().isEmpty());

    const int visits = m_site.hits("/shop");
    m_dock->argumentsField()->setPlainText(QStringLiteral(R"({"suffix": "console"})"));
    m_dock->runButton()->click();
    QVERIFY2(m_dock->testRunId().startsWith(QLatin1String("traj_")),
             qPrintable(m_dock->runStatus()->text()));
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->runStatus()->text().endsWith(QLatin1String(": success")),
                             60000);
    QVERIFY2(m_dock->resultView()->toPlainText().contains(QLatin1String("\"Shop / console\"")),
             qPrintable(m_dock->resultView()->toPlainText()));
    QCOMPARE(m_site.hits("/shop"), visits + 1);
    // It is an ordinary run of the owner key, stored with the tool and its parameters.
    HttpClient c = m_ph->client();
    const auto run = c.get(QStringLiteral("/agent/%1").arg(m_dock->testRunId()));
    QCOMPARE(run.status, 200);
    QCOMPARE(run.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    // Started as the API starts runs: it is in the request log…
    Sql logged(m_ph->service().store(),
               QStringLiteral("SELECT status FROM api_requests WHERE endpoint = 'console'"));
    logged.exec();
    QVERIFY(logged.next());
    QCOMPARE(logged.value(0).toString(), QStringLiteral("success"));
    // …and a full pool refuses it (429 BUSY, as POST /agent would), starting nothing.
    const BrowserPool::Options roomy = m_ph->service().pool().options();
    BrowserPool::Options full = roomy;
    full.size = 0;
    full.queueLimit = 0;
    m_ph->service().pool().setOptions(full);
    const QString before = m_dock->testRunId();
    m_dock->runButton()->click();
    m_ph->service().pool().setOptions(roomy);
    QVERIFY2(m_dock->runStatus()->text().contains(QLatin1String("BUSY")),
             qPrintable(m_dock->runStatus()->text()));
    QCOMPARE(m_dock->testRunId(), before);
}

void tst_ToolsPanel::deletesWithTheDeleteKey()
{
    QVERIFY(m_dock->select(QStringLiteral("find_rope")));
    m_dock->view()->setFocus();
    QTest::keyClick(m_dock->view(), Qt::Key_Delete);
    QCOMPARE(m_dock->model()->rowOf(QStringLiteral("find_rope")), -1);
    QVERIFY(m_dock->editing().isEmpty());
    HttpClient c = m_ph->client();
    QCOMPARE(c.get(QStringLiteral("/tools/find_rope")).status, 404);
    // One deleted over REST leaves the list too.
    QCOMPARE(c.send("DELETE", QStringLiteral("/tools/title_of")).status, 200);
    QTRY_COMPARE(m_dock->model()->rowCount(), 0);
}

PH_WIDGETS_TEST_MAIN(tst_ToolsPanel)
#include "tst_toolspanel.moc"
