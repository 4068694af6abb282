// Durable callbacks end to end: a receiver served by this test on loopback.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/Clock.h"
#include "core/Store.h"
#include "engine/RunManager.h"
#include "webhooks/WebhookQueue.h"

#include <QDir>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QUuid>

#include <openssl/hmac.h>

#include <csignal>

using namespace ph;
using namespace ph::test;

namespace {

// The bytes of a store on disk: the database and its write-ahead log.
QByteArray storeBytes(const QString &dataDir)
{
    QByteArray bytes;
    for (const char *name : {"pilothouse.db", "pilothouse.db-wal"}) {
        QFile f(QDir(dataDir).filePath(QLatin1String(name)));
        if (f.open(QIODevice::ReadOnly))
            bytes += f.readAll();
    }
    return bytes;
}

// An independent signer: OpenSSL's HMAC, not the production code's.
QByteArray opensslSignature(const QByteArray &secret, const QByteArray &timestamp,
                            const QByteArray &body)
{
    const QByteArray message = timestamp + '.' + body;
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), secret.constData(), int(secret.size()),
         reinterpret_cast<const unsigned char *>(message.constData()), size_t(message.size()), mac,
         &len);
    return QByteArray(reinterpret_cast<const char *>(mac), int(len)).toHex();
}

QStringList sortedKeys(const QJsonObject &o)
{
    QStringList k = o.keys();
    k.sort();
    return k;
}

} // namespace

class tst_Webhooks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void sendsTheCompletedPayloadFieldByField();
    void sendsTheFailedPayloadFieldByField();
    void signsWhatAnIndependentHmacVerifies();
    void sendsBearerBasicAndCustomHeaders();
    void sendsSvcEventsOnlyToSubscriptionsThatSelectThem();
    void tellsScrapeOutcomes();
    void retriesOnThePublishedScheduleAndGivesUp();
    void redeliversOnRequestAndLogsEveryAttempt();
    void testsOnlyTargetsASubscriptionCouldUse();
    void countsTestDeliveriesAgainstTheKey();
    void refusesHeaderValuesThatWouldSplitADelivery_data();
    void refusesHeaderValuesThatWouldSplitADelivery();
    void sealsHeaderValuesAndMasksTheirEcho_data();
    void sealsHeaderValuesAndMasksTheirEcho();
    void storesARunsEndOnlyTogetherWithItsCallbacks();
    void resumesPendingDeliveriesAfterKillNine();

private:
    QList<FixtureRequest> hooks(const QByteArray &path) const { return m_receiver.requests(path); }

    FixtureServer m_site;
    FixtureServer m_receiver;
    std::unique_ptr<TestService> m_ph;
    QList<int> m_statuses; // what the /flaky receiver answers, in order
};

void tst_Webhooks::initTestCase()
{
    QVERIFY(m_site.start());
    QVERIFY(m_receiver.start());
    m_site.route("/hang", [](const FixtureRequest &) {
        FixtureResponse r;
        r.hang = true;
        return r;
    });
    m_site.page("/shop",
                "<!doctype "
                "html><title>Shop</title><table><thead><tr><th>Name</th><th>Price</th></tr></thead>"
                "<tbody><tr><td>Rope</td><td>12.50</td></tr></tbody></table>");
    for (const QByteArray &path : {QByteArray("/ok"), QByteArray("/a"), QByteArray("/b")}) {
        m_receiver.route(path, [](const FixtureRequest &) {
            FixtureResponse r;
            r.body = "ok";
            return r;
        });
    }
    m_receiver.route("/flaky", [this](const FixtureRequest &) {
        FixtureResponse r;
        r.status = m_statuses.isEmpty() ? 200 : m_statuses.takeFirst();
        r.body = r.status == 200 ? QByteArray("thanks") : QByteArray("try later, please");
        return r;
    });
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
}

void tst_Webhooks::cleanupTestCase()
{
    m_ph.reset();
}

void tst_Webhooks::init()
{
    m_statuses.clear();
}

