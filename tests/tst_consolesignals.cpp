// Issue 29, part 4: a change made over the HTTP API reaches the console through the
// typed change signal of the service that made it (never Store::changed by table name):
// each row makes one change over HTTP, waits for the service's signal and finds the
// change in the panel's model.
#include "FakeSessionBrowser.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "common/ConsoleServices.h"
#include "devices/DevicesModel.h"
#include "keys/KeysModel.h"
#include "keys/ProfilesModel.h"
#include "sites/SitesModel.h"
#include "tools/ToolsModel.h"
#include "triggers/TriggersModel.h"

#include "cloud/LibraryRepository.h"
#include "core/ApiKeyService.h"
#include "devices/DeviceService.h"
#include "sessions/SessionService.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"

#include <QAbstractItemModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>

using namespace ph;
using namespace ph::test;

namespace {
// Whether a row of `model` shows `text` in one of its columns.
bool shows(const QAbstractItemModel &model, const QString &text)
{
    for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < model.columnCount(); ++c) {
            if (model.index(r, c).data().toString() == text)
                return true;
        }
    }
    return false;
}
} // namespace

class tst_ConsoleSignals : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void anApiChangeReachesItsPanel_data();
    void anApiChangeReachesItsPanel();

private:
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::ConsoleServices> m_services;
    std::unique_ptr<ui::KeysModel> m_keys;
    std::unique_ptr<ui::ToolsModel> m_tools;
    std::unique_ptr<ui::TriggersModel> m_triggers;
    std::unique_ptr<ui::SitesModel> m_sites;
    std::unique_ptr<ui::ProfilesModel> m_profiles;
    std::unique_ptr<ui::DevicesModel> m_devices;
};

void tst_ConsoleSignals::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_services = std::make_unique<ui::ConsoleServices>(ui::ConsoleServices::of(m_ph->service()));
    sites::SitesArea &area = m_services->sites;
    m_keys = std::make_unique<ui::KeysModel>(m_services->keyService);
    m_tools = std::make_unique<ui::ToolsModel>(m_services->library,
                                               m_services->keyService.activeOwnerId());
    m_triggers = std::make_unique<ui::TriggersModel>(m_services->library, m_ph->base());
    m_sites = std::make_unique<ui::SitesModel>(area.sites(), area.connectKeys(), area.changes(),
                                               m_services->clock);
    // Sessions without a browser: what matters here is the signal.
    m_services->sessions.setBrowserFactory(
        [](const SessionBrowserSpec &spec) -> std::unique_ptr<SessionBrowser> {
            return std::make_unique<FakeSessionBrowser>(spec);
        });
    m_profiles = std::make_unique<ui::ProfilesModel>(m_services->sessions, m_services->keyService);
    m_devices = std::make_unique<ui::DevicesModel>(m_services->devices, m_services->keyService,
                                                   m_services->operatorPrincipal());
}

void tst_ConsoleSignals::cleanupTestCase()
{
    m_devices.reset();
    m_profiles.reset();
    m_sites.reset();
    m_triggers.reset();
    m_tools.reset();
    m_keys.reset();
    m_services.reset();
    m_ph.reset();
}

void tst_ConsoleSignals::anApiChangeReachesItsPanel_data()
{
    QTest::addColumn<QString>("panel");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("shown");

    QTest::newRow("a key minted over HTTP shows in the keys panel through keyChanged")
        << "keys"
        << "/keys" << QByteArray(R"({"label":"minted over http"})") << "minted over http";
    QTest::newRow("a tool saved over HTTP shows in the tools panel through toolsChanged")
        << "tools"
        << "/tools"
        << QByteArray(R"({"name":"saved_over_http","code":"return document.title;",)"
                      R"("url":"https://example.com/"})")
        << "saved_over_http";
    QTest::newRow("a trigger made over HTTP shows in the triggers panel through triggerChanged")
        << "triggers"
        << "/triggers" << QByteArray(R"({"label":"fired over http","tool":"saved_over_http"})")
        << "fired over http";
    QTest::newRow("a site created over HTTP shows in the sites panel through siteChanged")
        << "sites"
        << "/generateSiteKey"
        << QByteArray(R"({"siteName":"Made over http","label":"embed",)"
                      R"("allowedDomains":["made.example"]})")
        << "Made over http";
    QTest::newRow("a session made over HTTP shows its profile in the keys panel through "
                  "sessionStarted")
        << "profiles"
        << "/sessions" << QByteArray(R"({"profile":"made_over_http"})") << "made_over_http";
    // The code comes from POST /devices/pair first.
    QTest::newRow("a device claimed over HTTP shows in the devices panel through deviceChanged")
        << "devices"
        << "/devices/claim" << QByteArray(R"({"name":"claimed over http"})") << "claimed over http";
}

void tst_ConsoleSignals::anApiChangeReachesItsPanel()
{
    QFETCH(QString, panel);
    QFETCH(QString, path);
    QFETCH(QByteArray, body);
    QFETCH(QString, shown);

    std::unique_ptr<QSignalSpy> spy;
    const QAbstractItemModel *model = nullptr;
    if (panel == QLatin1String("keys")) {
        spy = std::make_unique<QSignalSpy>(&m_services->keyService, &ApiKeyService::keyChanged);
        model = m_keys.get();
    } else if (panel == QLatin1String("tools")) {
        spy = std::make_unique<QSignalSpy>(&m_services->library,
                                           &cloud::LibraryRepository::toolsChanged);
        model = m_tools.get();
    } else if (panel == QLatin1String("triggers")) {
        spy = std::make_unique<QSignalSpy>(&m_services->library,
                                           &cloud::LibraryRepository::triggerChanged);
        model = m_triggers.get();
    } else if (panel == QLatin1String("devices")) {
        spy = std::make_unique<QSignalSpy>(&m_services->devices,
                                           &devices::DeviceService::deviceChanged);
        model = m_devices.get();
        const auto code = m_ph->client().post(QStringLiteral("/devices/pair"), {});
        QCOMPARE(code.status, 201);
        QJsonObject withCode = QJsonDocument::fromJson(body).object();
        withCode.insert(QStringLiteral("code"), code.json().value(QStringLiteral("code")));
        body = QJsonDocument(withCode).toJson();
    } else if (panel == QLatin1String("profiles")) {
        spy = std::make_unique<QSignalSpy>(&m_services->sessions,
                                           &sessions::SessionService::sessionStarted);
        model = m_profiles.get();
    } else {
        spy = std::make_unique<QSignalSpy>(&m_services->sites.sites(),
                                           &sites::SiteRepository::siteChanged);
        model = m_sites.get();
    }
    QVERIFY(!shows(*model, shown));
    const auto r = m_ph->client().post(path, QJsonDocument::fromJson(body).object());
    QVERIFY2(r.status == 201 || r.status == 200, r.body.constData());
    QTRY_VERIFY(spy->count() > 0);
    QTRY_VERIFY(shows(*model, shown));
}

PH_WIDGETS_TEST_MAIN(tst_ConsoleSignals)
#include "tst_consolesignals.moc"
