// The console's webhook deliveries panel against the real service and queue: the model
// under QAbstractItemModelTester, deliveries appearing live, the status filter, the
// attempt log, and redelivery (one, and every failed one).
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "deliveries/DeliveriesDock.h"
#include "deliveries/DeliveriesModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>

using namespace ph;
using namespace ph::test;

class tst_DeliveriesPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void showsDeliveriesLiveWithTheirAttempts();
    void filtersAndRedelivers();

private:
    QString sendTest(const QString &path);

    FixtureServer m_receiver;
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::DeliveriesDock> m_dock;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void tst_DeliveriesPanel::initTestCase()
{
    QVERIFY(m_receiver.start());
    m_receiver.respond("/ok", 200, "thanks");
    m_receiver.respond("/broken", 500, "receiver is down");
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_dock = std::make_unique<ui::DeliveriesDock>(ui::ConsoleServices::of(m_ph->service()));
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_dock->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_dock->resize(1000, 600);
    m_dock->show();
}

void tst_DeliveriesPanel::cleanupTestCase()
{
    m_tester.reset();
    m_dock.reset();
    m_ph.reset();
}

QString tst_DeliveriesPanel::sendTest(const QString &path)
{
    HttpClient c = m_ph->client();
    const auto r = c.post(QStringLiteral("/webhooks/test"),
                          {{QStringLiteral("url"), m_receiver.url(path)},
                           {QStringLiteral("secret"), QStringLiteral("s3cret")}});
    return r.json().value(QStringLiteral("deliveries")).toArray().at(0).toString();
}

void tst_DeliveriesPanel::showsDeliveriesLiveWithTheirAttempts()
{
    const QString id = sendTest(QStringLiteral("/ok"));
    QVERIFY(!id.isEmpty());
    QTRY_VERIFY(m_dock->model()->rowOf(id) >= 0);
    QTRY_COMPARE(m_dock->model()
                     ->index(m_dock->model()->rowOf(id), ui::DeliveriesModel::Status)
                     .data()
                     .toString(),
                 QStringLiteral("delivered"));
    QVERIFY(m_dock->select(id));
    QCOMPARE(m_dock->attemptsTable()->rowCount(), 1);
    QCOMPARE(m_dock->attemptsTable()->item(0, 1)->text(), QStringLiteral("200"));
    QCOMPARE(m_dock->attemptsTable()->item(0, 3)->text(), QStringLiteral("thanks"));
}

void tst_DeliveriesPanel::filtersAndRedelivers()
{
    const QString id = sendTest(QStringLiteral("/broken"));
    QTRY_VERIFY(m_dock->model()->rowOf(id) >= 0);
    // The first attempt failed; the next is scheduled.
    QTRY_COMPARE(m_dock->model()
                     ->index(m_dock->model()->rowOf(id), ui::DeliveriesModel::Attempts)
                     .data()
                     .toInt(),
                 1);
    QComboBox *filter = m_dock->statusFilter();
    filter->setCurrentIndex(filter->findData(QStringLiteral("pending")));
    QVERIFY(m_dock->model()->rowOf(id) >= 0);
    for (int r = 0; r < m_dock->model()->rowCount(); ++r)
        QCOMPARE(m_dock->model()->index(r, ui::DeliveriesModel::Status).data().toString(),
                 QStringLiteral("pending"));
    filter->setCurrentIndex(filter->findData(QStringLiteral("delivered")));
    QCOMPARE(m_dock->model()->rowOf(id), -1);
    filter->setCurrentIndex(0);

    // Redeliver: a new attempt now, logged; it fails again, so the delivery is failed.
    // (The first attempt's answer must have arrived before the count is taken.)
    QTRY_COMPARE(m_receiver.hits("/broken"), 1);
    QVERIFY(m_dock->select(id));
    const int hits = m_receiver.hits("/broken");
    m_dock->redeliverButton()->click();
    QTRY_COMPARE(m_receiver.hits("/broken"), hits + 1);
    QTRY_COMPARE(m_dock->attemptsTable()->rowCount(), 2);
    QTRY_COMPARE(m_dock->model()
                     ->index(m_dock->model()->rowOf(id), ui::DeliveriesModel::Status)
                     .data()
                     .toString(),
                 QStringLiteral("failed"));
    filter->setCurrentIndex(filter->findData(QStringLiteral("failed")));
    QCOMPARE(m_dock->model()->rowCount(), 1);
    // Every failed one, again.
    m_dock->redeliverFailedButton()->click();
    QTRY_COMPARE(m_receiver.hits("/broken"), hits + 2);
    filter->setCurrentIndex(0);
    QVERIFY(m_dock->select(id));
    QTRY_COMPARE(m_dock->attemptsTable()->rowCount(), 3);
    QCOMPARE(m_dock->attemptsTable()->item(2, 1)->text(), QStringLiteral("500"));
}

PH_WIDGETS_TEST_MAIN(tst_DeliveriesPanel)
#include "tst_deliveriespanel.moc"
