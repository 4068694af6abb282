// The site configuration editor of the sites panel against the real service and its
// SQLite store: a site's stored configuration loads into the section forms, the JSON
// view and the effective configuration (the runtime defaults filled in, as the runtime
// serves it); an edit in a form shows in the JSON; an error is the API's, named by its
// path, and blocks Save until fixed; a section set to null shows as cleared; Save shows
// the changes first and stores through the domain service (read back through it and
// over REST); every control has an accessible name.
#include "HttpClient.h"
#include "ModalAnswer.h"
#include "TestMain.h"
#include "TestService.h"

#include "common/JsonView.h"
#include "sites/SiteConfigEditor.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"
#include "sites/SitesDock.h"

#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>

using namespace ph;
using namespace ph::test;

class tst_SiteConfigEditor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void loadsTheStoredConfigurationBesideTheEffectiveOne();
    void roundTripsAnEditThroughTheDomainService();
    void namesTheErrorByItsPathAsTheApiDoes_data();
    void namesTheErrorByItsPathAsTheApiDoes();
    void showsANullClearUnlikeAnUnchangedSection();
    void storesNothingWhenTheDiffIsCancelled();
    void addsAShortcutInItsTable();
    void followsAConfigurationChangedOverRest();
    void namesEveryControl();

private:
    ui::SiteConfigEditor *editor() const { return m_dock->configEditor(); }
    QJsonObject storedConfig() { return m_ph->service().sites().sites().config(m_siteId).config; }
    int storedVersion() { return m_ph->service().sites().sites().config(m_siteId).version; }
    // Answers the next dialog before Save: Save or Cancel; keeps its lines.
    void answerDiff(bool save);
    void setJson(const QJsonObject &config)
    {
        editor()->jsonEdit()->setPlainText(
            QString::fromUtf8(QJsonDocument(config).toJson(QJsonDocument::Indented)));
    }

    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::SitesDock> m_dock;
    QString m_siteId;
    QString m_keyId;
    QStringList m_diffShown;
    bool m_answered = false;
};

void tst_SiteConfigEditor::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    HttpClient c = m_ph->client();
    const auto site =
        c.post(QStringLiteral("/generateSiteKey"),
               {{QStringLiteral("siteName"), QStringLiteral("Harbour Supplies")},
                {QStringLiteral("label"), QStringLiteral("embed")},
                {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("harbour.example")}}});
    QCOMPARE(site.status, 201);
    m_siteId = site.json().value(QStringLiteral("siteId")).toString();
    m_keyId = site.json()
                  .value(QStringLiteral("key"))
                  .toObject()
                  .value(QStringLiteral("keyId"))
                  .toString();
    const auto upsert =
        c.post(QStringLiteral("/upsertSiteConfig"),
               {{QStringLiteral("keyId"), m_keyId},
                {QStringLiteral("siteConfig"),
                 QJsonObject{{QStringLiteral("greeting"),
                              QJsonObject{{QStringLiteral("text"), QStringLiteral("Hi")}}},
                             {QStringLiteral("voice"),
                              QJsonObject{{QStringLiteral("enabled"), true},
                                          {QStringLiteral("language"), QStringLiteral("de")}}}}}});
    QCOMPARE(upsert.status, 200);
    m_dock = std::make_unique<ui::SitesDock>(ui::ConsoleServices::of(m_ph->service()));
    m_dock->resize(1280, 800);
    m_dock->show();
    QApplication::setActiveWindow(m_dock.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dock.get()));
    QVERIFY(m_dock->select(m_siteId));
    m_dock->showConfiguration();
    QCOMPARE(m_dock->tabs()->currentWidget(), editor());
}

void tst_SiteConfigEditor::cleanupTestCase()
{
    m_dock.reset();
    m_ph.reset();
}

void tst_SiteConfigEditor::answerDiff(bool save)
{
    m_answered = false;
    m_diffShown.clear();
    whenModalShows<QDialog>(this, QStringLiteral("siteConfigDiff"), [this, save](QDialog *dialog) {
        auto *text = dialog->findChild<QPlainTextEdit *>(QStringLiteral("siteConfigDiffText"));
        m_diffShown = text->toPlainText().split(QLatin1Char('\n'));
        auto *box = dialog->findChild<QDialogButtonBox *>();
        box->button(save ? QDialogButtonBox::Save : QDialogButtonBox::Cancel)->click();
        m_answered = true;
    });
}