void tst_Webhooks::sendsTheCompletedPayloadFieldByField()
{
    const int before = m_receiver.hits("/ok");
    HttpClient c = m_ph->client();
    const auto r =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("List the products")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                {QStringLiteral("webhookUrl"), m_receiver.url(QStringLiteral("/ok"))}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/ok"), before + 1, 5000);
    const FixtureRequest hook = hooks("/ok").last();
    QCOMPARE(hook.method, QByteArray("POST"));
    QCOMPARE(hook.headers.value("content-type"), QByteArray("application/json"));
    QCOMPARE(hook.headers.value("x-svc-event"), QByteArray("workflow.completed"));
    QVERIFY(hook.headers.value("x-svc-delivery-id").startsWith("dlv_"));
    QVERIFY(!hook.headers.contains("x-svc-signature")); // no secret, no signature
    const QJsonObject p = QJsonDocument::fromJson(hook.body).object();
    QCOMPARE(
        sortedKeys(p),
        (QStringList{QStringLiteral("data"), QStringLiteral("event"), QStringLiteral("metadata"),
                     QStringLiteral("originalRequest"), QStringLiteral("requestId"),
                     QStringLiteral("success"), QStringLiteral("timestamp")}));
    QCOMPARE(p.value(QStringLiteral("event")).toString(), QStringLiteral("workflow.completed"));
    QCOMPARE(p.value(QStringLiteral("success")).toBool(), true);
    QCOMPARE(p.value(QStringLiteral("requestId")).toString(),
             r.json().value(QStringLiteral("requestId")).toString());
    QVERIFY(
        QDateTime::fromString(p.value(QStringLiteral("timestamp")).toString(), Qt::ISODateWithMs)
            .isValid());
    QVERIFY(p.value(QStringLiteral("timestamp")).toString().endsWith(QLatin1Char('Z')));
    const QJsonObject data = p.value(QStringLiteral("data")).toObject();
    QCOMPARE(sortedKeys(data),
             (QStringList{QStringLiteral("creditsUsed"), QStringLiteral("extractedData"),
                          QStringLiteral("output"), QStringLiteral("taskCompleted")}));
    QCOMPARE(data.value(QStringLiteral("taskCompleted")).toBool(), true);
    QCOMPARE(data.value(QStringLiteral("output")).toObject().value(QStringLiteral("trajectoryId")),
             r.json().value(QStringLiteral("trajectoryId")));
    QVERIFY(data.value(QStringLiteral("extractedData")).isArray());
    QCOMPARE(data.value(QStringLiteral("creditsUsed")).toDouble(),
             r.json()
                 .value(QStringLiteral("usage"))
                 .toObject()
                 .value(QStringLiteral("creditsUsed"))
                 .toDouble());
    const QJsonObject meta = p.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(sortedKeys(meta),
             (QStringList{QStringLiteral("creditsRemaining"), QStringLiteral("deviceId"),
                          QStringLiteral("executionTime"), QStringLiteral("tool")}));
    QCOMPARE(meta.value(QStringLiteral("tool")).toString(), QStringLiteral("agent"));
    QCOMPARE(meta.value(QStringLiteral("deviceId")).toString(), QStringLiteral("cloud"));
    QVERIFY(meta.value(QStringLiteral("executionTime")).toDouble() > 0);
    const QJsonObject original = p.value(QStringLiteral("originalRequest")).toObject();
    QCOMPARE(original.value(QStringLiteral("tool")).toString(), QStringLiteral("agent"));
    QCOMPARE(original.value(QStringLiteral("params"))
                 .toObject()
                 .value(QStringLiteral("input"))
                 .toString(),
             QStringLiteral("List the products"));
}

void tst_Webhooks::sendsTheFailedPayloadFieldByField()
{
    const int before = m_receiver.hits("/ok");
    HttpClient c = m_ph->client();
    const auto r =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("click \"Nothing like this\"")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                {QStringLiteral("webhookUrl"), m_receiver.url(QStringLiteral("/ok"))}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/ok"), before + 1, 5000);
    const QJsonObject p = QJsonDocument::fromJson(hooks("/ok").last().body).object();
    QCOMPARE(sortedKeys(p), (QStringList{QStringLiteral("error"), QStringLiteral("event"),
                                         QStringLiteral("metadata"), QStringLiteral("requestId"),
                                         QStringLiteral("success"), QStringLiteral("timestamp")}));
    QCOMPARE(p.value(QStringLiteral("event")).toString(), QStringLiteral("workflow.failed"));
    QCOMPARE(p.value(QStringLiteral("success")).toBool(true), false);
    const QJsonObject error = p.value(QStringLiteral("error")).toObject();
    QCOMPARE(sortedKeys(error), (QStringList{QStringLiteral("code"), QStringLiteral("details"),
                                             QStringLiteral("message")}));
    QVERIFY(error.value(QStringLiteral("message"))
                .toString()
                .contains(QLatin1String("Nothing like this")));
    QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("RUN_FAILED"));
    QVERIFY(error.value(QStringLiteral("details")).isObject());
    QCOMPARE(sortedKeys(p.value(QStringLiteral("metadata")).toObject()),
             (QStringList{QStringLiteral("executionTime"), QStringLiteral("tool")}));
}

