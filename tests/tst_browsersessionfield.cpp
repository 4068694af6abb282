// `browserSession` on /scrape, /agent, /execute and the bridge (cloud/SessionWork): how a
// request names the caller's browser session, how the session is found, and that A2W runs
// and v1 tasks never take one (their readers refuse the field).
#include "a2w/A2wRequest.h"
#include "browser/BrowserLease.h"
#include "browser/LeaseOptions.h"
#include "browser/LiveFrameSource.h"
#include "browser/SessionBrowser.h"
#include "cloud/SessionWork.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"

#include <QJsonDocument>
#include <QWebSocket>
#include <QtTest>

using namespace ph;

namespace {

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

// A session browser that opens no page: what the opener does around it is under test.
class IdleSessionBrowser : public SessionBrowser
{
public:
    int opened = 0;
    void start(std::function<void(const QString &)> ready) override { ready({}); }
    bool isRunning() const override { return true; }
    void attachClient(std::unique_ptr<QWebSocket>) override {}
    int clientCount() const override { return 0; }
    QJsonObject version() const override { return {}; }
    qint64 processId() const override { return 0; }
    void
    openPage(const QString &, QObject *,
             std::function<void(std::unique_ptr<BrowserLease>, const QString &)> granted) override
    {
        ++opened;
        granted(nullptr, QStringLiteral("opened"));
    }
    std::unique_ptr<LiveFrameSource> liveFrames(QObject *) override { return nullptr; }
    void stop(std::function<void()> done) override { done(); }
};

} // namespace

class tst_BrowserSessionField : public QObject
{
    Q_OBJECT
private slots:
    void readsTheField_data();
    void readsTheField();
    void findsOnlyWhatTheLookupGives_data();
    void findsOnlyWhatTheLookupGives();
    void opensPagesWhileTheSessionLives();
    void visitorRunsRefuseTheField_data();
    void visitorRunsRefuseTheField();
};

void tst_BrowserSessionField::readsTheField_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("id");    // read
    QTest::addColumn<QString>("field"); // or the field a 400 names
    QTest::newRow("a request without browserSession works in the pool")
        << QByteArray(R"({"urls":["https://example.test/"]})") << QString() << QString()
        << QString();
    QTest::newRow("a session's id is read")
        << QByteArray(R"({"browserSession":{"id":"bs_4fQ9x2"}})") << QString()
        << QStringLiteral("bs_4fQ9x2") << QString();
    QTest::newRow("chromium named beside a session is its own engine")
        << QByteArray(R"({"browser":{"engine":"chromium"},"browserSession":{"id":"bs_1"}})")
        << QString() << QStringLiteral("bs_1") << QString();
    QTest::newRow("an unknown field inside browserSession is refused by its name")
        << QByteArray(R"({"browserSession":{"id":"bs_1","foo":1}})") << QString() << QString()
        << QStringLiteral("browserSession.foo");
    QTest::newRow("browserSession must be an object, not the bare id")
        << QByteArray(R"({"browserSession":"bs_1"})") << QString() << QString()
        << QStringLiteral("browserSession");
    QTest::newRow("browserSession needs its id")
        << QByteArray(R"({"browserSession":{}})") << QString() << QString()
        << QStringLiteral("browserSession.id");
    QTest::newRow("an id that is no session's is refused before any lookup")
        << QByteArray(R"({"browserSession":{"id":"traj_1"}})") << QString() << QString()
        << QStringLiteral("browserSession.id");
    QTest::newRow("qtwebengine pages cannot work inside a chromium session")
        << QByteArray(R"({"browser":{"engine":"qtwebengine"},"browserSession":{"id":"bs_1"}})")
        << QString() << QString() << QStringLiteral("browser.engine");
    QTest::newRow("under the bridge's params the fields are named as the caller wrote them")
        << QByteArray(R"({"browserSession":{"id":"bs_1","x":true}})") << QStringLiteral("params")
        << QString() << QStringLiteral("params.browserSession.x");
}

void tst_BrowserSessionField::readsTheField()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, prefix);
    QFETCH(QString, id);
    QFETCH(QString, field);
    const JsonFields fields(json(body.constData()), prefix);
    try {
        const LeaseOptions browser = LeaseOptions::read(fields, QStringLiteral("browser"));
        const QString read = cloud::readBrowserSession(fields, browser);
        QVERIFY2(field.isEmpty(), qPrintable(QStringLiteral("read %1").arg(read)));
        QCOMPARE(read, id);
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Invalid);
        QCOMPARE(e.field(), field);
    }
}

