// Browser sessions in the console's live browser views (issue 30), against the real
// service with a session browser that only pretends (no chromium): a session started
// through the service shows a tile with its id, key, profile, expiry and clients; the
// tile goes when the session ends, however it ends; Release (confirmed) ends it through
// the service; Take over hands the operator's click to the session's page.
#include "ModalAnswer.h"
#include "PretendSessions.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/ApiKeyService.h"
#include "sessions/SessionService.h"

#include "browserviews/BrowserViewsDock.h"
#include "browserviews/ScreencastView.h"
#include "browserviews/SessionTile.h"

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>

using namespace ph;
using namespace ph::test;

class tst_SessionTiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void aStartedSessionShowsATile();
    void aSessionsEndRemovesItsTile_data();
    void aSessionsEndRemovesItsTile();
    void releaseEndsTheSessionThroughTheService_data();
    void releaseEndsTheSessionThroughTheService();
    void takeOverDeliversTheOperatorsClickToThePage();

private:
    QString start(const QString &profile = {});

    sessions::SessionService &sessions() { return m_sessions->service; }

    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<PretendSessions> m_sessions;
    std::unique_ptr<ui::BrowserViewsDock> m_dock;
    std::shared_ptr<QList<LiveInput>> m_inputs;
    Principal m_shopBot;
};

void tst_SessionTiles::init()
{
    m_inputs = std::make_shared<QList<LiveInput>>();
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_sessions = std::make_unique<PretendSessions>(*m_ph, m_inputs);
    ApiKeyService::NewKey shopBot;
    shopBot.label = QStringLiteral("shop bot");
    const auto minted = m_ph->service().keyService().mint(shopBot);
    m_shopBot.kind = Principal::Kind::ApiKey;
    m_shopBot.keyId = minted.key.id;
    m_shopBot.label = minted.key.label;
    m_dock = std::make_unique<ui::BrowserViewsDock>(m_sessions->console);
    m_dock->resize(900, 700);
    m_dock->show();
}

void tst_SessionTiles::cleanup()
{
    m_dock.reset();
    m_sessions.reset();
    m_ph.reset();
}

// A session of the shop bot's key, started through the service; its id.
QString tst_SessionTiles::start(const QString &profile)
{
    sessions::CreateSessionRequest request;
    request.profile = profile;
    return sessions().create(m_shopBot, request).id;
}

void tst_SessionTiles::aStartedSessionShowsATile()
{
    QCOMPARE(m_dock->sessionTiles().size(), 0);
    const QString id = start(QStringLiteral("shop"));
    QTRY_VERIFY(m_dock->sessionTileFor(id));
    ui::SessionTile *tile = m_dock->sessionTileFor(id);
    QTRY_COMPARE(tile->info().status, QStringLiteral("active"));
    const QString caption = tile->caption()->text();
    for (const QString &says :
         {id, QStringLiteral("shop bot"), QStringLiteral("shop"), QStringLiteral("expires in"),
          QStringLiteral("clients connected: 0")})
        QVERIFY2(caption.contains(says), qPrintable(says + QStringLiteral(" in ") + caption));
    // Its page, live, watched only until the operator takes over.
    QTRY_VERIFY(tile->screen()->hasSource());
    QTRY_VERIFY(!tile->screen()->frame().isNull());
    QVERIFY(!tile->screen()->isEnabled());
    QVERIFY(!tile->releaseButton()->accessibleName().isEmpty());
}

void tst_SessionTiles::aSessionsEndRemovesItsTile_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("a session released by its key loses its tile") << QStringLiteral("release");
    QTest::newRow("a session whose browser crashed loses its tile") << QStringLiteral("crash");
}

void tst_SessionTiles::aSessionsEndRemovesItsTile()
{
    QFETCH(QString, how);
    const QString id = start();
    const QString other = start();
    QTRY_VERIFY(m_dock->sessionTileFor(id));
    QTRY_VERIFY(m_dock->sessionTileFor(other));
    if (how == QLatin1String("release")) {
        sessions().release(m_shopBot, id);
    } else {
        QCOMPARE(m_sessions->browsers.size(), 2);
        m_sessions->browsers.first()->crash();
    }
    QTRY_VERIFY(!m_dock->sessionTileFor(id));
    // The other session keeps its tile.
    QVERIFY(m_dock->sessionTileFor(other));
}

void tst_SessionTiles::releaseEndsTheSessionThroughTheService_data()
{
    QTest::addColumn<bool>("confirm");
    QTest::addColumn<QString>("status");
    QTest::newRow("a confirmed release ends the session as released")
        << true << QStringLiteral("released");
    QTest::newRow("a cancelled release leaves the session running")
        << false << QStringLiteral("active");
}

void tst_SessionTiles::releaseEndsTheSessionThroughTheService()
{
    QFETCH(bool, confirm);
    QFETCH(QString, status);
    const QString id = start();
    QTRY_VERIFY(m_dock->sessionTileFor(id));
    ui::SessionTile *tile = m_dock->sessionTileFor(id);
    QTRY_COMPARE(tile->info().status, QStringLiteral("active"));
    answerConfirmation(this, QStringLiteral("confirmReleaseSession"), confirm);
    QCOMPARE(tile->release(), confirm);
    const auto statusOf = [&] {
        const auto found = sessions().find(m_shopBot, id);
        return found ? found->status : QString();
    };
    QTRY_COMPARE(statusOf(), status);
    QCOMPARE(m_dock->sessionTileFor(id) == nullptr, confirm);
}

void tst_SessionTiles::takeOverDeliversTheOperatorsClickToThePage()
{
    const QString id = start();
    QTRY_VERIFY(m_dock->sessionTileFor(id));
    ui::SessionTile *tile = m_dock->sessionTileFor(id);
    QTRY_VERIFY(!tile->screen()->frame().isNull());
    ui::ScreencastView *screen = tile->screen();
    const QPoint middle = screen->rect().center();
    // Watching: a click goes nowhere (the view is disabled; input is handed on at once).
    QTest::mouseClick(screen, Qt::LeftButton, Qt::NoModifier, middle);
    QCOMPARE(m_inputs->size(), 0);
    tile->takeOver()->setChecked(true);
    QVERIFY(screen->isEnabled());
    QTest::mouseClick(screen, Qt::LeftButton, Qt::NoModifier, middle);
    QCOMPARE(m_inputs->size(), 1);
    QCOMPARE(m_inputs->first().kind, LiveInput::Kind::Click);
    // The middle of the view is the middle of the page.
    QVERIFY(qAbs(m_inputs->first().at.x() - 640) < 10);
    QVERIFY(qAbs(m_inputs->first().at.y() - 400) < 10);
    tile->takeOver()->setChecked(false);
    QVERIFY(!screen->isEnabled());
}

PH_WIDGETS_TEST_MAIN(tst_SessionTiles)
#include "tst_sessiontiles.moc"
