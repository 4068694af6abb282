// The browser runtime /v2/runtime (docs/api/runtime.md) through the real service, over
// HTTP on loopback, with an injected clock for token lifetimes: bootstrap and refresh,
// the auth errors, strict epoch/seq, idempotent retries, one active run per session,
// run control, tab decisions, the stream and its polling fallback, checkpoints,
// telemetry, the visitor's context, external context, the analytics beacon and CORS.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "a2w/A2wService.h"
#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "core/Clock.h"
#include "core/Store.h"
#include "runtime/RuntimeService.h"
#include "sites/AnalyticsNotifications.h"

#include <QDateTime>
#include <QFile>
#include <QMessageAuthenticationCode>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

using namespace ph;
using namespace ph::test;

namespace {

// Reads a text/event-stream as it arrives.
class SseReader : public QObject
{
public:
    struct Item
    {
        QString type;
        QString id;
        QJsonObject data;
    };
    explicit SseReader(const QString &url)
    {
        QNetworkRequest req{QUrl(url)};
        req.setRawHeader("Accept", "text/event-stream");
        m_reply = m_nam.get(req);
        connect(m_reply, &QNetworkReply::readyRead, this, [this] {
            m_buffer += m_reply->readAll();
            int end;
            while ((end = int(m_buffer.indexOf("\n\n"))) >= 0) {
                const QByteArray block = m_buffer.left(end);
                m_buffer.remove(0, end + 2);
                Item item;
                for (const QByteArray &line : block.split('\n')) {
                    if (line.startsWith("event: "))
                        item.type = QString::fromUtf8(line.mid(7));
                    else if (line.startsWith("id: "))
                        item.id = QString::fromUtf8(line.mid(4));
                    else if (line.startsWith("data: "))
                        item.data = QJsonDocument::fromJson(line.mid(6)).object();
                }
                if (!item.type.isEmpty())
                    items.append(item);
            }
        });
    }
    ~SseReader() override
    {
        if (m_reply) {
            m_reply->abort();
            m_reply->deleteLater();
        }
    }
    int status() const
    {
        return m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    }
    // Waits until an item satisfies `match`.
    bool waitFor(const std::function<bool(const Item &)> &match, int timeoutMs = 5000)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            for (const Item &i : std::as_const(items))
                if (match(i))
                    return true;
            QTest::qWait(20);
        }
        return false;
    }
    // Every event seq carried in projections so far.
    QList<qint64> seqs() const
    {
        QList<qint64> out;
        for (const Item &i : items)
            if (i.type == QLatin1String("projection"))
                for (const QJsonValue &e : i.data.value(QStringLiteral("events")).toArray())
                    out << e.toObject().value(QStringLiteral("seq")).toInteger();
        return out;
    }
    QList<Item> items;

private:
    QNetworkAccessManager m_nam;
    QNetworkReply *m_reply = nullptr;
    QByteArray m_buffer;
};

QJsonObject dataOf(const HttpResponse &r)
{
    return r.json().value(QStringLiteral("data")).toObject();
}

QString codeOf(const HttpResponse &r)
{
    return dataOf(r).value(QStringLiteral("code")).toString();
}

// A checkpoint whose payload is about `bytes` long as JSON.
QJsonObject checkpointOf(qint64 bytes, qint64 seq)
{
    return {{QStringLiteral("payload"),
             QJsonObject{{QStringLiteral("dom"), QString(bytes - 10, QLatin1Char('x'))}}},
            {QStringLiteral("version"), 1},
            {QStringLiteral("seq"), seq}};
}

} // namespace

class tst_Runtime : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void opensASessionWithThePublicKey();
    void refusesABootstrap_data();
    void refusesABootstrap();
    void startsANewSessionOnEveryBootstrap();
    void refreshesWithTheSessionToken();
    void answersAuthErrors_data();
    void answersAuthErrors();
    void keepsTokensHashedAtRest();
    void rejectsStaleOrMissingEpochAndSeq_data();
    void rejectsStaleOrMissingEpochAndSeq();
    void answersARetryWithTheSameAnswer();
    void keepsOneActiveRunPerSession();
    void routesAutoRunsByTheTask_data();
    void routesAutoRunsByTheTask();
    void controlsTheActiveRun_data();
    void controlsTheActiveRun();
    void continuesARunAwaitingTheVisitor();
    void decidesTabEvents_data();
    void decidesTabEvents();
    void answersAStaleRunTabEvent();
    void streamsProjectionsAsTheSessionMoves();
    void resumesTheStreamAfterSeqAfter();
    void tellsAStreamThatIsAheadOfItsSession();
    void refusesAStreamWithoutAValidTicket();
    void pollsTheStateAsAFallback();
    void keepsCheckpoints();
    void truncatesTelemetry();
    void sanitizesTheVisitorContext();
    void exchangesAContextTokenOnce();
    void decidesExternalContext_data();
    void decidesExternalContext();
    void recordsGoalsThroughTheSignedBeacon();
    void answersCrossOriginPreflights();
    void refusesAnUnknownA2wReceipt();
    void asksTheVisitorBeforeAnA2wRunActs_data();
    void asksTheVisitorBeforeAnA2wRunActs();
    void sendsAClaimedRunsResultOnlyAsTheVisitorShares_data();
    void sendsAClaimedRunsResultOnlyAsTheVisitorShares();
    void sendsTheOwnersAnalyticsNotifications();
    void letsTheSitesServerMintBootstrapAndContextTokens();
    void exchangesAContextTokenOnTheBootstrapOpen();
    void actsOnAnExternalPageInTheCloudBrowser();
    void opensEachRouteWithItsOwnCredentialOnly_data();
    void opensEachRouteWithItsOwnCredentialOnly();
    // Quotas for what visitors store (docs/security.md); they move the clock: last.
    void replacesTheCheckpointInsteadOfPilingUpObjects();
    void refusesACheckpointOverAStorageQuota_data();
    void refusesACheckpointOverAStorageQuota();
    void refusesTelemetryOverTheSessionsQuota();
    void purgesTelemetryAfterItsRetention();
    void limitsSessionOpensPerClientAndSite_data();
    void limitsSessionOpensPerClientAndSite();

private:
    struct Opened
    {
        QString sessionId;
        QString token;
        QString stream;
        QJsonObject data;
    };
    Opened openSession(const QString &url = QStringLiteral("https://shop.example/cart"));
    // A site of its own (its id and public key) on `domain`, for tests that count per site.
    std::pair<QString, QString> newSite(const QString &domain);
    Opened openOn(const std::pair<QString, QString> &site, const QString &url);
    // session/open from the client at `local` (a loopback address of its own).
    HttpResponse openFrom(const QString &local, const std::pair<QString, QString> &site,
                          const QString &url);

    HttpResponse call(const QString &path, const Opened &s, QJsonObject body);
    // A command with the session's current epoch and seq (read from /state).
    HttpResponse command(const Opened &s, QJsonObject body);
    QJsonObject state(const Opened &s);
    QString nextEventId() { return QStringLiteral("evt-%1").arg(++m_events); }
    // An anonymous A2W browser run on the shop, waiting for a browser: {id, receipt}.
    std::pair<QString, QString> browserRun(const QString &prompt);

    void setPrivateHosts(const QStringList &hosts)
    {
        const HttpResponse r = m_ph->client().post(
            QStringLiteral("/updateSitePrivateHosts"),
            {{QStringLiteral("siteId"), m_siteId},
             {QStringLiteral("privateHosts"), QJsonArray::fromStringList(hosts)}});
        QCOMPARE(r.status, 200);
    }
    // The store's database file and its write-ahead log, as bytes on disk (empty when the
    // file cannot be read): what a secret must never appear in.
    QByteArray storedBytes() const
    {
        QByteArray bytes;
        for (const QString &suffix : {QString(), QStringLiteral("-wal")}) {
            QFile f(m_ph->dataDir() + QStringLiteral("/pilothouse.db") + suffix);
            if (f.open(QIODevice::ReadOnly))
                bytes += f.readAll();
        }
        return bytes;
    }

    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<TestService> m_ph;
    QString m_siteId;
    QString m_publicKey;
    QString m_keyId;
    QString m_otherSiteId;
    int m_events = 0;
};

void tst_Runtime::initTestCase()
{
    m_clock = std::make_unique<ManualClock>(QDateTime::currentMSecsSinceEpoch());
    m_ph = std::make_unique<TestService>(
        QStringList{QStringLiteral("runtime.snapshotInlineBytes=1024"),
                    QStringLiteral("runtime.telemetryMaxEvents=5"),
                    QStringLiteral("runtime.telemetryMaxEventBytes=200"),
                    QStringLiteral("runtime.streamPingMs=200"),
                    // The protocol alone: no engine moves the runs (tst_embed runs them).
                    QStringLiteral("runtime.executeRuns=false")},
        QString(), m_clock.get());
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    HttpClient owner = m_ph->client();
    HttpResponse r =
        owner.post(QStringLiteral("/generateSiteKey"),
                   {{QStringLiteral("siteName"), QStringLiteral("Shop")},
                    {QStringLiteral("label"), QStringLiteral("embed")},
                    {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("shop.example")}},
                    {QStringLiteral("capabilities"),
                     QJsonObject{{QStringLiteral("externalWebContextScrape"), true}}},
                    {QStringLiteral("sitePolicy"),
                     QJsonObject{{QStringLiteral("externalDenyDomains"),
                                  QJsonArray{QStringLiteral("evil.test")}},
                                 {QStringLiteral("externalAllowDomains"),
                                  QJsonArray{QStringLiteral("partner.test")}}}}});
    QCOMPARE(r.status, 201);
    m_siteId = r.json().value(QStringLiteral("siteId")).toString();
    m_publicKey = r.json()[QStringLiteral("key")][QStringLiteral("publicKey")].toString();
    m_keyId = r.json()[QStringLiteral("key")][QStringLiteral("keyId")].toString();
    QVERIFY(m_publicKey.startsWith(QLatin1String("pk_site_")));
    r = owner.post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Other")},
         {QStringLiteral("label"), QStringLiteral("embed")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("other.example")}}});
    QCOMPARE(r.status, 201);
    m_otherSiteId = r.json().value(QStringLiteral("siteId")).toString();
    m_ph->allowBrowserHandoffs(); // off by default; A2W browser runs are claimed here
}

void tst_Runtime::cleanupTestCase()
{
    m_ph.reset();
}

tst_Runtime::Opened tst_Runtime::openSession(const QString &url)
{
    HttpClient c(m_ph->base());
    const HttpResponse r = c.post(QStringLiteral("/v2/runtime/session/open"),
                                  {{QStringLiteral("siteId"), m_siteId},
                                   {QStringLiteral("url"), url},
                                   {QStringLiteral("publicKey"), m_publicKey}});
    r.expectStatus({200}, __FILE__, __LINE__);
    Opened o;
    o.data = dataOf(r);
    o.sessionId = o.data.value(QStringLiteral("sessionId")).toString();
    o.token = o.data.value(QStringLiteral("sessionToken")).toString();
    o.stream = o.data.value(QStringLiteral("streamToken")).toString();
    return o;
}

HttpResponse tst_Runtime::call(const QString &path, const Opened &s, QJsonObject body)
{
    HttpClient c(m_ph->base());
    c.setBearer(s.token);
    if (!body.contains(QStringLiteral("sessionId")))
        body.insert(QStringLiteral("sessionId"), s.sessionId);
    return c.post(path, body);
}

QJsonObject tst_Runtime::state(const Opened &s)
{
    return dataOf(call(QStringLiteral("/v2/runtime/state"), s, {}));
}

HttpResponse tst_Runtime::command(const Opened &s, QJsonObject body)
{
    const QJsonObject st = state(s);
    if (!body.contains(QStringLiteral("expectedEpoch")))
        body.insert(QStringLiteral("expectedEpoch"), st.value(QStringLiteral("epoch")));
    if (!body.contains(QStringLiteral("expectedSeq")))
        body.insert(QStringLiteral("expectedSeq"), st.value(QStringLiteral("seq")));
    if (!body.contains(QStringLiteral("clientEventId")))
        body.insert(QStringLiteral("clientEventId"), nextEventId());
    return call(QStringLiteral("/v2/runtime/command"), s, body);
}

