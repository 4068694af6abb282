// The keys' browser profiles in the console (issue 30), against the real service with a
// session browser that only pretends: a profile a session opened is listed with its key,
// last use, size and "in use"; Delete asks first, deletes through the service, and shows
// the service's 409 message for a profile a session still has open.
#include "ModalAnswer.h"
#include "PretendSessions.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/ApiKeyService.h"
#include "core/DomainError.h"
#include "sessions/SessionService.h"

#include "keys/KeysDock.h"
#include "keys/ProfilesModel.h"
#include "keys/ProfilesPanel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QTimer>

using namespace ph;
using namespace ph::test;

class tst_ProfilesPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void listsEachKeysProfilesWithTheirUse();
    void deletes_data();
    void deletes();

private:
    QString start(const Principal &key, const QString &profile);
    int rowOf(const Principal &key, const QString &name) const
    {
        return m_panel->model()->rowOf(key.keyId + QLatin1Char('/') + name);
    }

    sessions::SessionService &sessions() { return m_sessions->service; }

    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<PretendSessions> m_sessions;
    std::unique_ptr<ui::KeysDock> m_dock;
    ui::ProfilesPanel *m_panel = nullptr;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    Principal m_shopBot;
    Principal m_mailBot;
};

void tst_ProfilesPanel::init()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_sessions = std::make_unique<PretendSessions>(*m_ph);
    for (auto [who, label] : {std::pair{&m_shopBot, QStringLiteral("shop bot")},
                              std::pair{&m_mailBot, QStringLiteral("mail bot")}}) {
        ApiKeyService::NewKey key;
        key.label = label;
        const auto minted = m_ph->service().keyService().mint(key);
        who->kind = Principal::Kind::ApiKey;
        who->keyId = minted.key.id;
        who->label = label;
    }
    m_dock = std::make_unique<ui::KeysDock>(m_sessions->console);
    m_dock->resize(1000, 700);
    m_dock->show();
    m_panel = m_dock->profilesPanel();
    QVERIFY(m_panel);
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void tst_ProfilesPanel::cleanup()
{
    m_tester.reset();
    m_dock.reset();
    m_sessions.reset();
    m_ph.reset();
}

QString tst_ProfilesPanel::start(const Principal &key, const QString &profile)
{
    sessions::CreateSessionRequest request;
    request.profile = profile;
    return sessions().create(key, request).id;
}

void tst_ProfilesPanel::listsEachKeysProfilesWithTheirUse()
{
    QCOMPARE(m_panel->model()->rowCount(), 0);
    const QString shop = start(m_shopBot, QStringLiteral("shop"));
    start(m_mailBot, QStringLiteral("shop")); // the same name in another key: its own
    QTRY_VERIFY(rowOf(m_shopBot, QStringLiteral("shop")) >= 0);
    QTRY_VERIFY(rowOf(m_mailBot, QStringLiteral("shop")) >= 0);
    ui::ProfilesModel *model = m_panel->model();
    const int row = rowOf(m_shopBot, QStringLiteral("shop"));
    const auto cell = [&](int column) { return model->index(row, column).data().toString(); };
    QCOMPARE(cell(ui::ProfilesModel::Name), QStringLiteral("shop"));
    QCOMPARE(cell(ui::ProfilesModel::Key), QStringLiteral("shop bot"));
    QVERIFY(!cell(ui::ProfilesModel::Size).isEmpty());
    QTRY_COMPARE(model->index(rowOf(m_shopBot, QStringLiteral("shop")), ui::ProfilesModel::InUse)
                     .data()
                     .toString(),
                 QStringLiteral("in use"));
    // The session ends: the profile stays, no longer in use.
    sessions().release(m_shopBot, shop);
    QTRY_COMPARE(model->index(rowOf(m_shopBot, QStringLiteral("shop")), ui::ProfilesModel::InUse)
                     .data()
                     .toString(),
                 QString());
    QVERIFY(!model->index(rowOf(m_shopBot, QStringLiteral("shop")), ui::ProfilesModel::LastUsed)
                 .data()
                 .toString()
                 .isEmpty());
}

void tst_ProfilesPanel::deletes_data()
{
    QTest::addColumn<bool>("inUse");
    QTest::addColumn<bool>("confirm");
    QTest::addColumn<bool>("deleted");
    QTest::addColumn<QString>("message");
    QTest::newRow("a confirmed delete of a closed profile removes it")
        << false << true << true << QStringLiteral("Deleted the profile shop of shop bot.");
    QTest::newRow("a cancelled delete keeps the profile") << false << false << false << QString();
    // The message: the service's own (checked below).
    QTest::newRow("a profile a session has open is refused with the service's message")
        << true << true << false << QStringLiteral("refused");
}

void tst_ProfilesPanel::deletes()
{
    QFETCH(bool, inUse);
    QFETCH(bool, confirm);
    QFETCH(bool, deleted);
    QFETCH(QString, message);
    const QString id = start(m_shopBot, QStringLiteral("shop"));
    start(m_mailBot, QStringLiteral("shop"));
    if (!inUse) {
        sessions().release(m_shopBot, id);
        const auto found = sessions().find(m_shopBot, id);
        QVERIFY(found);
        QTRY_COMPARE(sessions().find(m_shopBot, id)->status, QStringLiteral("released"));
    }
    QTRY_VERIFY(rowOf(m_shopBot, QStringLiteral("shop")) >= 0);
    QTRY_COMPARE(m_panel->model()
                     ->index(rowOf(m_shopBot, QStringLiteral("shop")), ui::ProfilesModel::InUse)
                     .data()
                     .toString()
                     .isEmpty(),
                 !inUse);
    if (message == QLatin1String("refused")) {
        try {
            sessions().deleteProfile(m_shopBot, m_shopBot.keyId, QStringLiteral("shop"));
            QFAIL("a profile in use was deleted");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Kind::Conflict);
            message = e.message();
        }
    }
    QVERIFY(m_panel->select(m_shopBot.keyId, QStringLiteral("shop")));
    QVERIFY(m_panel->deleteButton()->isEnabled());
    answerConfirmation(this, QStringLiteral("confirmDeleteProfile"), confirm);
    QCOMPARE(m_panel->deleteSelected(), deleted);
    QCOMPARE(rowOf(m_shopBot, QStringLiteral("shop")) < 0, deleted);
    // The other key's profile of the same name is never touched.
    QVERIFY(rowOf(m_mailBot, QStringLiteral("shop")) >= 0);
    if (message.isEmpty())
        QVERIFY(m_panel->messageLabel()->text().isEmpty());
    else
        QVERIFY2(m_panel->messageLabel()->text().contains(message),
                 qPrintable(m_panel->messageLabel()->text()));
}

PH_WIDGETS_TEST_MAIN(tst_ProfilesPanel)
#include "tst_profilespanel.moc"
