// DeviceService on its own (docs/api/devices.md): pairing codes, device tokens kept as
// hashes and revocable, the choice of device for a key, and the calls a device answers.
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/Principal.h"
#include "core/Store.h"
#include "devices/DeviceMessage.h"
#include "devices/DeviceService.h"

#include <QDir>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ph;
using namespace ph::devices;

namespace {

constexpr qint64 kStart = 1'800'000'000'000;

Principal key(const QString &id, bool owner = false)
{
    Principal p;
    p.kind = Principal::Kind::ApiKey;
    p.keyId = id;
    p.owner = owner;
    return p;
}

// A device's end of the connection: what the service sent it, and whether it was closed.
struct FakeLink
{
    QList<QJsonObject> sent;
    bool closed = false;
    DeviceService::Connection connection()
    {
        return {
            [this](const QByteArray &frame) { sent << QJsonDocument::fromJson(frame).object(); },
            [this] { closed = true; }};
    }
};

struct World
{
    QTemporaryDir dir;
    ManualClock clock{kStart};
    Store store{QDir(dir.path()).filePath(QStringLiteral("pilothouse.db")), clock};
    std::unique_ptr<DeviceService> service;
    World()
    {
        QString error;
        if (!store.open(&error))
            qFatal("store: %s", qPrintable(error));
        service = std::make_unique<DeviceService>(store, clock);
    }
    DeviceService::Claimed paired(const QString &keyId,
                                  const QString &name = QStringLiteral("laptop"))
    {
        return service->claim(service->pair(key(keyId)).code, name, QStringLiteral("1.0"));
    }
};

QString errorCode(const std::function<void()> &f)
{
    try {
        f();
    } catch (const DomainError &e) {
        return e.code();
    }
    return {};
}

} // namespace

class tst_Devices : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void claimsAPairingCodeOnce_data();
    void claimsAPairingCodeOnce();
    void storesOnlyTheTokensHash();
    void revokesADeviceAndDropsItsConnection();
    void keepsDevicesToTheirKey();
    void choosesTheDevice_data();
    void choosesTheDevice();
    void answersACallOrFailsItWhenTheDeviceGoes_data();
    void answersACallOrFailsItWhenTheDeviceGoes();
    void grantsScriptsOnlyByTheOwner();
    void readsDeviceMessages_data();
    void readsDeviceMessages();
};

void tst_Devices::claimsAPairingCodeOnce_data()
{
    QTest::addColumn<qint64>("waitMs");
    QTest::addColumn<bool>("typedLoosely"); // lower case, no dash
    QTest::addColumn<bool>("claimedBefore");
    QTest::addColumn<QString>("expect"); // error code, empty: a device

    QTest::newRow("a fresh code gives a device") << qint64(0) << false << false << QString();
    QTest::newRow("a code typed in lower case without its dash still works")
        << qint64(0) << true << false << QString();
    QTest::newRow("a code just inside ten minutes still works")
        << DeviceService::kPairingMs << false << false << QString();
    QTest::newRow("a code older than ten minutes is refused")
        << DeviceService::kPairingMs + 1 << false << false
        << QStringLiteral("INVALID_PAIRING_CODE");
    QTest::newRow("a code used once is refused the second time")
        << qint64(0) << false << true << QStringLiteral("INVALID_PAIRING_CODE");
}

void tst_Devices::claimsAPairingCodeOnce()
{
    QFETCH(qint64, waitMs);
    QFETCH(bool, typedLoosely);
    QFETCH(bool, claimedBefore);
    QFETCH(QString, expect);
    World w;
    const DeviceService::Pairing p = w.service->pair(key(QStringLiteral("key_a")));
    QCOMPARE(p.code.size(), 9);
    QCOMPARE(p.expiresAt, kStart + DeviceService::kPairingMs);
    if (claimedBefore)
        w.service->claim(p.code, QStringLiteral("first"), QStringLiteral("1"));
    w.clock.advance(waitMs);
    const QString typed = typedLoosely ? p.code.toLower().remove(QLatin1Char('-')) : p.code;
    DeviceService::Claimed c;
    QCOMPARE(
        errorCode([&] { c = w.service->claim(typed, QStringLiteral("n"), QStringLiteral("1")); }),
        expect);
    if (expect.isEmpty()) {
        QVERIFY(c.deviceId.startsWith(QLatin1String("dev_")));
        QVERIFY(c.token.size() >= 40);
    }
}

