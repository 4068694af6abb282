// The console's settings panel against the real service: the model under
// QAbstractItemModelTester; a value changed in the panel is stored (and applied);
// a refused one shows PATCH /settings' typed error and keeps the stored value; the LLM
// API key is write-only; changes made over REST show; the read-only service facts and
// the language request.
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/BrowserPool.h"
#include "core/Settings.h"
#include "settings/SettingsDock.h"
#include "settings/SettingsModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>

using namespace ph;
using namespace ph::test;

class tst_SettingsPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void listsEverySetting();
    void storesPoolSize();
    void refusesAnOutOfRangeValue();
    void neverShowsTheSecret();
    void followsChangesMadeOverRest();
    void saysWhenAStartOverrideWins();
    void showsServiceFactsAndAsksForALanguage();

private:
    bool panelShows(const QString &text) const;
    QJsonValue stored(const QString &key) { return m_ph->service().settings().value(key); }

    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::SettingsDock> m_dock;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void tst_SettingsPanel::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_dock = std::make_unique<ui::SettingsDock>(m_ph->service());
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_dock->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_dock->resize(900, 900);
    m_dock->show();
}

void tst_SettingsPanel::cleanupTestCase()
{
    m_tester.reset();
    m_dock.reset();
    m_ph.reset();
}

bool tst_SettingsPanel::panelShows(const QString &text) const
{
    for (const QLineEdit *e : m_dock->findChildren<QLineEdit *>()) {
        if (e->text().contains(text) || e->displayText().contains(text))
            return true;
    }
    for (const QLabel *l : m_dock->findChildren<QLabel *>()) {
        if (l->text().contains(text) || l->toolTip().contains(text))
            return true;
    }
    const QAbstractItemModel *m = m_dock->model();
    for (int r = 0; r < m->rowCount(); ++r) {
        for (int c = 0; c < m->columnCount(); ++c) {
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(Qt::UserRole),
                             ui::SettingsModel::JsonValueRole}) {
                const QVariant v = m->index(r, c).data(role);
                if (v.toString().contains(text) ||
                    QJsonValue::fromVariant(v).toObject().contains(text))
                    return true;
            }
        }
    }
    return false;
}

void tst_SettingsPanel::listsEverySetting()
{
    QCOMPARE(m_dock->model()->rowCount(), int(Settings::definitions().size()));
    for (const Settings::Definition &d : Settings::definitions()) {
        QVERIFY2(m_dock->editor(d.key), qPrintable(d.key));
        QVERIFY(m_dock->errorLabel(d.key)->isHidden());
        QCOMPARE(d.type == QJsonValue::Bool, m_dock->checkBox(d.key) != nullptr);
    }
    const int row = m_dock->model()->rowOf(QStringLiteral("pool.size"));
    QCOMPARE(m_dock->model()->index(row, ui::SettingsModel::Value).data().toString(),
             QStringLiteral("4"));
    QCOMPARE(m_dock->model()->index(row, ui::SettingsModel::Range).data().toString(),
             QStringLiteral("1 to 64"));
    QCOMPARE(m_dock->lineEdit(QStringLiteral("pool.size"))->text(), QStringLiteral("4"));
    QVERIFY(m_dock->checkBox(QStringLiteral("network.allowPrivateTargets"))->isChecked());
}

void tst_SettingsPanel::storesPoolSize()
{
    m_dock->lineEdit(QStringLiteral("pool.size"))->setText(QStringLiteral("6"));
    QVERIFY(m_dock->apply());
    QCOMPARE(stored(QStringLiteral("pool.size")).toDouble(), 6.0);
    QVERIFY(m_dock->errorLabel(QStringLiteral("pool.size"))->isHidden());
    QVERIFY(m_dock->messageLabel()->text().contains(QLatin1String("1 setting")));
    // Applied like PATCH /settings applies it: the pool follows.
    QTRY_COMPARE(m_ph->service().pool().options().size, 6);
    const int row = m_dock->model()->rowOf(QStringLiteral("pool.size"));
    QCOMPARE(m_dock->model()->index(row, ui::SettingsModel::Value).data().toString(),
             QStringLiteral("6"));
    // Nothing else was touched: Apply with no edits stores nothing.
    QVERIFY(m_dock->apply());
    QCOMPARE(m_dock->messageLabel()->text(), QStringLiteral("Nothing changed."));
    // A boolean from its check box.
    m_dock->checkBox(QStringLiteral("network.allowPrivateTargets"))->setChecked(false);
    m_dock->applyButton()->click();
    QCOMPARE(stored(QStringLiteral("network.allowPrivateTargets")), QJsonValue(false));
    m_dock->checkBox(QStringLiteral("network.allowPrivateTargets"))->setChecked(true);
    m_dock->applyButton()->click();
    QCOMPARE(stored(QStringLiteral("network.allowPrivateTargets")), QJsonValue(true));
}

