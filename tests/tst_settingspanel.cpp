// The console's settings panel against the real service: the model under
// QAbstractItemModelTester; every setting by a name for people (its key in the
// tooltip) with a fitting widget; a number typed in a unit of one's choice is stored in
// the key's unit; a toggle stores a boolean; a URL is checked as it is typed; the
// search filters by name and key; settings that apply later say so; a value changed in
// the panel is stored (and applied); a refused one shows PATCH /settings' typed error
// and keeps the stored value; the LLM API key is write-only; changes made over REST
// show; the read-only service facts and the language request.
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/BrowserPool.h"
#include "core/Settings.h"
#include "settings/QuantityEdit.h"
#include "settings/SettingLabels.h"
#include "settings/SettingsDock.h"
#include "settings/SettingsModel.h"

#include <QAbstractItemModelTester>
#include <QAccessible>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
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
    void namesEverySettingForPeople();
    void showsAStoredNumberInAFittingUnit();
    void writesTheNumberInTheKeysUnit_data();
    void writesTheNumberInTheKeysUnit();
    void writesABooleanFromItsToggle();
    void checksAUrlAsItIsTyped_data();
    void checksAUrlAsItIsTyped();
    void searchesByNameAndKey_data();
    void searchesByNameAndKey();
    void saysWhenASettingAppliesLater();
    void storesPoolSize();
    void refusesAnOutOfRangeValue();
    void neverShowsTheSecret();
    void followsChangesMadeOverRest();
    void saysWhenAStartOverrideWins();
    void showsServiceFactsAndAsksForALanguage();

private:
    bool panelShows(const QString &text) const;
    QJsonValue stored(const QString &key) { return m_ph->service().settings().value(key); }
    QDoubleSpinBox *spin(const QString &key) const { return m_dock->quantityEdit(key)->spinBox(); }

    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::SettingsDock> m_dock;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void tst_SettingsPanel::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_dock = std::make_unique<ui::SettingsDock>(ui::ConsoleServices::of(m_ph->service()));
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
        // Numbers in spin boxes, text and URLs (and the secret) in line edits.
        QCOMPARE(d.type == QJsonValue::Double, m_dock->quantityEdit(d.key) != nullptr);
        QCOMPARE(d.type == QJsonValue::String, m_dock->lineEdit(d.key) != nullptr);
    }
    const int row = m_dock->model()->rowOf(QStringLiteral("pool.size"));
    QCOMPARE(m_dock->model()->index(row, ui::SettingsModel::Value).data().toString(),
             QStringLiteral("4"));
    QCOMPARE(m_dock->model()->index(row, ui::SettingsModel::Range).data().toString(),
             QStringLiteral("1 to 64"));
    QCOMPARE(m_dock->quantityEdit(QStringLiteral("pool.size"))->value(), 4.0);
    QVERIFY(m_dock->checkBox(QStringLiteral("network.allowPrivateTargets"))->isChecked());
}

void tst_SettingsPanel::namesEverySettingForPeople()
{
    for (const Settings::Definition &d : Settings::definitions()) {
        QVERIFY2(ui::hasSettingLabel(d.key), qPrintable(d.key));
        QLabel *caption = m_dock->caption(d.key);
        QVERIFY(caption->text() != d.key);
        QCOMPARE(caption->text(), ui::settingLabel(d.key));
        // The key moved to the tooltip, with the service's help text.
        QVERIFY2(caption->toolTip().startsWith(d.key), qPrintable(caption->toolTip()));
        QVERIFY(caption->toolTip().contains(d.help));
        // Every control has a name for assistive technology.
        QWidget *control = m_dock->editor(d.key);
        if (auto *q = qobject_cast<ui::QuantityEdit *>(control))
            control = q->spinBox();
        QAccessibleInterface *a = QAccessible::queryAccessibleInterface(control);
        QVERIFY(a);
        QCOMPARE(a->text(QAccessible::Name), caption->text());
        if (auto *q = m_dock->quantityEdit(d.key); q && q->unitBox())
            QVERIFY(!QAccessible::queryAccessibleInterface(q->unitBox())
                         ->text(QAccessible::Name)
                         .isEmpty());
    }
    QCOMPARE(m_dock->caption(QStringLiteral("pool.navigationTimeoutMs"))->text(),
             QStringLiteral("Navigation time limit"));
    QVERIFY(!QAccessible::queryAccessibleInterface(m_dock->searchField())
                 ->text(QAccessible::Name)
                 .isEmpty());
}