void tst_Runtime::opensASessionWithThePublicKey()
{
    const Opened s = openSession();
    const QJsonObject d = s.data;
    QVERIFY2(s.sessionId.startsWith(QLatin1String("rts_")), qPrintable(s.sessionId));
    QVERIFY(s.token.startsWith(QLatin1String("sess_")));
    QVERIFY(s.stream.startsWith(QLatin1String("stream_")));
    // About ten minutes.
    QCOMPARE(d.value(QStringLiteral("sessionTokenExpiresAt")).toInteger(),
             m_clock->nowMs() + 600 * 1000);
    QCOMPARE(d.value(QStringLiteral("epoch")).toInt(), 1);
    for (const char *field : {"capabilities", "policy", "projection", "siteConfig", "sseUrl"})
        QVERIFY2(d.contains(QLatin1String(field)), field);
    const QJsonObject policy = d.value(QStringLiteral("policy")).toObject();
    QCOMPARE(policy.value(QStringLiteral("domainScopeMode")).toString(),
             QStringLiteral("registrable_domain"));
    QCOMPARE(policy.value(QStringLiteral("externalDenyDomains")).toArray().first().toString(),
             QStringLiteral("evil.test"));
    QVERIFY(policy.contains(QStringLiteral("cloudSandboxEnabled")));
    QVERIFY(
        d.value(QStringLiteral("capabilities")).toObject().value(QStringLiteral("embed")).toBool());
    QVERIFY(d.value(QStringLiteral("sseUrl"))
                .toString()
                .contains(QStringLiteral("/v2/runtime/stream?streamTicket=") + s.stream));
    QVERIFY(
        d.value(QStringLiteral("siteConfig")).toObject().contains(QStringLiteral("pageConfig")));
    const QJsonObject p = d.value(QStringLiteral("projection")).toObject();
    QCOMPARE(p.value(QStringLiteral("sessionId")).toString(), s.sessionId);
    QCOMPARE(p.value(QStringLiteral("events")).toArray().first()[QStringLiteral("type")].toString(),
             QStringLiteral("session.opened"));
    const QJsonObject ts =
        p.value(QStringLiteral("events")).toArray().first()[QStringLiteral("ts")].toObject();
    QVERIFY(ts.contains(QStringLiteral("_seconds")) && ts.contains(QStringLiteral("_nanoseconds")));
}

void tst_Runtime::refusesABootstrap_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    const QString site = QStringLiteral("{site}");
    const QString key = QStringLiteral("{key}");
    QTest::newRow("no public key and no session token needs a bootstrap")
        << QJsonObject{{"siteId", site}, {"host", "shop.example"}} << 401 << "BOOTSTRAP_REQUIRED"
        << "";
    QTest::newRow("an unknown public key needs a bootstrap")
        << QJsonObject{{"siteId", site}, {"host", "shop.example"}, {"publicKey", "pk_site_nope"}}
        << 401 << "BOOTSTRAP_REQUIRED"
        << "";
    QTest::newRow("a secret site key is refused and never used")
        << QJsonObject{{"siteId", site}, {"host", "shop.example"}, {"publicKey", "sk_site_x"}}
        << 400 << "INVALID_FIELD"
        << "publicKey";
    QTest::newRow("a host outside the key's allowed domains is refused")
        << QJsonObject{{"siteId", site}, {"host", "elsewhere.test"}, {"publicKey", key}} << 403
        << "DOMAIN_NOT_ALLOWED"
        << "host";
    QTest::newRow("a url outside the key's allowed domains is refused")
        << QJsonObject{{"siteId", site},
                       {"url", "https://shop.example.evil.test/"},
                       {"publicKey", key}}
        << 403 << "DOMAIN_NOT_ALLOWED"
        << "url";
    QTest::newRow("the key of another site is refused")
        << QJsonObject{{"siteId", "{other}"}, {"host", "shop.example"}, {"publicKey", key}} << 403
        << "SITE_KEY_MISMATCH"
        << "siteId";
    QTest::newRow("a bootstrap without host or url names host")
        << QJsonObject{{"siteId", site}, {"publicKey", key}} << 400 << "MISSING_FIELD"
        << "host";
    QTest::newRow("a bootstrap without siteId names it")
        << QJsonObject{{"host", "shop.example"}, {"publicKey", key}} << 400 << "MISSING_FIELD"
        << "siteId";
    QTest::newRow("a file url is refused")
        << QJsonObject{{"siteId", site}, {"url", "file:///etc/passwd"}, {"publicKey", key}} << 400
        << "INVALID_FIELD"
        << "url";
    QTest::newRow("a bootstrap token this server never issued needs a bootstrap")
        << QJsonObject{{"siteId", site}, {"host", "shop.example"}, {"bootstrapToken", "bt_1"}}
        << 401 << "BOOTSTRAP_REQUIRED"
        << "";
}

void tst_Runtime::refusesABootstrap()
{
    QFETCH(QJsonObject, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, field);
    for (auto it = body.begin(); it != body.end(); ++it) {
        if (it.value() == QLatin1String("{site}"))
            it.value() = m_siteId;
        else if (it.value() == QLatin1String("{other}"))
            it.value() = m_otherSiteId;
        else if (it.value() == QLatin1String("{key}"))
            it.value() = m_publicKey;
    }
    HttpClient c(m_ph->base());
    const HttpResponse r = c.post(QStringLiteral("/v2/runtime/session/open"), body);
    QCOMPARE(r.status, status);
    QCOMPARE(r.json().value(QStringLiteral("success")).toBool(true), false);
    QCOMPARE(codeOf(r), code);
    QVERIFY(!r.json().value(QStringLiteral("error")).toString().isEmpty());
    if (!field.isEmpty())
        QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), field);
    if (code == QLatin1String("BOOTSTRAP_REQUIRED")) {
        QCOMPARE(dataOf(r).value(QStringLiteral("retryable")).toBool(true), false);
        QVERIFY(dataOf(r)
                    .value(QStringLiteral("next_action"))
                    .toString()
                    .contains(QStringLiteral("pk_site_")));
    }
    // A secret key is never echoed back.
    QVERIFY(!r.body.contains("sk_site_x"));
}

void tst_Runtime::startsANewSessionOnEveryBootstrap()
{
    HttpClient c(m_ph->base());
    QStringList ids;
    for (int i = 0; i < 2; ++i) {
        const HttpResponse r = c.post(QStringLiteral("/v2/runtime/session/open"),
                                      {{QStringLiteral("siteId"), m_siteId},
                                       {QStringLiteral("host"), QStringLiteral("shop.example")},
                                       {QStringLiteral("sessionId"), QStringLiteral("rts_chosen")},
                                       {QStringLiteral("publicKey"), m_publicKey}});
        QCOMPARE(r.status, 200);
        ids << dataOf(r).value(QStringLiteral("sessionId")).toString();
    }
    QVERIFY(!ids.contains(QStringLiteral("rts_chosen")));
    QVERIFY(ids.at(0) != ids.at(1));
}

void tst_Runtime::refreshesWithTheSessionToken()
{
    const Opened s = openSession();
    m_clock->advance(500 * 1000);
    HttpClient c(m_ph->base());
    HttpResponse r = c.post(QStringLiteral("/v2/runtime/session/open"),
                            {{QStringLiteral("sessionToken"), s.token}});
    QCOMPARE(r.status, 200);
    QCOMPARE(dataOf(r).value(QStringLiteral("sessionId")).toString(), s.sessionId);
    QVERIFY(dataOf(r).value(QStringLiteral("refreshed")).toBool());
    const QString fresh = dataOf(r).value(QStringLiteral("sessionToken")).toString();
    QVERIFY(fresh != s.token);
    // The old token runs out at its own time; the new one lives on.
    m_clock->advance(200 * 1000);
    Opened renewed = s;
    renewed.token = fresh;
    QCOMPARE(call(QStringLiteral("/v2/runtime/state"), renewed, {}).status, 200);
    QCOMPARE(codeOf(call(QStringLiteral("/v2/runtime/state"), s, {})),
             QStringLiteral("SESSION_TOKEN_EXPIRED"));
    // An expired token with the public key falls back to a bootstrap: a new session.
    r = c.post(QStringLiteral("/v2/runtime/session/open"),
               {{QStringLiteral("sessionToken"), s.token},
                {QStringLiteral("siteId"), m_siteId},
                {QStringLiteral("host"), QStringLiteral("shop.example")},
                {QStringLiteral("publicKey"), m_publicKey}});
    QCOMPARE(r.status, 200);
    QVERIFY(dataOf(r).value(QStringLiteral("sessionId")).toString() != s.sessionId);
    // An expired token alone: expired, retryable, re-bootstrap.
    r = c.post(QStringLiteral("/v2/runtime/session/open"),
               {{QStringLiteral("sessionToken"), s.token}});
    QCOMPARE(r.status, 401);
    QCOMPARE(codeOf(r), QStringLiteral("SESSION_TOKEN_EXPIRED"));
}

void tst_Runtime::answersAuthErrors_data()
{
    QTest::addColumn<QString>("which");
    QTest::addColumn<QString>("code");
    QTest::addColumn<bool>("retryable");
    QTest::newRow("a call without a session token is invalid") << "none"
                                                               << "SESSION_TOKEN_INVALID" << false;
    QTest::newRow("a made-up token is invalid") << "garbage"
                                                << "SESSION_TOKEN_INVALID" << false;
    QTest::newRow("an expired token is expired and retryable") << "expired"
                                                               << "SESSION_TOKEN_EXPIRED" << true;
    QTest::newRow("a stream ticket is not a session token") << "stream"
                                                            << "SESSION_TOKEN_INVALID" << false;
    QTest::newRow("a token of another session is invalid for this one")
        << "other"
        << "SESSION_TOKEN_INVALID" << false;
}

void tst_Runtime::answersAuthErrors()
{
    QFETCH(QString, which);
    QFETCH(QString, code);
    QFETCH(bool, retryable);
    Opened s = openSession();
    const Opened other = openSession();
    if (which == QLatin1String("none"))
        s.token.clear();
    else if (which == QLatin1String("garbage"))
        s.token = QStringLiteral("sess_madeup");
    else if (which == QLatin1String("stream"))
        s.token = s.stream;
    else if (which == QLatin1String("other"))
        s.token = other.token;
    else if (which == QLatin1String("expired"))
        m_clock->advance(601 * 1000);
    const HttpResponse r = call(QStringLiteral("/v2/runtime/state"), s, {});
    QCOMPARE(r.status, 401);
    QCOMPARE(codeOf(r), code);
    QCOMPARE(dataOf(r).value(QStringLiteral("retryable")).toBool(), retryable);
    if (retryable)
        QVERIFY(dataOf(r)
                    .value(QStringLiteral("next_action"))
                    .toString()
                    .contains(QStringLiteral("bootstrap")));
}

void tst_Runtime::keepsTokensHashedAtRest()
{
    const Opened s = openSession();
    const QByteArray bytes = storedBytes();
    QVERIFY(!bytes.isEmpty());
    QVERIFY(!bytes.contains(s.token.toUtf8()));
    QVERIFY(!bytes.contains(s.stream.toUtf8()));
}

void tst_Runtime::rejectsStaleOrMissingEpochAndSeq_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("code");
    QTest::newRow("a missing expectedEpoch is a stale epoch") << "noEpoch"
                                                              << "stale_epoch";
    QTest::newRow("an old expectedEpoch is a stale epoch") << "oldEpoch"
                                                           << "stale_epoch";
    QTest::newRow("a missing expectedSeq while a run is active is a stale seq") << "noSeq"
                                                                                << "stale_seq";
    QTest::newRow("an old expectedSeq is a stale seq") << "oldSeq"
                                                       << "stale_seq";
}

void tst_Runtime::rejectsStaleOrMissingEpochAndSeq()
{
    QFETCH(QString, change);
    QFETCH(QString, code);
    const Opened s = openSession();
    QCOMPARE(command(s, {{QStringLiteral("message"), QStringLiteral("click Checkout")}}).status,
             200);
    const QJsonObject before = state(s);
    QJsonObject body{{QStringLiteral("type"), QStringLiteral("RUN_CONTROL")},
                     {QStringLiteral("action"), QStringLiteral("cancel")},
                     {QStringLiteral("clientEventId"), nextEventId()},
                     {QStringLiteral("expectedEpoch"), before.value(QStringLiteral("epoch"))},
                     {QStringLiteral("expectedSeq"), before.value(QStringLiteral("seq"))}};
    if (change == QLatin1String("noEpoch"))
        body.remove(QStringLiteral("expectedEpoch"));
    else if (change == QLatin1String("oldEpoch"))
        body.insert(QStringLiteral("expectedEpoch"), 0);
    else if (change == QLatin1String("noSeq"))
        body.remove(QStringLiteral("expectedSeq"));
    else
        body.insert(QStringLiteral("expectedSeq"), before.value(QStringLiteral("seq")).toInt() - 1);
    const HttpResponse r = call(QStringLiteral("/v2/runtime/command"), s, body);
    QCOMPARE(r.status, 409);
    QCOMPARE(codeOf(r), code);
    const QJsonObject d = dataOf(r);
    const QJsonObject conflict = d.value(QStringLiteral("conflict")).toObject();
    QCOMPARE(conflict.value(QStringLiteral("type")).toString(), code);
    QVERIFY(conflict.value(QStringLiteral("retryable")).toBool());
    QCOMPARE(d.value(QStringLiteral("currentEpoch")).toInt(), 1);
    if (code == QLatin1String("stale_seq")) {
        QCOMPARE(d.value(QStringLiteral("decisionReason")).toString(),
                 QStringLiteral("stale_seq_retryable"));
        QCOMPARE(d.value(QStringLiteral("currentSeq")), before.value(QStringLiteral("seq")));
        QCOMPARE(d.value(QStringLiteral("clientEventId")),
                 body.value(QStringLiteral("clientEventId")));
    } else {
        QCOMPARE(d.value(QStringLiteral("decisionReason")).toString(),
                 QStringLiteral("stale_epoch_retryable"));
    }
    // Rejected before any state change: the run is still active, the seq unchanged.
    const QJsonObject after = state(s);
    QCOMPARE(after.value(QStringLiteral("seq")), before.value(QStringLiteral("seq")));
    QCOMPARE(after.value(QStringLiteral("runStatus")).toString(), QStringLiteral("running"));
    // The client's one silent retry with the same clientEventId and fresh values works.
    body.insert(QStringLiteral("expectedEpoch"), after.value(QStringLiteral("epoch")));
    body.insert(QStringLiteral("expectedSeq"), after.value(QStringLiteral("seq")));
    QCOMPARE(call(QStringLiteral("/v2/runtime/command"), s, body).status, 200);
}

