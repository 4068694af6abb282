// The pilothouse binary as a user runs it: command line, first-start key, restarts,
// PILOTHOUSE_API_KEY, the XDG data directory and a clean SIGTERM shutdown.
#include "FixtureServer.h"
#include "HttpClient.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace ph::test;

namespace {

struct Running
{
    std::unique_ptr<QProcess> process;
    QString base;
    QString key;
    QByteArray out;
};

QString binary()
{
    return qEnvironmentVariable("PILOTHOUSE_BINARY");
}

// Starts pilothouse and waits for its listening line (and the key line when printed).
Running start(const QStringList &args,
              const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    Running r;
    r.process = std::make_unique<QProcess>();
    r.process->setProcessEnvironment(env);
    r.process->setProcessChannelMode(QProcess::SeparateChannels);
    // Chromium is chatty on stderr; an unread pipe that fills up would stall the child.
    r.process->setStandardErrorFile(qEnvironmentVariable("PH_TEST_STDERR", QProcess::nullDevice()));
    r.process->start(binary(), args);
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 30000 && !r.out.contains("Data directory:")) {
        if (r.process->state() == QProcess::NotRunning)
            break;
        r.process->waitForReadyRead(200);
        r.out += r.process->readAllStandardOutput();
    }
    const auto listen = QRegularExpression(QStringLiteral("Pilothouse listening on (http://\\S+)"))
                            .match(QString::fromUtf8(r.out));
    if (listen.hasMatch())
        r.base = listen.captured(1);
    const auto key =
        QRegularExpression(QStringLiteral("API key: (phk_\\w+)")).match(QString::fromUtf8(r.out));
    if (key.hasMatch())
        r.key = key.captured(1);
    return r;
}

int stop(Running &r)
{
    ::kill(pid_t(r.process->processId()), SIGTERM);
    if (r.process->state() != QProcess::NotRunning && !r.process->waitForFinished(20000)) {
        r.process->kill();
        r.process->waitForFinished();
        return -1;
    }
    return r.process->exitStatus() == QProcess::NormalExit ? r.process->exitCode() : -2;
}

int usageStatus(const QString &base, const QString &key)
{
    HttpClient c(base);
    c.setBearer(key);
    return c.get(QStringLiteral("/usage")).status;
}

} // namespace

class tst_App : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void printsHelp();
    void refusesABadOption_data();
    void refusesABadOption();
    void printsTheAddressAndAKeyOnceOnFirstStart();
    void printsANewKeyWhenAsked();
    void takesTheOwnerKeyFromTheEnvironment();
    void refusesAShortOwnerKeyFromTheEnvironment();
    void keepsDataUnderTheXdgDataDirectory();
    void refusesAPortInUse();
    void shutsDownCleanlyOnSigterm();
    void seedsAnEmptyStoreInDemoMode();
};

void tst_App::initTestCase()
{
    QVERIFY2(QFile::exists(binary()), qPrintable(binary()));
}

void tst_App::printsHelp()
{
    QProcess p;
    p.start(binary(), {QStringLiteral("--help")});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 0);
    const QByteArray out = p.readAllStandardOutput();
    QVERIFY2(out.startsWith("Usage: pilothouse [options]"), out.left(80).constData());
    QVERIFY(!out.contains("executable_name"));
    for (const char *option :
         {"--headless", "--bind", "--port", "--data-dir", "--print-api-key", "--set"})
        QVERIFY2(out.contains(option), option);
}

void tst_App::refusesABadOption_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("refuses an unknown option") << QStringList{"--nope"} << "Unknown option";
    QTest::newRow("refuses a port that is not a number")
        << QStringList{"--headless", "--port", "http"} << "--port";
    QTest::newRow("refuses a bind address that is not an address")
        << QStringList{"--headless", "--bind", "my box"} << "--bind";
    QTest::newRow("refuses an unknown setting")
        << QStringList{"--headless", "--port", "0", "--data-dir", "DATADIR", "--set", "no.such=1"}
        << "unknown setting";
}

void tst_App::refusesABadOption()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QTemporaryDir dir;
    args.replaceInStrings(QStringLiteral("DATADIR"), dir.path());
    QProcess p;
    p.start(binary(), args);
    QVERIFY(p.waitForFinished(20000));
    QVERIFY(p.exitCode() != 0);
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(
        err.contains(message.toUtf8()),
        qPrintable(QStringLiteral("expected '%1' in: %2").arg(message, QString::fromUtf8(err))));
}