void tst_SettingsPanel::showsAStoredNumberInAFittingUnit()
{
    ui::QuantityEdit *nav = m_dock->quantityEdit(QStringLiteral("pool.navigationTimeoutMs"));
    QCOMPARE(nav->unit(), QStringLiteral("s"));
    QCOMPARE(nav->spinBox()->value(), 30.0);
    ui::QuantityEdit *body = m_dock->quantityEdit(QStringLiteral("http.maxBodyBytes"));
    QCOMPARE(body->unit(), QStringLiteral("MB"));
    QCOMPARE(body->spinBox()->value(), 10.0);
    QCOMPARE(body->value(), 10.0 * 1024 * 1024);
    QCOMPARE(body->spinBox()->text(), QStringLiteral("10")); // not 10.0000000
    // The ranges and defaults beside them read the same way.
    using Unit = Settings::Definition::Unit;
    QCOMPARE(ui::QuantityEdit::format(Unit::Bytes, 10485760), QStringLiteral("10 MB"));
    QCOMPARE(ui::QuantityEdit::format(Unit::Bytes, 1024), QStringLiteral("1 KB"));
    QCOMPARE(ui::QuantityEdit::format(Unit::Milliseconds, 600000), QStringLiteral("10 min"));
    QCOMPARE(ui::QuantityEdit::format(Unit::Milliseconds, 1500),
             QLocale().toString(1500) + QStringLiteral(" ms"));
    QCOMPARE(ui::QuantityEdit::format(Unit::Hours, 720), QStringLiteral("30 d"));
    QCOMPARE(ui::QuantityEdit::format(Unit::Percent, 70), QStringLiteral("70 %"));
    ui::QuantityEdit *percent =
        m_dock->quantityEdit(QStringLiteral("runtime.externalBlockPercent"));
    QVERIFY(!percent->unitBox());
    QCOMPARE(percent->spinBox()->suffix(), QStringLiteral(" %"));
}

void tst_SettingsPanel::writesTheNumberInTheKeysUnit_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("typed");
    QTest::addColumn<double>("written");
    QTest::newRow("twenty megabytes of body are written as bytes")
        << QStringLiteral("http.maxBodyBytes") << QStringLiteral("MB") << 20.0 << 20971520.0;
    QTest::newRow("a navigation limit of 45 seconds is written in milliseconds")
        << QStringLiteral("pool.navigationTimeoutMs") << QStringLiteral("s") << 45.0 << 45000.0;
    QTest::newRow("one and a half seconds of model call are written as 1500 ms")
        << QStringLiteral("llm.timeoutMs") << QStringLiteral("s") << 1.5 << 1500.0;
    QTest::newRow("two minutes of live view link are written in seconds")
        << QStringLiteral("agent.liveViewTokenSeconds") << QStringLiteral("min") << 2.0 << 120.0;
    QTest::newRow("two days of idempotency are written in hours")
        << QStringLiteral("a2w.idempotencyHours") << QStringLiteral("d") << 2.0 << 48.0;
    QTest::newRow("a percentage is written as typed")
        << QStringLiteral("runtime.externalBlockPercent") << QStringLiteral("%") << 80.0 << 80.0;
}

void tst_SettingsPanel::writesTheNumberInTheKeysUnit()
{
    QFETCH(QString, key);
    QFETCH(QString, unit);
    QFETCH(double, typed);
    QFETCH(double, written);
    ui::QuantityEdit *edit = m_dock->quantityEdit(key);
    QVERIFY(edit->setUnit(unit));
    QCOMPARE(edit->unit(), unit);
    edit->spinBox()->setValue(typed);
    QCOMPARE(edit->value(), written);
    QVERIFY(m_dock->errorLabel(key)->isHidden());
    QVERIFY(m_dock->apply());
    QCOMPARE(stored(key), QJsonValue(written));
    // Shown again in the largest unit that shows it whole.
    QCOMPARE(edit->value(), written);
}

void tst_SettingsPanel::writesABooleanFromItsToggle()
{
    const QString key = QStringLiteral("a2w.sensitiveNeedsVerified");
    QCheckBox *toggle = m_dock->checkBox(key);
    QVERIFY(toggle->isChecked());
    toggle->click();
    QVERIFY(m_dock->apply());
    QCOMPARE(stored(key), QJsonValue(false));
    QVERIFY(stored(key).isBool());
    toggle->click();
    QVERIFY(m_dock->apply());
    QCOMPARE(stored(key), QJsonValue(true));
}

