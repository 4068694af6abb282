// Devices end to end on the real service (docs/api/devices.md): pairing over HTTP, a fake
// extension on /devices/socket (QWebSocket), and the bridge (POST /mcp) routing to it.
// The real extension in Chromium is driven by tests/devices/devices.mjs (tst_deviceext).
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QWebSocket>

using namespace ph;
using namespace ph::test;

namespace {

// The extension's side of the socket: says hello with `token`, answers calls with `answer`.
class FakeExtension : public QObject
{
public:
    std::function<QJsonObject(const QJsonObject &call)> answer;
    QList<QJsonObject> received;
    QWebSocket socket;
    bool welcomed = false;

    bool open(const QString &base, const QString &token)
    {
        QUrl url(base);
        url.setScheme(QStringLiteral("ws"));
        url.setPath(QStringLiteral("/devices/socket"));
        connect(&socket, &QWebSocket::textMessageReceived, this, [this](const QString &text) {
            const QJsonObject m = QJsonDocument::fromJson(text.toUtf8()).object();
            received << m;
            if (m.value(QStringLiteral("type")).toString() == QLatin1String("welcome"))
                welcomed = true;
            if (m.value(QStringLiteral("type")).toString() == QLatin1String("call") && answer) {
                QJsonObject reply = answer(m);
                if (reply.isEmpty())
                    return; // stays silent
                reply.insert(QStringLiteral("type"), QStringLiteral("result"));
                reply.insert(QStringLiteral("id"), m.value(QStringLiteral("id")));
                socket.sendTextMessage(
                    QString::fromUtf8(QJsonDocument(reply).toJson(QJsonDocument::Compact)));
            }
        });
        QSignalSpy connected(&socket, &QWebSocket::connected);
        socket.open(url);
        if (!connected.wait(10000))
            return false;
        send({{QStringLiteral("type"), QStringLiteral("hello")},
              {QStringLiteral("token"), token},
              {QStringLiteral("name"), QStringLiteral("test")}});
        return true;
    }
    void send(const QJsonObject &m)
    {
        socket.sendTextMessage(QString::fromUtf8(QJsonDocument(m).toJson(QJsonDocument::Compact)));
    }
};

} // namespace

class tst_DeviceBridge : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void pairsOnceAndListsTheDevice();
    void refusesSocketsWithoutAValidToken_data();
    void refusesSocketsWithoutAValidToken();
    void listsTabsAndRunsScriptsOnlyWhenGranted();
    void failsACallWhenTheDeviceGoesAway();
    void keepsDevicesToTheirKey();

private:
    struct Paired
    {
        QString deviceId, token;
    };
    Paired pair(HttpClient &c);
    HttpResponse bridge(HttpClient &c, const QJsonObject &body)
    {
        return c.post(QStringLiteral("/mcp"), body);
    }

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
};