void tst_Runtime::answersARetryWithTheSameAnswer()
{
    const Opened s = openSession();
    const QJsonObject body{{QStringLiteral("message"), QStringLiteral("open the cart")},
                           {QStringLiteral("clientEventId"), QStringLiteral("same-1")},
                           {QStringLiteral("expectedEpoch"), 1},
                           {QStringLiteral("expectedSeq"), state(s).value(QStringLiteral("seq"))}};
    const HttpResponse first = call(QStringLiteral("/v2/runtime/command"), s, body);
    QCOMPARE(first.status, 200);
    const qint64 seq = state(s).value(QStringLiteral("seq")).toInteger();
    const HttpResponse again = call(QStringLiteral("/v2/runtime/command"), s, body);
    QCOMPARE(again.status, 200);
    QCOMPARE(dataOf(again), dataOf(first));
    QCOMPARE(state(s).value(QStringLiteral("seq")).toInteger(), seq);
}

void tst_Runtime::keepsOneActiveRunPerSession()
{
    const Opened s = openSession();
    const HttpResponse first =
        command(s, {{QStringLiteral("message"), QStringLiteral("open cart")}});
    QCOMPARE(first.status, 200);
    const QString firstRun = dataOf(first).value(QStringLiteral("runId")).toString();
    QVERIFY(firstRun.startsWith(QLatin1String("rtr_")));
    QCOMPARE(dataOf(first).value(QStringLiteral("state")).toString(), QStringLiteral("running"));
    HttpResponse r = command(s, {{QStringLiteral("message"), QStringLiteral("open wishlist")}});
    QCOMPARE(r.status, 409);
    QCOMPARE(codeOf(r), QStringLiteral("active_run_exists"));
    QVERIFY(dataOf(r).value(QStringLiteral("continuePrompt")).toBool());
    QCOMPARE(dataOf(r).value(QStringLiteral("runId")).toString(), firstRun);
    QCOMPARE(dataOf(r)[QStringLiteral("conflict")][QStringLiteral("retryable")].toBool(true),
             false);
    r = command(s, {{QStringLiteral("message"), QStringLiteral("open wishlist")},
                    {QStringLiteral("forceNewRun"), true}});
    QCOMPARE(r.status, 200);
    const QString second = dataOf(r).value(QStringLiteral("runId")).toString();
    QVERIFY(second != firstRun);
    QCOMPARE(state(s).value(QStringLiteral("activeRunId")).toString(), second);
    const auto old = m_ph->service().runtime().repository().findRun(firstRun);
    QVERIFY(old);
    QCOMPARE(old->status, QStringLiteral("cancelled"));
}

void tst_Runtime::routesAutoRunsByTheTask_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("requested");
    QTest::addColumn<QString>("mode");
    QTest::newRow("a single click acts at once") << "click Add to cart"
                                                 << "auto"
                                                 << "act";
    QTest::newRow("several steps go to the planner") << "open the cart, then apply the code SAVE10"
                                                     << "auto"
                                                     << "planner";
    QTest::newRow("reading data goes to the planner") << "list all the products under 20 euros"
                                                      << "auto"
                                                      << "planner";
    QTest::newRow("an explicit mode is kept") << "click Add to cart"
                                              << "planner"
                                              << "planner";
}

void tst_Runtime::routesAutoRunsByTheTask()
{
    QFETCH(QString, message);
    QFETCH(QString, requested);
    QFETCH(QString, mode);
    const Opened s = openSession();
    const HttpResponse r = command(
        s, {{QStringLiteral("message"), message}, {QStringLiteral("requestedMode"), requested}});
    QCOMPARE(r.status, 200);
    QCOMPARE(dataOf(r).value(QStringLiteral("acceptedMode")).toString(), mode);
    QCOMPARE(dataOf(r).value(QStringLiteral("requestedMode")).toString(), requested);
    const QJsonObject routing = dataOf(r).value(QStringLiteral("routing")).toObject();
    QVERIFY(routing.contains(QStringLiteral("score")));
    QVERIFY(!routing.value(QStringLiteral("reason")).toString().isEmpty());
    QCOMPARE(state(s).value(QStringLiteral("runMode")).toString(), mode);
}

void tst_Runtime::controlsTheActiveRun_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("runStatus");
    QTest::addColumn<int>("epoch");
    QTest::newRow("cancel ends the run, the projection has no active run")
        << "cancel"
        << "" << 200 << "cancelled" << 1;
    QTest::newRow("end_task completes the run and starts a new task epoch")
        << "end_task"
        << "" << 200 << "completed" << 2;
    QTest::newRow("new_task cancels the run and starts a new task epoch")
        << "new_task"
        << "" << 200 << "cancelled" << 2;
    QTest::newRow("continue after a page load carries the run on")
        << "continue"
        << "same_tab_navigation_handoff" << 200 << "running" << 1;
    QTest::newRow("continue with an unknown reason names the field")
        << "continue"
        << "because" << 400 << "running" << 1;
}

void tst_Runtime::controlsTheActiveRun()
{
    QFETCH(QString, action);
    QFETCH(QString, reason);
    QFETCH(int, status);
    QFETCH(QString, runStatus);
    QFETCH(int, epoch);
    const Opened s = openSession();
    const HttpResponse started =
        command(s, {{QStringLiteral("message"), QStringLiteral("click Buy")}});
    const QString runId = dataOf(started).value(QStringLiteral("runId")).toString();
    QJsonObject body{{QStringLiteral("action"), action}};
    if (!reason.isEmpty())
        body.insert(QStringLiteral("reason"), reason);
    const HttpResponse r = command(s, body);
    QCOMPARE(r.status, status);
    const auto run = m_ph->service().runtime().repository().findRun(runId);
    QCOMPARE(run->status, runStatus);
    if (status != 200) {
        QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("reason"));
        return;
    }
    const QJsonObject d = dataOf(r);
    QCOMPARE(d.value(QStringLiteral("action")).toString(), action);
    QCOMPARE(d.value(QStringLiteral("runId")).toString(), runId);
    QVERIFY(d.contains(QStringLiteral("currentSeq")));
    const QJsonObject projection = d.value(QStringLiteral("projection")).toObject();
    QCOMPARE(projection.contains(QStringLiteral("activeRunId")),
             runStatus == QLatin1String("running"));
    QCOMPARE(state(s).value(QStringLiteral("epoch")).toInt(), epoch);
    if (action == QLatin1String("continue"))
        QCOMPARE(run->continuationReason, reason);
}

void tst_Runtime::continuesARunAwaitingTheVisitor()
{
    const Opened s = openSession();
    const HttpResponse started =
        command(s, {{QStringLiteral("message"), QStringLiteral("sign me in")}});
    const QString runId = dataOf(started).value(QStringLiteral("runId")).toString();
    // The run asks the visitor (the planner parks it awaiting_user).
    auto &repo = m_ph->service().runtime().repository();
    auto run = repo.findRun(runId);
    run->status = QStringLiteral("awaiting_user");
    repo.updateRun(*run);
    const HttpResponse r =
        command(s, {{QStringLiteral("message"), QStringLiteral("ann@example.org")},
                    {QStringLiteral("continueRun"), true}});
    QCOMPARE(r.status, 200);
    QCOMPARE(dataOf(r).value(QStringLiteral("runId")).toString(), runId);
    QCOMPARE(dataOf(r).value(QStringLiteral("state")).toString(), QStringLiteral("running"));
    QCOMPARE(repo.findRun(runId)->continuationReason, QStringLiteral("awaiting_user"));
    const QJsonArray events = state(s).value(QStringLiteral("events")).toArray();
    QCOMPARE(events.last()[QStringLiteral("data")][QStringLiteral("continuationReason")].toString(),
             QStringLiteral("awaiting_user"));
}

void tst_Runtime::decidesTabEvents_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<double>("clientScore");
    QTest::addColumn<QString>("decision");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("navigationClass");
    QTest::newRow("a page of the same host stays in the tab")
        << "https://shop.example/checkout" << -1.0 << "allow_same_tab"
        << "allow_same_tab"
        << "same_host_in_scope";
    QTest::newRow("another host of the allowed domain stays in the tab")
        << "https://help.shop.example/faq" << -1.0 << "allow_same_tab"
        << "allow_same_tab"
        << "cross_host_in_scope";
    QTest::newRow("an external site opens in a new tab")
        << "https://news.test/story" << -1.0 << "open_new_tab"
        << "open_new_tab"
        << "cross_registrable_external";
    QTest::newRow("an allow-listed external site opens in a new tab")
        << "https://www.partner.test/" << -1.0 << "open_new_tab"
        << "open_new_tab"
        << "cross_registrable_external";
    QTest::newRow("a deny-listed external site is blocked by policy")
        << "https://login.evil.test/" << -1.0 << "block"
        << "policy_blocked"
        << "cross_registrable_external";
    QTest::newRow("a javascript link is blocked") << "javascript:alert(1)" << -1.0 << "block"
                                                  << "policy_blocked"
                                                  << "cross_registrable_external";
    QTest::newRow("the site's name inside another domain with credentials is blocked")
        << "https://user:pw@shop.example.attacker.test/" << -1.0 << "block"
        << "policy_blocked"
        << "cross_registrable_external";
    QTest::newRow("a high client score is merged and blocks")
        << "https://news.test/story" << 0.9 << "block"
        << "policy_blocked"
        << "cross_registrable_external";
    QTest::newRow("a low client score does not lower the server's")
        << "https://shop.example/checkout" << 0.1 << "allow_same_tab"
        << "allow_same_tab"
        << "same_host_in_scope";
}

void tst_Runtime::decidesTabEvents()
{
    QFETCH(QString, target);
    QFETCH(double, clientScore);
    QFETCH(QString, decision);
    QFETCH(QString, reason);
    QFETCH(QString, navigationClass);
    const Opened s = openSession();
    QJsonObject body{{QStringLiteral("type"), QStringLiteral("TAB_EVENT")},
                     {QStringLiteral("targetUrl"), target},
                     // A client's own class is a hint only: the server computes its own.
                     {QStringLiteral("navigationClass"), QStringLiteral("same_host_in_scope")}};
    if (clientScore >= 0)
        body.insert(QStringLiteral("adversarialScore"), clientScore);
    const HttpResponse r = command(s, body);
    QCOMPARE(r.status, 200);
    const QJsonObject d = dataOf(r);
    QCOMPARE(d.value(QStringLiteral("decision")).toString(), decision);
    QCOMPARE(d.value(QStringLiteral("decisionReason")).toString(), reason);
    QCOMPARE(d.value(QStringLiteral("navigationClass")).toString(), navigationClass);
    QCOMPARE(d.value(QStringLiteral("staleRun")).toBool(true), false);
    QCOMPARE(d.value(QStringLiteral("sessionId")).toString(), s.sessionId);
    QCOMPARE(d.value(QStringLiteral("sessionEpoch")).toInt(), 1);
    QVERIFY(d.contains(QStringLiteral("decisionHint")));
    QVERIFY(d.value(QStringLiteral("adversarial")).toObject().contains(QStringLiteral("reasons")));
    if (clientScore > 0.5)
        QVERIFY(d[QStringLiteral("adversarial")][QStringLiteral("score")].toDouble() >=
                clientScore);
    // The tab shows in the projection with its status.
    const QJsonArray tabs = state(s).value(QStringLiteral("tabs")).toArray();
    QVERIFY(!tabs.isEmpty());
    const QJsonObject tab = tabs.last().toObject();
    QCOMPARE(tab.value(QStringLiteral("status")).toString(), decision == QLatin1String("block")
                                                                 ? QStringLiteral("blocked")
                                                                 : QStringLiteral("open"));
    if (decision == QLatin1String("open_new_tab"))
        QCOMPARE(tab.value(QStringLiteral("parentLogicalTabId")).toString(),
                 QStringLiteral("main"));
}

void tst_Runtime::answersAStaleRunTabEvent()
{
    const Opened s = openSession();
    const HttpResponse r =
        command(s, {{QStringLiteral("type"), QStringLiteral("TAB_EVENT")},
                    {QStringLiteral("targetUrl"), QStringLiteral("https://shop.example/a")},
                    {QStringLiteral("runId"), QStringLiteral("rtr_gone")}});
    QCOMPARE(r.status, 200);
    const QJsonObject d = dataOf(r);
    QCOMPARE(d.value(QStringLiteral("decision")).toString(), QStringLiteral("stale_run"));
    QVERIFY(d.value(QStringLiteral("staleRun")).toBool());
    QCOMPARE(d.value(QStringLiteral("staleRunReason")).toString(), QStringLiteral("no_active_run"));
    QCOMPARE(d.value(QStringLiteral("decisionHint")).toString(),
             QStringLiteral("sync_projection_and_ignore"));
}