void tst_SiteConfigEditor::loadsTheStoredConfigurationBesideTheEffectiveOne()
{
    auto *text = qobject_cast<QLineEdit *>(editor()->field(QStringLiteral("greeting.text")));
    QCOMPARE(text->text(), QStringLiteral("Hi"));
    auto *delay = qobject_cast<QSpinBox *>(editor()->field(QStringLiteral("greeting.delay")));
    QCOMPARE(delay->value(), -1); // not set: the runtime default applies
    QCOMPARE(delay->text(), QStringLiteral("Default (4000)"));
    auto *voice = qobject_cast<QComboBox *>(editor()->field(QStringLiteral("voice.enabled")));
    QCOMPARE(voice->currentData(), QVariant(true));
    // The JSON view is the stored configuration.
    QCOMPARE(QJsonDocument::fromJson(editor()->jsonEdit()->toPlainText().toUtf8()).object(),
             storedConfig());
    // The effective one fills in the runtime defaults, as the runtime computes them.
    const QJsonObject effective = editor()->effectiveView()->json().toObject();
    QCOMPARE(effective, sites::SiteConfigSchema::effective(storedConfig()));
    QCOMPARE(effective.value(QStringLiteral("greeting")).toObject().value(QStringLiteral("delay")),
             QJsonValue(4000));
    QVERIFY(editor()->effectiveView()->isReadOnly());
    QVERIFY(editor()->isValid());
    QVERIFY(!editor()->saveButton()->isEnabled()); // nothing changed yet
}

void tst_SiteConfigEditor::roundTripsAnEditThroughTheDomainService()
{
    const int before = storedVersion();
    // Edit the greeting in its form: the JSON and the effective view follow.
    editor()->sections()->setCurrentWidget(
        editor()->sections()->findChild<QWidget *>(QStringLiteral("greeting")));
    auto *text = qobject_cast<QLineEdit *>(editor()->field(QStringLiteral("greeting.text")));
    text->setText(QStringLiteral("Ahoy! Looking for rope?"));
    QVERIFY(editor()->jsonEdit()->toPlainText().contains(QLatin1String("Ahoy! Looking for rope?")));
    QCOMPARE(editor()
                 ->effectiveView()
                 ->json()
                 .toObject()
                 .value(QStringLiteral("greeting"))
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString(),
             QStringLiteral("Ahoy! Looking for rope?"));
    QVERIFY(editor()->saveButton()->isEnabled());

    // Out of the schema's range: the API's error, named by its path; Save is blocked.
    auto *delay = qobject_cast<QSpinBox *>(editor()->field(QStringLiteral("greeting.delay")));
    delay->setValue(700000);
    QVERIFY(!editor()->isValid());
    QCOMPARE(editor()->errorPath(), QStringLiteral("siteConfig.greeting.delay"));
    QCOMPARE(editor()->errorLabel()->text(),
             QStringLiteral("siteConfig.greeting.delay must be between 0 and 600000 "
                            "(INVALID_FIELD)"));
    QVERIFY(!editor()->errorLabel()->isHidden());
    QVERIFY(!editor()->saveButton()->isEnabled());
    QVERIFY(!editor()->save());
    QCOMPARE(storedVersion(), before);

    // Fixed: the error goes, Save comes back.
    delay->setValue(2000);
    QVERIFY(editor()->isValid());
    QVERIFY(editor()->errorLabel()->isHidden());
    QVERIFY(editor()->saveButton()->isEnabled());
    QCOMPARE(editor()->patch().value(QStringLiteral("greeting")).toObject(),
             (QJsonObject{{QStringLiteral("text"), QStringLiteral("Ahoy! Looking for rope?")},
                          {QStringLiteral("delay"), 2000}}));

    // Save: the changes are shown first, then stored.
    answerDiff(true);
    editor()->saveButton()->click();
    QTRY_VERIFY(m_answered);
    QCOMPARE(m_diffShown,
             (QStringList{QStringLiteral("~ greeting.text: \"Hi\" → \"Ahoy! Looking for rope?\""),
                          QStringLiteral("+ greeting.delay: 2000")}));
    QCOMPARE(editor()->lastDiff(), m_diffShown);

    // Read back through the domain service the API uses, and over REST.
    QCOMPARE(storedVersion(), before + 1);
    const QJsonObject greeting = storedConfig().value(QStringLiteral("greeting")).toObject();
    QCOMPARE(greeting.value(QStringLiteral("text")).toString(),
             QStringLiteral("Ahoy! Looking for rope?"));
    QCOMPARE(greeting.value(QStringLiteral("delay")), QJsonValue(2000));
    QVERIFY(storedConfig().contains(QStringLiteral("voice"))); // untouched
    QCOMPARE(m_ph->service().sites().sites().config(m_siteId).updatedBy, QStringLiteral("console"));
    const auto r =
        m_ph->client().post(QStringLiteral("/getSiteConfig"), {{QStringLiteral("keyId"), m_keyId}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("siteConfig")).toObject(), storedConfig());
    QCOMPARE(r.json().value(QStringLiteral("effective")).toObject(),
             editor()->effectiveView()->json().toObject());
    // The editor shows what is stored now, with nothing left to save.
    QCOMPARE(text->text(), QStringLiteral("Ahoy! Looking for rope?"));
    QVERIFY(!editor()->hasChanges());
    QVERIFY(!editor()->saveButton()->isEnabled());
    QVERIFY(m_dock->messageLabel()->text().contains(QStringLiteral("version %1").arg(before + 1)));
}