void tst_Webhooks::signsWhatAnIndependentHmacVerifies()
{
    const int before = m_receiver.hits("/ok");
    HttpClient c = m_ph->client();
    const qint64 sentAt = QDateTime::currentMSecsSinceEpoch();
    c.post(QStringLiteral("/agent"),
           {{QStringLiteral("input"), QStringLiteral("List the products")},
            {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
            {QStringLiteral("webhookUrl"), m_receiver.url(QStringLiteral("/ok"))},
            {QStringLiteral("webhookSecret"), QStringLiteral("whsec_test_1")}});
    QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/ok"), before + 1, 5000);
    const FixtureRequest hook = hooks("/ok").last();
    const QByteArray timestamp = hook.headers.value("x-svc-timestamp");
    const QByteArray signature = hook.headers.value("x-svc-signature");
    // Stamped between the request and the hook's arrival (bounds from the order of events).
    QVERIFY(timestamp.toLongLong() >= sentAt);
    QVERIFY(timestamp.toLongLong() <= QDateTime::currentMSecsSinceEpoch());
    QCOMPARE(signature, opensslSignature("whsec_test_1", timestamp, hook.body));
    QCOMPARE(signature, signature.toLower());
    // Any change to the body or a wrong secret does not verify.
    QVERIFY(signature != opensslSignature("whsec_test_2", timestamp, hook.body));
    QVERIFY(signature != opensslSignature("whsec_test_1", timestamp, hook.body + " "));
}

void tst_Webhooks::sendsBearerBasicAndCustomHeaders()
{
    const int a = m_receiver.hits("/a");
    const int b = m_receiver.hits("/b");
    HttpClient c = m_ph->client();
    const QJsonArray hooksList{
        QJsonObject{{QStringLiteral("url"), m_receiver.url(QStringLiteral("/a"))},
                    {QStringLiteral("secret"), QStringLiteral("s-a")},
                    {QStringLiteral("auth"),
                     QJsonObject{{QStringLiteral("type"), QStringLiteral("bearer")},
                                 {QStringLiteral("token"), QStringLiteral("tok-123")}}},
                    {QStringLiteral("headers"),
                     QJsonObject{{QStringLiteral("X-Env"), QStringLiteral("test")},
                                 {QStringLiteral("X-Team"), QStringLiteral("ops")}}}},
        QJsonObject{{QStringLiteral("url"), m_receiver.url(QStringLiteral("/b"))},
                    {QStringLiteral("auth"),
                     QJsonObject{{QStringLiteral("type"), QStringLiteral("basic")},
                                 {QStringLiteral("username"), QStringLiteral("hook")},
                                 {QStringLiteral("password"), QStringLiteral("pa:ss")}}}}};
    c.post(QStringLiteral("/agent"),
           {{QStringLiteral("input"), QStringLiteral("List the products")},
            {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
            {QStringLiteral("webhooks"), hooksList}});
    QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/a"), a + 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/b"), b + 1, 5000);
    const FixtureRequest ha = hooks("/a").last();
    QCOMPARE(ha.headers.value("authorization"), QByteArray("Bearer tok-123"));
    QCOMPARE(ha.headers.value("x-env"), QByteArray("test"));
    QCOMPARE(ha.headers.value("x-team"), QByteArray("ops"));
    QCOMPARE(ha.headers.value("x-svc-signature"),
             opensslSignature("s-a", ha.headers.value("x-svc-timestamp"), ha.body));
    const FixtureRequest hb = hooks("/b").last();
    QCOMPARE(hb.headers.value("authorization"), "Basic " + QByteArray("hook:pa:ss").toBase64());
    // Secrets stay sealed at rest.
    QSqlQuery q(m_ph->service().store().database());
    QVERIFY(q.exec(QStringLiteral("SELECT config FROM webhook_deliveries UNION ALL SELECT config "
                                  "FROM webhook_subscriptions")));
    while (q.next()) {
        QVERIFY(!q.value(0).toString().contains(QLatin1String("tok-123")));
        QVERIFY(!q.value(0).toString().contains(QLatin1String("pa:ss")));
    }
}

