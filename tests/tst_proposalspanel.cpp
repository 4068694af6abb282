// The console's proposals panel against the real service: proposals made by a Connect AI
// key over REST appear live; the review shows what changes; Apply writes the stored
// configuration (validated again), Discard leaves it; the history filter.
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "common/JsonView.h"
#include "proposals/ProposalsDock.h"
#include "proposals/ProposalsModel.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>

using namespace ph;
using namespace ph::test;

class tst_ProposalsPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void appliesAProposalToTheStoredConfiguration();
    void discardsAndKeepsTheConfiguration();
    void showsTheHistory();

private:
    QString propose(const QString &title, const QJsonObject &patch);

    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::ProposalsDock> m_dock;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    QString m_siteId;
    QString m_connectKey;
};

void tst_ProposalsPanel::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    HttpClient owner = m_ph->client();
    const auto site = owner.post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Harbour")},
         {QStringLiteral("label"), QStringLiteral("embed")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("harbour.example")}}});
    QCOMPARE(site.status, 201);
    m_siteId = site.json().value(QStringLiteral("siteId")).toString();
    m_connectKey =
        owner.post(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), m_siteId}})
            .json()
            .value(QStringLiteral("key"))
            .toString();
    QVERIFY(m_connectKey.startsWith(QLatin1String("ck_")));
    m_dock = std::make_unique<ui::ProposalsDock>(ui::ConsoleServices::of(m_ph->service()));
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_dock->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_dock->resize(1100, 700);
    m_dock->show();
}

void tst_ProposalsPanel::cleanupTestCase()
{
    m_tester.reset();
    m_dock.reset();
    m_ph.reset();
}

QString tst_ProposalsPanel::propose(const QString &title, const QJsonObject &patch)
{
    HttpClient ai(m_ph->base());
    ai.setBearer(m_connectKey);
    const auto r = ai.post(QStringLiteral("/config/v1/sites/%1/changes").arg(m_siteId),
                           {{QStringLiteral("patch"), patch},
                            {QStringLiteral("title"), title},
                            {QStringLiteral("description"), QStringLiteral("Friendlier")},
                            {QStringLiteral("clientRequestId"), title}});
    r.expectStatus({201, 200}, __FILE__, __LINE__);
    return r.json().value(QStringLiteral("changeId")).toString();
}

void tst_ProposalsPanel::appliesAProposalToTheStoredConfiguration()
{
    const QString id = propose(QStringLiteral("Greeting"),
                               {{QStringLiteral("greeting"),
                                 QJsonObject{{QStringLiteral("text"), QStringLiteral("Ahoy!")}}}});
    QVERIFY(!id.isEmpty());
    // It lands while the panel is open.
    QTRY_VERIFY(m_dock->model()->rowOf(id) >= 0);
    QVERIFY(m_dock->select(id));
    QVERIFY(m_dock->applyButton()->isEnabled());
    QStringList lines;
    for (int i = 0; i < m_dock->changedPaths()->count(); ++i)
        lines << m_dock->changedPaths()->item(i)->text();
    QVERIFY2(lines.join(u'\n').contains(QLatin1String("greeting.text")),
             qPrintable(lines.join(u'\n')));
    QVERIFY(m_dock->proposedView()->toPlainText().contains(QLatin1String("Ahoy!")));
    const int before = m_ph->service().sites().sites().config(m_siteId).version;
    m_dock->applyButton()->click();
    const auto after = m_ph->service().sites().sites().config(m_siteId);
    QCOMPARE(after.version, before + 1);
    QCOMPARE(after.config.value(QStringLiteral("greeting"))
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString(),
             QStringLiteral("Ahoy!"));
    // Applied proposals leave the pending list.
    QCOMPARE(m_dock->model()->rowOf(id), -1);
}

void tst_ProposalsPanel::discardsAndKeepsTheConfiguration()
{
    const QString id = propose(QStringLiteral("Louder"),
                               {{QStringLiteral("greeting"),
                                 QJsonObject{{QStringLiteral("text"), QStringLiteral("AHOY!!")}}}});
    QTRY_VERIFY(m_dock->model()->rowOf(id) >= 0);
    QVERIFY(m_dock->select(id));
    const auto before = m_ph->service().sites().sites().config(m_siteId);
    m_dock->discardButton()->click();
    const auto after = m_ph->service().sites().sites().config(m_siteId);
    QCOMPARE(after.version, before.version);
    QCOMPARE(after.config, before.config);
    QVERIFY(m_dock->messageLabel()->text().contains(QLatin1String("unchanged")));
    QCOMPARE(m_dock->model()->rowOf(id), -1);
}

void tst_ProposalsPanel::showsTheHistory()
{
    QComboBox *filter = m_dock->statusFilter();
    filter->setCurrentIndex(filter->findData(QStringLiteral("applied")));
    QCOMPARE(m_dock->model()->rowCount(), 1);
    QCOMPARE(m_dock->model()->index(0, ui::ProposalsModel::Title).data().toString(),
             QStringLiteral("Greeting"));
    QCOMPARE(m_dock->model()->index(0, ui::ProposalsModel::Site).data().toString(),
             QStringLiteral("Harbour"));
    filter->setCurrentIndex(filter->findData(QString()));
    QCOMPARE(m_dock->model()->rowCount(), 2);
    QVERIFY(m_dock->select(m_dock->model()->rowAt(m_dock->model()->index(0, 0)).id));
    QVERIFY(!m_dock->applyButton()->isEnabled()); // decided ones cannot be decided again
}

PH_WIDGETS_TEST_MAIN(tst_ProposalsPanel)
#include "tst_proposalspanel.moc"
