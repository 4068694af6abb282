// The console's Devices panel (issue 32) against the real service: a code from the
// panel's Pair button claims a device over POST /devices/claim for the key chosen; a fake
// extension on /devices/socket (QWebSocket on loopback, the extension's real path) turns
// its row connected, reports tabs and, gone, turns it offline, through
// DeviceService::deviceChanged; Revoke (confirmed) disconnects it and refuses its token.
// The extension folder shown is the one "Load unpacked" needs.
#include "HttpClient.h"
#include "ModalAnswer.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/ApiKeyService.h"
#include "devices/DeviceService.h"

#include "common/ConsoleServices.h"
#include "common/EmptyState.h"
#include "devices/DevicesDock.h"
#include "devices/DevicesModel.h"
#include "devices/ExtensionFolder.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QWebSocket>

using namespace ph;
using namespace ph::test;

namespace {

// The extension's end of /devices/socket: hello with a device token, then tab reports.
class FakeExtension : public QObject
{
public:
    QWebSocket socket;
    bool welcomed = false;

    bool open(const QString &base, const QString &token)
    {
        QUrl url(base);
        url.setScheme(QStringLiteral("ws"));
        url.setPath(QStringLiteral("/devices/socket"));
        connect(&socket, &QWebSocket::textMessageReceived, this, [this](const QString &text) {
            if (QJsonDocument::fromJson(text.toUtf8()).object().value(QStringLiteral("type")) ==
                QLatin1String("welcome"))
                welcomed = true;
        });
        QSignalSpy connected(&socket, &QWebSocket::connected);
        socket.open(url);
        if (!connected.wait(10000))
            return false;
        send({{QStringLiteral("type"), QStringLiteral("hello")},
              {QStringLiteral("token"), token},
              {QStringLiteral("name"), QStringLiteral("work laptop")},
              {QStringLiteral("version"), QStringLiteral("0.3.0")}});
        return true;
    }
    void send(const QJsonObject &m)
    {
        socket.sendTextMessage(QString::fromUtf8(QJsonDocument(m).toJson(QJsonDocument::Compact)));
    }
};

struct Claimed
{
    QString deviceId, token;
};

// What the extension does with a code: POST /devices/claim, no API key.
Claimed claim(TestService &ph, const QString &code)
{
    HttpClient anyone(ph.base());
    const auto r = anyone.post(QStringLiteral("/devices/claim"),
                               {{QStringLiteral("code"), code},
                                {QStringLiteral("name"), QStringLiteral("work laptop")},
                                {QStringLiteral("version"), QStringLiteral("0.3.0")}});
    if (r.status != 201)
        return {};
    return {r.json().value(QStringLiteral("deviceId")).toString(),
            r.json().value(QStringLiteral("token")).toString()};
}

} // namespace

class tst_DevicesPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void pairsADeviceForTheChosenKey_data();
    void pairsADeviceForTheChosenKey();
    void followsTheDevicesConnection();
    void revokesAfterAskingFirst_data();
    void revokesAfterAskingFirst();
    void findsTheExtensionFolder_data();
    void findsTheExtensionFolder();
    void showsAndCopiesTheBuiltExtensionFolder();

private:
    QString cell(ui::DevicesDock &dock, const QString &deviceId, int column) const;

    std::unique_ptr<TestService> m_ph;
    QString m_userKeyId;
};

void tst_DevicesPanel::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    ApiKeyService::NewKey key;
    key.label = QStringLiteral("assistant key");
    m_userKeyId = m_ph->service().keyService().mint(key).key.id;
}

void tst_DevicesPanel::cleanupTestCase()
{
    m_ph.reset();
}

QString tst_DevicesPanel::cell(ui::DevicesDock &dock, const QString &deviceId, int column) const
{
    const int row = dock.model()->rowOf(deviceId);
    return row < 0 ? QString() : dock.model()->index(row, column).data().toString();
}

void tst_DevicesPanel::pairsADeviceForTheChosenKey_data()
{
    QTest::addColumn<bool>("userKey");
    QTest::newRow("a code for the owner's key claims a device of the owner's key") << false;
    QTest::newRow("a code for a chosen user key claims a device of that key") << true;
}

