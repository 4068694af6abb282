// The console's triggers panel against the real service: the model under
// QAbstractItemModelTester; creating a trigger from the panel shows a URL and a curl
// example that works when run by curl itself; typed errors; revoking from the panel.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "triggers/TriggersDock.h"
#include "triggers/TriggersModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QTableView>

using namespace ph;
using namespace ph::test;

class tst_TriggersPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void createsATriggerWhoseCurlExampleWorks();
    void offersSavedToolsAndNamesMistakes();
    void revokesFromThePanel();

private:
    QByteArray runCurlExample(int *exitCode);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::TriggersDock> m_dock;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void tst_TriggersPanel::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/shop", "<!doctype html><title>Shop</title><table><thead><tr><th>Name</th>"
                         "<th>Price</th></tr></thead><tbody><tr><td>Rope</td><td>12.50</td></tr>"
                         "</tbody></table>");
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_dock = std::make_unique<ui::TriggersDock>(ui::ConsoleServices::of(m_ph->service()));
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_dock->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_dock->resize(1000, 600);
    m_dock->show();
}

void tst_TriggersPanel::cleanupTestCase()
{
    m_tester.reset();
    m_dock.reset();
    m_ph.reset();
}

QByteArray tst_TriggersPanel::runCurlExample(int *exitCode)
{
    QProcess shell;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KEY"), m_ph->ownerKey());
    shell.setProcessEnvironment(env);
    shell.start(QStringLiteral("/bin/sh"),
                {QStringLiteral("-c"),
                 m_dock->curlExample()->toPlainText() + QStringLiteral(" -w '\\n%{http_code}'")});
    if (!shell.waitForStarted(5000))
        return {};
    // The service answers on this thread: keep the event loop turning.
    (void)QTest::qWaitFor([&] { return shell.state() == QProcess::NotRunning; }, 60000);
    *exitCode = shell.exitCode();
    return shell.readAllStandardOutput();
}

void tst_TriggersPanel::createsATriggerWhoseCurlExampleWorks()
{
    m_dock->kindCombo()->setCurrentIndex(m_dock->kindCombo()->findData(QStringLiteral("prompt")));
    m_dock->labelField()->setText(QStringLiteral("shop check"));
    m_dock->promptField()->setPlainText(QStringLiteral("List the products"));
    m_dock->urlsField()->setText(m_site.url(QStringLiteral("/shop")));
    m_dock->createButton()->click();
    QVERIFY2(m_dock->errorLabel()->text().isEmpty(), qPrintable(m_dock->errorLabel()->text()));
    QCOMPARE(m_dock->model()->rowCount(), 1);
    const QString url = m_dock->urlField()->text();
    QVERIFY(url.startsWith(m_ph->base() + QStringLiteral("/mcp/v1/webhooks/trigger/trg_")));
    QVERIFY(m_dock->curlExample()->toPlainText().contains(url));
    QVERIFY(!m_dock->curlExample()->toPlainText().contains(m_ph->ownerKey())); // never shown
    int exitCode = -1;
    const QByteArray out = runCurlExample(&exitCode);
    QCOMPARE(exitCode, 0);
    QVERIFY2(out.endsWith("\n200"), out.right(400).constData());
    QVERIFY(out.contains("\"status\":\"success\""));
    QVERIFY(out.contains("Rope"));
    // The firing shows in the list.
    QTRY_COMPARE(m_dock->model()->index(0, ui::TriggersModel::Fired).data().toInt(), 1);
}

void tst_TriggersPanel::offersSavedToolsAndNamesMistakes()
{
    HttpClient c = m_ph->client();
    QCOMPARE(c.post(QStringLiteral("/tools"),
                    {{QStringLiteral("name"), QStringLiteral("page_title")},
                     {QStringLiteral("code"), QStringLiteral("return document.title;")},
                     {QStringLiteral("url"), m_site.url(QStringLiteral("/shop"))}})
                 .status,
             201);
    // The tool list follows the store.
    QTRY_COMPARE(m_dock->toolCombo()->findText(QStringLiteral("page_title")), 0);
    m_dock->kindCombo()->setCurrentIndex(m_dock->kindCombo()->findData(QStringLiteral("tool")));
    m_dock->createButton()->click();
    QVERIFY(m_dock->errorLabel()->text().isEmpty());
    QCOMPARE(m_dock->model()->rowCount(), 2);
    QCOMPARE(m_dock->model()->index(0, ui::TriggersModel::Target).data().toString(),
             QStringLiteral("tool page_title"));
    // A past run that does not exist: the API's message, nothing stored.
    m_dock->kindCombo()->setCurrentIndex(m_dock->kindCombo()->findData(QStringLiteral("run")));
    m_dock->runField()->setText(QStringLiteral("traj_nope"));
    m_dock->createButton()->click();
    QVERIFY(m_dock->errorLabel()->text().contains(QLatin1String("traj_nope")));
    QCOMPARE(m_dock->model()->rowCount(), 2);
}

void tst_TriggersPanel::revokesFromThePanel()
{
    m_dock->view()->setCurrentIndex(m_dock->model()->index(0, 0));
    const QString url = m_dock->urlField()->text();
    QVERIFY(m_dock->revokeButton()->isEnabled());
    m_dock->revokeButton()->click();
    QCOMPARE(m_dock->model()->index(0, ui::TriggersModel::Active).data().toString(),
             QStringLiteral("revoked"));
    QVERIFY(!m_dock->revokeButton()->isEnabled());
    HttpClient c = m_ph->client();
    QCOMPARE(c.post(url, QJsonObject()).status, 404);
}

PH_WIDGETS_TEST_MAIN(tst_TriggersPanel)
#include "tst_triggerspanel.moc"
