// The console's usability pass (issue 19, items 5 and 6) over the whole main window with
// every panel, against the real service: short local date-times with the full date in
// the tooltip, the Triggers form's layout, keyboard shortcuts listed in Help and working,
// an accessible name on every focusable control (checked through QAccessible), window
// geometry, docks and splitters restored after a restart, empty states that say what to
// do, and no panel whose minimum size overflows a 1280×800 window.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "MainWindow.h"
#include "ShortcutsDialog.h"
#include "common/EmptyState.h"
#include "deliveries/DeliveriesDock.h"
#include "deliveries/DeliveriesModel.h"
#include "keys/KeysDock.h"
#include "keys/KeysModel.h"
#include "trajectories/TrajectoriesDock.h"
#include "trajectories/TrajectoriesModel.h"
#include "triggers/TriggersDock.h"

#include "core/ApiKeyRepository.h"
#include "core/Store.h"
#include "engine/TrajectoryRepository.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QScopeGuard>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTableView>
#include <QTableWidget>

using namespace ph;
using namespace ph::test;

class tst_ConsoleUsability : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    // First, while the store has no runs, deliveries or triggers.
    void emptyListsSayWhatToDo_data();
    void emptyListsSayWhatToDo();
    void datesAreShortWithTheFullDateInTheTooltip_data();
    void datesAreShortWithTheFullDateInTheTooltip();
    void triggersFormKeepsItsFieldsOneLineHigh_data();
    void triggersFormKeepsItsFieldsOneLineHigh();
    void everyShortcutIsListedInHelp();
    void shortcutsGoToThePanels_data();
    void shortcutsGoToThePanels();
    void everyFocusableControlHasAnAccessibleName();
    void layoutIsRestoredAfterARestart_data();
    void layoutIsRestoredAfterARestart();
    void noPanelOverflowsA1280By800Window_data();
    void noPanelOverflowsA1280By800Window();

private:
    template <typename T> T *panel() const { return m_window->findChild<T *>(); }
    QDockWidget *dock(const QString &name) const
    {
        return m_window->findChild<QDockWidget *>(name);
    }
    QString sendTestDelivery();

    FixtureServer m_receiver;
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::MainWindow> m_window;
};

void tst_ConsoleUsability::initTestCase()
{
    // Nothing remembered from an earlier run of this test.
    QSettings().remove(QStringLiteral("console"));
    QVERIFY(m_receiver.start());
    m_receiver.route("/hook", [](const FixtureRequest &) {
        FixtureResponse r;
        r.body = "ok";
        return r;
    });
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_window = std::make_unique<ui::MainWindow>(m_ph->service());
    m_window->setLanguage(QStringLiteral("en"));
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void tst_ConsoleUsability::cleanupTestCase()
{
    m_window.reset();
    m_ph.reset();
    QSettings().remove(QStringLiteral("console"));
}

QString tst_ConsoleUsability::sendTestDelivery()
{
    HttpClient c = m_ph->client();
    const auto r = c.post(QStringLiteral("/webhooks/test"),
                          {{QStringLiteral("url"), m_receiver.url(QStringLiteral("/hook"))}});
    return r.json().value(QStringLiteral("deliveries")).toArray().at(0).toString();
}

void tst_ConsoleUsability::emptyListsSayWhatToDo_data()
{
    QTest::addColumn<QString>("panel");
    QTest::addColumn<QStringList>("says");
    QTest::newRow("the runs list shows a curl command for the real API address")
        << QStringLiteral("trajectoriesDock")
        << QStringList{QStringLiteral("No runs yet"), QStringLiteral("curl"),
                       QStringLiteral("$PILOTHOUSE_API_KEY"), QStringLiteral("%1/agent")};
    QTest::newRow("the deliveries list says what sends deliveries")
        << QStringLiteral("deliveriesDock")
        << QStringList{QStringLiteral("No webhook deliveries yet"),
                       QStringLiteral("/webhooks/test")};
    QTest::newRow("the triggers list says how to make a trigger")
        << QStringLiteral("triggersDock") << QStringList{QStringLiteral("Create trigger")};
}

void tst_ConsoleUsability::emptyListsSayWhatToDo()
{
    QFETCH(QString, panel);
    QFETCH(QStringList, says);
    QDockWidget *d = dock(panel);
    QVERIFY(d);
    m_window->goToPanel(d);
    QTest::qWait(0);
    auto *empty = d->findChild<ui::EmptyState *>();
    QVERIFY(empty);
    QVERIFY(empty->isShowing());
    QVERIFY(empty->isVisible());
    for (QString text : says) {
        if (text.contains(QLatin1String("%1")))
            text = text.arg(m_ph->base());
        QVERIFY2(empty->text().contains(text),
                 qPrintable(text + QStringLiteral(" in ") + empty->text()));
    }
    // The hint sits over the list and goes once there is something to list.
    auto *view = qobject_cast<QAbstractItemView *>(empty->parentWidget()->parentWidget());
    QVERIFY(view);
    QCOMPARE(empty->geometry(), view->viewport()->rect());
}

void tst_ConsoleUsability::datesAreShortWithTheFullDateInTheTooltip_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<QLocale>("locale");
    const QLocale english(QLocale::English, QLocale::UnitedStates);
    const QLocale german(QLocale::German, QLocale::Germany);
    for (const auto &[locale, lang] :
         {std::pair{english, "in English"}, std::pair{german, "in German"}}) {
        QTest::newRow(qPrintable(
            QStringLiteral("the runs list shows when a run started %1").arg(QLatin1String(lang))))
            << QStringLiteral("runs") << locale;
        QTest::newRow(
            qPrintable(QStringLiteral("the deliveries list shows when a delivery was made %1")
                           .arg(QLatin1String(lang))))
            << QStringLiteral("deliveries") << locale;
        QTest::newRow(qPrintable(QStringLiteral("a delivery's attempts show when each went out %1")
                                     .arg(QLatin1String(lang))))
            << QStringLiteral("attempts") << locale;
        QTest::newRow(qPrintable(
            QStringLiteral("the keys list shows when a key was made %1").arg(QLatin1String(lang))))
            << QStringLiteral("keys") << locale;
    }
}