void tst_DevicesPanel::pairsADeviceForTheChosenKey()
{
    QFETCH(bool, userKey);
    ui::DevicesDock dock(ui::ConsoleServices::of(m_ph->service()));
    QAbstractItemModelTester tester(dock.model());
    const QString keyId = userKey ? m_userKeyId : m_ph->service().keyService().activeOwnerId();
    QVERIFY(dock.chooseKey(keyId));
    dock.pairButton()->click();
    const QString code = dock.codeLabel()->text();
    QCOMPARE(code.size(), 9);
    QVERIFY(!dock.expiryLabel()->text().isEmpty());
    const Claimed c = claim(*m_ph, code);
    QVERIFY(!c.deviceId.isEmpty());
    // The claim shows at once, with the key it belongs to.
    QVERIFY(dock.model()->rowOf(c.deviceId) >= 0);
    QCOMPARE(cell(dock, c.deviceId, ui::DevicesModel::Key),
             userKey ? QStringLiteral("assistant key")
                     : m_ph->service().keyService().find(keyId).key.label);
    QCOMPARE(cell(dock, c.deviceId, ui::DevicesModel::Status), QStringLiteral("offline"));
    QCOMPARE(cell(dock, c.deviceId, ui::DevicesModel::Name), QStringLiteral("work laptop"));
    QCOMPARE(cell(dock, c.deviceId, ui::DevicesModel::Version), QStringLiteral("0.3.0"));
    // It is that key's device over the API, and the code is spent.
    HttpClient owner = m_ph->client();
    const bool ownersList =
        owner.get(QStringLiteral("/devices")).body.contains(c.deviceId.toUtf8());
    QCOMPARE(ownersList, !userKey);
    QVERIFY(claim(*m_ph, code).deviceId.isEmpty());
}

void tst_DevicesPanel::followsTheDevicesConnection()
{
    ui::DevicesDock dock(ui::ConsoleServices::of(m_ph->service()));
    QAbstractItemModelTester tester(dock.model());
    QVERIFY(dock.chooseKey(m_userKeyId));
    const Claimed c = claim(*m_ph, dock.pairChosenKey());
    QVERIFY(!c.token.isEmpty());
    QSignalSpy changed(&m_ph->service().devices(), &devices::DeviceService::deviceChanged);
    auto ext = std::make_unique<FakeExtension>();
    QVERIFY(ext->open(m_ph->base(), c.token));
    QTRY_VERIFY(ext->welcomed);
    QTRY_COMPARE(cell(dock, c.deviceId, ui::DevicesModel::Status), QStringLiteral("connected"));
    QVERIFY(changed.count() >= 1);
    QCOMPARE(changed.first().first().toString(), c.deviceId);
    QVERIFY(cell(dock, c.deviceId, ui::DevicesModel::LastSeen) != QStringLiteral("never"));
    ext->send({{QStringLiteral("type"), QStringLiteral("tabs")},
               {QStringLiteral("tabs"), QJsonArray{QJsonObject{{QStringLiteral("id"), 1}},
                                                   QJsonObject{{QStringLiteral("id"), 2}},
                                                   QJsonObject{{QStringLiteral("id"), 3}}}}});
    QTRY_COMPARE(cell(dock, c.deviceId, ui::DevicesModel::Tabs), QStringLiteral("3"));
    // The browser goes away: offline, the row stays.
    ext->socket.close();
    QTRY_COMPARE(cell(dock, c.deviceId, ui::DevicesModel::Status), QStringLiteral("offline"));
    QVERIFY(dock.model()->rowOf(c.deviceId) >= 0);
}

void tst_DevicesPanel::revokesAfterAskingFirst_data()
{
    QTest::addColumn<bool>("confirm");
    QTest::newRow("revoking after confirming disconnects the device and refuses its token") << true;
    QTest::newRow("cancelling the confirmation keeps the device connected") << false;
}