void tst_App::printsTheAddressAndAKeyOnceOnFirstStart()
{
    QTemporaryDir dir;
    Running first = start({QStringLiteral("--headless"), QStringLiteral("--port"),
                           QStringLiteral("0"), QStringLiteral("--data-dir"), dir.path()});
    QVERIFY2(first.base.startsWith(QLatin1String("http://127.0.0.1:")), first.out.constData());
    QVERIFY2(!first.key.isEmpty(), first.out.constData());
    QCOMPARE(first.out.count("API key:"), 1);
    QCOMPARE(usageStatus(first.base, first.key), 200);
    QCOMPARE(stop(first), 0);
    // The key is stored hashed: nowhere in the data directory in clear.
    for (const QString &f : QDir(dir.path()).entryList(QDir::Files)) {
        QFile file(dir.filePath(f));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY2(!file.readAll().contains(first.key.toUtf8()), qPrintable(f));
    }

    Running second = start({QStringLiteral("--headless"), QStringLiteral("--port"),
                            QStringLiteral("0"), QStringLiteral("--data-dir"), dir.path()});
    QVERIFY(!second.base.isEmpty());
    QVERIFY2(!second.out.contains("API key:"), second.out.constData());
    QCOMPARE(usageStatus(second.base, first.key), 200);
    QCOMPARE(stop(second), 0);
}

void tst_App::printsANewKeyWhenAsked()
{
    QTemporaryDir dir;
    Running first = start({QStringLiteral("--headless"), QStringLiteral("--port"),
                           QStringLiteral("0"), QStringLiteral("--data-dir"), dir.path()});
    QCOMPARE(stop(first), 0);
    Running again =
        start({QStringLiteral("--headless"), QStringLiteral("--port"), QStringLiteral("0"),
               QStringLiteral("--data-dir"), dir.path(), QStringLiteral("--print-api-key")});
    QVERIFY(!again.key.isEmpty());
    QVERIFY(again.key != first.key);
    QCOMPARE(usageStatus(again.base, again.key), 200);
    QCOMPARE(usageStatus(again.base, first.key), 200);
    QCOMPARE(stop(again), 0);
}

void tst_App::takesTheOwnerKeyFromTheEnvironment()
{
    QTemporaryDir dir;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PILOTHOUSE_API_KEY"), QStringLiteral("my-chosen-owner-key-123"));
    Running r = start({QStringLiteral("--headless"), QStringLiteral("--port"), QStringLiteral("0"),
                       QStringLiteral("--data-dir"), dir.path()},
                      env);
    QVERIFY(!r.base.isEmpty());
    QVERIFY(!r.out.contains("my-chosen-owner-key-123")); // not echoed
    QVERIFY(r.out.contains("PILOTHOUSE_API_KEY"));
    QCOMPARE(usageStatus(r.base, QStringLiteral("my-chosen-owner-key-123")), 200);
    HttpClient c(r.base);
    c.setBearer(QStringLiteral("my-chosen-owner-key-123"));
    const auto keys = c.get(QStringLiteral("/keys"));
    QCOMPARE(keys.status, 200); // it is the owner's key
    // Its display prefix gives away 4 characters of the chosen secret, no more.
    QVERIFY(!keys.body.contains("my-ch"));
    QVERIFY2(keys.body.contains("\"my-c"), keys.body.constData());
    QCOMPARE(stop(r), 0);
}

void tst_App::refusesAShortOwnerKeyFromTheEnvironment()
{
    QTemporaryDir dir;
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PILOTHOUSE_API_KEY"), QStringLiteral("short"));
    p.setProcessEnvironment(env);
    p.start(binary(), {QStringLiteral("--headless"), QStringLiteral("--port"), QStringLiteral("0"),
                       QStringLiteral("--data-dir"), dir.path()});
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 1);
    QVERIFY(p.readAllStandardError().contains("at least 16 characters"));
}

void tst_App::keepsDataUnderTheXdgDataDirectory()
{
    QTemporaryDir xdg;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), xdg.path());
    Running r =
        start({QStringLiteral("--headless"), QStringLiteral("--port"), QStringLiteral("0")}, env);
    QVERIFY(!r.base.isEmpty());
    QCOMPARE(stop(r), 0);
    QVERIFY(QFile::exists(xdg.filePath(QStringLiteral("pilothouse/pilothouse.db"))));
    QVERIFY(QFile::exists(xdg.filePath(QStringLiteral("pilothouse/secrets.key"))));
}

void tst_App::refusesAPortInUse()
{
    QTemporaryDir a, b;
    Running first = start({QStringLiteral("--headless"), QStringLiteral("--port"),
                           QStringLiteral("0"), QStringLiteral("--data-dir"), a.path()});
    const QString port = first.base.section(QLatin1Char(':'), -1);
    QProcess second;
    second.start(binary(), {QStringLiteral("--headless"), QStringLiteral("--port"), port,
                            QStringLiteral("--data-dir"), b.path()});
    QVERIFY(second.waitForFinished(20000));
    QCOMPARE(second.exitCode(), 1);
    QVERIFY(second.readAllStandardError().contains("cannot listen"));
    QCOMPARE(stop(first), 0);
}