void tst_ConsoleUsability::datesAreShortWithTheFullDateInTheTooltip()
{
    QFETCH(QString, what);
    QFETCH(QLocale, locale);
    const QLocale before;
    QLocale::setDefault(locale);
    const auto restore = qScopeGuard([&] { QLocale::setDefault(before); });
    auto *runs = panel<ui::TrajectoriesDock>();
    auto *deliveries = panel<ui::DeliveriesDock>();
    if (runs->model()->rowCount() == 0) {
        const QString keyId = m_ph->service().store().apiKeys().list().first().id;
        m_ph->service().trajectories().create(QStringLiteral("traj_dates"), keyId,
                                              QStringLiteral("a run for the dates"),
                                              QStringLiteral("rule"));
        QTRY_VERIFY(runs->model()->rowCount() > 0);
    }
    if (deliveries->model()->rowCount() == 0) {
        const QString id = sendTestDelivery();
        QTRY_VERIFY(deliveries->model()->rowOf(id) >= 0);
        QTRY_VERIFY(m_ph->service().webhooks().find(id, true)->attemptLog.size() == 1);
        QVERIFY(deliveries->select(id));
    }
    QString text;
    QString tip;
    if (what == QLatin1String("runs")) {
        const QModelIndex i = runs->model()->index(0, ui::TrajectoriesModel::Started);
        text = i.data().toString();
        tip = i.data(Qt::ToolTipRole).toString();
    } else if (what == QLatin1String("deliveries")) {
        const QModelIndex i = deliveries->model()->index(0, ui::DeliveriesModel::Created);
        text = i.data().toString();
        tip = i.data(Qt::ToolTipRole).toString();
    } else if (what == QLatin1String("attempts")) {
        QVERIFY(deliveries->select(deliveries->model()->index(0, 0).data(Qt::UserRole).toString()));
        QTableWidgetItem *item = deliveries->attemptsTable()->item(0, 0);
        QVERIFY(item);
        text = item->text();
        tip = item->toolTip();
    } else {
        auto *keys = panel<ui::KeysDock>();
        const QModelIndex i = keys->model()->index(0, ui::KeysModel::Created);
        text = i.data().toString();
        tip = i.data(Qt::ToolTipRole).toString();
    }
    // The locale's short form: it reads back as a date and time of today, no weekday.
    const QDateTime shown = locale.toDateTime(text, QLocale::ShortFormat);
    QVERIFY2(shown.isValid(), qPrintable(text));
    QCOMPARE(shown.date().month(), QDate::currentDate().month());
    const QString weekday = locale.dayName(QDate::currentDate().dayOfWeek());
    QVERIFY2(!text.contains(weekday), qPrintable(text));
    QVERIFY2(text.size() <= 20, qPrintable(text));
    // The full one, with the weekday, is the tooltip.
    QVERIFY2(tip.contains(weekday), qPrintable(tip));
    QVERIFY2(tip.contains(QString::number(QDate::currentDate().year())), qPrintable(tip));
}

