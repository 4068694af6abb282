// The console's live browser views against the real pool: a run's leased page appears
// as a tile showing that very page, labelled with the run; take-over is possible only
// while the run waits for input and is handed back when it goes on; the tile goes when
// the lease ends.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "browser/chromium/ChromiumEngine.h"
#include "browserviews/BrowserTile.h"
#include "browserviews/BrowserViewsDock.h"
#include "browserviews/ScreencastView.h"

#include <QApplication>
#include <QCheckBox>
#include <QJsonArray>
#include <QTest>
#include <QWebEngineView>

using namespace ph;
using namespace ph::test;

namespace {

// A sign-in form whose run waits for the operator's answers, and the page behind it.
void serveLogin(FixtureServer &site)
{
    site.page("/login", "<!doctype html><title>Sign in</title><form action=\"/orders\">"
                        "<label for=\"e\">Email</label><input id=\"e\" name=\"email\">"
                        "<label for=\"p\">Password</label><input id=\"p\" name=\"password\" "
                        "type=\"password\"><button>Sign in</button></form>");
    site.page("/orders", "<!doctype html><title>Orders</title><h1>Your orders</h1>");
}

// Starts the run that waits for input on the sign-in form; returns its trajectory id.
QString startWaitingRun(TestService &ph, const FixtureServer &site)
{
    HttpClient c = ph.client();
    const auto r =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Log in and read my orders")},
                {QStringLiteral("urls"), QJsonArray{site.url(QStringLiteral("/login"))}}});
    if (r.json().value(QStringLiteral("status")).toString() != QLatin1String("requires_input"))
        return {};
    return r.json().value(QStringLiteral("trajectoryId")).toString();
}

} // namespace

class tst_BrowserViewsPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsAWaitingRunsPageAndLetsTheOperatorTakeOver();
    void showsAChromiumPageByItsScreencastAndTakesClicks();
};

void tst_BrowserViewsPanel::showsAWaitingRunsPageAndLetsTheOperatorTakeOver()
{
    FixtureServer site;
    QVERIFY(site.start());
    serveLogin(site);
    TestService ph;
    QVERIFY(ph.ok());
    ui::BrowserViewsDock dock(ui::ConsoleServices::of(ph.service()));
    dock.resize(900, 700);
    dock.show();
    QCOMPARE(dock.tiles().size(), 0);

    HttpClient c = ph.client();
    const QString run = startWaitingRun(ph, site);
    QVERIFY2(!run.isEmpty(), "the run does not wait for input");
    // The waiting run keeps its page; its tile shows that very page.
    QTRY_VERIFY(dock.tileFor(run));
    ui::BrowserTile *tile = dock.tileFor(run);
    BrowserLease *lease = nullptr;
    for (BrowserLease *l : ph.service().pool().leases()) {
        if (l->label() == run)
            lease = l;
    }
    QVERIFY(lease);
    QCOMPARE(tile->view()->page(), lease->page());
    QVERIFY(tile->view()->url().toString().endsWith(QLatin1String("/login")));
    // Watching only, until the operator takes over the paused run.
    QVERIFY(!tile->view()->isEnabled());
    QTRY_VERIFY(tile->takeOver()->isEnabled());
    tile->takeOver()->setChecked(true);
    QVERIFY(tile->view()->isEnabled());
    // The run goes on: handed back, then the page is released and the tile goes.
    const auto done =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("trajectoryId"), run},
                {QStringLiteral("history"),
                 QJsonObject{{QStringLiteral("continue"), true},
                             {QStringLiteral("answers"),
                              QJsonObject{{QStringLiteral("email"), QStringLiteral("a@b.example")},
                                          {QStringLiteral("password"), QStringLiteral("pw")}}}}}});
    QCOMPARE(done.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QTRY_VERIFY(!dock.tileFor(run));
}

PH_WIDGETS_TEST_MAIN(tst_BrowserViewsPanel)
#include "tst_browserviewspanel.moc"

void tst_BrowserViewsPanel::showsAChromiumPageByItsScreencastAndTakesClicks()
{
    if (ChromiumEngine::findExecutable(QString()).isEmpty())
        QSKIP("chromium is not installed");
    FixtureServer site;
    QVERIFY(site.start());
    serveLogin(site);
    TestService ph({QStringLiteral("browser.engine=chromium")});
    QVERIFY(ph.ok());
    ui::BrowserViewsDock dock(ui::ConsoleServices::of(ph.service()));
    dock.resize(900, 700);
    dock.show();
    const QString run = startWaitingRun(ph, site);
    QVERIFY2(!run.isEmpty(), "the run does not wait for input");
    QTRY_VERIFY(dock.tileFor(run));
    ui::BrowserTile *tile = dock.tileFor(run);
    // No QtWebEngine view: the chromium page is shown by its screencast frames.
    QVERIFY(!tile->view());
    auto *screen = qobject_cast<ui::ScreencastView *>(tile->pageWidget());
    QVERIFY(screen);
    QTRY_VERIFY_WITH_TIMEOUT(!screen->frame().isNull(), 15000);
    QCOMPARE(screen->frame().size(), QSize(1280, 800));
    QVERIFY(!screen->isEnabled());
    QTRY_VERIFY(tile->takeOver()->isEnabled());
    tile->takeOver()->setChecked(true);
    QVERIFY(screen->isEnabled());
}