void tst_Runtime::streamsProjectionsAsTheSessionMoves()
{
    const Opened s = openSession();
    SseReader sse(s.data.value(QStringLiteral("sseUrl")).toString());
    QVERIFY(sse.waitFor([](const SseReader::Item &i) { return i.type == QLatin1String("ready"); }));
    QCOMPARE(sse.status(), 200);
    const HttpResponse r = command(s, {{QStringLiteral("message"), QStringLiteral("click Buy")}});
    const QString runId = dataOf(r).value(QStringLiteral("runId")).toString();
    QVERIFY(sse.waitFor([&](const SseReader::Item &i) {
        return i.type == QLatin1String("projection") &&
               i.data.value(QStringLiteral("activeRunId")).toString() == runId;
    }));
    // Pings keep the stream alive.
    QVERIFY(sse.waitFor([](const SseReader::Item &i) { return i.type == QLatin1String("ping"); }));
    // Every event once, in order.
    const QList<qint64> seqs = sse.seqs();
    for (int i = 1; i < seqs.size(); ++i)
        QVERIFY(seqs.at(i) > seqs.at(i - 1));
}

void tst_Runtime::resumesTheStreamAfterSeqAfter()
{
    const Opened s = openSession();
    command(s, {{QStringLiteral("message"), QStringLiteral("click Buy")}});
    command(s, {{QStringLiteral("action"), QStringLiteral("cancel")}});
    const qint64 seq = state(s).value(QStringLiteral("seq")).toInteger();
    QVERIFY(seq >= 3);
    SseReader sse(m_ph->base() + QStringLiteral("/v2/runtime/stream?streamTicket=") + s.stream +
                  QStringLiteral("&seqAfter=%1").arg(seq - 1));
    QVERIFY(sse.waitFor(
        [](const SseReader::Item &i) { return i.type == QLatin1String("projection"); }));
    QCOMPARE(sse.seqs(), QList<qint64>{seq});
}

void tst_Runtime::tellsAStreamThatIsAheadOfItsSession()
{
    const Opened s = openSession();
    SseReader sse(m_ph->base() + QStringLiteral("/v2/runtime/stream?streamTicket=") + s.stream +
                  QStringLiteral("&seqAfter=999"));
    QVERIFY(sse.waitFor([](const SseReader::Item &i) { return i.type == QLatin1String("error"); }));
    const auto error = std::find_if(sse.items.begin(), sse.items.end(),
                                    [](const auto &i) { return i.type == QLatin1String("error"); });
    QVERIFY(
        error->data.value(QStringLiteral("message")).toString().contains(QStringLiteral("999")));
    // Then the whole projection again, from the start.
    QVERIFY(sse.waitFor(
        [](const SseReader::Item &i) { return i.type == QLatin1String("projection"); }));
    QCOMPARE(sse.seqs().value(0), 1);
}

void tst_Runtime::refusesAStreamWithoutAValidTicket()
{
    const Opened s = openSession();
    HttpClient c(m_ph->base());
    HttpResponse r = c.get(QStringLiteral("/v2/runtime/stream?streamTicket=") + s.token);
    QCOMPARE(r.status, 401);
    QCOMPARE(codeOf(r), QStringLiteral("SESSION_TOKEN_INVALID"));
    r = c.get(QStringLiteral("/v2/runtime/stream"));
    QCOMPARE(r.status, 400);
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("streamTicket"));
    m_clock->advance(601 * 1000);
    r = c.get(QStringLiteral("/v2/runtime/stream?streamTicket=") + s.stream);
    QCOMPARE(r.status, 401);
    QCOMPARE(codeOf(r), QStringLiteral("SESSION_TOKEN_EXPIRED"));
}

void tst_Runtime::pollsTheStateAsAFallback()
{
    const Opened s = openSession();
    const qint64 start = state(s).value(QStringLiteral("seq")).toInteger();
    command(s, {{QStringLiteral("message"), QStringLiteral("click Buy")}});
    // The token may travel in the body, as the spec's /state lists it.
    HttpClient c(m_ph->base());
    const HttpResponse r =
        c.post(QStringLiteral("/v2/runtime/state"), {{QStringLiteral("sessionId"), s.sessionId},
                                                     {QStringLiteral("sessionToken"), s.token},
                                                     {QStringLiteral("seqAfter"), start}});
    QCOMPARE(r.status, 200);
    const QJsonArray events = dataOf(r).value(QStringLiteral("events")).toArray();
    QCOMPARE(events.size(), 1);
    QCOMPARE(events.first()[QStringLiteral("type")].toString(), QStringLiteral("run.started"));
    QVERIFY(!dataOf(r).contains(QStringLiteral("snapshot")));
}

void tst_Runtime::keepsCheckpoints()
{
    const Opened s = openSession();
    HttpResponse r = call(QStringLiteral("/v2/runtime/snapshot"), s,
                          {{QStringLiteral("checkpoint"), QJsonObject{{QStringLiteral("step"), 3}}},
                           {QStringLiteral("version"), 2},
                           {QStringLiteral("seq"), 5},
                           {QStringLiteral("chatSummary"), QStringLiteral("asked for the cart")},
                           {QStringLiteral("ttlHours"), 2}});
    QCOMPARE(r.status, 200);
    QCOMPARE(dataOf(r).value(QStringLiteral("offloaded")).toBool(true), false);
    // A resync (no seqAfter) brings the checkpoint back.
    QJsonObject st = state(s);
    QCOMPARE(
        st[QStringLiteral("snapshot")][QStringLiteral("payload")][QStringLiteral("step")].toInt(),
        3);
    QCOMPARE(
        st[QStringLiteral("snapshot")][QStringLiteral("payload")][QStringLiteral("chatSummary")]
            .toString(),
        QStringLiteral("asked for the cart"));
    // An older checkpoint does not overwrite a newer one.
    r = call(QStringLiteral("/v2/runtime/snapshot"), s,
             {{QStringLiteral("checkpoint"), QJsonObject{{QStringLiteral("step"), 1}}},
              {QStringLiteral("version"), 2},
              {QStringLiteral("seq"), 4}});
    QCOMPARE(r.status, 409);
    QCOMPARE(codeOf(r), QStringLiteral("stale_seq"));
    // An oversized one goes to storage and still comes back whole.
    const QString big(3000, QLatin1Char('x'));
    r = call(QStringLiteral("/v2/runtime/snapshot"), s,
             {{QStringLiteral("payload"), QJsonObject{{QStringLiteral("dom"), big}}},
              {QStringLiteral("version"), 2},
              {QStringLiteral("seq"), 6}});
    QCOMPARE(r.status, 200);
    QVERIFY(dataOf(r).value(QStringLiteral("offloaded")).toBool());
    st = state(s);
    QCOMPARE(
        st[QStringLiteral("snapshot")][QStringLiteral("payload")][QStringLiteral("dom")].toString(),
        big);
    // Neither checkpoint nor payload: the field is named.
    r = call(QStringLiteral("/v2/runtime/snapshot"), s, {{QStringLiteral("version"), 3}});
    QCOMPARE(r.status, 400);
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("checkpoint"));
    // Expired after its TTL.
    m_clock->advance(3 * 3600 * 1000);
    const Opened fresh = openSession();
    QVERIFY(!state(fresh).contains(QStringLiteral("snapshot")));
}

void tst_Runtime::truncatesTelemetry()
{
    const Opened s = openSession();
    QJsonArray events;
    for (int i = 0; i < 7; ++i)
        events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("click")},
                                  {QStringLiteral("n"), i}});
    events.replace(1, QJsonObject{{QStringLiteral("type"), QStringLiteral("huge")},
                                  {QStringLiteral("blob"), QString(500, QLatin1Char('y'))}});
    HttpResponse r = call(QStringLiteral("/v2/runtime/telemetry/ingest"), s,
                          {{QStringLiteral("events"), events},
                           {QStringLiteral("flushReason"), QStringLiteral("pagehide")},
                           {QStringLiteral("sdkVersion"), QStringLiteral("1.0.0")}});
    QCOMPARE(r.status, 202);
    QCOMPARE(dataOf(r).value(QStringLiteral("accepted")).toInt(), 5);
    QCOMPARE(dataOf(r).value(QStringLiteral("dropped")).toInt(), 2);
    QCOMPARE(dataOf(r).value(QStringLiteral("truncated")).toInt(), 1);
    QCOMPARE(m_ph->service().runtime().repository().telemetryCount(s.sessionId), 1);
    r = call(QStringLiteral("/v2/runtime/telemetry/ingest"), s, {});
    QCOMPARE(r.status, 400);
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("events"));
}

void tst_Runtime::sanitizesTheVisitorContext()
{
    const Opened s = openSession();
    QJsonArray recent;
    for (int i = 1; i <= 5; ++i)
        recent.append(QStringLiteral("/page/%1").arg(i));
    HttpResponse r =
        call(QStringLiteral("/v2/runtime/session/context"), s,
             {{QStringLiteral("visitor"),
               QJsonObject{
                   {QStringLiteral("context"),
                    QJsonObject{{QStringLiteral("plan"), QStringLiteral("pro")},
                                {QStringLiteral("password"), QStringLiteral("hunter2")},
                                {QStringLiteral("authToken"), QStringLiteral("abc")},
                                {QStringLiteral("recentRequests"), recent},
                                {QStringLiteral("padding"), QString(3000, QLatin1Char('p'))}}}}}});
    QCOMPARE(r.status, 200);
    const QJsonObject context = dataOf(r).value(QStringLiteral("context")).toObject();
    QCOMPARE(context.value(QStringLiteral("plan")).toString(), QStringLiteral("pro"));
    QVERIFY(!context.contains(QStringLiteral("password")));
    QVERIFY(!context.contains(QStringLiteral("authToken")));
    QCOMPARE(context.value(QStringLiteral("recentRequests")).toArray(),
             (QJsonArray{QStringLiteral("/page/3"), QStringLiteral("/page/4"),
                         QStringLiteral("/page/5")}));
    QVERIFY(QJsonDocument(context).toJson(QJsonDocument::Compact).size() <= 2048);
    QVERIFY(!r.body.contains("hunter2"));
    // visitor: null clears it (logout).
    r = call(QStringLiteral("/v2/runtime/session/context"), s,
             {{QStringLiteral("visitor"), QJsonValue::Null}});
    QCOMPARE(r.status, 200);
    QVERIFY(dataOf(r).value(QStringLiteral("context")).toObject().isEmpty());
    r = call(QStringLiteral("/v2/runtime/session/context"), s,
             {{QStringLiteral("visitor"), QStringLiteral("nope")}});
    QCOMPARE(r.status, 400);
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("visitor"));
}

void tst_Runtime::exchangesAContextTokenOnce()
{
    const Opened s = openSession();
    const QString token = QStringLiteral("ctx_") + QString(40, QLatin1Char('z'));
    HttpResponse r =
        call(QStringLiteral("/v2/runtime/session/context"), s,
             {{QStringLiteral("visitor"), QJsonObject{{QStringLiteral("contextToken"), token}}}});
    QCOMPARE(r.status, 200);
    // The resolver fails open: the session goes on.
    QCOMPARE(dataOf(r)[QStringLiteral("contextToken")][QStringLiteral("resolver")].toString(),
             QStringLiteral("fail_open"));
    QCOMPARE(dataOf(r)[QStringLiteral("contextToken")][QStringLiteral("status")].toString(),
             QStringLiteral("unresolved"));
    r = call(QStringLiteral("/v2/runtime/session/context"), s,
             {{QStringLiteral("visitor"), QJsonObject{{QStringLiteral("contextToken"), token}}}});
    QCOMPARE(dataOf(r)[QStringLiteral("contextToken")][QStringLiteral("status")].toString(),
             QStringLiteral("already_exchanged"));
    r = call(QStringLiteral("/v2/runtime/session/context"), s,
             {{QStringLiteral("visitor"),
               QJsonObject{{QStringLiteral("contextToken"), QString(2049, QLatin1Char('a'))}}}});
    QCOMPARE(r.status, 400);
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(),
             QStringLiteral("visitor.contextToken"));
    // Never stored raw.
    const QByteArray bytes = storedBytes();
    QVERIFY(!bytes.isEmpty());
    QVERIFY(!bytes.contains(token.toUtf8()));
}

void tst_Runtime::decidesExternalContext_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("intent");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("decision");
    QTest::newRow("opening an external page is allowed") << "https://news.test/"
                                                         << "open_only" << 200 << "allow";
    QTest::newRow("reading an external page reads it through the cloud browser")
        << "{fixture}/article"
        << "read_context" << 200 << "allow";
    QTest::newRow("acting needs the cloud sandbox the policy keeps off") << "https://news.test/"
                                                                         << "act" << 403 << "";
    QTest::newRow("a deny-listed page is blocked") << "https://www.evil.test/"
                                                   << "read_context" << 200 << "block";
    QTest::newRow("a high adversarial score blocks")
        << "https://user:pw@shop.example.attacker.test/"
        << "open_only" << 200 << "block";
    QTest::newRow("a non-web URL names the field") << "ftp://news.test/"
                                                   << "open_only" << 400 << "";
}