void tst_Webhooks::sendsSvcEventsOnlyToSubscriptionsThatSelectThem()
{
    const int a = m_receiver.hits("/a");
    const int b = m_receiver.hits("/b");
    const auto owed = [this](const QString &path, const QString &status) {
        QSqlQuery q(m_ph->service().store().database());
        q.prepare(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE url = ?") +
                  (status.isEmpty() ? QString() : QStringLiteral(" AND status = ?")));
        q.addBindValue(m_receiver.url(path));
        if (!status.isEmpty())
            q.addBindValue(status);
        return q.exec() && q.next() ? q.value(0).toInt() : -1;
    };
    const int owedB = owed(QStringLiteral("/b"), QString());
    HttpClient c = m_ph->client();
    c.post(QStringLiteral("/agent"),
           {{QStringLiteral("input"), QStringLiteral("List the products")},
            {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
            {QStringLiteral("webhooks"),
             QJsonArray{QJsonObject{{QStringLiteral("url"), m_receiver.url(QStringLiteral("/a"))},
                                    {QStringLiteral("events"),
                                     QJsonArray{QStringLiteral("svc.execution.succeeded")}}},
                        QJsonObject{{QStringLiteral("url"), m_receiver.url(QStringLiteral("/b"))},
                                    {QStringLiteral("events"),
                                     QJsonArray{QStringLiteral("svc.execution.failed")}}}}}});
    QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/a"), a + 1, 5000);
    // The run's callbacks are stored with its end, in one commit: once /a has one, every
    // delivery the run owes is in the store. All of them delivered, nothing more can go out.
    QTRY_COMPARE(owed(QStringLiteral("/a"), QStringLiteral("delivered")),
                 owed(QStringLiteral("/a"), QString()));
    QCOMPARE(owed(QStringLiteral("/b"), QString()), owedB);
    QCOMPARE(m_receiver.hits("/a"), a + 1); // only the selected event, not workflow.completed too
    QCOMPARE(m_receiver.hits("/b"), b);     // the run succeeded: nothing for svc.execution.failed
    const QJsonObject p = QJsonDocument::fromJson(hooks("/a").last().body).object();
    QCOMPARE(p.value(QStringLiteral("event")).toString(),
             QStringLiteral("svc.execution.succeeded"));
    const QJsonObject execution = p.value(QStringLiteral("execution")).toObject();
    QCOMPARE(execution.value(QStringLiteral("endpoint")).toString(), QStringLiteral("/agent"));
    QCOMPARE(execution.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY(execution.value(QStringLiteral("trajectoryId"))
                .toString()
                .startsWith(QLatin1String("traj_")));
    QCOMPARE(p.value(QStringLiteral("data")).toObject().value(QStringLiteral("status")).toString(),
             QStringLiteral("success"));
}

void tst_Webhooks::tellsScrapeOutcomes()
{
    const int before = m_receiver.hits("/ok");
    HttpClient c = m_ph->client();
    const auto r =
        c.post(QStringLiteral("/scrape"),
               {{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                {QStringLiteral("webhookUrl"), m_receiver.url(QStringLiteral("/ok"))}});
    QCOMPARE(r.status, 200);
    QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/ok"), before + 1, 5000);
    const QJsonObject p = QJsonDocument::fromJson(hooks("/ok").last().body).object();
    QCOMPARE(p.value(QStringLiteral("event")).toString(), QStringLiteral("workflow.completed"));
    QCOMPARE(
        p.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("tool")).toString(),
        QStringLiteral("scrape"));
    const QJsonArray extracted =
        p.value(QStringLiteral("data")).toObject().value(QStringLiteral("extractedData")).toArray();
    QCOMPARE(extracted.size(), 1);
    QCOMPARE(extracted[0].toObject().value(QStringLiteral("url")).toString(),
             m_site.url(QStringLiteral("/shop")));
}

void tst_Webhooks::retriesOnThePublishedScheduleAndGivesUp()
{
    ManualClock clock(1'800'000'000'000);
    TestService timed({}, {}, &clock);
    QVERIFY(timed.ok());
    auto &queue = timed.service().webhooks();
    const int before = m_receiver.hits("/flaky");
    m_statuses = {500, 503, 404, 429, 502};
    HttpClient c = timed.client();
    const auto r = c.post(QStringLiteral("/webhooks/test"),
                          {{QStringLiteral("url"), m_receiver.url(QStringLiteral("/flaky"))},
                           {QStringLiteral("secret"), QStringLiteral("s")}});
    QCOMPARE(r.status, 202);
    const QString id = r.json().value(QStringLiteral("deliveries")).toArray().first().toString();
    QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/flaky"), before + 1, 5000); // at once
    QTRY_COMPARE(queue.inFlight(), 0);
    const QList<qint64> delays{5000, 30000, 120000, 600000};
    for (int i = 0; i < delays.size(); ++i) {
        // One millisecond early: nothing goes out.
        clock.advance(delays[i] - 1);
        queue.pump(); // sends what is due before it returns
        QCOMPARE(queue.inFlight(), 0);
        QCOMPARE(queue.find(id, false)->attempts, 1 + i);
        QCOMPARE(m_receiver.hits("/flaky"), before + 1 + i);
        clock.advance(1);
        queue.pump();
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/flaky"), before + 2 + i, 5000);
        QTRY_COMPARE(queue.inFlight(), 0);
    }
    // Five attempts, all refused: the delivery is failed, and nothing more is sent.
    clock.advance(3600000);
    queue.pump(); // sends what is due before it returns
    QCOMPARE(queue.inFlight(), 0);
    QCOMPARE(m_receiver.hits("/flaky"), before + 5);
    const QJsonObject d = c.get(QStringLiteral("/webhooks/deliveries/") + id).json();
    QCOMPARE(d.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
    QCOMPARE(d.value(QStringLiteral("attempts")).toInt(), 5);
    const QJsonArray log = d.value(QStringLiteral("attemptLog")).toArray();
    QCOMPARE(log.size(), 5);
    const QList<int> statuses{500, 503, 404, 429, 502};
    qint64 previous = 0;
    for (int i = 0; i < 5; ++i) {
        const QJsonObject a = log[i].toObject();
        QCOMPARE(a.value(QStringLiteral("statusCode")).toInt(), statuses[i]);
        QCOMPARE(a.value(QStringLiteral("response")).toString(),
                 QStringLiteral("try later, please"));
        QVERIFY(a.contains(QStringLiteral("latencyMs")));
        const qint64 at =
            QDateTime::fromString(a.value(QStringLiteral("at")).toString(), Qt::ISODateWithMs)
                .toMSecsSinceEpoch();
        if (i > 0)
            QCOMPARE(at - previous, delays[i - 1]);
        previous = at;
    }
    // The same delivery id on every attempt, so receivers can deduplicate.
    QSet<QByteArray> ids;
    for (const auto &h : hooks("/flaky").mid(before))
        ids.insert(h.headers.value("x-svc-delivery-id"));
    QCOMPARE(ids.size(), 1);
}

void tst_Webhooks::redeliversOnRequestAndLogsEveryAttempt()
{
    m_statuses = {500, 500, 500, 500, 500};
    HttpClient c = m_ph->client();
    const auto r = c.post(QStringLiteral("/webhooks/test"),
                          {{QStringLiteral("url"), m_receiver.url(QStringLiteral("/flaky"))}});
    const QString id = r.json().value(QStringLiteral("deliveries")).toArray().first().toString();
    QTRY_COMPARE_WITH_TIMEOUT(c.get(QStringLiteral("/webhooks/deliveries/") + id)
                                  .json()
                                  .value(QStringLiteral("attempts"))
                                  .toInt(),
                              1, 5000);
    m_statuses.clear(); // the receiver is fine now
    const auto again = c.post(QStringLiteral("/webhooks/deliveries/%1/redeliver").arg(id), {});
    QCOMPARE(again.status, 202);
    QTRY_COMPARE_WITH_TIMEOUT(c.get(QStringLiteral("/webhooks/deliveries/") + id)
                                  .json()
                                  .value(QStringLiteral("status"))
                                  .toString(),
                              QStringLiteral("delivered"), 5000);
    const QJsonObject d = c.get(QStringLiteral("/webhooks/deliveries/") + id).json();
    QCOMPARE(d.value(QStringLiteral("attemptLog")).toArray().size(), 2);
    QCOMPARE(d.value(QStringLiteral("attemptLog"))
                 .toArray()
                 .last()
                 .toObject()
                 .value(QStringLiteral("statusCode"))
                 .toInt(),
             200);
    // The log lists it; a filter narrows it.
    const QJsonArray delivered =
        c.get(QStringLiteral("/webhooks/deliveries?status=delivered&limit=500"))
            .json()
            .value(QStringLiteral("deliveries"))
            .toArray();
    bool listed = false;
    for (const auto &x : delivered)
        listed |= x.toObject().value(QStringLiteral("id")).toString() == id;
    QVERIFY(listed);
    QCOMPARE(c.get(QStringLiteral("/webhooks/deliveries?status=nope")).status, 400);
    QCOMPARE(c.post(QStringLiteral("/webhooks/deliveries/dlv_nope/redeliver"), {}).status, 404);
    // Another key sees none of the owner's deliveries.
    HttpClient other(m_ph->base());
    other.setBearer(m_ph->mintKey(5));
    QCOMPARE(other.get(QStringLiteral("/webhooks/deliveries/") + id).status, 404);
}

void tst_Webhooks::testsOnlyTargetsASubscriptionCouldUse()
{
    HttpClient c = m_ph->client();
    const int before = c.get(QStringLiteral("/webhooks/deliveries?limit=500"))
                           .json()
                           .value(QStringLiteral("deliveries"))
                           .toArray()
                           .size();
    // Plain http to a public host: refused, as a webhookUrl would be; nothing is queued.
    auto r = c.post(QStringLiteral("/webhooks/test"),
                    {{QStringLiteral("url"), QStringLiteral("http://hooks.example/x")}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("INVALID_FIELD"));
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("url"));
    QVERIFY(r.json().value(QStringLiteral("error")).toString().contains(QLatin1String("https")));
    // Not an http(s) URL.
    r = c.post(QStringLiteral("/webhooks/test"),
               {{QStringLiteral("url"), QStringLiteral("ftp://hooks.example/x")}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("url"));
    QCOMPARE(c.get(QStringLiteral("/webhooks/deliveries?limit=500"))
                 .json()
                 .value(QStringLiteral("deliveries"))
                 .toArray()
                 .size(),
             before);
}

void tst_Webhooks::countsTestDeliveriesAgainstTheKey()
{
    // A closed port: every delivery stays pending, waiting for its retry.
    TestService capped({QStringLiteral("webhooks.maxPendingTestsPerKey=5"),
                        QStringLiteral("webhooks.maxTestCount=20")});
    QVERIFY2(capped.ok(), qPrintable(capped.error()));
    const QString target = QStringLiteral("http://127.0.0.1:1/hook");

    // No credits, no test.
    HttpClient broke(capped.base());
    broke.setBearer(capped.mintKey(0));
    auto r = broke.post(QStringLiteral("/webhooks/test"), {{QStringLiteral("url"), target}});
    QCOMPARE(r.status, 402);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("CREDITS_EXHAUSTED"));

    // Each delivery is billed.
    HttpClient c(capped.base());
    c.setBearer(capped.mintKey(1));
    r = c.post(QStringLiteral("/webhooks/test"),
               {{QStringLiteral("url"), target}, {QStringLiteral("count"), 4}});
    QCOMPARE(r.status, 202);
    const QJsonObject usage = r.json().value(QStringLiteral("usage")).toObject();
    QCOMPARE(usage.value(QStringLiteral("testDeliveries")).toInt(), 4);
    QCOMPARE(usage.value(QStringLiteral("creditsUsed")).toDouble(), 0.004);
    QCOMPARE(usage.value(QStringLiteral("creditsLeft")).toDouble(), 0.996);

    // Four pending: two more would pass webhooks.maxPendingTestsPerKey.
    r = c.post(QStringLiteral("/webhooks/test"),
               {{QStringLiteral("url"), target}, {QStringLiteral("count"), 2}});
    QCOMPARE(r.status, 429);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("BUSY"));
    const QJsonObject details = r.json().value(QStringLiteral("details")).toObject();
    QCOMPARE(details.value(QStringLiteral("scope")).toString(), QStringLiteral("key"));
    QCOMPARE(details.value(QStringLiteral("setting")).toString(),
             QStringLiteral("webhooks.maxPendingTestsPerKey"));
    QVERIFY(!r.header("retry-after").isEmpty());
    // One more fits; another key has its own allowance.
    QCOMPARE(c.post(QStringLiteral("/webhooks/test"), {{QStringLiteral("url"), target}}).status,
             202);
    HttpClient other(capped.base());
    other.setBearer(capped.mintKey(1));
    QCOMPARE(other.post(QStringLiteral("/webhooks/test"), {{QStringLiteral("url"), target}}).status,
             202);

    // webhooks.maxTestCount bounds one request.
    r = other.post(QStringLiteral("/webhooks/test"),
                   {{QStringLiteral("url"), target}, {QStringLiteral("count"), 21}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("count"));
}

void tst_Webhooks::refusesHeaderValuesThatWouldSplitADelivery_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("field");
    const QString hook = QStringLiteral("http://127.0.0.1:1/hook");
    const auto scrape = [&](const QJsonObject &subscription) {
        QJsonObject s = subscription;
        s.insert(QStringLiteral("url"), hook);
        return QJsonObject{
            {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
            {QStringLiteral("webhooks"), QJsonArray{s}}};
    };
    QTest::newRow("refuses a webhooks[].headers value with CR LF")
        << "/scrape"
        << scrape({{QStringLiteral("headers"),
                    QJsonObject{{QStringLiteral("X-Env"), QStringLiteral("a\r\nX-Evil: 1")}}}})
        << "webhooks[0].headers.X-Env";
    QTest::newRow("refuses a webhooks[].headers value with a NUL")
        << "/scrape"
        << scrape({{QStringLiteral("headers"),
                    QJsonObject{
                        {QStringLiteral("X-Env"), QString(QStringLiteral("a%1b")).arg(QChar(0))}}}})
        << "webhooks[0].headers.X-Env";
    QTest::newRow("refuses a webhooks[].headers name that is no header name")
        << "/scrape"
        << scrape({{QStringLiteral("headers"),
                    QJsonObject{{QStringLiteral("X-Evil: 1\r\nX-Env"), QStringLiteral("a")}}}})
        << "webhooks[0].headers.X-Evil: 1\r\nX-Env";
    QTest::newRow("refuses a webhooks[].auth token with a line break")
        << "/scrape"
        << scrape({{QStringLiteral("auth"),
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("bearer")},
                                {QStringLiteral("token"), QStringLiteral("t\nX-Evil: 1")}}}})
        << "webhooks[0].auth.token";
    QTest::newRow("refuses a /webhooks/test header value with CR LF")
        << "/webhooks/test"
        << QJsonObject{{QStringLiteral("url"), hook},
                       {QStringLiteral("headers"),
                        QJsonObject{{QStringLiteral("X-Env"), QStringLiteral("a\r\nX-Evil: 1")}}}}
        << "headers.X-Env";
    QTest::newRow("refuses a /webhooks/test bearer token with CR LF")
        << "/webhooks/test"
        << QJsonObject{{QStringLiteral("url"), hook},
                       {QStringLiteral("auth"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("bearer")},
                                    {QStringLiteral("token"), QStringLiteral("t\r\nX-Evil: 1")}}}}
        << "auth.token";
}