void tst_DevicesPanel::revokesAfterAskingFirst()
{
    QFETCH(bool, confirm);
    ui::DevicesDock dock(ui::ConsoleServices::of(m_ph->service()));
    QAbstractItemModelTester tester(dock.model());
    QVERIFY(dock.chooseKey(m_userKeyId));
    const Claimed c = claim(*m_ph, dock.pairChosenKey());
    FakeExtension ext;
    QVERIFY(ext.open(m_ph->base(), c.token));
    QTRY_COMPARE(cell(dock, c.deviceId, ui::DevicesModel::Status), QStringLiteral("connected"));
    QVERIFY(dock.select(c.deviceId));
    QVERIFY(dock.revokeButton()->isEnabled());
    QSignalSpy closed(&ext.socket, &QWebSocket::disconnected);
    bool answered = false;
    answerConfirmation(this, QStringLiteral("confirmRevokeDevice"), confirm, &answered);
    dock.revokeButton()->click();
    QVERIFY(answered);
    if (!confirm) {
        QVERIFY(dock.model()->rowOf(c.deviceId) >= 0);
        QCOMPARE(ext.socket.state(), QAbstractSocket::ConnectedState);
        QVERIFY(!m_ph->service().devices().choose(m_userKeyId, c.deviceId).isEmpty());
        return;
    }
    QCOMPARE(dock.model()->rowOf(c.deviceId), -1);
    QVERIFY(closed.count() > 0 || closed.wait(10000));
    // The token opens no connection any more.
    FakeExtension again;
    QSignalSpy refused(&again.socket, &QWebSocket::disconnected);
    QVERIFY(again.open(m_ph->base(), c.token));
    QVERIFY(refused.wait(10000));
    QVERIFY(!again.welcomed);
    QCOMPARE(again.socket.closeCode(), QWebSocketProtocol::CloseCodePolicyViolated);
}

void tst_DevicesPanel::findsTheExtensionFolder_data()
{
    QTest::addColumn<QStringList>("manifests"); // folders under the prefix holding one
    QTest::addColumn<QString>("expect");        // relative to the prefix; empty: none
    QTest::newRow("an installed binary finds share/pilothouse/extension")
        << QStringList{QStringLiteral("share/pilothouse/extension")}
        << QStringLiteral("share/pilothouse/extension");
    QTest::newRow("a build tree's binary finds build/extension")
        << QStringList{QStringLiteral("extension")} << QStringLiteral("extension");
    QTest::newRow("the installed copy wins over a stray build folder")
        << QStringList{QStringLiteral("extension"), QStringLiteral("share/pilothouse/extension")}
        << QStringLiteral("share/pilothouse/extension");
    QTest::newRow("a folder without manifest.json is no extension") << QStringList{} << QString();
}

void tst_DevicesPanel::findsTheExtensionFolder()
{
    QFETCH(QStringList, manifests);
    QFETCH(QString, expect);
    QTemporaryDir prefix;
    QDir root(prefix.path());
    root.mkpath(QStringLiteral("bin"));
    root.mkpath(QStringLiteral("share/pilothouse/extension")); // empty unless listed
    for (const QString &folder : manifests) {
        root.mkpath(folder);
        QFile manifest(root.filePath(folder + QStringLiteral("/manifest.json")));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{}");
    }
    const QString found = ui::extensionFolder(root.filePath(QStringLiteral("bin")));
    QCOMPARE(found, expect.isEmpty() ? QString() : QDir::cleanPath(root.filePath(expect)));
}

void tst_DevicesPanel::showsAndCopiesTheBuiltExtensionFolder()
{
    ui::DevicesDock dock(ui::ConsoleServices::of(m_ph->service()));
    // This test runs from build/bin, beside build/extension.
    const QString built = QDir::cleanPath(QStringLiteral(PILOTHOUSE_EXTENSION_DIR));
    QCOMPARE(dock.folderField()->text(), built);
    QVERIFY(QFile::exists(built + QStringLiteral("/manifest.json")));
    QVERIFY(dock.copyFolderButton()->isEnabled());
    dock.copyFolderButton()->click();
    QCOMPARE(QApplication::clipboard()->text(), built);
    QVERIFY(dock.howToLabel()->text().contains(QStringLiteral("Load unpacked")));
    QVERIFY(dock.howToLabel()->text().contains(m_ph->base()));
}

PH_WIDGETS_TEST_MAIN(tst_DevicesPanel)
#include "tst_devicespanel.moc"