void tst_Runtime::decidesExternalContext()
{
    QFETCH(QString, url);
    QFETCH(QString, intent);
    QFETCH(int, status);
    QFETCH(QString, decision);
    FixtureServer news;
    QVERIFY(news.start());
    news.page("/article",
              htmlPage(QStringLiteral("Tides"),
                       QStringLiteral("<h1>Tide tables</h1><p>High water at 6:12.</p>")));
    url.replace(QStringLiteral("{fixture}"), news.url(QString()));
    // The news page is on loopback: a visitor's read reaches it only because the owner
    // lists it among the site's private hosts (docs/security.md).
    setPrivateHosts({QStringLiteral("127.0.0.1:%1").arg(news.port())});
    const Opened s = openSession();
    const QString runId =
        dataOf(command(s, {{QStringLiteral("message"), QStringLiteral("read the news")}}))
            .value(QStringLiteral("runId"))
            .toString();
    const QJsonObject st = state(s);
    // Whose work each page the call leases is for.
    QList<LeaseOptions> leased;
    BrowserPool &pool = m_ph->service().pool();
    const auto watch = connect(&pool, &BrowserPool::leaseStarted, &pool,
                               [&leased](BrowserLease *lease) { leased << lease->options(); });
    const HttpResponse r =
        call(QStringLiteral("/v2/runtime/context/external"), s,
             {{QStringLiteral("runId"), runId},
              {QStringLiteral("url"), url},
              {QStringLiteral("intent"), intent},
              {QStringLiteral("expectedEpoch"), st.value(QStringLiteral("epoch"))},
              {QStringLiteral("expectedSeq"), st.value(QStringLiteral("seq"))}});
    QCOMPARE(r.status, status);
    if (status == 200)
        QCOMPARE(dataOf(r).value(QStringLiteral("decision")).toString(), decision);
    else if (status == 403)
        QCOMPARE(codeOf(r), QStringLiteral("CAPABILITY_DISABLED"));
    else
        QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("url"));
    if (intent == QLatin1String("read_context") && decision == QLatin1String("allow")) {
        // Read in the cloud browser: the page's markdown comes back, the tab is scraped.
        const QJsonObject context = dataOf(r).value(QStringLiteral("context")).toObject();
        QVERIFY2(context.value(QStringLiteral("markdown"))
                     .toString()
                     .contains(QStringLiteral("High water at 6:12")),
                 QJsonDocument(context).toJson().constData());
        const QJsonArray tabs = state(s).value(QStringLiteral("tabs")).toArray();
        QCOMPARE(tabs.last()[QStringLiteral("status")].toString(), QStringLiteral("scraped"));
        // A visitor's read: its page comes from the visitors' share of the pool, the site's.
        QCOMPARE(leased.size(), 1);
        QVERIFY(leased.first().isVisitor());
        QCOMPARE(leased.first().site, m_siteId);
    }
    disconnect(watch);
    // Strict: a stale seq is refused before any check.
    const HttpResponse stale = call(QStringLiteral("/v2/runtime/context/external"), s,
                                    {{QStringLiteral("runId"), runId},
                                     {QStringLiteral("url"), url},
                                     {QStringLiteral("intent"), intent},
                                     {QStringLiteral("expectedEpoch"), 1},
                                     {QStringLiteral("expectedSeq"), 0}});
    QCOMPARE(stale.status, 409);
    QCOMPARE(codeOf(stale), QStringLiteral("stale_seq"));
}

void tst_Runtime::recordsGoalsThroughTheSignedBeacon()
{
    const Opened s = openSession();
    const QJsonObject beacon = s.data.value(QStringLiteral("analytics")).toObject();
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("sid"), beacon.value(QStringLiteral("sid")).toString());
    q.addQueryItem(QStringLiteral("exp"),
                   QString::number(beacon.value(QStringLiteral("exp")).toInteger()));
    q.addQueryItem(QStringLiteral("sig"), beacon.value(QStringLiteral("sig")).toString());
    q.addQueryItem(QStringLiteral("kind"), QStringLiteral("goal"));
    q.addQueryItem(QStringLiteral("name"), QStringLiteral("newsletter"));
    HttpClient c(m_ph->base());
    HttpResponse r = c.get(QStringLiteral("/v2/runtime/collect?") + q.toString(QUrl::FullyEncoded));
    QCOMPARE(r.status, 202);
    // The owner's analytics count it.
    const HttpResponse summary = m_ph->client().get(
        QStringLiteral("/config/v1/sites/%1/analytics/summary?range=7d").arg(m_siteId));
    QCOMPARE(summary.status, 200);
    QVERIFY2(summary.body.contains("\"goals\":1"), summary.body.constData());
    // A forged signature is refused.
    q.removeAllQueryItems(QStringLiteral("sig"));
    q.addQueryItem(QStringLiteral("sig"), QString(64, QLatin1Char('0')));
    r = c.get(QStringLiteral("/v2/runtime/collect?") + q.toString(QUrl::FullyEncoded));
    QCOMPARE(r.status, 401);
    QCOMPARE(codeOf(r), QStringLiteral("SIGNATURE_INVALID"));
}

void tst_Runtime::answersCrossOriginPreflights()
{
    const QByteArray reply = HttpClient::raw(
        m_ph->port(), "OPTIONS /v2/runtime/command HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      "Origin: https://shop.example\r\nAccess-Control-Request-Method: POST\r\n"
                      "Access-Control-Request-Headers: authorization, content-type\r\n\r\n");
    QVERIFY2(reply.startsWith("HTTP/1.1 204"), reply.constData());
    QVERIFY(reply.contains("Access-Control-Allow-Origin: *"));
    QVERIFY(reply.contains("Access-Control-Allow-Headers: authorization, content-type"));
    // Answers (errors too) carry the header.
    HttpClient c(m_ph->base());
    const HttpResponse r = c.post(QStringLiteral("/v2/runtime/state"), {});
    QCOMPARE(r.status, 401);
    QCOMPARE(r.header("access-control-allow-origin"), QByteArray("*"));
    // Other areas do not.
    QVERIFY(m_ph->client()
                .get(QStringLiteral("/health"))
                .header("access-control-allow-origin")
                .isEmpty());
}

void tst_Runtime::refusesAnUnknownA2wReceipt()
{
    const Opened s = openSession();
    const qint64 seq = state(s).value(QStringLiteral("seq")).toInteger();
    const HttpResponse r =
        command(s, {{QStringLiteral("type"), QStringLiteral("RUN_INPUT")},
                    {QStringLiteral("a2wReceipt"), QStringLiteral("rcpt_forged")}});
    QCOMPARE(r.status, 404);
    QCOMPARE(codeOf(r), QStringLiteral("RUN_NOT_FOUND"));
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("a2wReceipt"));
    // Nothing changed.
    QCOMPARE(state(s).value(QStringLiteral("seq")).toInteger(), seq);
    QVERIFY(!state(s).contains(QStringLiteral("activeRunId")));
}

std::pair<QString, QString> tst_Runtime::browserRun(const QString &prompt)
{
    const HttpResponse r =
        HttpClient(m_ph->base())
            .send("POST", QStringLiteral("/v2/a2w/runs"),
                  QJsonDocument(QJsonObject{{QStringLiteral("url"),
                                             QStringLiteral("https://shop.example/account")},
                                            {QStringLiteral("prompt"), prompt}})
                      .toJson(QJsonDocument::Compact),
                  {{"Content-Type", "application/json"},
                   {"Prefer", "execution=browser"},
                   {"User-Agent", "ReaderBot/2.0"}});
    r.expectStatus({201}, __FILE__, __LINE__);
    const QString id = r.json().value(QStringLiteral("id")).toString();
    return {id, m_ph->service().a2w().receiptFor(id)};
}

void tst_Runtime::asksTheVisitorBeforeAnA2wRunActs_data()
{
    QTest::addColumn<QString>("decision"); // a2wConsent sent with the claim ("": none)
    QTest::addColumn<QString>("token"); // own: the offer's consentToken; other: another session's
    QTest::addColumn<bool>("visitorsRun"); // the visitor has a run going first
    QTest::addColumn<bool>("forceNewRun"); // sent with the acceptance
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("a2wStatus"); // the A2W run's status after
    QTest::addColumn<bool>("started");      // a runtime run carries the A2W run
    QTest::newRow("a claim without the visitor's consent starts nothing and answers the offer")
        << ""
        << "" << false << false << 403 << "A2W_CONSENT_REQUIRED"
        << "waiting_browser" << false;
    QTest::newRow("an acceptance without the offer's token is refused")
        << "accept"
        << "" << false << false << 403 << "A2W_CONSENT_INVALID"
        << "waiting_browser" << false;
    QTest::newRow("an acceptance with another session's token is refused")
        << "accept"
        << "other" << false << false << 403 << "A2W_CONSENT_INVALID"
        << "waiting_browser" << false;
    QTest::newRow("a declined run ends cancelled and nothing runs")
        << "decline"
        << "own" << false << false << 200 << ""
        << "cancelled" << false;
    QTest::newRow("an accepted run starts on the visitor's page")
        << "accept"
        << "own" << false << false << 200 << ""
        << "running" << true;
    QTest::newRow("an acceptance never replaces the visitor's own run unless it says so")
        << "accept"
        << "own" << true << false << 409 << "active_run_exists"
        << "waiting_browser" << false;
    QTest::newRow("an acceptance that says so replaces the visitor's own run")
        << "accept"
        << "own" << true << true << 200 << ""
        << "running" << true;
    QTest::newRow("declining leaves the visitor's own run going")
        << "decline"
        << "own" << true << false << 200 << ""
        << "cancelled" << false;
}

void tst_Runtime::asksTheVisitorBeforeAnA2wRunActs()
{
    QFETCH(QString, decision);
    QFETCH(QString, token);
    QFETCH(bool, visitorsRun);
    QFETCH(bool, forceNewRun);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, a2wStatus);
    QFETCH(bool, started);

    const auto created = browserRun(QStringLiteral("Read the recovery code on my account page"));
    const QString a2wId = created.first;
    const QString receipt = created.second;
    const Opened s = openSession(QStringLiteral("https://shop.example/account"));
    QString own;
    if (visitorsRun) {
        const HttpResponse r =
            command(s, {{QStringLiteral("message"), QStringLiteral("open my orders")}});
        QCOMPARE(r.status, 200);
        own = dataOf(r).value(QStringLiteral("runId")).toString();
    }
    const QJsonObject claim{{QStringLiteral("type"), QStringLiteral("RUN_INPUT")},
                            {QStringLiteral("a2wReceipt"), receipt},
                            {QStringLiteral("requestedMode"), QStringLiteral("planner")}};
    // The offer: what the SDK shows the visitor. Asking for it changes nothing.
    const qint64 seq = state(s).value(QStringLiteral("seq")).toInteger();
    HttpResponse r = command(s, claim);
    QCOMPARE(r.status, 403);
    QCOMPARE(codeOf(r), QStringLiteral("A2W_CONSENT_REQUIRED"));
    const QJsonObject offer = dataOf(r).value(QStringLiteral("offer")).toObject();
    QCOMPARE(offer.value(QStringLiteral("a2wRunId")).toString(), a2wId);
    QCOMPARE(offer[QStringLiteral("agent")][QStringLiteral("name")].toString(),
             QStringLiteral("ReaderBot"));
    QCOMPARE(offer[QStringLiteral("agent")][QStringLiteral("trust")].toString(),
             QStringLiteral("anonymous"));
    QCOMPARE(offer.value(QStringLiteral("task")).toString(),
             QStringLiteral("Read the recovery code on my account page"));
    QCOMPARE(offer[QStringLiteral("site")][QStringLiteral("name")].toString(),
             QStringLiteral("Shop"));
    QCOMPARE(offer[QStringLiteral("site")][QStringLiteral("host")].toString(),
             QStringLiteral("shop.example"));
    QCOMPARE(offer[QStringLiteral("activeRun")][QStringLiteral("runId")].toString(), own);
    QCOMPARE(state(s).value(QStringLiteral("seq")).toInteger(), seq);

    if (!decision.isEmpty()) {
        QJsonObject body = claim;
        body.insert(QStringLiteral("a2wConsent"), decision);
        if (token == QLatin1String("own")) {
            body.insert(QStringLiteral("a2wConsentToken"),
                        offer.value(QStringLiteral("consentToken")));
        } else if (token == QLatin1String("other")) {
            const Opened elsewhere = openSession(QStringLiteral("https://shop.example/account"));
            body.insert(
                QStringLiteral("a2wConsentToken"),
                dataOf(command(elsewhere,
                               claim))[QStringLiteral("offer")][QStringLiteral("consentToken")]);
        }
        if (forceNewRun)
            body.insert(QStringLiteral("forceNewRun"), true);
        r = command(s, body);
        QCOMPARE(r.status, status);
        if (!code.isEmpty())
            QCOMPARE(codeOf(r), code);
    }
    const std::optional<a2w::Run> a2wRun = m_ph->service().a2w().find(a2wId);
    QVERIFY(a2wRun);
    QCOMPARE(a2wRun->status, a2wStatus);
    if (a2wStatus == QLatin1String("cancelled")) {
        QCOMPARE(a2wRun->error, QStringLiteral("declined by the visitor"));
        QVERIFY(a2wRun->result.value(QStringLiteral("text")).toString().isEmpty());
    }
    // Nothing ran on the visitor's page but what they accepted.
    const auto runs = m_ph->service().runtime().repository().runsOf(s.sessionId);
    const bool carried = std::any_of(runs.begin(), runs.end(),
                                     [&](const runtime::Run &x) { return x.a2wRunId == a2wId; });
    QCOMPARE(carried, started);
    if (!own.isEmpty()) {
        const auto mine = m_ph->service().runtime().repository().findRun(own);
        QCOMPARE(mine->status, started ? QStringLiteral("cancelled") : QStringLiteral("running"));
    }
    if (a2wRun->status != QLatin1String("cancelled"))
        m_ph->service().a2w().cancel(a2wId);
}