void tst_ConsoleUsability::triggersFormKeepsItsFieldsOneLineHigh_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("the saved-tool combo box stays one line high") << 0;
    QTest::newRow("the run field stays one line high") << 1;
}

void tst_ConsoleUsability::triggersFormKeepsItsFieldsOneLineHigh()
{
    QFETCH(int, kind);
    auto *triggers = panel<ui::TriggersDock>();
    m_window->goToPanel(triggers);
    triggers->kindCombo()->setCurrentIndex(kind);
    QTest::qWait(0);
    QWidget *field = kind == 0 ? static_cast<QWidget *>(triggers->toolCombo())
                               : static_cast<QWidget *>(triggers->runField());
    QVERIFY(field->isVisible());
    QVERIFY2(field->height() <= field->sizeHint().height() + 2,
             qPrintable(QStringLiteral("%1 px for a %2 px field")
                            .arg(field->height())
                            .arg(field->sizeHint().height())));
    QVERIFY(triggers->kindCombo()->height() <= triggers->kindCombo()->sizeHint().height() + 2);
    triggers->kindCombo()->setCurrentIndex(0);
}

void tst_ConsoleUsability::everyShortcutIsListedInHelp()
{
    const QList<QAction *> actions = ui::ShortcutsDialog::shortcutActions(m_window.get());
    QVERIFY(actions.size() >= 15);
    ui::ShortcutsDialog dialog(m_window.get());
    QCOMPARE(dialog.table()->rowCount(), actions.size());
    QStringList listed;
    for (int r = 0; r < dialog.table()->rowCount(); ++r) {
        const QString what = dialog.table()->item(r, 0)->text();
        QVERIFY2(!what.isEmpty(), qPrintable(dialog.table()->item(r, 1)->text()));
        QVERIFY(!dialog.table()->item(r, 1)->text().isEmpty());
        listed << what;
    }
    for (const QString &expected :
         {QStringLiteral("Keyboard shortcuts"), QStringLiteral("Go to Runs"),
          QStringLiteral("Copy the run's request as curl"),
          QStringLiteral("Copy the delivery as curl"), QStringLiteral("Next panel")})
        QVERIFY2(listed.contains(expected), qPrintable(listed.join(QStringLiteral(" | "))));
    // F1 opens it from the Help menu; no two window-wide shortcuts share a key.
    QStringList windowKeys;
    for (QAction *a : actions) {
        if (a->shortcutContext() != Qt::WindowShortcut &&
            a->shortcutContext() != Qt::ApplicationShortcut)
            continue;
        const QString key = a->shortcut().toString();
        QVERIFY2(!windowKeys.contains(key), qPrintable(key));
        windowKeys << key;
    }
    QVERIFY(windowKeys.contains(QKeySequence(QKeySequence::HelpContents).toString()));
}

void tst_ConsoleUsability::shortcutsGoToThePanels_data()
{
    QTest::addColumn<QKeySequence>("keys");
    QTest::addColumn<QString>("panel");
    QTest::newRow("Ctrl+1 goes to the Overview")
        << QKeySequence(QStringLiteral("Ctrl+1")) << QStringLiteral("overviewDock");
    QTest::newRow("Ctrl+2 goes to the runs")
        << QKeySequence(QStringLiteral("Ctrl+2")) << QStringLiteral("trajectoriesDock");
    QTest::newRow("Ctrl+4 goes to the webhook deliveries")
        << QKeySequence(QStringLiteral("Ctrl+4")) << QStringLiteral("deliveriesDock");
    QTest::newRow("Ctrl+0 goes to the settings")
        << QKeySequence(QStringLiteral("Ctrl+0")) << QStringLiteral("settingsDock");
}

