// The console's API keys panel against the real service: the model under
// QAbstractItemModelTester; a key minted in the panel is shown once (and works over
// HTTP), never again; the balance set in the panel is what GET /usage reports; Delete
// revokes, and the key answers 401.
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "common/SecretReveal.h"
#include "keys/KeysDock.h"
#include "keys/KeysModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>

using namespace ph;
using namespace ph::test;

class tst_KeysPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void mintsAKeyShownOnce();
    void listsKeysMintedElsewhere();
    void setsTheBalanceTheApiReports();
    void revokesWithTheDeleteKey();

private:
    // Whether the secret is anywhere in the panel: its fields, labels and model.
    bool panelShows(const QString &secret) const;
    QJsonObject usage(const QString &key);

    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::KeysDock> m_dock;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    QString m_secret;
    QString m_keyId;
};

void tst_KeysPanel::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_dock = std::make_unique<ui::KeysDock>(ui::ConsoleServices::of(m_ph->service()));
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_dock->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_dock->resize(1100, 600);
    m_dock->show();
    QApplication::setActiveWindow(m_dock.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dock.get()));
}

void tst_KeysPanel::cleanupTestCase()
{
    m_tester.reset();
    m_dock.reset();
    m_ph.reset();
}

bool tst_KeysPanel::panelShows(const QString &secret) const
{
    for (const QLineEdit *e : m_dock->findChildren<QLineEdit *>()) {
        if (e->text().contains(secret))
            return true;
    }
    for (const QLabel *l : m_dock->findChildren<QLabel *>()) {
        if (l->text().contains(secret))
            return true;
    }
    const QAbstractItemModel *m = m_dock->model();
    for (int r = 0; r < m->rowCount(); ++r) {
        for (int c = 0; c < m->columnCount(); ++c) {
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(Qt::UserRole)}) {
                if (m->index(r, c).data(role).toString().contains(secret))
                    return true;
            }
        }
    }
    return false;
}

QJsonObject tst_KeysPanel::usage(const QString &key)
{
    HttpClient c(m_ph->base());
    c.setBearer(key);
    const auto r = c.get(QStringLiteral("/usage"));
    return r.status == 200 ? r.json() : QJsonObject{{QStringLiteral("status"), r.status}};
}

void tst_KeysPanel::mintsAKeyShownOnce()
{
    const int before = m_dock->model()->rowCount();
    QVERIFY(!m_dock->secretBox()->isVisible());
    m_dock->labelField()->setText(QStringLiteral("ci robot"));
    m_dock->roleCombo()->setCurrentIndex(m_dock->roleCombo()->findData(QStringLiteral("user")));
    m_dock->mintBalanceField()->setText(QStringLiteral("50"));
    m_dock->mintButton()->click();
    m_secret = m_dock->secretField()->text();
    QVERIFY2(m_secret.startsWith(QLatin1String("phk_")),
             qPrintable(m_dock->messageLabel()->text()));
    QVERIFY(m_dock->secretBox()->isVisible());
    QCOMPARE(m_dock->model()->rowCount(), before + 1);
    m_keyId = m_dock->currentId();
    const ui::KeyRow &row = m_dock->model()->rowAt(m_dock->model()->index(before, 0));
    QCOMPARE(row.key.id, m_keyId);
    QCOMPARE(row.key.label, QStringLiteral("ci robot"));
    QCOMPARE(row.key.role, QStringLiteral("user"));
    QCOMPARE(row.key.balanceMilli, std::optional<qint64>(50000));

    QVERIFY(m_dock->model()->index(before, ui::KeysModel::LastUsed).data().toString().isEmpty());

    // It works over HTTP, and its last use shows without a refresh.
    const QJsonObject u = usage(m_secret);
    QCOMPARE(u.value(QStringLiteral("id")).toString(), m_keyId);
    QCOMPARE(u.value(QStringLiteral("balance")).toDouble(), 50.0);
    QTRY_VERIFY(
        !m_dock->model()->index(before, ui::KeysModel::LastUsed).data().toString().isEmpty());

    // Copy, then Done: it is gone from the panel for good.
    m_dock->copySecretButton()->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), m_secret);
    m_dock->dismissSecretButton()->click();
    QVERIFY(m_dock->secretField()->text().isEmpty());
    QVERIFY(!m_dock->secretBox()->isVisible());
    QVERIFY(!panelShows(m_secret));
    QVERIFY(m_dock->select(m_keyId));
    QVERIFY(!panelShows(m_secret));
    // The prefix (stored for display) is all the list shows of it.
    QVERIFY(m_dock->model()
                ->index(before, ui::KeysModel::Prefix)
                .data()
                .toString()
                .startsWith(m_secret.left(12)));

    // A mistake is the API's typed error; nothing is minted.
    m_dock->labelField()->clear();
    m_dock->mintButton()->click();
    QVERIFY2(m_dock->messageLabel()->text().contains(QLatin1String("MISSING_FIELD")) ||
                 m_dock->messageLabel()->text().contains(QLatin1String("INVALID_FIELD")),
             qPrintable(m_dock->messageLabel()->text()));
    QCOMPARE(m_dock->model()->rowCount(), before + 1);
    QVERIFY(m_dock->secretField()->text().isEmpty());
}