void tst_Runtime::sendsAClaimedRunsResultOnlyAsTheVisitorShares_data()
{
    QTest::addColumn<QString>("action"); // RUN_CONTROL action of the visitor ("": none yet)
    QTest::addColumn<QString>("a2wStatus");
    QTest::addColumn<bool>("sent"); // the caller can read the code
    QTest::newRow("a finished run's result waits for the visitor, unsent")
        << ""
        << "input_required" << false;
    QTest::newRow("a result the visitor withholds is never sent, and says so")
        << "withhold_result"
        << "completed" << false;
    QTest::newRow("a result the visitor shares is sent as they saw it") << "share_result"
                                                                        << "completed" << true;
}

void tst_Runtime::sendsAClaimedRunsResultOnlyAsTheVisitorShares()
{
    QFETCH(QString, action);
    QFETCH(QString, a2wStatus);
    QFETCH(bool, sent);
    const QString code = QStringLiteral("RECOVERY-7781-QX");

    const auto created = browserRun(QStringLiteral("Read the recovery code"));
    const QString a2wId = created.first;
    const QString receipt = created.second;
    const Opened s = openSession(QStringLiteral("https://shop.example/account"));
    const QJsonObject claim{{QStringLiteral("type"), QStringLiteral("RUN_INPUT")},
                            {QStringLiteral("a2wReceipt"), receipt}};
    QJsonObject accept = claim;
    accept.insert(QStringLiteral("a2wConsent"), QStringLiteral("accept"));
    accept.insert(
        QStringLiteral("a2wConsentToken"),
        dataOf(command(s, claim))[QStringLiteral("offer")][QStringLiteral("consentToken")]);
    HttpResponse r = command(s, accept);
    QCOMPARE(r.status, 200);
    const QString runId = dataOf(r).value(QStringLiteral("runId")).toString();
    // The engine's end, as RuntimeRunner reports it (this test runs no engine): a step,
    // then the answer read from the visitor's page.
    a2w::A2wService &service = m_ph->service().a2w();
    service.browserRunStep(a2wId, {{QStringLiteral("tool"), QStringLiteral("extract")},
                                   {QStringLiteral("status"), QStringLiteral("completed")},
                                   {QStringLiteral("summary"), QStringLiteral("read ") + code}});
    const QJsonObject answer{{QStringLiteral("text"), QStringLiteral("Your code is ") + code}};
    service.finishBrowserRun(a2wId, true, answer, QString());
    m_ph->service().runtime().runProgress(runId, QStringLiteral("completed"), answer);
    // The visitor is shown exactly what would be sent.
    const QJsonArray events = state(s).value(QStringLiteral("events")).toArray();
    const auto review = std::find_if(events.begin(), events.end(), [](const QJsonValue &e) {
        return e[QStringLiteral("type")].toString() == QLatin1String("a2w.review");
    });
    QVERIFY(review != events.end());
    QCOMPARE((*review)[QStringLiteral("data")][QStringLiteral("text")].toString(),
             answer.value(QStringLiteral("text")).toString());
    QCOMPARE((*review)[QStringLiteral("data")][QStringLiteral("a2wRunId")].toString(), a2wId);

    if (!action.isEmpty()) {
        r = command(s, {{QStringLiteral("type"), QStringLiteral("RUN_CONTROL")},
                        {QStringLiteral("action"), action},
                        {QStringLiteral("runId"), runId}});
        QCOMPARE(r.status, 200);
        // Decided once.
        r = command(s, {{QStringLiteral("type"), QStringLiteral("RUN_CONTROL")},
                        {QStringLiteral("action"), QStringLiteral("share_result")},
                        {QStringLiteral("runId"), runId}});
        QCOMPARE(r.status, 409);
        QCOMPARE(codeOf(r), QStringLiteral("NOT_WAITING_FOR_REVIEW"));
    }
    // What the A2W caller can read: the run and every event of it.
    const a2w::Run run = *service.find(a2wId);
    QCOMPARE(run.status, a2wStatus);
    QByteArray seen =
        QJsonDocument(run.result).toJson() + run.error.toUtf8() + QJsonDocument(run.input).toJson();
    for (const a2w::Event &e : service.events(a2wId, 0))
        seen += QJsonDocument(e.toJson()).toJson();
    QCOMPARE(seen.contains(code.toUtf8()), sent);
    if (a2wStatus == QLatin1String("input_required"))
        QCOMPARE(run.input.value(QStringLiteral("reason")).toString(),
                 QStringLiteral("visitor_review_required"));
    if (action == QLatin1String("withhold_result")) {
        QVERIFY(run.result.value(QStringLiteral("withheld")).toBool());
        QVERIFY(!run.result.contains(QStringLiteral("text")));
    }
    if (sent) {
        QCOMPARE(run.result.value(QStringLiteral("text")).toString(),
                 answer.value(QStringLiteral("text")).toString());
        QVERIFY(!run.result.value(QStringLiteral("withheld")).toBool(true));
    }
    if (!a2w::Status::isTerminal(run.status))
        service.cancel(a2wId);
}

void tst_Runtime::sendsTheOwnersAnalyticsNotifications()
{
    FixtureServer receiver;
    QVERIFY(receiver.start());
    receiver.route("/hook", [](const FixtureRequest &) { return FixtureResponse::html("ok"); });
    const QString secret = QStringLiteral("hook-secret-1");
    HttpResponse r = m_ph->client().post(
        QStringLiteral("/upsertAnalyticsNotificationSettings"),
        {{QStringLiteral("siteId"), m_siteId},
         {QStringLiteral("enabled"), true},
         {QStringLiteral("webhooks"),
          QJsonArray{
              QJsonObject{{QStringLiteral("url"), receiver.url(QStringLiteral("/hook"))},
                          {QStringLiteral("events"), QJsonArray{QStringLiteral("goal.reached")}},
                          {QStringLiteral("secret"), secret}}}}});
    QCOMPARE(r.status, 200);
    const Opened s = openSession();
    const QJsonObject beacon = s.data.value(QStringLiteral("analytics")).toObject();
    auto track = [&](const QString &kind, const QString &name) {
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("sid"), beacon.value(QStringLiteral("sid")).toString());
        q.addQueryItem(QStringLiteral("exp"),
                       QString::number(beacon.value(QStringLiteral("exp")).toInteger()));
        q.addQueryItem(QStringLiteral("sig"), beacon.value(QStringLiteral("sig")).toString());
        q.addQueryItem(QStringLiteral("kind"), kind);
        q.addQueryItem(QStringLiteral("name"), name);
        return HttpClient(m_ph->base())
            .get(QStringLiteral("/v2/runtime/collect?") + q.toString(QUrl::FullyEncoded))
            .status;
    };
    // An event the owner did not select is not sent; the goal is.
    QCOMPARE(track(QStringLiteral("event"), QStringLiteral("scrolled")), 202);
    QCOMPARE(track(QStringLiteral("goal"), QStringLiteral("newsletter")), 202);
    QTRY_COMPARE_WITH_TIMEOUT(receiver.hits("/hook"), 1, 10000);
    // Queued in the order they came: a delivery for the event would be in the store ahead of
    // the goal's. Only one there, and it delivered: nothing else can go out.
    const auto queued = [&](const QString &status) {
        QSqlQuery q(m_ph->service().store().database());
        q.prepare(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE url = ?") +
                  (status.isEmpty() ? QString() : QStringLiteral(" AND status = ?")));
        q.addBindValue(receiver.url(QStringLiteral("/hook")));
        if (!status.isEmpty())
            q.addBindValue(status);
        return q.exec() && q.next() ? q.value(0).toInt() : -1;
    };
    QTRY_COMPARE(queued(QStringLiteral("delivered")), 1);
    QCOMPARE(queued(QString()), 1);
    QCOMPARE(receiver.hits("/hook"), 1);
    const FixtureRequest hook = receiver.requests("/hook").first();
    const QJsonObject body = QJsonDocument::fromJson(hook.body).object();
    QCOMPARE(body.value(QStringLiteral("event")).toString(), QStringLiteral("goal.reached"));
    QCOMPARE(body.value(QStringLiteral("siteId")).toString(), m_siteId);
    QCOMPARE(body[QStringLiteral("data")][QStringLiteral("name")].toString(),
             QStringLiteral("newsletter"));
    // Signed with the subscription's secret, as every callback (docs/api/webhooks.md).
    const QByteArray expected =
        QMessageAuthenticationCode::hash(hook.headers.value("x-svc-timestamp") + '.' + hook.body,
                                         secret.toUtf8(), QCryptographicHash::Sha256)
            .toHex();
    QCOMPARE(hook.headers.value("x-svc-signature"), expected);

    // The daily digest: the day's counts, once the owner selects it.
    r = m_ph->client().post(
        QStringLiteral("/upsertAnalyticsNotificationSettings"),
        {{QStringLiteral("siteId"), m_siteId},
         {QStringLiteral("webhooks"),
          QJsonArray{
              QJsonObject{{QStringLiteral("url"), receiver.url(QStringLiteral("/digest"))},
                          {QStringLiteral("events"), QJsonArray{QStringLiteral("daily.digest")}},
                          {QStringLiteral("secret"), secret}}}}});
    QCOMPARE(r.status, 200);
    receiver.route("/digest", [](const FixtureRequest &) { return FixtureResponse::html("ok"); });
    const QString today =
        QDateTime::fromMSecsSinceEpoch(m_clock->nowMs(), Qt::UTC).date().toString(Qt::ISODate);
    QCOMPARE(m_ph->service().analyticsNotifications().sendDailyDigests(today), 1);
    QTRY_COMPARE_WITH_TIMEOUT(receiver.hits("/digest"), 1, 10000);
    const QJsonObject digest =
        QJsonDocument::fromJson(receiver.requests("/digest").first().body).object();
    QCOMPARE(digest.value(QStringLiteral("event")).toString(), QStringLiteral("daily.digest"));
    QCOMPARE(digest[QStringLiteral("data")][QStringLiteral("day")].toString(), today);
    QVERIFY(digest[QStringLiteral("data")][QStringLiteral("goals")].toInt() >= 1);
}