void tst_ConsoleUsability::shortcutsGoToThePanels()
{
    QFETCH(QKeySequence, keys);
    QFETCH(QString, panel);
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keySequence(m_window.get(), keys);
    QDockWidget *d = dock(panel);
    QTRY_VERIFY(d->isVisible());
    QTRY_VERIFY2(d->isAncestorOf(QApplication::focusWidget()),
                 QApplication::focusWidget()
                     ? QApplication::focusWidget()->metaObject()->className()
                     : "no focus");
    // And on from there: Ctrl+PgDown goes to the next panel.
    const int at = int(m_window->panels().indexOf(d));
    QTest::keySequence(m_window.get(), QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    QDockWidget *next = m_window->panels().at((at + 1) % m_window->panels().size());
    QTRY_VERIFY(next->isAncestorOf(QApplication::focusWidget()) ||
                next->widget() == QApplication::focusWidget());
}

// Controls a keyboard user can reach (Tab) must have a name a screen reader can say:
// QAccessible's Name, from accessibleName, the text, or a label that is its buddy.
void tst_ConsoleUsability::everyFocusableControlHasAnAccessibleName()
{
    // Every panel, each with its detail filled where a row exists.
    QStringList nameless;
    int checked = 0;
    for (QWidget *w : m_window->findChildren<QWidget *>()) {
        if (!(w->focusPolicy() & Qt::TabFocus))
            continue;
        // Parts of a composite control, named by the control (a combo box's or a spin
        // box's line edit).
        QWidget *parent = w->parentWidget();
        bool part = false; // also a combo box's popup list
        for (QWidget *p = parent; p && !part; p = p->parentWidget())
            part = qobject_cast<QComboBox *>(p) || qobject_cast<QAbstractSpinBox *>(p);
        if (part)
            continue;
        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(w);
        QVERIFY(iface);
        ++checked;
        if (auto *tabs = qobject_cast<QTabBar *>(w)) {
            // A tab bar is named by its tabs.
            for (int i = 0; i < tabs->count(); ++i) {
                if (tabs->tabText(i).isEmpty() && tabs->accessibleTabName(i).isEmpty())
                    nameless << QStringLiteral("tab %1 of a tab bar in %2")
                                    .arg(i)
                                    .arg(parent ? parent->objectName() : QString());
            }
            continue;
        }
        if (!iface->text(QAccessible::Name).trimmed().isEmpty())
            continue;
        QStringList path;
        for (QWidget *p = w; p && p != m_window.get(); p = p->parentWidget())
            path.prepend(p->objectName().isEmpty()
                             ? QString::fromLatin1(p->metaObject()->className())
                             : p->objectName());
        nameless << path.join(QLatin1Char('/'));
    }
    QVERIFY(checked >= 60);
    for (const QString &n : std::as_const(nameless))
        qWarning("no accessible name: %s", qPrintable(n));
    QVERIFY2(nameless.isEmpty(),
             qPrintable(QStringLiteral("%1 focusable controls without an accessible name")
                            .arg(nameless.size())));
}

void tst_ConsoleUsability::layoutIsRestoredAfterARestart_data()
{
    QTest::addColumn<QString>("what");
    QTest::newRow("the window's size comes back") << QStringLiteral("size");
    QTest::newRow("a panel that was closed stays closed") << QStringLiteral("hidden");
    QTest::newRow("a panel that floated floats again") << QStringLiteral("floating");
    QTest::newRow("a splitter keeps where it was dragged") << QStringLiteral("splitter");
}

void tst_ConsoleUsability::layoutIsRestoredAfterARestart()
{
    QFETCH(QString, what);
    QSettings().remove(QStringLiteral("console"));
    QList<int> sizes;
    {
        ui::MainWindow first(m_ph->service());
        QVERIFY(!first.restoreLayout()); // nothing saved yet
        first.show();
        QVERIFY(QTest::qWaitForWindowExposed(&first));
        if (what == QLatin1String("size")) {
            first.resize(1200, 780);
        } else if (what == QLatin1String("hidden")) {
            first.findChild<QDockWidget *>(QStringLiteral("keysDock"))->close();
        } else if (what == QLatin1String("floating")) {
            first.findChild<QDockWidget *>(QStringLiteral("toolsDock"))->setFloating(true);
        } else {
            auto *runs = first.findChild<QDockWidget *>(QStringLiteral("trajectoriesDock"));
            first.goToPanel(runs);
            QTest::qWait(0);
            auto *split = runs->findChild<QSplitter *>(QStringLiteral("runsSplit"));
            QVERIFY(split);
            const int total = split->sizes().value(0) + split->sizes().value(1);
            split->setSizes({total / 4, total - total / 4});
            sizes = split->sizes();
        }
        QTest::qWait(0);
        first.setCloseAction(ui::MainWindow::CloseAction::Quit); // no question, should a tray exist
        first.close();                                           // saves
    }
    ui::MainWindow second(m_ph->service());
    second.show();
    QVERIFY(QTest::qWaitForWindowExposed(&second));
    if (what == QLatin1String("size")) {
        QCOMPARE(second.size(), QSize(1200, 780));
    } else if (what == QLatin1String("hidden")) {
        QVERIFY(!second.findChild<QDockWidget *>(QStringLiteral("keysDock"))->isVisible());
        QVERIFY(
            second.findChild<QDockWidget *>(QStringLiteral("overviewDock"))->isVisibleTo(&second) ||
            !second.findChild<QDockWidget *>(QStringLiteral("overviewDock"))->isHidden());
    } else if (what == QLatin1String("floating")) {
        QVERIFY(second.findChild<QDockWidget *>(QStringLiteral("toolsDock"))->isFloating());
    } else {
        auto *split = second.findChild<QDockWidget *>(QStringLiteral("trajectoriesDock"))
                          ->findChild<QSplitter *>(QStringLiteral("runsSplit"));
        QCOMPARE(split->sizes(), sizes);
    }
    second.setCloseAction(ui::MainWindow::CloseAction::Quit);
    QSettings().remove(QStringLiteral("console"));
}

void tst_ConsoleUsability::noPanelOverflowsA1280By800Window_data()
{
    QTest::addColumn<QString>("panel");
    for (QDockWidget *d : m_window->findChildren<QDockWidget *>())
        QTest::newRow(qPrintable(QStringLiteral("the %1 panel fits").arg(d->windowTitle())))
            << d->objectName();
}

void tst_ConsoleUsability::noPanelOverflowsA1280By800Window()
{
    QFETCH(QString, panel);
    m_window->resize(1280, 800);
    QDockWidget *d = dock(panel);
    m_window->goToPanel(d);
    QTest::qWait(0);
    // The window as a whole: its layout's minimum (every dock area and bar) fits.
    const QSize windowMin = m_window->layout()->minimumSize();
    QVERIFY2(windowMin.width() <= 1280 && windowMin.height() <= 800,
             qPrintable(QStringLiteral("the window needs %1×%2")
                            .arg(windowMin.width())
                            .arg(windowMin.height())));
    QCOMPARE(m_window->size(), QSize(1280, 800));
    // This panel: its minimum fits in the room the window gives the docks.
    const int bars =
        m_window->menuBar()->sizeHint().height() + m_window->statusBar()->sizeHint().height();
    const QSize need = d->minimumSizeHint().expandedTo(d->minimumSize());
    QVERIFY2(need.width() <= 1280 && need.height() <= 800 - bars,
             qPrintable(
                 QStringLiteral("%1 needs %2×%3").arg(panel).arg(need.width()).arg(need.height())));
    // And it is not cut: shown at least at its minimum.
    QVERIFY(d->widget()->width() >= d->widget()->minimumSizeHint().width());
    QVERIFY(d->widget()->height() >= d->widget()->minimumSizeHint().height());
}

// As PH_WIDGETS_TEST_MAIN, on an offscreen screen of a desktop's size (1920×1080, not the
// platform's default 800×600): window geometry is restored onto the screen, and the
// 1280×800 check should look at a window that fits on it.
int main(int argc, char **argv)
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    const QString config =
        QDir::temp().filePath(QStringLiteral("tst_consoleusability-screen.json"));
    if (platform.isEmpty() || platform == "offscreen") {
        QFile file(config);
        if (file.open(QIODevice::WriteOnly))
            file.write(R"({"screens": [{"name": "desktop", "x": 0, "y": 0, "width": 1920,
                           "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
        file.close();
        qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + QFile::encodeName(config));
    }
    ph::test::prepareWebEngineEnvironment();
    auto args = ph::test::webEngineArgv(argc, argv);
    int appArgc = argc + 1;
    QApplication app(appArgc, args.data());
    ph::EgressProxy::routeChromium();
    tst_ConsoleUsability tc;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&tc, argc, argv);
}
#include "tst_consoleusability.moc"