void tst_Webhooks::refusesHeaderValuesThatWouldSplitADelivery()
{
    QFETCH(QString, path);
    QFETCH(QJsonObject, body);
    QFETCH(QString, field);
    HttpClient c = m_ph->client();
    const int before = c.get(QStringLiteral("/webhooks/deliveries?limit=500"))
                           .json()
                           .value(QStringLiteral("deliveries"))
                           .toArray()
                           .size();
    const auto r = c.post(path, body);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("INVALID_FIELD"));
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
    // Nothing was queued.
    QCOMPARE(c.get(QStringLiteral("/webhooks/deliveries?limit=500"))
                 .json()
                 .value(QStringLiteral("deliveries"))
                 .toArray()
                 .size(),
             before);
}

void tst_Webhooks::sealsHeaderValuesAndMasksTheirEcho_data()
{
    QTest::addColumn<QString>("event");
    QTest::newRow("workflow.completed echoes the request with the header value masked")
        << QStringLiteral("workflow.completed");
    QTest::newRow("svc.execution.succeeded echoes the request with the header value masked")
        << QStringLiteral("svc.execution.succeeded");
}

void tst_Webhooks::sealsHeaderValuesAndMasksTheirEcho()
{
    QFETCH(QString, event);
    // A value no other test uses, so that finding it anywhere in the file means it leaked.
    const QByteArray value = "hdr-" + QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    const int before = m_receiver.hits("/a");
    HttpClient c = m_ph->client();
    const auto r =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("List the products")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                {QStringLiteral("webhooks"),
                 QJsonArray{QJsonObject{
                     {QStringLiteral("url"), m_receiver.url(QStringLiteral("/a"))},
                     {QStringLiteral("events"), QJsonArray{event}},
                     {QStringLiteral("headers"),
                      QJsonObject{{QStringLiteral("X-Api-Key"), QString::fromLatin1(value)},
                                  {QStringLiteral("X-Env"), QStringLiteral("staging")}}}}}}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/a"), before + 1, 5000);
    const FixtureRequest hook = hooks("/a").last();
    QCOMPARE(QString::fromLatin1(hook.headers.value("x-svc-event")), event);
    // Sent as given…
    QCOMPARE(hook.headers.value("x-api-key"), value);
    QCOMPARE(hook.headers.value("x-env"), QByteArray("staging"));
    // … echoed masked, names kept…
    QVERIFY(!hook.body.contains(value));
    const QJsonObject echoed = QJsonDocument::fromJson(hook.body)
                                   .object()
                                   .value(QStringLiteral("originalRequest"))
                                   .toObject()
                                   .value(QStringLiteral("params"))
                                   .toObject()
                                   .value(QStringLiteral("webhooks"))
                                   .toArray()
                                   .first()
                                   .toObject()
                                   .value(QStringLiteral("headers"))
                                   .toObject();
    QCOMPARE(echoed.value(QStringLiteral("X-Api-Key")).toString(),
             QStringLiteral("\u2022\u2022\u2022\u2022\u2022\u2022"));
    QCOMPARE(echoed.value(QStringLiteral("X-Env")).toString(),
             QStringLiteral("\u2022\u2022\u2022\u2022\u2022\u2022"));
    // … and sealed at rest: nowhere in the database file or its log.
    const QByteArray disk = storeBytes(m_ph->dataDir());
    QVERIFY(disk.contains("X-Api-Key") || disk.contains("sealedHeaders")); // the control
    QVERIFY(!disk.contains(value));
}