void tst_App::shutsDownCleanlyOnSigterm()
{
    FixtureServer site;
    QVERIFY(site.start());
    site.route("/slow", [](const FixtureRequest &) {
        auto r = FixtureResponse::html("<!doctype html><title>slow</title><p>slow</p>");
        r.delayMs = 1500;
        return r;
    });
    QTemporaryDir dir;
    Running r = start({QStringLiteral("--headless"), QStringLiteral("--port"), QStringLiteral("0"),
                       QStringLiteral("--data-dir"), dir.path()});
    QVERIFY(!r.base.isEmpty());
    // A request in flight when SIGTERM arrives is answered, not dropped.
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(r.base + QStringLiteral("/scrape")));
    request.setRawHeader("Authorization", "Bearer " + r.key.toUtf8());
    QNetworkReply *reply = nam.post(
        request, QJsonDocument(QJsonObject{{QStringLiteral("urls"),
                                            QJsonArray{site.url(QStringLiteral("/slow"))}}})
                     .toJson());
    QTRY_COMPARE_WITH_TIMEOUT(site.hits("/slow"), 1, 15000);
    ::kill(pid_t(r.process->processId()), SIGTERM);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 15000);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    QVERIFY2(status == 200 || status == 503, qPrintable(QString::number(status)));
    // waitForFinished() is false for a process that already ended during the wait above.
    QVERIFY(r.process->state() == QProcess::NotRunning || r.process->waitForFinished(15000));
    QCOMPARE(r.process->exitStatus(), QProcess::NormalExit);
    QCOMPARE(r.process->exitCode(), 0);
    // The store was closed: its write-ahead log folded back into the database.
    QFile wal(dir.filePath(QStringLiteral("pilothouse.db-wal")));
    QVERIFY(!wal.exists() || wal.size() == 0);
    reply->deleteLater();
}

void tst_App::seedsAnEmptyStoreInDemoMode()
{
    QTemporaryDir dir;
    Running r =
        start({QStringLiteral("--headless"), QStringLiteral("--demo"), QStringLiteral("--port"),
               QStringLiteral("0"), QStringLiteral("--data-dir"), dir.path()});
    QVERIFY2(!r.base.isEmpty() && !r.key.isEmpty(), r.out.constData());
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 90000 && !r.out.contains("Demo: seeded")) {
        r.process->waitForReadyRead(200);
        r.out += r.process->readAllStandardOutput();
    }
    QVERIFY2(r.out.contains("Demo: seeded"), r.out.constData());
    HttpClient c(r.base);
    c.setBearer(r.key);
    QStringList statuses;
    for (const auto &v :
         c.get(QStringLiteral("/recordings")).json().value(QStringLiteral("recordings")).toArray())
        statuses << v.toObject().value(QStringLiteral("status")).toString();
    for (const char *s : {"success", "error", "requires_input", "cancelled", "executing"})
        QVERIFY2(statuses.contains(QLatin1String(s)), qPrintable(statuses.join(u',')));
    QStringList deliveries;
    for (const auto &v : c.get(QStringLiteral("/webhooks/deliveries"))
                             .json()
                             .value(QStringLiteral("deliveries"))
                             .toArray())
        deliveries << v.toObject().value(QStringLiteral("status")).toString();
    QVERIFY2(deliveries.contains(QStringLiteral("delivered")) &&
                 deliveries.contains(QStringLiteral("failed")),
             qPrintable(deliveries.join(u',')));
    QVERIFY(c.get(QStringLiteral("/tools/shop_prices")).status == 200);
    QCOMPARE(c.get(QStringLiteral("/triggers"))
                 .json()
                 .value(QStringLiteral("triggers"))
                 .toArray()
                 .size(),
             1);
    // The demo shop is served by Pilothouse itself, without a key.
    HttpClient anyone(r.base);
    QVERIFY(anyone.get(QStringLiteral("/demo/shop.html")).body.contains("Harbour Supplies"));
    QCOMPARE(stop(r), 0);
    // A second start does not seed again.
    Running again =
        start({QStringLiteral("--headless"), QStringLiteral("--demo"), QStringLiteral("--port"),
               QStringLiteral("0"), QStringLiteral("--data-dir"), dir.path()});
    QElapsedTimer wait;
    wait.start();
    while (wait.elapsed() < 5000 && !again.out.contains("Demo:")) {
        again.process->waitForReadyRead(200);
        again.out += again.process->readAllStandardOutput();
    }
    QVERIFY2(again.out.contains("Demo: the demo shop is at"), again.out.constData());
    QCOMPARE(stop(again), 0);
}

QTEST_GUILESS_MAIN(tst_App)
#include "tst_app.moc"