void tst_Devices::storesOnlyTheTokensHash()
{
    World w;
    const auto c = w.paired(QStringLiteral("key_a"));
    Sql q(w.store, QStringLiteral("SELECT token_hash FROM devices WHERE id = :id"));
    q.bind(QStringLiteral(":id"), c.deviceId).exec();
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), Ids::sha256Hex(c.token.toUtf8()));
    Sql codes(w.store, QStringLiteral("SELECT COUNT(*) FROM device_pairings"));
    codes.exec();
    QVERIFY(codes.next());
    QCOMPARE(codes.value(0).toInt(), 0);
}

void tst_Devices::revokesADeviceAndDropsItsConnection()
{
    World w;
    const auto c = w.paired(QStringLiteral("key_a"));
    FakeLink link;
    QCOMPARE(w.service->attach(c.token, {}, {}, link.connection()), c.deviceId);
    QSignalSpy changed(w.service.get(), &DeviceService::devicesChanged);
    w.service->revoke(key(QStringLiteral("key_a")), c.deviceId);
    QVERIFY(link.closed);
    QVERIFY(changed.count() >= 1);
    QVERIFY(w.service->choose(QStringLiteral("key_a"), {}).isEmpty());
    FakeLink again;
    QVERIFY(w.service->attach(c.token, {}, {}, again.connection()).isEmpty());
    QVERIFY(w.service->list(key(QStringLiteral("key_a"))).isEmpty());
}

void tst_Devices::keepsDevicesToTheirKey()
{
    World w;
    const auto c = w.paired(QStringLiteral("key_a"));
    FakeLink link;
    w.service->attach(c.token, {}, {}, link.connection());
    QVERIFY(w.service->list(key(QStringLiteral("key_b"))).isEmpty());
    QCOMPARE(errorCode([&] { w.service->revoke(key(QStringLiteral("key_b")), c.deviceId); }),
             QStringLiteral("NOT_FOUND"));
    QVERIFY(w.service->choose(QStringLiteral("key_b"), c.deviceId).isEmpty());
    QVERIFY(!link.closed);
}

void tst_Devices::choosesTheDevice_data()
{
    QTest::addColumn<QString>("named"); // "", "first", "second", "other"
    QTest::addColumn<QString>("expect");

    QTest::newRow("no name picks the most recently active device") << QString() << "second";
    QTest::newRow("a named device of the key is that device") << "first"
                                                              << "first";
    QTest::newRow("another key's device is never chosen") << "other" << QString();
}

void tst_Devices::choosesTheDevice()
{
    QFETCH(QString, named);
    QFETCH(QString, expect);
    World w;
    QHash<QString, QString> ids;
    FakeLink a, b, o;
    const auto first = w.paired(QStringLiteral("key_a"));
    const auto second = w.paired(QStringLiteral("key_a"));
    const auto other = w.paired(QStringLiteral("key_b"));
    ids.insert(QStringLiteral("first"), w.service->attach(first.token, {}, {}, a.connection()));
    ids.insert(QStringLiteral("other"), w.service->attach(other.token, {}, {}, o.connection()));
    w.clock.advance(1000);
    ids.insert(QStringLiteral("second"), w.service->attach(second.token, {}, {}, b.connection()));
    w.clock.advance(1000);
    w.service->seen(ids.value(QStringLiteral("other"))); // newest overall, but key_b's
    QCOMPARE(w.service->choose(QStringLiteral("key_a"), ids.value(named)), ids.value(expect));
}

void tst_Devices::answersACallOrFailsItWhenTheDeviceGoes_data()
{
    QTest::addColumn<QString>("then"); // answer, error, disconnect
    QTest::addColumn<QString>("expectError");

    QTest::newRow("the device's answer is the call's result") << "answer" << QString();
    QTest::newRow("an error the device reports fails the call") << "error"
                                                                << "no such tab";
    QTest::newRow("a device that disconnects fails the call") << "disconnect"
                                                              << "the device disconnected";
}