void tst_Webhooks::storesARunsEndOnlyTogetherWithItsCallbacks()
{
    // A store that refuses to queue a delivery (as a full disk would): the run's end,
    // which owes one, must not be stored without it. After a restart the run is found
    // executing, stored cancelled and announced, with its callback.
    QTemporaryDir dir;
    const int before = m_receiver.hits("/ok");
    QString trajectory;
    {
        TestService ph({}, dir.path());
        QVERIFY(ph.ok());
        QSqlQuery q(ph.service().store().database());
        QVERIFY(q.exec(QStringLiteral("CREATE TEMP TRIGGER no_deliveries BEFORE INSERT ON"
                                      " webhook_deliveries BEGIN SELECT RAISE(ABORT, 'disk"
                                      " full'); END")));
        QSignalSpy settled(&ph.service().runs(), &engine::RunManager::runSettled);
        HttpClient c = ph.client();
        const auto r =
            c.post(QStringLiteral("/agent"),
                   {{QStringLiteral("input"), QStringLiteral("List the products")},
                    {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                    {QStringLiteral("webhookUrl"), m_receiver.url(QStringLiteral("/ok"))}});
        trajectory = r.json().value(QStringLiteral("trajectoryId")).toString();
        QVERIFY(!trajectory.isEmpty());
        // The run has ended (and failed to store its end): callbacks would go out right
        // after that commit, so nothing sent by now is nothing sent.
        QTRY_VERIFY_WITH_TIMEOUT(
            std::any_of(settled.cbegin(), settled.cend(),
                        [&](const QList<QVariant> &args) { return args.value(0) == trajectory; }),
            10000);
        QCOMPARE(ph.service().webhooks().inFlight(), 0);
        QCOMPARE(m_receiver.hits("/ok"), before); // nothing was sent
        QVERIFY(q.exec(QStringLiteral("SELECT status FROM phases WHERE trajectory_id = '%1'")
                           .arg(trajectory)));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("executing")); // not stored as ended
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
    }
    TestService again({}, dir.path());
    QVERIFY(again.ok());
    QTRY_COMPARE_WITH_TIMEOUT(m_receiver.hits("/ok"), before + 1, 5000);
    const FixtureRequest hook = hooks("/ok").last();
    QCOMPARE(hook.headers.value("x-svc-event"), QByteArray("workflow.failed"));
    const QJsonObject p = QJsonDocument::fromJson(hook.body).object();
    QCOMPARE(sortedKeys(p), (QStringList{QStringLiteral("error"), QStringLiteral("event"),
                                         QStringLiteral("metadata"), QStringLiteral("requestId"),
                                         QStringLiteral("success"), QStringLiteral("timestamp")}));
    const QJsonObject error = p.value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("CANCELLED"));
    QCOMPARE(error.value(QStringLiteral("message")).toString(),
             QStringLiteral("the service restarted during the run"));
    QCOMPARE(error.value(QStringLiteral("details"))
                 .toObject()
                 .value(QStringLiteral("trajectoryId"))
                 .toString(),
             trajectory);
    QSqlQuery q(again.service().store().database());
    QVERIFY(q.exec(QStringLiteral("SELECT status, error FROM phases WHERE trajectory_id = '%1'")
                       .arg(trajectory)));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("cancelled"));
    QCOMPARE(q.value(1).toString(), QStringLiteral("the service restarted during the run"));
    HttpClient c = again.client();
    // The delivery id the receiver saw is the stored one.
    const QJsonArray stored = c.get(QStringLiteral("/webhooks/deliveries?limit=10"))
                                  .json()
                                  .value(QStringLiteral("deliveries"))
                                  .toArray();
    QCOMPARE(stored.size(), 1);
    QCOMPARE(stored.first().toObject().value(QStringLiteral("id")).toString().toLatin1(),
             hook.headers.value("x-svc-delivery-id"));
}