void tst_BrowserSessionField::findsOnlyWhatTheLookupGives_data()
{
    QTest::addColumn<int>("lookup"); // 0 unset, 1 finds nothing, 2 throws 409, 3 finds it
    QTest::addColumn<int>("status");
    QTest::newRow("a service without sessions finds none: 404") << 0 << 404;
    QTest::newRow("another key's or an unknown session is not found: 404, never 403") << 1 << 404;
    QTest::newRow("a session that is not active says so: 409") << 2 << 409;
    QTest::newRow("the caller's own active session is found") << 3 << 0;
}

void tst_BrowserSessionField::findsOnlyWhatTheLookupGives()
{
    QFETCH(int, lookup);
    QFETCH(int, status);
    IdleSessionBrowser browser;
    cloud::SessionLookup find;
    if (lookup == 1)
        find = [](const QString &, const QString &) -> SessionBrowser * { return nullptr; };
    else if (lookup == 2)
        find = [](const QString &, const QString &) -> SessionBrowser * {
            throw DomainError(DomainError::Kind::Conflict, QStringLiteral("SESSION_NOT_ACTIVE"),
                              QStringLiteral("the session has ended"));
        };
    else if (lookup == 3)
        find = [&browser](const QString &key, const QString &id) -> SessionBrowser * {
            return key == QLatin1String("key_a") && id == QLatin1String("bs_1") ? &browser
                                                                                : nullptr;
        };
    try {
        SessionBrowser *found =
            cloud::findSessionBrowser(find, QStringLiteral("key_a"), QStringLiteral("bs_1"));
        QCOMPARE(status, 0);
        QCOMPARE(found, &browser);
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(),
                 status == 404 ? DomainError::Kind::NotFound : DomainError::Kind::Conflict);
    }
}

// A run holds its opener for as long as it runs; a session that ended meanwhile answers
// with why instead of a page, and the opener never touches the deleted browser.
void tst_BrowserSessionField::opensPagesWhileTheSessionLives()
{
    auto browser = std::make_unique<IdleSessionBrowser>();
    const engine::SessionPageOpener open = cloud::sessionPageOpener(browser.get());
    QString error;
    open(QStringLiteral("run"), nullptr,
         [&](std::unique_ptr<BrowserLease>, const QString &e) { error = e; });
    QCOMPARE(browser->opened, 1);
    QCOMPARE(error, QStringLiteral("opened"));
    browser.reset();
    error.clear();
    open(QStringLiteral("run"), nullptr,
         [&](std::unique_ptr<BrowserLease>, const QString &e) { error = e; });
    QTRY_COMPARE(error, QStringLiteral("the browser session has ended"));
}

void tst_BrowserSessionField::visitorRunsRefuseTheField_data()
{
    QTest::addColumn<QString>("reader");
    QTest::addColumn<QByteArray>("body");
    QTest::newRow("an A2W run never takes a caller's browser session")
        << QStringLiteral("a2w")
        << QByteArray(R"({"url":"https://shop.test/","prompt":"find a kettle",)"
                      R"("browserSession":{"id":"bs_1"}})");
    QTest::newRow("a v1 task never takes a caller's browser session")
        << QStringLiteral("v1")
        << QByteArray(R"({"url":"https://shop.test/","goal":"find a kettle",)"
                      R"("browserSession":{"id":"bs_1"}})");
}

// A2W runs and v1 tasks act for visitors of a site on its account: their readers refuse the
// field by name. (Runtime runs make their requests themselves and refuse one should it
// appear: runtime/RuntimeRunner.)
void tst_BrowserSessionField::visitorRunsRefuseTheField()
{
    QFETCH(QString, reader);
    QFETCH(QByteArray, body);
    try {
        if (reader == QLatin1String("a2w"))
            (void)a2w::CreateRequest::fromJson(json(body.constData()));
        else
            (void)a2w::CreateRequest::fromV1Json(json(body.constData()));
        QFAIL("the request was accepted");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Invalid);
        QCOMPARE(e.field(), QStringLiteral("browserSession"));
    }
}

QTEST_GUILESS_MAIN(tst_BrowserSessionField)
#include "tst_browsersessionfield.moc"