void tst_SiteConfigEditor::namesTheErrorByItsPathAsTheApiDoes_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("code");
    QTest::newRow("an unknown field is named by its path")
        << QStringLiteral("{\"greeting\": {\"txt\": \"Hi\"}}")
        << QStringLiteral("siteConfig.greeting.txt") << QStringLiteral("UNKNOWN_FIELD");
    QTest::newRow("a manifest address that is not http is named by its path")
        << QStringLiteral("{\"agentDiscovery\": {\"siteManifestUrl\": \"ftp://harbour.example\"}}")
        << QStringLiteral("siteConfig.agentDiscovery.siteManifestUrl")
        << QStringLiteral("INVALID_FIELD");
    QTest::newRow("a shortcut id used twice is named by the second one")
        << QStringLiteral("{\"shortcuts\": [{\"id\": \"rope\", \"label\": \"Rope\"}, {\"id\": "
                          "\"rope\", \"label\": \"More rope\"}]}")
        << QStringLiteral("siteConfig.shortcuts[1].id") << QStringLiteral("DUPLICATE_ID");
    QTest::newRow("a knowledge entry without a title is named by the missing field")
        << QStringLiteral(
               "{\"knowledge\": [{\"id\": \"returns\", \"body\": \"30 days\", \"kind\": \"faq\"}]}")
        << QStringLiteral("siteConfig.knowledge[0].title") << QStringLiteral("MISSING_FIELD");
    QTest::newRow("a voice language of the wrong form is named by its path")
        << QStringLiteral("{\"voice\": {\"language\": \"german!\"}}")
        << QStringLiteral("siteConfig.voice.language") << QStringLiteral("INVALID_FIELD");
}