void tst_Runtime::letsTheSitesServerMintBootstrapAndContextTokens()
{
    // The owner mints the key's secret (shown once, kept as a hash).
    const QString keyId = m_keyId;
    QVERIFY(!keyId.isEmpty());
    HttpResponse r = m_ph->client().post(QStringLiteral("/generateSiteSecret"),
                                         {{QStringLiteral("keyId"), keyId}});
    QCOMPARE(r.status, 201);
    const QString secret = r.json().value(QStringLiteral("secretKey")).toString();
    QVERIFY(secret.startsWith(QLatin1String("sk_site_")));
    // The site's server exchanges it for a bootstrap token for one host …
    HttpClient server(m_ph->base());
    server.setBearer(secret);
    r = server.post(QStringLiteral("/v2/runtime/site-tokens"),
                    {{QStringLiteral("kind"), QStringLiteral("bootstrap")},
                     {QStringLiteral("host"), QStringLiteral("shop.example")}});
    QCOMPARE(r.status, 201);
    const QString bootstrap = dataOf(r).value(QStringLiteral("bootstrapToken")).toString();
    QVERIFY(bootstrap.startsWith(QLatin1String("bt_")));
    // … which opens one session, once, without the public key.
    HttpClient page(m_ph->base());
    const QJsonObject open{{QStringLiteral("siteId"), m_siteId},
                           {QStringLiteral("host"), QStringLiteral("shop.example")},
                           {QStringLiteral("bootstrapToken"), bootstrap}};
    r = page.post(QStringLiteral("/v2/runtime/session/open"), open);
    QCOMPARE(r.status, 200);
    Opened s;
    s.sessionId = dataOf(r).value(QStringLiteral("sessionId")).toString();
    s.token = dataOf(r).value(QStringLiteral("sessionToken")).toString();
    r = page.post(QStringLiteral("/v2/runtime/session/open"), open);
    QCOMPARE(r.status, 401);
    QCOMPARE(codeOf(r), QStringLiteral("BOOTSTRAP_REQUIRED"));
    // A context token carries what the site's server knows about its visitor.
    r = server.post(QStringLiteral("/v2/runtime/site-tokens"),
                    {{QStringLiteral("kind"), QStringLiteral("context")},
                     {QStringLiteral("subject"), QStringLiteral("customer-42")},
                     {QStringLiteral("context"),
                      QJsonObject{{QStringLiteral("plan"), QStringLiteral("gold")},
                                  {QStringLiteral("password"), QStringLiteral("never")}}}});
    QCOMPARE(r.status, 201);
    const QString context = dataOf(r).value(QStringLiteral("contextToken")).toString();
    r = call(QStringLiteral("/v2/runtime/session/context"), s,
             {{QStringLiteral("visitor"), QJsonObject{{QStringLiteral("contextToken"), context}}}});
    QCOMPARE(r.status, 200);
    QCOMPARE(dataOf(r)[QStringLiteral("contextToken")][QStringLiteral("status")].toString(),
             QStringLiteral("resolved"));
    QCOMPARE(dataOf(r)[QStringLiteral("context")][QStringLiteral("plan")].toString(),
             QStringLiteral("gold"));
    QCOMPARE(dataOf(r)[QStringLiteral("context")][QStringLiteral("subject")].toString(),
             QStringLiteral("customer-42"));
    QVERIFY(!r.body.contains("never"));
    // Refusals: no secret, a public key, a session token, a made-up secret.
    for (const QString &bad : {QString(), m_publicKey, s.token,
                               QStringLiteral("sk_site_thisIsNoSecretKeyOfThisService000")}) {
        HttpClient other(m_ph->base());
        other.setBearer(bad);
        r = other.post(QStringLiteral("/v2/runtime/site-tokens"),
                       {{QStringLiteral("kind"), QStringLiteral("bootstrap")}});
        QCOMPARE(r.status, 401);
        QCOMPARE(codeOf(r), QStringLiteral("SITE_SECRET_INVALID"));
    }
    r = server.post(QStringLiteral("/v2/runtime/site-tokens"),
                    {{QStringLiteral("kind"), QStringLiteral("x")}});
    QCOMPARE(r.status, 400);
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("kind"));
    r = server.post(QStringLiteral("/v2/runtime/site-tokens"),
                    {{QStringLiteral("kind"), QStringLiteral("bootstrap")},
                     {QStringLiteral("host"), QStringLiteral("elsewhere.test")}});
    QCOMPARE(r.status, 400);
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("host"));
    r = server.post(QStringLiteral("/v2/runtime/site-tokens"),
                    {{QStringLiteral("kind"), QStringLiteral("context")},
                     {QStringLiteral("subject"), QStringLiteral("customer-77")},
                     {QStringLiteral("context"), QJsonObject{{QStringLiteral("plan"), 1}}}});
    QCOMPARE(r.status, 201);
    // A new secret retires the old one; no secret or token is stored in clear.
    QCOMPARE(m_ph->client()
                 .post(QStringLiteral("/generateSiteSecret"), {{QStringLiteral("keyId"), keyId}})
                 .status,
             201);
    r = server.post(QStringLiteral("/v2/runtime/site-tokens"),
                    {{QStringLiteral("kind"), QStringLiteral("bootstrap")}});
    QCOMPARE(r.status, 401);
    const QByteArray bytes = storedBytes();
    QVERIFY(!bytes.isEmpty());
    for (const QString &v : {secret, bootstrap, context})
        QVERIFY2(!bytes.contains(v.toUtf8()), qPrintable(v.left(8)));
    // A context token's payload is sealed until it is exchanged (then the session keeps
    // the sanitized context, as it keeps visitor.context).
    QVERIFY(!bytes.contains("customer-77"));
}

// visitor.contextToken is read on session/open (spec: "session/open (bootstrap)" accepts
// it), not only on /session/context.
void tst_Runtime::exchangesAContextTokenOnTheBootstrapOpen()
{
    HttpResponse r = m_ph->client().post(QStringLiteral("/generateSiteSecret"),
                                         {{QStringLiteral("keyId"), m_keyId}});
    QCOMPARE(r.status, 201);
    HttpClient server(m_ph->base());
    server.setBearer(r.json().value(QStringLiteral("secretKey")).toString());
    r = server.post(QStringLiteral("/v2/runtime/site-tokens"),
                    {{QStringLiteral("kind"), QStringLiteral("context")},
                     {QStringLiteral("context"),
                      QJsonObject{{QStringLiteral("plan"), QStringLiteral("platinum")}}}});
    QCOMPARE(r.status, 201);
    const QString token = dataOf(r).value(QStringLiteral("contextToken")).toString();
    const auto openWith = [&](const QJsonValue &contextToken) {
        HttpClient page(m_ph->base());
        return page.post(
            QStringLiteral("/v2/runtime/session/open"),
            {{QStringLiteral("siteId"), m_siteId},
             {QStringLiteral("url"), QStringLiteral("https://shop.example/")},
             {QStringLiteral("publicKey"), m_publicKey},
             {QStringLiteral("visitor"),
              QJsonObject{{QStringLiteral("context"),
                           QJsonObject{{QStringLiteral("lang"), QStringLiteral("de")}}},
                          {QStringLiteral("contextToken"), contextToken}}}});
    };
    r = openWith(token);
    QCOMPARE(r.status, 200);
    QCOMPARE(dataOf(r)[QStringLiteral("contextToken")][QStringLiteral("status")].toString(),
             QStringLiteral("resolved"));
    QCOMPARE(dataOf(r)[QStringLiteral("context")][QStringLiteral("plan")].toString(),
             QStringLiteral("platinum"));
    QCOMPARE(dataOf(r)[QStringLiteral("context")][QStringLiteral("lang")].toString(),
             QStringLiteral("de"));
    // Once: the same token on the next open is already exchanged, and adds nothing.
    r = openWith(token);
    QCOMPARE(r.status, 200);
    QCOMPARE(dataOf(r)[QStringLiteral("contextToken")][QStringLiteral("status")].toString(),
             QStringLiteral("already_exchanged"));
    QVERIFY(!dataOf(r)[QStringLiteral("context")].toObject().contains(QStringLiteral("plan")));
    // Checked like on /session/context.
    for (const QJsonValue &bad : {QJsonValue(QString(2049, QLatin1Char('a'))), QJsonValue(7)}) {
        r = openWith(bad);
        QCOMPARE(r.status, 400);
        QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(),
                 QStringLiteral("visitor.contextToken"));
    }
}

void tst_Runtime::actsOnAnExternalPageInTheCloudBrowser()
{
    FixtureServer ferries;
    QVERIFY(ferries.start());
    ferries.page("/search", htmlPage(QStringLiteral("Ferries"),
                                     QStringLiteral("<form action=\"/times\"><label>Port <input "
                                                    "name=\"port\"></label><button>Go</button>"
                                                    "</form>")));
    ferries.page("/times", htmlPage(QStringLiteral("Times"), QStringLiteral("<p>Departures</p>")));
    // On loopback: reachable for the visitor's act only as one of the site's private hosts.
    setPrivateHosts({QStringLiteral("127.0.0.1:%1").arg(ferries.port())});
    // The owner allows the cloud sandbox for this key.
    QCOMPARE(m_ph->client()
                 .post(QStringLiteral("/updateSiteKeyPolicy"),
                       {{QStringLiteral("keyId"), m_keyId},
                        {QStringLiteral("sitePolicy"),
                         QJsonObject{{QStringLiteral("cloudSandboxEnabled"), true}}}})
                 .status,
             200);
    const Opened s = openSession();
    const QString runId =
        dataOf(command(s, {{QStringLiteral("message"), QStringLiteral("find a ferry")}}))
            .value(QStringLiteral("runId"))
            .toString();
    QJsonObject body{{QStringLiteral("runId"), runId},
                     {QStringLiteral("url"), ferries.url(QStringLiteral("/search"))},
                     {QStringLiteral("intent"), QStringLiteral("act")}};
    // act needs a task.
    QJsonObject st = state(s);
    body.insert(QStringLiteral("expectedEpoch"), st.value(QStringLiteral("epoch")));
    body.insert(QStringLiteral("expectedSeq"), st.value(QStringLiteral("seq")));
    HttpResponse r = call(QStringLiteral("/v2/runtime/context/external"), s, body);
    QCOMPARE(r.status, 400);
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("message"));
    body.insert(QStringLiteral("message"),
                QStringLiteral("Type \"Brest\" into \"Port\" and click \"Go\""));
    QList<LeaseOptions> leased;
    BrowserPool &pool = m_ph->service().pool();
    const auto watch = connect(&pool, &BrowserPool::leaseStarted, &pool,
                               [&leased](BrowserLease *lease) { leased << lease->options(); });
    r = call(QStringLiteral("/v2/runtime/context/external"), s, body);
    disconnect(watch);
    QCOMPARE(r.status, 200);
    // The visitor's task acts in a page from the visitors' share of the pool, the site's.
    QVERIFY(!leased.isEmpty());
    for (const LeaseOptions &o : std::as_const(leased)) {
        QVERIFY(o.isVisitor());
        QCOMPARE(o.site, m_siteId);
    }
    const QJsonObject outcome = dataOf(r).value(QStringLiteral("outcome")).toObject();
    QCOMPARE(outcome.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY(ferries.requests("/times").size() == 1);
    QVERIFY(ferries.requests("/times").first().path.contains("port=Brest"));
    const QJsonArray tabs = state(s).value(QStringLiteral("tabs")).toArray();
    QCOMPARE(tabs.last()[QStringLiteral("status")].toString(), QStringLiteral("acted"));
    QCOMPARE(m_ph->client()
                 .post(QStringLiteral("/updateSiteKeyPolicy"),
                       {{QStringLiteral("keyId"), m_keyId},
                        {QStringLiteral("sitePolicy"),
                         QJsonObject{{QStringLiteral("cloudSandboxEnabled"), false}}}})
                 .status,
             200);
}

void tst_Runtime::opensEachRouteWithItsOwnCredentialOnly_data()
{
    // The auth matrix of the runtime's credentials: every session-scoped route against
    // every kind of credential; only the session's own token opens it (the stream: only
    // its own ticket). What "opens" means: anything but 401.
    const Opened mine = openSession();
    const Opened other = openSession();
    const QStringList credentials{QString(),
                                  mine.token,
                                  other.token,
                                  mine.stream,
                                  m_publicKey,
                                  m_ph->ownerKey(),
                                  QStringLiteral("rds_thisIsNoDelegatedSessionOfThisService00"),
                                  QStringLiteral("sk_site_thisIsNoSecretKeyOfThisService000")};
    const QStringList names{
        QStringLiteral("no credential"),           QStringLiteral("the session's token"),
        QStringLiteral("another session's token"), QStringLiteral("the session's stream ticket"),
        QStringLiteral("the site's public key"),   QStringLiteral("the owner's API key"),
        QStringLiteral("a delegation token"),      QStringLiteral("a secret site key")};
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("sessionId");
    QTest::addColumn<QString>("credential");
    QTest::addColumn<bool>("opens");
    for (const QString &path :
         {QStringLiteral("/v2/runtime/state"), QStringLiteral("/v2/runtime/command"),
          QStringLiteral("/v2/runtime/session/context"), QStringLiteral("/v2/runtime/snapshot"),
          QStringLiteral("/v2/runtime/context/external"),
          QStringLiteral("/v2/runtime/telemetry/ingest"), QStringLiteral("/v2/runtime/stream")}) {
        const bool stream = path.endsWith(QLatin1String("/stream"));
        for (qsizetype c = 0; c < credentials.size(); ++c) {
            const bool opens = stream ? c == 3 : c == 1;
            QTest::newRow(qPrintable(QStringLiteral("%1 with %2 %3")
                                         .arg(path, names.at(c),
                                              opens              ? QStringLiteral("opens")
                                              : stream && c == 0 ? QStringLiteral("is 400")
                                                                 : QStringLiteral("is 401"))))
                << path << mine.sessionId << credentials.at(c) << opens;
        }
    }
}

void tst_Runtime::opensEachRouteWithItsOwnCredentialOnly()
{
    QFETCH(QString, path);
    QFETCH(QString, sessionId);
    QFETCH(QString, credential);
    QFETCH(bool, opens);
    HttpClient c(m_ph->base());
    HttpResponse r;
    if (path.endsWith(QLatin1String("/stream"))) {
        // A stream that opens stays open: read only its head.
        const QByteArray head =
            HttpClient::raw(m_ph->port(),
                            "GET " + path.toUtf8() + "?streamTicket=" + credential.toUtf8() +
                                " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n",
                            3000, "\r\n\r\n");
        r.status = head.mid(9, 3).toInt();
    } else {
        c.setBearer(credential);
        r = c.post(path, {{QStringLiteral("sessionId"), sessionId}});
    }
    if (opens)
        QVERIFY2(r.status != 401 && r.status != 0, r.body.constData());
    else if (credential.isEmpty() && path.endsWith(QLatin1String("/stream")))
        QCOMPARE(r.status, 400); // no ticket at all: the missing field is named
    else
        QCOMPARE(r.status, 401);
    // No credential is ever echoed back.
    if (!credential.isEmpty())
        QVERIFY(!r.body.contains(credential.toUtf8()));
}