void tst_SettingsPanel::checksAUrlAsItIsTyped_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("an address without a scheme is refused as typed")
        << QStringLiteral("models.example/v1") << false;
    QTest::newRow("an ftp address is refused as typed")
        << QStringLiteral("ftp://models.example") << false;
    QTest::newRow("an address without a host is refused as typed")
        << QStringLiteral("http://") << false;
    QTest::newRow("an https address is accepted")
        << QStringLiteral("https://models.example/v1") << true;
    QTest::newRow("an empty address means none") << QString() << true;
}

void tst_SettingsPanel::checksAUrlAsItIsTyped()
{
    QFETCH(QString, typed);
    QFETCH(bool, accepted);
    const QString key = QStringLiteral("llm.baseUrl");
    const QJsonValue before = stored(key);
    QLineEdit *field = m_dock->lineEdit(key);
    QLabel *error = m_dock->errorLabel(key);
    field->setText(QStringLiteral("https://placeholder.example"));
    field->setText(typed); // no Apply yet: the check runs as the text changes
    QCOMPARE(error->isHidden(), accepted);
    QCOMPARE(m_dock->applyButton()->isEnabled(), accepted);
    if (!accepted) {
        QCOMPARE(error->text(), QStringLiteral("llm.baseUrl must be an absolute http or https "
                                               "URL (or empty) (INVALID_FIELD)"));
        QVERIFY(!m_dock->apply());
        QCOMPARE(stored(key), before);
        // PATCH /settings refuses it with the same sentence.
        HttpClient c = m_ph->client();
        const auto r =
            c.send("PATCH", QStringLiteral("/settings"),
                   QJsonDocument(QJsonObject{{key, typed}}).toJson(QJsonDocument::Compact));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json().value(QStringLiteral("error")).toString(),
                 QStringLiteral("llm.baseUrl must be an absolute http or https URL (or empty)"));
        m_dock->revert();
        QVERIFY(error->isHidden());
    } else {
        QVERIFY(m_dock->apply());
        QCOMPARE(stored(key), QJsonValue(typed));
    }
}

void tst_SettingsPanel::searchesByNameAndKey_data()
{
    QTest::addColumn<QString>("search");
    QTest::addColumn<QStringList>("listed");
    QTest::addColumn<QStringList>("hidden");
    QTest::newRow("a word of the name finds the setting")
        << QStringLiteral("navigation") << QStringList{QStringLiteral("pool.navigationTimeoutMs")}
        << QStringList{QStringLiteral("pool.size"), QStringLiteral("llm.model")};
    QTest::newRow("part of the key finds the setting")
        << QStringLiteral("maxBodyBytes") << QStringList{QStringLiteral("http.maxBodyBytes")}
        << QStringList{QStringLiteral("http.maxConnections")};
    QTest::newRow("the search ignores case")
        << QStringLiteral("LLM API")
        << QStringList{QStringLiteral("llm.baseUrl"), QStringLiteral("llm.apiKey")}
        << QStringList{QStringLiteral("llm.model")};
    QTest::newRow("an empty search lists every setting")
        << QString() << QStringList{QStringLiteral("pool.size"), QStringLiteral("llm.model")}
        << QStringList();
}

void tst_SettingsPanel::searchesByNameAndKey()
{
    QFETCH(QString, search);
    QFETCH(QStringList, listed);
    QFETCH(QStringList, hidden);
    m_dock->searchField()->setText(search);
    for (const QString &key : listed)
        QVERIFY2(m_dock->isListed(key), qPrintable(key));
    for (const QString &key : hidden)
        QVERIFY2(!m_dock->isListed(key), qPrintable(key));
    // A group with nothing listed is hidden with its settings.
    if (!search.isEmpty()) {
        const auto boxes = m_dock->findChildren<QGroupBox *>();
        const bool anyMcp = std::any_of(boxes.begin(), boxes.end(), [](QGroupBox *b) {
            return b->title() == QLatin1String("mcp") && b->isVisibleTo(b->parentWidget());
        });
        QVERIFY(!anyMcp);
    }
    m_dock->searchField()->clear();
    QVERIFY(m_dock->isListed(QStringLiteral("pool.size")));
}