void tst_SettingsPanel::refusesAnOutOfRangeValue()
{
    QLineEdit *size = m_dock->lineEdit(QStringLiteral("pool.size"));
    QLabel *error = m_dock->errorLabel(QStringLiteral("pool.size"));
    size->setText(QStringLiteral("65"));
    QVERIFY(!m_dock->apply());
    QVERIFY(!error->isHidden());
    QCOMPARE(error->text(), QStringLiteral("pool.size must be between 1 and 64 (INVALID_FIELD)"));
    QCOMPARE(stored(QStringLiteral("pool.size")).toDouble(), 6.0);
    QCOMPARE(size->text(), QStringLiteral("65")); // kept for correcting
    // Not a number at all.
    size->setText(QStringLiteral("many"));
    QVERIFY(!m_dock->apply());
    QCOMPARE(error->text(), QStringLiteral("pool.size must be a number (INVALID_FIELD)"));
    QCOMPARE(stored(QStringLiteral("pool.size")).toDouble(), 6.0);
    // The same value over REST gets the same answer.
    HttpClient c = m_ph->client();
    const auto r = c.send("PATCH", QStringLiteral("/settings"), R"({"pool.size": 65})");
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("error")).toString(),
             QStringLiteral("pool.size must be between 1 and 64"));
    // Revert puts the stored value back.
    m_dock->revertButton()->click();
    QCOMPARE(size->text(), QStringLiteral("6"));
    QVERIFY(error->isHidden());
}

void tst_SettingsPanel::neverShowsTheSecret()
{
    const QString key = QStringLiteral("llm.apiKey");
    QLineEdit *field = m_dock->lineEdit(key);
    QCOMPARE(field->echoMode(), QLineEdit::Password);
    QCOMPARE(m_dock->secretState(key)->text(), QStringLiteral("not set"));

    // Set over REST: the panel learns only that one is set.
    const QString secret = QStringLiteral("sk-test-4c1d-secret");
    HttpClient c = m_ph->client();
    QCOMPARE(c.send("PATCH", QStringLiteral("/settings"),
                    QStringLiteral(R"({"llm.apiKey": "%1"})").arg(secret).toUtf8())
                 .status,
             200);
    QTRY_COMPARE(m_dock->secretState(key)->text(), QStringLiteral("set"));
    QVERIFY(field->text().isEmpty());
    QVERIFY(!panelShows(secret));

    // Set from the panel: stored, the field empties, still never shown.
    const QString other = QStringLiteral("sk-other-77e2-secret");
    field->setText(other);
    QVERIFY(m_dock->apply());
    QCOMPARE(stored(key).toString(), other);
    QVERIFY(field->text().isEmpty());
    QCOMPARE(m_dock->secretState(key)->text(), QStringLiteral("set"));
    QVERIFY(!panelShows(other));
    m_dock->revertButton()->click();
    QVERIFY(field->text().isEmpty());
    QVERIFY(!panelShows(other));

    // Clear removes it.
    m_dock->clearSecretButton(key)->click();
    QCOMPARE(stored(key).toString(), QString());
    QCOMPARE(m_dock->secretState(key)->text(), QStringLiteral("not set"));
}

void tst_SettingsPanel::followsChangesMadeOverRest()
{
    HttpClient c = m_ph->client();
    QCOMPARE(c.send("PATCH", QStringLiteral("/settings"), R"({"agent.maxSteps": 50})").status, 200);
    QTRY_COMPARE(m_dock->lineEdit(QStringLiteral("agent.maxSteps"))->text(), QStringLiteral("50"));
    // A field being edited keeps the edit.
    m_dock->lineEdit(QStringLiteral("agent.maxSteps"))->setText(QStringLiteral("70"));
    QCOMPARE(c.send("PATCH", QStringLiteral("/settings"), R"({"agent.maxSteps": 60})").status, 200);
    QCOMPARE(m_dock->lineEdit(QStringLiteral("agent.maxSteps"))->text(), QStringLiteral("70"));
    QVERIFY(m_dock->apply());
    QCOMPARE(stored(QStringLiteral("agent.maxSteps")).toDouble(), 70.0);
}

void tst_SettingsPanel::saysWhenAStartOverrideWins()
{
    TestService overridden({QStringLiteral("agent.maxPages=7")});
    QVERIFY(overridden.ok());
    ui::SettingsDock dock(overridden.service());
    const QString key = QStringLiteral("agent.maxPages");
    QCOMPARE(dock.lineEdit(key)->text(), QStringLiteral("7"));
    dock.lineEdit(key)->setText(QStringLiteral("9"));
    QVERIFY(dock.apply());
    QVERIFY(!dock.errorLabel(key)->isHidden());
    QVERIFY2(dock.errorLabel(key)->text().contains(QLatin1String("--set agent.maxPages")),
             qPrintable(dock.errorLabel(key)->text()));
    QCOMPARE(dock.lineEdit(key)->text(), QStringLiteral("7"));
}

void tst_SettingsPanel::showsServiceFactsAndAsksForALanguage()
{
    QCOMPARE(m_dock->addressField()->text(), m_ph->base());
    QVERIFY(m_dock->addressField()->isReadOnly());
    QCOMPARE(m_dock->dataDirField()->text(), m_ph->dataDir());
    QVERIFY(m_dock->dataDirField()->isReadOnly());
    QSignalSpy spy(m_dock.get(), &ui::SettingsDock::languageRequested);
    QComboBox *language = m_dock->languageCombo();
    language->setCurrentIndex(language->findData(QStringLiteral("de")));
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("de"));
    language->setCurrentIndex(language->findData(QStringLiteral("en")));
    QCOMPARE(spy.size(), 2);
    QCOMPARE(spy.at(1).at(0).toString(), QStringLiteral("en"));
}

PH_WIDGETS_TEST_MAIN(tst_SettingsPanel)
#include "tst_settingspanel.moc"