void tst_KeysPanel::listsKeysMintedElsewhere()
{
    const int before = m_dock->model()->rowCount();
    const QString other = m_ph->mintKey(10);
    QVERIFY(!other.isEmpty());
    QTRY_COMPARE(m_dock->model()->rowCount(), before + 1);
    QVERIFY(!panelShows(other));
}

void tst_KeysPanel::setsTheBalanceTheApiReports()
{
    QVERIFY(m_dock->select(m_keyId));
    QVERIFY(m_dock->setBalanceButton()->isEnabled());
    m_dock->unlimitedBox()->setChecked(false);
    m_dock->balanceField()->setText(QStringLiteral("42.5"));
    m_dock->setBalanceButton()->click();
    QCOMPARE(usage(m_secret).value(QStringLiteral("balance")).toDouble(), 42.5);
    const int row = m_dock->model()->rowOf(m_keyId);
    QCOMPARE(m_dock->model()->rowAt(m_dock->model()->index(row, 0)).key.balanceMilli,
             std::optional<qint64>(42500));

    // Out of range: the typed error of PATCH /keys/{id}; the balance stays.
    m_dock->balanceField()->setText(QStringLiteral("-3"));
    m_dock->setBalanceButton()->click();
    QVERIFY2(m_dock->messageLabel()->text().contains(QLatin1String("balance must be between")),
             qPrintable(m_dock->messageLabel()->text()));
    QVERIFY(m_dock->messageLabel()->text().contains(QLatin1String("INVALID_FIELD")));
    QCOMPARE(usage(m_secret).value(QStringLiteral("balance")).toDouble(), 42.5);

    // Unlimited.
    m_dock->unlimitedBox()->setChecked(true);
    m_dock->setBalanceButton()->click();
    const QJsonObject u = usage(m_secret);
    QVERIFY(u.value(QStringLiteral("unlimited")).toBool());
    QVERIFY(u.value(QStringLiteral("balance")).isNull());
    QCOMPARE(m_dock->model()->index(row, ui::KeysModel::Balance).data().toString(),
             QStringLiteral("unlimited"));
}

void tst_KeysPanel::revokesWithTheDeleteKey()
{
    QVERIFY(m_dock->select(m_keyId));
    QVERIFY(m_dock->revokeButton()->isEnabled());
    m_dock->view()->setFocus();
    QTest::keyClick(m_dock->view(), Qt::Key_Delete);
    const int row = m_dock->model()->rowOf(m_keyId);
    QVERIFY(m_dock->model()->rowAt(m_dock->model()->index(row, 0)).key.revokedAt.has_value());
    QVERIFY(m_dock->model()
                ->index(row, ui::KeysModel::State)
                .data()
                .toString()
                .startsWith(QLatin1String("revoked")));
    QVERIFY(!m_dock->revokeButton()->isEnabled());
    QCOMPARE(usage(m_secret).value(QStringLiteral("status")).toInt(), 401);
    // The owner key still works.
    QCOMPARE(m_ph->client().get(QStringLiteral("/usage")).status, 200);
}

PH_WIDGETS_TEST_MAIN(tst_KeysPanel)
#include "tst_keyspanel.moc"