void tst_SettingsPanel::saysWhenASettingAppliesLater()
{
    int later = 0;
    for (const Settings::Definition &d : Settings::definitions()) {
        QLabel *note = m_dock->appliesLabel(d.key);
        switch (d.applies) {
        case Settings::Definition::Applies::Immediately:
            QVERIFY2(!note, qPrintable(d.key));
            break;
        case Settings::Definition::Applies::ForNewSessions:
            QVERIFY2(note, qPrintable(d.key));
            QCOMPARE(note->text(), QStringLiteral("For new sessions"));
            ++later;
            break;
        case Settings::Definition::Applies::AfterRestart:
            QVERIFY2(note, qPrintable(d.key));
            QCOMPARE(note->text(), QStringLiteral("Needs a restart"));
            ++later;
            break;
        }
        if (note) {
            QVERIFY(!note->toolTip().isEmpty());
            QVERIFY(!note->isHidden());
        }
    }
    QVERIFY(later > 0);
    QCOMPARE(m_dock->appliesLabel(QStringLiteral("runtime.sessionTokenSeconds"))->text(),
             QStringLiteral("For new sessions"));
}

void tst_SettingsPanel::storesPoolSize()
{
    spin(QStringLiteral("pool.size"))->setValue(6);
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
    // The spin box holds the definition's range: 65 pages cannot be typed.
    QDoubleSpinBox *size = spin(QStringLiteral("pool.size"));
    QLabel *error = m_dock->errorLabel(QStringLiteral("pool.size"));
    QCOMPARE(size->minimum(), 1.0);
    QCOMPARE(size->maximum(), 64.0);
    size->setValue(65);
    QCOMPARE(size->value(), 64.0);
    QVERIFY(error->isHidden());
    size->setValue(6); // back to the stored value: not an edit
    // The same value over REST gets the typed answer.
    HttpClient c = m_ph->client();
    const auto r = c.send("PATCH", QStringLiteral("/settings"), R"({"pool.size": 65})");
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("error")).toString(),
             QStringLiteral("pool.size must be between 1 and 64"));
    // A fraction of the key's unit (2.0005 KB is 2048.512 bytes) is refused as typed, by
    // the same check, and Apply stores nothing.
    const QString nav = QStringLiteral("http.maxBodyBytes");
    const double navStored = stored(nav).toDouble();
    QVERIFY(m_dock->quantityEdit(nav)->setUnit(QStringLiteral("KB")));
    spin(nav)->setValue(2.0005);
    QCOMPARE(m_dock->errorLabel(nav)->text(),
             QStringLiteral("http.maxBodyBytes must be a whole number (INVALID_FIELD)"));
    QVERIFY(!m_dock->errorLabel(nav)->isHidden());
    QVERIFY(!m_dock->applyButton()->isEnabled());
    QVERIFY(!m_dock->apply());
    QCOMPARE(stored(nav).toDouble(), navStored);
    // Revert puts the stored values back.
    m_dock->revertButton()->click();
    QCOMPARE(size->value(), 6.0);
    QCOMPARE(m_dock->quantityEdit(nav)->value(), navStored);
    QVERIFY(error->isHidden());
    QVERIFY(m_dock->errorLabel(nav)->isHidden());
    QVERIFY(m_dock->applyButton()->isEnabled());
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
    QTRY_COMPARE(m_dock->quantityEdit(QStringLiteral("agent.maxSteps"))->value(), 50.0);
    // A field being edited keeps the edit.
    spin(QStringLiteral("agent.maxSteps"))->setValue(70);
    QCOMPARE(c.send("PATCH", QStringLiteral("/settings"), R"({"agent.maxSteps": 60})").status, 200);
    QCOMPARE(m_dock->quantityEdit(QStringLiteral("agent.maxSteps"))->value(), 70.0);
    QVERIFY(m_dock->apply());
    QCOMPARE(stored(QStringLiteral("agent.maxSteps")).toDouble(), 70.0);
}

void tst_SettingsPanel::saysWhenAStartOverrideWins()
{
    TestService overridden({QStringLiteral("agent.maxPages=7")});
    QVERIFY(overridden.ok());
    ui::SettingsDock dock(ui::ConsoleServices::of(overridden.service()));
    const QString key = QStringLiteral("agent.maxPages");
    QCOMPARE(dock.quantityEdit(key)->value(), 7.0);
    dock.quantityEdit(key)->spinBox()->setValue(9);
    QVERIFY(dock.apply());
    QVERIFY(!dock.errorLabel(key)->isHidden());
    QVERIFY2(dock.errorLabel(key)->text().contains(QLatin1String("--set agent.maxPages")),
             qPrintable(dock.errorLabel(key)->text()));
    QCOMPARE(dock.quantityEdit(key)->value(), 7.0);
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