void tst_SiteConfigEditor::namesTheErrorByItsPathAsTheApiDoes()
{
    QFETCH(QString, json);
    QFETCH(QString, path);
    QFETCH(QString, code);
    const int before = storedVersion();
    editor()->jsonEdit()->setPlainText(json);
    QVERIFY(!editor()->isValid());
    QCOMPARE(editor()->errorPath(), path);
    QVERIFY2(editor()->errorLabel()->text().startsWith(path),
             qPrintable(editor()->errorLabel()->text()));
    QVERIFY(editor()->errorLabel()->text().endsWith(QStringLiteral("(%1)").arg(code)));
    QVERIFY(!editor()->saveButton()->isEnabled());
    // The API refuses the same patch with the same words.
    const auto r = m_ph->client().post(
        QStringLiteral("/upsertSiteConfig"),
        {{QStringLiteral("keyId"), m_keyId},
         {QStringLiteral("siteConfig"), QJsonDocument::fromJson(json.toUtf8()).object()}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QCOMPARE(
        QStringLiteral("%1 (%2)").arg(r.json().value(QStringLiteral("error")).toString(), code),
        editor()->errorLabel()->text());
    QCOMPARE(storedVersion(), before);
    editor()->revertButton()->click();
    QVERIFY(editor()->isValid());
    QVERIFY(editor()->errorLabel()->isHidden());
}

void tst_SiteConfigEditor::showsANullClearUnlikeAnUnchangedSection()
{
    const int before = storedVersion();
    QTabWidget *tabs = editor()->sections();
    QWidget *voicePage = tabs->findChild<QWidget *>(QStringLiteral("voice"));
    QWidget *greetingPage = tabs->findChild<QWidget *>(QStringLiteral("greeting"));
    QCOMPARE(tabs->tabText(tabs->indexOf(voicePage)), QStringLiteral("Voice"));
    QVERIFY(!editor()->isCleared(QStringLiteral("voice")));

    // Clear in the form: null in the JSON, and the section says so.
    editor()->clearButton(QStringLiteral("voice"))->click();
    QVERIFY(editor()->isCleared(QStringLiteral("voice")));
    QCOMPARE(tabs->tabText(tabs->indexOf(voicePage)), QStringLiteral("Voice (cleared)"));
    QCOMPARE(tabs->tabText(tabs->indexOf(greetingPage)), QStringLiteral("Greeting"));
    QVERIFY(!editor()->field(QStringLiteral("voice.enabled"))->isEnabled());
    QVERIFY(editor()->field(QStringLiteral("greeting.text"))->isEnabled());
    const QJsonObject shown =
        QJsonDocument::fromJson(editor()->jsonEdit()->toPlainText().toUtf8()).object();
    QVERIFY(shown.value(QStringLiteral("voice")).isNull());
    QVERIFY(shown.value(QStringLiteral("greeting")).isObject());
    QCOMPARE(editor()->patch(), (QJsonObject{{QStringLiteral("voice"), QJsonValue()}}));
    // The effective configuration shows what the runtime serves then: its defaults.
    QCOMPARE(editor()->effectiveView()->json().toObject().value(QStringLiteral("voice")),
             sites::SiteConfigSchema::defaults().value(QStringLiteral("voice")));

    // Clear again keeps it.
    editor()->clearButton(QStringLiteral("voice"))->click();
    QVERIFY(!editor()->isCleared(QStringLiteral("voice")));
    QVERIFY(!editor()->hasChanges());

    // null typed in the JSON is the same clear.
    QJsonObject config = storedConfig();
    config.insert(QStringLiteral("voice"), QJsonValue());
    setJson(config);
    QVERIFY(editor()->isCleared(QStringLiteral("voice")));
    QCOMPARE(tabs->tabText(tabs->indexOf(voicePage)), QStringLiteral("Voice (cleared)"));
    QVERIFY(editor()->clearButton(QStringLiteral("voice"))->isChecked());

    answerDiff(true);
    QVERIFY(editor()->save());
    QVERIFY(m_answered);
    QCOMPARE(m_diffShown,
             (QStringList{QStringLiteral("− voice: cleared (null); the runtime defaults apply")}));
    QCOMPARE(storedVersion(), before + 1);
    QVERIFY(!storedConfig().contains(QStringLiteral("voice")));
    QVERIFY(!editor()->isCleared(QStringLiteral("voice"))); // nothing left to clear
    QCOMPARE(tabs->tabText(tabs->indexOf(voicePage)), QStringLiteral("Voice"));
}

void tst_SiteConfigEditor::storesNothingWhenTheDiffIsCancelled()
{
    const int before = storedVersion();
    auto *hops = qobject_cast<QSpinBox *>(editor()->field(QStringLiteral("aiAccess.maxHops")));
    hops->setValue(4);
    answerDiff(false);
    QVERIFY(!editor()->save());
    QVERIFY(m_answered);
    QCOMPARE(m_diffShown, (QStringList{QStringLiteral("+ aiAccess.maxHops: 4")}));
    QCOMPARE(storedVersion(), before);
    QVERIFY(editor()->hasChanges()); // the draft stays for more editing
    editor()->revertButton()->click();
    QCOMPARE(hops->value(), -1);
    QVERIFY(!editor()->hasChanges());
}

void tst_SiteConfigEditor::addsAShortcutInItsTable()
{
    QTableWidget *table = editor()->shortcutsTable();
    QCOMPARE(table->rowCount(), 0);
    editor()->sections()->setCurrentWidget(
        editor()->sections()->findChild<QWidget *>(QStringLiteral("shortcuts")));
    const auto buttons = editor()->findChildren<QPushButton *>();
    QPushButton *addShortcut = nullptr;
    for (QPushButton *b : buttons) {
        if (b->text() == QLatin1String("Add shortcut"))
            addShortcut = b;
    }
    QVERIFY(addShortcut);
    addShortcut->click();
    QCOMPARE(table->rowCount(), 1);
    // An empty row lacks the required fields: named by path.
    QCOMPARE(editor()->errorPath(), QStringLiteral("siteConfig.shortcuts[0].id"));
    table->setItem(0, 0, new QTableWidgetItem(QStringLiteral("rope")));
    QCOMPARE(editor()->errorPath(), QStringLiteral("siteConfig.shortcuts[0].label"));
    table->setItem(0, 1, new QTableWidgetItem(QStringLiteral("Find rope")));
    table->setItem(0, 3, new QTableWidgetItem(QStringLiteral("Show me mooring rope")));
    QVERIFY(editor()->isValid());
    QVERIFY(editor()->jsonEdit()->toPlainText().contains(QLatin1String("Show me mooring rope")));
    answerDiff(true);
    QVERIFY(editor()->save());
    const QJsonArray shortcuts = storedConfig().value(QStringLiteral("shortcuts")).toArray();
    QCOMPARE(shortcuts.size(), 1);
    QCOMPARE(shortcuts.at(0).toObject(),
             (QJsonObject{{QStringLiteral("id"), QStringLiteral("rope")},
                          {QStringLiteral("label"), QStringLiteral("Find rope")},
                          {QStringLiteral("prompt"), QStringLiteral("Show me mooring rope")}}));
}

void tst_SiteConfigEditor::followsAConfigurationChangedOverRest()
{
    const auto r = m_ph->client().post(
        QStringLiteral("/upsertSiteConfig"),
        {{QStringLiteral("keyId"), m_keyId},
         {QStringLiteral("siteConfig"),
          QJsonObject{{QStringLiteral("pageConfig"),
                       QJsonObject{{QStringLiteral("adaptiveSettleMaxWaitMs"), 2500}}}}}});
    QCOMPARE(r.status, 200);
    auto *settle = qobject_cast<QSpinBox *>(
        editor()->field(QStringLiteral("pageConfig.adaptiveSettleMaxWaitMs")));
    QTRY_COMPARE(settle->value(), 2500);
    QVERIFY(!editor()->hasChanges());
}

void tst_SiteConfigEditor::namesEveryControl()
{
    QStringList unnamed;
    for (QWidget *w : editor()->findChildren<QWidget *>()) {
        const bool scrollArea = w->inherits("QAbstractScrollArea") &&
                                !qobject_cast<QPlainTextEdit *>(w) &&
                                !qobject_cast<QTableWidget *>(w);
        if (w->focusPolicy() == Qt::NoFocus || qobject_cast<QTabWidget *>(w) ||
            w->inherits("QTabBar") || w->inherits("QScrollBar") || scrollArea)
            continue;
        if (w->parentWidget() && (qobject_cast<QSpinBox *>(w->parentWidget()) ||
                                  qobject_cast<QComboBox *>(w->parentWidget()) ||
                                  w->parentWidget()->inherits("QAbstractScrollArea")))
            continue; // inner parts of a control
        QAccessibleInterface *a = QAccessible::queryAccessibleInterface(w);
        if (!a || a->text(QAccessible::Name).trimmed().isEmpty())
            unnamed << QStringLiteral("%1 (%2)").arg(w->objectName(),
                                                     QLatin1String(w->metaObject()->className()));
    }
    QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
}

PH_WIDGETS_TEST_MAIN(tst_SiteConfigEditor)
#include "tst_siteconfigeditor.moc"