std::pair<QString, QString> tst_Runtime::newSite(const QString &domain)
{
    const HttpResponse r =
        m_ph->client().post(QStringLiteral("/generateSiteKey"),
                            {{QStringLiteral("siteName"), domain},
                             {QStringLiteral("label"), QStringLiteral("embed")},
                             {QStringLiteral("allowedDomains"), QJsonArray{domain}}});
    r.expectStatus({201}, __FILE__, __LINE__);
    return {r.json().value(QStringLiteral("siteId")).toString(),
            r.json()[QStringLiteral("key")][QStringLiteral("publicKey")].toString()};
}

tst_Runtime::Opened tst_Runtime::openOn(const std::pair<QString, QString> &site, const QString &url)
{
    HttpClient c(m_ph->base());
    const HttpResponse r = c.post(QStringLiteral("/v2/runtime/session/open"),
                                  {{QStringLiteral("siteId"), site.first},
                                   {QStringLiteral("url"), url},
                                   {QStringLiteral("publicKey"), site.second}});
    r.expectStatus({200}, __FILE__, __LINE__);
    Opened o;
    o.data = dataOf(r);
    o.sessionId = o.data.value(QStringLiteral("sessionId")).toString();
    o.token = o.data.value(QStringLiteral("sessionToken")).toString();
    o.stream = o.data.value(QStringLiteral("streamToken")).toString();
    return o;
}

HttpResponse tst_Runtime::openFrom(const QString &local, const std::pair<QString, QString> &site,
                                   const QString &url)
{
    return HttpClient::sendFrom(
        local, "POST", QUrl(m_ph->base() + QStringLiteral("/v2/runtime/session/open")),
        QJsonDocument(QJsonObject{{QStringLiteral("siteId"), site.first},
                                  {QStringLiteral("url"), url},
                                  {QStringLiteral("publicKey"), site.second}})
            .toJson(QJsonDocument::Compact),
        {{"Content-Type", "application/json"}});
}

void tst_Runtime::replacesTheCheckpointInsteadOfPilingUpObjects()
{
    // Twenty checkpoints of one session, each large enough to be offloaded, leave one
    // stored object (the last one's): the store holds one checkpoint's bytes, not twenty.
    const Opened s = openSession();
    auto objects = [&] {
        QSqlQuery q(m_ph->service().store().database());
        q.prepare(QStringLiteral("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM stored_objects"
                                 " WHERE kind = 'runtime_snapshot' AND name = :name"));
        q.bindValue(QStringLiteral(":name"), s.sessionId + QStringLiteral(".json"));
        if (!q.exec() || !q.next())
            return qMakePair(-1, qint64(-1));
        return qMakePair(q.value(0).toInt(), q.value(1).toLongLong());
    };
    qint64 last = 0;
    for (int i = 1; i <= 20; ++i) {
        const HttpResponse r =
            call(QStringLiteral("/v2/runtime/snapshot"), s, checkpointOf(3000 + i * 100, i));
        QCOMPARE(r.status, 200);
        QVERIFY(dataOf(r).value(QStringLiteral("offloaded")).toBool());
        last = dataOf(r).value(QStringLiteral("bytes")).toInteger();
    }
    QCOMPARE(objects(), qMakePair(1, last));
    QCOMPARE(
        int(state(s)[QStringLiteral("snapshot")][QStringLiteral("payload")][QStringLiteral("dom")]
                .toString()
                .size()),
        5000 - 10);
    // A small checkpoint after a large one is kept inline, and takes the object away.
    QCOMPARE(call(QStringLiteral("/v2/runtime/snapshot"), s, checkpointOf(100, 21)).status, 200);
    QCOMPARE(objects(), qMakePair(0, qint64(0)));
}

void tst_Runtime::refusesACheckpointOverAStorageQuota_data()
{
    QTest::addColumn<QString>("setting");
    QTest::addColumn<int>("limit");
    QTest::addColumn<int>("others");   // checkpoints of the site's other sessions first
    QTest::addColumn<int>("accepted"); // the session's checkpoint that fits
    QTest::addColumn<int>("refused");  // the one after it that does not
    QTest::addColumn<QString>("code");
    QTest::newRow("one write over runtime.maxSnapshotBytes is 413")
        << QStringLiteral("runtime.maxSnapshotBytes") << 4096 << 0 << 2000 << 5000
        << QStringLiteral("SNAPSHOT_TOO_LARGE");
    QTest::newRow("a session over runtime.maxStoredBytesPerSession is 413")
        << QStringLiteral("runtime.maxStoredBytesPerSession") << 4096 << 0 << 2000 << 5000
        << QStringLiteral("SESSION_STORAGE_QUOTA_EXCEEDED");
    QTest::newRow("a site over runtime.maxStoredBytesPerSite is 413")
        << QStringLiteral("runtime.maxStoredBytesPerSite") << 6000 << 2000 << 2000 << 4500
        << QStringLiteral("SITE_STORAGE_QUOTA_EXCEEDED");
}

void tst_Runtime::refusesACheckpointOverAStorageQuota()
{
    QFETCH(QString, setting);
    QFETCH(int, limit);
    QFETCH(int, others);
    QFETCH(int, accepted);
    QFETCH(int, refused);
    QFETCH(QString, code);
    const QString domain =
        QStringLiteral("quota-%1.example").arg(setting.section(u'.', 1).toLower());
    const auto site = newSite(domain);
    const ScopedSetting quota(*m_ph, setting, limit);
    QVERIFY2(quota.error.isEmpty(), qPrintable(quota.error));
    const QString url = QStringLiteral("https://%1/").arg(domain);
    if (others > 0)
        QCOMPARE(
            call(QStringLiteral("/v2/runtime/snapshot"), openOn(site, url), checkpointOf(others, 1))
                .status,
            200);
    const Opened s = openOn(site, url);
    QCOMPARE(call(QStringLiteral("/v2/runtime/snapshot"), s, checkpointOf(accepted, 1)).status,
             200);
    // Replacing the stored checkpoint with one of the same size fits: it counts in place of
    // the one it replaces.
    QCOMPARE(call(QStringLiteral("/v2/runtime/snapshot"), s, checkpointOf(accepted, 2)).status,
             200);
    const HttpResponse r =
        call(QStringLiteral("/v2/runtime/snapshot"), s, checkpointOf(refused, 3));
    QCOMPARE(r.status, 413);
    QCOMPARE(codeOf(r), code);
    QCOMPARE(dataOf(r).value(QStringLiteral("setting")).toString(), setting);
    QCOMPARE(dataOf(r).value(QStringLiteral("limitBytes")).toInteger(), qint64(limit));
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("payload"));
    QVERIFY(!dataOf(r).value(QStringLiteral("retryable")).toBool(true));
    // Nothing stored is lost: the previous checkpoint is still the session's.
    const QJsonObject snapshot = state(s).value(QStringLiteral("snapshot")).toObject();
    QCOMPARE(snapshot.value(QStringLiteral("seq")).toInt(), 2);
    QCOMPARE(int(snapshot[QStringLiteral("payload")][QStringLiteral("dom")].toString().size()),
             accepted - 10);
}

void tst_Runtime::refusesTelemetryOverTheSessionsQuota()
{
    const ScopedSetting quota(*m_ph, QStringLiteral("runtime.maxStoredBytesPerSession"), 4096);
    QVERIFY2(quota.error.isEmpty(), qPrintable(quota.error));
    const Opened s = openSession();
    QCOMPARE(call(QStringLiteral("/v2/runtime/snapshot"), s, checkpointOf(3000, 1)).status, 200);
    QJsonArray events;
    for (int i = 0; i < 5; ++i)
        events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("scroll")},
                                  {QStringLiteral("note"), QString(150, QLatin1Char('n'))}});
    const QJsonObject batch{{QStringLiteral("events"), events}};
    // About 850 bytes a batch: the first fits beside the checkpoint, the second does not.
    QCOMPARE(call(QStringLiteral("/v2/runtime/telemetry/ingest"), s, batch).status, 202);
    const HttpResponse r = call(QStringLiteral("/v2/runtime/telemetry/ingest"), s, batch);
    QCOMPARE(r.status, 413);
    QCOMPARE(codeOf(r), QStringLiteral("SESSION_STORAGE_QUOTA_EXCEEDED"));
    QCOMPARE(dataOf(r).value(QStringLiteral("setting")).toString(),
             QStringLiteral("runtime.maxStoredBytesPerSession"));
    QCOMPARE(dataOf(r).value(QStringLiteral("field")).toString(), QStringLiteral("events"));
    QCOMPARE(m_ph->service().runtime().repository().telemetryCount(s.sessionId), 1);
    QCOMPARE(state(s)[QStringLiteral("snapshot")][QStringLiteral("seq")].toInt(), 1);
}

void tst_Runtime::purgesTelemetryAfterItsRetention()
{
    // The storage purger forgets telemetry runtime.telemetryRetentionHours after it came.
    const ScopedSetting retention(*m_ph, QStringLiteral("runtime.telemetryRetentionHours"), 1);
    QVERIFY2(retention.error.isEmpty(), qPrintable(retention.error));
    const ScopedSetting often(*m_ph, QStringLiteral("storage.purgeIntervalMs"), 20);
    QVERIFY2(often.error.isEmpty(), qPrintable(often.error));
    const QJsonObject batch{
        {QStringLiteral("events"),
         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("click")}}}}};
    const Opened older = openSession();
    QCOMPARE(call(QStringLiteral("/v2/runtime/telemetry/ingest"), older, batch).status, 202);
    m_clock->advance(30 * 60 * 1000);
    const Opened newer = openSession();
    QCOMPARE(call(QStringLiteral("/v2/runtime/telemetry/ingest"), newer, batch).status, 202);
    runtime::RuntimeRepository &repo = m_ph->service().runtime().repository();
    QCOMPARE(repo.telemetryCount(older.sessionId), 1);
    m_clock->advance(31 * 60 * 1000); // the older batch is an hour and a minute old
    QTRY_COMPARE_WITH_TIMEOUT(repo.telemetryCount(older.sessionId), 0, 5000);
    QCOMPARE(repo.telemetryCount(newer.sessionId), 1); // 31 minutes: kept
}

void tst_Runtime::limitsSessionOpensPerClientAndSite_data()
{
    QTest::addColumn<QString>("setting");
    QTest::addColumn<QString>("scope");
    QTest::newRow("the 4th open in a minute from one client is 429, another client still opens")
        << QStringLiteral("runtime.sessionOpensPerMinutePerClient") << QStringLiteral("client");
    QTest::newRow("the 4th session in a minute on one site is 429, another site still opens")
        << QStringLiteral("runtime.sessionOpensPerMinutePerSite") << QStringLiteral("site");
}

void tst_Runtime::limitsSessionOpensPerClientAndSite()
{
    QFETCH(QString, setting);
    QFETCH(QString, scope);
    const bool perClient = scope == QLatin1String("client");
    const auto site = newSite(QStringLiteral("opens-%1.example").arg(scope));
    const auto other = newSite(QStringLiteral("opens-other-%1.example").arg(scope));
    const QString url = QStringLiteral("https://opens-%1.example/").arg(scope);
    const QString otherUrl = QStringLiteral("https://opens-other-%1.example/").arg(scope);
    m_clock->advance(61 * 1000); // a minute of its own
    const ScopedSetting limit(*m_ph, setting, 3);
    QVERIFY2(limit.error.isEmpty(), qPrintable(limit.error));
    // Three opens from 127.0.0.1 (per site: two of them, and one from another client).
    for (int i = 0; i < 3; ++i) {
        const HttpResponse r =
            openFrom(perClient || i < 2 ? QStringLiteral("127.0.0.1") : QStringLiteral("127.0.0.2"),
                     site, url);
        QVERIFY2(r.status == 200, qPrintable(r.error + QString::fromUtf8(r.body)));
    }
    const HttpResponse over = openFrom(QStringLiteral("127.0.0.1"), site, url);
    QCOMPARE(over.status, 429);
    QCOMPARE(over.json().value(QStringLiteral("code")).toString(), QStringLiteral("RATE_LIMITED"));
    QCOMPARE(dataOf(over).value(QStringLiteral("setting")).toString(), setting);
    QCOMPARE(dataOf(over).value(QStringLiteral("scope")).toString(), scope);
    const int retryAfter = over.header("Retry-After").toInt();
    QVERIFY2(retryAfter >= 1 && retryAfter <= 60, over.header("Retry-After").constData());
    // Another client (per client) or another site (per site) is not held back.
    const HttpResponse others = perClient ? openFrom(QStringLiteral("127.0.0.2"), site, url)
                                          : openFrom(QStringLiteral("127.0.0.1"), other, otherUrl);
    QVERIFY2(others.status == 200, qPrintable(others.error + QString::fromUtf8(others.body)));
    // A minute later the window has moved on.
    m_clock->advance(61 * 1000);
    QCOMPARE(openFrom(QStringLiteral("127.0.0.1"), site, url).status, 200);
}

PH_WEBENGINE_TEST_MAIN(tst_Runtime)
#include "tst_runtime.moc"