void tst_Devices::answersACallOrFailsItWhenTheDeviceGoes()
{
    QFETCH(QString, then);
    QFETCH(QString, expectError);
    World w;
    const auto c = w.paired(QStringLiteral("key_a"));
    FakeLink link;
    w.service->attach(c.token, {}, {}, link.connection());
    int answers = 0;
    QJsonObject result;
    QString error;
    w.service->request(c.deviceId, QStringLiteral("tabs"), {}, 60000,
                       [&](const QJsonObject &r, const QString &e) {
                           ++answers;
                           result = r;
                           error = e;
                       });
    QCOMPARE(link.sent.size(), 1);
    const QString callId = link.sent.first().value(QStringLiteral("id")).toString();
    QCOMPARE(link.sent.first().value(QStringLiteral("method")).toString(), QStringLiteral("tabs"));
    // Another device cannot answer it.
    w.service->resolve(QStringLiteral("dev_other"), callId, {}, QStringLiteral("forged"));
    QCOMPARE(answers, 0);
    if (then == QLatin1String("answer"))
        w.service->resolve(c.deviceId, callId, {{QStringLiteral("tabs"), QJsonArray()}}, {});
    else if (then == QLatin1String("error"))
        w.service->resolve(c.deviceId, callId, {}, QStringLiteral("no such tab"));
    else
        w.service->detach(c.deviceId);
    QCOMPARE(answers, 1);
    QCOMPARE(error, expectError);
    if (expectError.isEmpty())
        QVERIFY(result.contains(QStringLiteral("tabs")));
}

void tst_Devices::grantsScriptsOnlyByTheOwner()
{
    World w;
    QVERIFY(!w.service->scriptsAllowed(QStringLiteral("key_a")));
    QCOMPARE(errorCode([&] {
                 w.service->setScriptsGranted(key(QStringLiteral("key_a")), QStringLiteral("key_a"),
                                              true);
             }),
             QStringLiteral("FORBIDDEN"));
    QVERIFY(!w.service->scriptsAllowed(QStringLiteral("key_a")));
    w.service->setScriptsGranted(key(QStringLiteral("owner"), true), QStringLiteral("key_a"), true);
    QVERIFY(w.service->scriptsAllowed(QStringLiteral("key_a")));
    w.service->setScriptsGranted(key(QStringLiteral("owner"), true), QStringLiteral("key_a"),
                                 false);
    QVERIFY(!w.service->scriptsAllowed(QStringLiteral("key_a")));
}

void tst_Devices::readsDeviceMessages_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<bool>("ok");

    QTest::newRow("a hello with a token is read")
        << QByteArray(R"({"type":"hello","token":"t"})") << true;
    QTest::newRow("a hello without a token is refused")
        << QByteArray(R"({"type":"hello"})") << false;
    QTest::newRow("a heartbeat is read") << QByteArray(R"({"type":"heartbeat"})") << true;
    QTest::newRow("tabs with ids are read")
        << QByteArray(R"({"type":"tabs","tabs":[{"id":3,"url":"https://a","title":"A"}]})") << true;
    QTest::newRow("a tab without an id is refused")
        << QByteArray(R"({"type":"tabs","tabs":[{"url":"https://a"}]})") << false;
    QTest::newRow("a result without the id of its call is refused")
        << QByteArray(R"({"type":"result","result":{}})") << false;
    QTest::newRow("an unknown type is refused") << QByteArray(R"({"type":"shell"})") << false;
    QTest::newRow("text that is not JSON is refused") << QByteArray("hello") << false;
}

void tst_Devices::readsDeviceMessages()
{
    QFETCH(QByteArray, frame);
    QFETCH(bool, ok);
    QString problem;
    QCOMPARE(DeviceMessage::read(frame, &problem).has_value(), ok);
    QCOMPARE(problem.isEmpty(), ok);
}

QTEST_GUILESS_MAIN(tst_Devices)
#include "tst_devices.moc"