void tst_Webhooks::resumesPendingDeliveriesAfterKillNine()
{
    const QString binary = qEnvironmentVariable("PILOTHOUSE_BINARY");
    QVERIFY(QFile::exists(binary));
    QTemporaryDir dir;
    // A receiver that is down at first: every first attempt is refused.
    FixtureServer receiver;
    QVERIFY(receiver.listen(QHostAddress::LocalHost, 0));
    const quint16 port = receiver.serverPort();
    receiver.close();
    auto startPilothouse = [&](QProcess &p) -> QString {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PILOTHOUSE_API_KEY"),
                   QStringLiteral("kill-nine-test-owner-key"));
        p.setProcessEnvironment(env);
        p.setStandardErrorFile(QProcess::nullDevice());
        p.start(binary, {QStringLiteral("--headless"), QStringLiteral("--port"),
                         QStringLiteral("0"), QStringLiteral("--data-dir"), dir.path()});
        QByteArray out;
        if (!QTest::qWaitFor(
                [&] { return (out += p.readAllStandardOutput()).contains("Data directory"); },
                30000))
            return {};
        return QRegularExpression(QStringLiteral("listening on (http://\\S+)"))
            .match(QString::fromUtf8(out))
            .captured(1);
    };
    QProcess first;
    const QString base = startPilothouse(first);
    HttpClient c(base);
    c.setBearer(QStringLiteral("kill-nine-test-owner-key"));
    // A run in the middle of its work (its page never finishes loading) that owes a
    // callback when it ends: the kill comes while it executes.
    const auto running = c.post(
        QStringLiteral("/agent"),
        {{QStringLiteral("input"), QStringLiteral("Read the page")},
         {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/hang"))}},
         {QStringLiteral("webhookUrl"), QStringLiteral("http://127.0.0.1:%1/hook").arg(port)}},
        {{"Prefer", "wait=1"}});
    QCOMPARE(running.status, 202);
    const QString trajectory = running.json().value(QStringLiteral("trajectoryId")).toString();
    const QString runRequest = running.json().value(QStringLiteral("requestId")).toString();
    const auto r =
        c.post(QStringLiteral("/webhooks/test"),
               {{QStringLiteral("url"), QStringLiteral("http://127.0.0.1:%1/hook").arg(port)},
                {QStringLiteral("count"), 50}});
    QCOMPARE(r.json().value(QStringLiteral("count")).toInt(), 50);
    QTRY_COMPARE_WITH_TIMEOUT(c.get(QStringLiteral("/webhooks/deliveries?status=pending&limit=500"))
                                  .json()
                                  .value(QStringLiteral("deliveries"))
                                  .toArray()
                                  .size(),
                              50, 10000);
    // Every delivery has had its refused first attempt; now the process dies hard.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const auto &d : c.get(QStringLiteral("/webhooks/deliveries?limit=500"))
                                     .json()
                                     .value(QStringLiteral("deliveries"))
                                     .toArray())
                if (d.toObject().value(QStringLiteral("attempts")).toInt() < 1)
                    return false;
            return true;
        }(),
        10000);
    ::kill(pid_t(first.processId()), SIGKILL);
    QVERIFY(first.waitForFinished(10000));
    QCOMPARE(first.exitStatus(), QProcess::CrashExit);

    // The receiver comes up, acknowledging everything; Pilothouse restarts.
    QHash<QByteArray, int> seen;
    QList<FixtureRequest> failed; // workflow.failed deliveries
    FixtureServer up;
    QVERIFY(up.listen(QHostAddress::LocalHost, port));
    up.route("/hook", [&seen, &failed](const FixtureRequest &req) {
        seen[req.headers.value("x-svc-delivery-id")] += 1;
        if (req.headers.value("x-svc-event") == "workflow.failed")
            failed.append(req);
        FixtureResponse resp;
        resp.body = "ok";
        return resp;
    });
    QProcess second;
    const QString base2 = startPilothouse(second);
    QVERIFY(!base2.isEmpty());
    // Due 5 s after the first attempt: all 50 arrive, each exactly once; and the run the
    // kill cut off, found executing at start, is announced as failed at once.
    QTRY_COMPARE_WITH_TIMEOUT(seen.size(), 51, 20000);
    // All 51 stored as delivered: nothing is due any more, so no second copy can follow.
    HttpClient c2(base2);
    c2.setBearer(QStringLiteral("kill-nine-test-owner-key"));
    QTRY_COMPARE_WITH_TIMEOUT(
        c2.get(QStringLiteral("/webhooks/deliveries?status=delivered&limit=500"))
            .json()
            .value(QStringLiteral("deliveries"))
            .toArray()
            .size(),
        51, 10000);
    QCOMPARE(c2.get(QStringLiteral("/webhooks/deliveries?status=pending&limit=500"))
                 .json()
                 .value(QStringLiteral("deliveries"))
                 .toArray()
                 .size(),
             0);
    for (auto it = seen.begin(); it != seen.end(); ++it)
        QCOMPARE(it.value(), 1);
    QCOMPARE(failed.size(), 1);
    const QJsonObject p = QJsonDocument::fromJson(failed.first().body).object();
    QCOMPARE(sortedKeys(p), (QStringList{QStringLiteral("error"), QStringLiteral("event"),
                                         QStringLiteral("metadata"), QStringLiteral("requestId"),
                                         QStringLiteral("success"), QStringLiteral("timestamp")}));
    QCOMPARE(p.value(QStringLiteral("requestId")).toString(), runRequest);
    QCOMPARE(p.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
             QStringLiteral("CANCELLED"));
    QCOMPARE(p.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("tool")),
             QJsonValue(QStringLiteral("agent")));
    const QJsonObject run = c2.get(QStringLiteral("/agent/") + trajectory).json();
    QCOMPARE(run.value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));
    QCOMPARE(run.value(QStringLiteral("error")).toString(),
             QStringLiteral("the service restarted during the run"));
    ::kill(pid_t(second.processId()), SIGTERM);
    QVERIFY(second.state() == QProcess::NotRunning || second.waitForFinished(20000));
}

PH_WEBENGINE_TEST_MAIN(tst_Webhooks)
#include "tst_webhooks.moc"
