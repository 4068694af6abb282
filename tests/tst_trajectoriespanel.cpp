// The console's runs panel against the real service: the model under
// QAbstractItemModelTester, runs that land while it is open, filters, the detail, and
// answering a run's questions from the panel.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "common/JsonView.h"
#include "core/ApiKeyRepository.h"
#include "core/Store.h"
#include "trajectories/TrajectoriesDock.h"
#include "trajectories/TrajectoriesModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QJsonArray>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>

using namespace ph;
using namespace ph::test;

class tst_TrajectoriesPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void showsARunThatLandsWhileOpen();
    void filtersByStatusAndText();
    void answersQuestionsAndContinuesTheRun();
    void fetchesALongListIncrementally();

private:
    QString startRun(const QString &input, const QString &path, bool wait = true);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::TrajectoriesDock> m_dock;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void tst_TrajectoriesPanel::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/shop", "<!doctype html><title>Shop</title><table><thead><tr><th>Name</th>"
                         "<th>Price</th></tr></thead><tbody><tr><td>Rope</td><td>12.50</td></tr>"
                         "</tbody></table>");
    m_site.page("/login", "<!doctype html><title>Sign in</title><form action=\"/orders\">"
                          "<label for=\"e\">Email</label><input id=\"e\" name=\"email\">"
                          "<label for=\"p\">Password</label><input id=\"p\" name=\"password\" "
                          "type=\"password\"><button>Sign in</button></form>");
    m_site.route("/orders", [](const FixtureRequest &r) {
        const bool ok = r.path.contains("password=s3cret");
        return FixtureResponse::html(ok ? "<!doctype html><title>Orders</title><h1>Your orders"
                                          "</h1><p>Sextant</p>"
                                        : "<!doctype html><title>Sign in</title><p>Wrong</p>");
    });
    m_ph = std::make_unique<TestService>(QStringList{QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY(m_ph->ok());
    m_dock = std::make_unique<ui::TrajectoriesDock>(ui::ConsoleServices::of(m_ph->service()));
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_dock->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_dock->resize(1000, 700);
    m_dock->show();
}

void tst_TrajectoriesPanel::cleanupTestCase()
{
    m_tester.reset();
    m_dock.reset();
    m_ph.reset();
}

QString tst_TrajectoriesPanel::startRun(const QString &input, const QString &path, bool wait)
{
    HttpClient c = m_ph->client();
    QJsonObject body{{QStringLiteral("input"), input},
                     {QStringLiteral("urls"), QJsonArray{m_site.url(path)}}};
    const auto r =
        c.send("POST", QStringLiteral("/agent"), QJsonDocument(body).toJson(QJsonDocument::Compact),
               {{"Content-Type", "application/json"}, {"Prefer", wait ? "wait=60" : "wait=0"}});
    return r.json().value(QStringLiteral("trajectoryId")).toString();
}

void tst_TrajectoriesPanel::showsARunThatLandsWhileOpen()
{
    const int before = m_dock->model()->rowCount();
    const QString id = startRun(QStringLiteral("List the products"), QStringLiteral("/shop"));
    QVERIFY(!id.isEmpty());
    // No reload: the store's signal put it on top, and its row follows the run.
    QTRY_COMPARE(m_dock->model()->rowCount(), before + 1);
    const int row = m_dock->model()->rowOf(id);
    QCOMPARE(row, 0);
    QTRY_COMPARE(m_dock->model()->index(row, ui::TrajectoriesModel::Status).data().toString(),
                 QStringLiteral("success"));
    QVERIFY(m_dock->model()
                ->index(row, ui::TrajectoriesModel::Tools)
                .data()
                .toString()
                .contains(QLatin1String("crawl_and_extract_from_tab")));
    // The detail shows its steps and result.
    QVERIFY(m_dock->select(id));
    QVERIFY(m_dock->stepsTable()->rowCount() >= 2);
    QVERIFY(m_dock->resultView()->toPlainText().contains(QLatin1String("Rope")));
}

void tst_TrajectoriesPanel::filtersByStatusAndText()
{
    startRun(QStringLiteral("Read the shop for the filter test"), QStringLiteral("/shop"));
    auto *status = m_dock->findChild<QComboBox *>();
    auto *search = m_dock->findChild<QLineEdit *>();
    QVERIFY(status && search);
    // Typing filters once, when it pauses; not on every key.
    QSignalSpy resets(m_dock->model(), &QAbstractItemModel::modelReset);
    search->setFocus();
    QTest::keyClicks(search, QStringLiteral("filter test"));
    QCOMPARE(resets.count(), 0);
    QTRY_COMPARE(resets.count(), 1);
    QCOMPARE(m_dock->model()->rowCount(), 1);
    QVERIFY(!m_dock->isSearchPending()); // nothing more to come from the typing
    QCOMPARE(resets.count(), 1);
    // Enter filters at once.
    QTest::keyClick(search, Qt::Key_Backspace);
    QTest::keyClick(search, Qt::Key_Return);
    QCOMPARE(resets.count(), 2);
    QCOMPARE(m_dock->model()->rowCount(), 1);
    // Clearing it shows every run at once.
    search->clear();
    QCOMPARE(resets.count(), 3);
    QVERIFY(m_dock->model()->rowCount() >= 2);
    search->setText(QStringLiteral("filter test"));
    QTRY_COMPARE(m_dock->model()->rowCount(), 1);
    status->setCurrentIndex(status->findData(QStringLiteral("error")));
    QCOMPARE(m_dock->model()->rowCount(), 0);
    status->setCurrentIndex(status->findData(QStringLiteral("success")));
    QCOMPARE(m_dock->model()->rowCount(), 1);
    search->clear();
    status->setCurrentIndex(0);
    QVERIFY(m_dock->model()->rowCount() >= 2);
}

void tst_TrajectoriesPanel::answersQuestionsAndContinuesTheRun()
{
    const QString id =
        startRun(QStringLiteral("Log in and read my orders"), QStringLiteral("/login"));
    QVERIFY(!id.isEmpty());
    QTRY_VERIFY(m_dock->model()->rowOf(id) >= 0);
    QTRY_COMPARE(m_dock->model()
                     ->index(m_dock->model()->rowOf(id), ui::TrajectoriesModel::Status)
                     .data()
                     .toString(),
                 QStringLiteral("requires_input"));
    QVERIFY(m_dock->select(id));
    QLineEdit *email = m_dock->answerField(QStringLiteral("email"));
    QLineEdit *password = m_dock->answerField(QStringLiteral("password"));
    QVERIFY(email && password);
    QCOMPARE(password->echoMode(), QLineEdit::Password);
    QVERIFY(m_dock->continueButton()->isVisible());
    email->setText(QStringLiteral("ada@example.org"));
    password->setText(QStringLiteral("s3cret"));
    m_dock->continueButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(m_dock->model()
                                  ->index(m_dock->model()->rowOf(id), ui::TrajectoriesModel::Status)
                                  .data()
                                  .toString(),
                              QStringLiteral("success"), 30000);
    QTRY_VERIFY(m_dock->resultView()->toPlainText().contains(QLatin1String("Sextant")));
    QVERIFY(!m_dock->continueButton()->isVisible());
    QVERIFY(!m_dock->cancelButton()->isEnabled());
}

void tst_TrajectoriesPanel::fetchesALongListIncrementally()
{
    // 450 stored runs: the first page is 200; scrolling fetches the rest.
    auto &repo = m_ph->service().trajectories();
    const QString keyId = m_ph->service().store().apiKeys().list().first().id;
    m_ph->service().store().transaction([&] {
        for (int i = 0; i < 450; ++i)
            repo.create(QStringLiteral("traj_seed%1").arg(i), keyId,
                        QStringLiteral("seeded %1").arg(i), QStringLiteral("rule"));
    });
    ui::TrajectoriesModel fresh(repo, m_ph->service().clock());
    QCOMPARE(fresh.rowCount(), ui::TrajectoriesModel::kPageSize);
    QVERIFY(fresh.canFetchMore({}));
    fresh.fetchMore({});
    QCOMPARE(fresh.rowCount(), 2 * ui::TrajectoriesModel::kPageSize);
    // The tester fetches the rest as a view would.
    QAbstractItemModelTester tester(&fresh, QAbstractItemModelTester::FailureReportingMode::QtTest);
    while (fresh.canFetchMore({}))
        fresh.fetchMore({});
    QVERIFY(fresh.rowCount() >= 450);
    QVERIFY(!fresh.canFetchMore({}));
}

PH_WIDGETS_TEST_MAIN(tst_TrajectoriesPanel)
#include "tst_trajectoriespanel.moc"