void tst_DeviceBridge::initTestCase()
{
    QVERIFY(m_site.start());
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

tst_DeviceBridge::Paired tst_DeviceBridge::pair(HttpClient &c)
{
    const auto code = c.post(QStringLiteral("/devices/pair"), {});
    code.expectStatus({201}, __FILE__, __LINE__);
    HttpClient anyone(m_ph->base());
    const auto claimed =
        anyone.post(QStringLiteral("/devices/claim"),
                    {{QStringLiteral("code"), code.json().value(QStringLiteral("code"))},
                     {QStringLiteral("name"), QStringLiteral("laptop")}});
    claimed.expectStatus({201}, __FILE__, __LINE__);
    return {claimed.json().value(QStringLiteral("deviceId")).toString(),
            claimed.json().value(QStringLiteral("token")).toString()};
}

void tst_DeviceBridge::pairsOnceAndListsTheDevice()
{
    HttpClient c = m_ph->client();
    const auto code = c.post(QStringLiteral("/devices/pair"), {});
    QCOMPARE(code.status, 201);
    HttpClient anyone(m_ph->base());
    const QJsonObject claim{{QStringLiteral("code"), code.json().value(QStringLiteral("code"))}};
    const auto first = anyone.post(QStringLiteral("/devices/claim"), claim);
    QCOMPARE(first.status, 201);
    const auto again = anyone.post(QStringLiteral("/devices/claim"), claim);
    QCOMPARE(again.status, 400);
    QCOMPARE(again.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("INVALID_PAIRING_CODE"));
    QVERIFY(!again.body.contains(first.json().value(QStringLiteral("token")).toString().toUtf8()));
    const auto missing = anyone.post(QStringLiteral("/devices/claim"), {});
    QCOMPARE(missing.status, 400);
    QVERIFY(missing.body.contains("code"));

    FakeExtension ext;
    QVERIFY(ext.open(m_ph->base(), first.json().value(QStringLiteral("token")).toString()));
    QTRY_VERIFY(ext.welcomed);
    ext.send({{QStringLiteral("type"), QStringLiteral("tabs")},
              {QStringLiteral("tabs"), QJsonArray{QJsonObject{{QStringLiteral("id"), 1}},
                                                  QJsonObject{{QStringLiteral("id"), 2}}}}});
    const QString id = first.json().value(QStringLiteral("deviceId")).toString();
    QTRY_VERIFY([&] {
        for (const QJsonValue &d :
             c.get(QStringLiteral("/devices")).json().value(QStringLiteral("devices")).toArray()) {
            const QJsonObject o = d.toObject();
            if (o.value(QStringLiteral("id")).toString() == id)
                return o.value(QStringLiteral("status")).toString() == QLatin1String("connected") &&
                       o.value(QStringLiteral("tabCount")).toInt() == 2;
        }
        return false;
    }());
    // Revoked: the connection closes and the token no longer opens one.
    QSignalSpy closed(&ext.socket, &QWebSocket::disconnected);
    QCOMPARE(c.send("DELETE", QStringLiteral("/devices/") + id).status, 200);
    QVERIFY(closed.count() > 0 || closed.wait(10000));
}

void tst_DeviceBridge::refusesSocketsWithoutAValidToken_data()
{
    QTest::addColumn<QString>("which"); // made-up, apikey, revoked
    QTest::newRow("a made-up device token is closed") << "made-up";
    QTest::newRow("the owner's API key in place of a device token is closed") << "apikey";
    QTest::newRow("a revoked device's token is closed") << "revoked";
}

void tst_DeviceBridge::refusesSocketsWithoutAValidToken()
{
    QFETCH(QString, which);
    HttpClient c = m_ph->client();
    QString token = QStringLiteral("phd_madeup");
    if (which == QLatin1String("apikey"))
        token = m_ph->ownerKey();
    if (which == QLatin1String("revoked")) {
        const Paired p = pair(c);
        QCOMPARE(c.send("DELETE", QStringLiteral("/devices/") + p.deviceId).status, 200);
        token = p.token;
    }
    FakeExtension ext;
    QSignalSpy closed(&ext.socket, &QWebSocket::disconnected);
    QVERIFY(ext.open(m_ph->base(), token));
    QVERIFY(closed.wait(10000));
    QVERIFY(!ext.welcomed);
    QCOMPARE(ext.socket.closeCode(), QWebSocketProtocol::CloseCodePolicyViolated);
}

void tst_DeviceBridge::listsTabsAndRunsScriptsOnlyWhenGranted()
{
    const auto minted = m_ph->client().post(
        QStringLiteral("/keys"),
        {{QStringLiteral("label"), QStringLiteral("dev")}, {QStringLiteral("balance"), 100}});
    const QString secret = minted.json().value(QStringLiteral("key")).toString();
    const QString keyId = minted.json().value(QStringLiteral("id")).toString();
    HttpClient c(m_ph->base());
    c.setBearer(secret);
    // No device yet: 503 for device tools and for target device.
    QCOMPARE(bridge(c, {{QStringLiteral("tool"), QStringLiteral("get_browser_tabs")},
                        {QStringLiteral("params"), QJsonObject{}}})
                 .status,
             503);
    const Paired p = pair(c);
    FakeExtension ext;
    ext.answer = [](const QJsonObject &call) {
        if (call.value(QStringLiteral("method")).toString() == QLatin1String("tabs"))
            return QJsonObject{{QStringLiteral("result"),
                                QJsonObject{{QStringLiteral("tabs"),
                                             QJsonArray{QJsonObject{
                                                 {QStringLiteral("id"), 7},
                                                 {QStringLiteral("url"),
                                                  QStringLiteral("https://mail.example/")}}}}}}};
        const QString code = call.value(QStringLiteral("params"))
                                 .toObject()
                                 .value(QStringLiteral("code"))
                                 .toString();
        return QJsonObject{
            {QStringLiteral("result"),
             QJsonObject{{QStringLiteral("result"), QStringLiteral("ran ") + code}}}};
    };
    QVERIFY(ext.open(m_ph->base(), p.token));
    QTRY_VERIFY(ext.welcomed);

    const auto tabs = bridge(c, {{QStringLiteral("tool"), QStringLiteral("get_browser_tabs")},
                                 {QStringLiteral("target"), QStringLiteral("device")},
                                 {QStringLiteral("params"), QJsonObject{}}});
    QCOMPARE(tabs.status, 200);
    QCOMPARE(tabs.json().value(QStringLiteral("deviceId")).toString(), p.deviceId);
    QVERIFY(tabs.body.contains("https://mail.example/"));

    const QJsonObject run{{QStringLiteral("tool"), QStringLiteral("execute_javascript")},
                          {QStringLiteral("deviceId"), p.deviceId},
                          {QStringLiteral("params"),
                           QJsonObject{{QStringLiteral("code"), QStringLiteral("document.title")},
                                       {QStringLiteral("tabId"), 7}}}};
    const auto refused = bridge(c, run);
    QCOMPARE(refused.status, 403);
    QCOMPARE(refused.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("CAPABILITY_DISABLED"));
    // Only the owner grants it.
    QVERIFY(!keyId.isEmpty());
    const QJsonObject grant{{QStringLiteral("allowed"), true}};
    QCOMPARE(
        c.send("PUT", QStringLiteral("/devices/scripts/") + keyId, QJsonDocument(grant).toJson())
            .status,
        403);
    HttpClient owner = m_ph->client();
    QCOMPARE(
        owner
            .send("PUT", QStringLiteral("/devices/scripts/") + keyId, QJsonDocument(grant).toJson())
            .status,
        200);
    const auto ran = bridge(c, run);
    QCOMPARE(ran.status, 200);
    QCOMPARE(ran.json().value(QStringLiteral("result")).toString(),
             QStringLiteral("ran document.title"));
}

void tst_DeviceBridge::failsACallWhenTheDeviceGoesAway()
{
    HttpClient c = m_ph->client();
    const Paired p = pair(c);
    auto ext = std::make_unique<FakeExtension>();
    FakeExtension *raw = ext.get();
    // The device hears the call and goes away without answering.
    ext->answer = [raw](const QJsonObject &) {
        QMetaObject::invokeMethod(
            raw, [raw] { raw->socket.abort(); }, Qt::QueuedConnection);
        return QJsonObject();
    };
    QVERIFY(ext->open(m_ph->base(), p.token));
    QTRY_VERIFY(ext->welcomed);
    const int before = m_site.hits("/hook");
    const auto r = bridge(c, {{QStringLiteral("tool"), QStringLiteral("get_browser_tabs")},
                              {QStringLiteral("deviceId"), p.deviceId},
                              {QStringLiteral("params"), QJsonObject{}},
                              {QStringLiteral("webhookUrl"), m_site.url(QStringLiteral("/hook"))}});
    QCOMPARE(r.status, 503);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("DEVICE_UNAVAILABLE"));
    QTRY_COMPARE_WITH_TIMEOUT(m_site.hits("/hook"), before + 1, 10000);
    const QJsonObject payload =
        QJsonDocument::fromJson(m_site.requests("/hook").last().body).object();
    QCOMPARE(payload.value(QStringLiteral("event")).toString(), QStringLiteral("workflow.failed"));
    QCOMPARE(
        payload.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
        QStringLiteral("DEVICE_UNAVAILABLE"));
}

void tst_DeviceBridge::keepsDevicesToTheirKey()
{
    HttpClient owner = m_ph->client();
    const Paired p = pair(owner);
    FakeExtension ext;
    QVERIFY(ext.open(m_ph->base(), p.token));
    QTRY_VERIFY(ext.welcomed);
    HttpClient other(m_ph->base());
    other.setBearer(m_ph->mintKey(100));
    const auto r = bridge(other, {{QStringLiteral("tool"), QStringLiteral("get_browser_tabs")},
                                  {QStringLiteral("deviceId"), p.deviceId},
                                  {QStringLiteral("params"), QJsonObject{}}});
    QCOMPARE(r.status, 503);
    QCOMPARE(other.send("DELETE", QStringLiteral("/devices/") + p.deviceId).status, 404);
    QVERIFY(!other.get(QStringLiteral("/devices")).body.contains(p.deviceId.toUtf8()));
    // The device token is no API key.
    HttpClient asDevice(m_ph->base());
    asDevice.setBearer(p.token);
    QCOMPARE(asDevice.get(QStringLiteral("/devices")).status, 401);
}

PH_WEBENGINE_TEST_MAIN(tst_DeviceBridge)
#include "tst_devicebridge.moc"
