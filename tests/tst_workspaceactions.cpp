// WorkspaceActions: the owner's site and key actions, shared by the workspace API and
// the console's Sites panel, on a real store.
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Store.h"
#include "sites/ConnectKeyRepository.h"
#include "sites/SiteRepository.h"
#include "sites/WorkspaceActions.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace ph;
using namespace ph::sites;

namespace {
QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}
} // namespace

class tst_WorkspaceActions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void refusesASiteKeyRequestNamingTheField_data();
    void refusesASiteKeyRequestNamingTheField();
    void createsASiteOnceByName();
    void rotatesToANewPublicKey();
    void deletesASiteWithItsKeys();
    void capsActiveConnectKeysPerSite();

private:
    QTemporaryDir m_dir;
    SystemClock m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<SiteRepository> m_sites;
    std::unique_ptr<ConnectKeyRepository> m_connect;
};

void tst_WorkspaceActions::init()
{
    m_store =
        std::make_unique<Store>(m_dir.filePath(QStringLiteral("%1-%2.db")
                                                   .arg(QLatin1String(QTest::currentTestFunction()),
                                                        QLatin1String(QTest::currentDataTag()))),
                                m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_sites = std::make_unique<SiteRepository>(*m_store);
    m_connect = std::make_unique<ConnectKeyRepository>(*m_store);
}

void tst_WorkspaceActions::cleanup()
{
    m_connect.reset();
    m_sites.reset();
    m_store.reset();
}

void tst_WorkspaceActions::refusesASiteKeyRequestNamingTheField_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("refuses a request without a site")
        << json(R"({"label":"embed","allowedDomains":["harbour.example"]})") << "MISSING_FIELD"
        << "siteId";
    QTest::newRow("refuses a site id and a site name together")
        << json(R"({"siteId":"site_x","siteName":"H","label":"e","allowedDomains":["h.example"]})")
        << "INVALID_FIELD"
        << "siteName";
    QTest::newRow("refuses a field the call does not have")
        << json(R"({"siteName":"H","label":"e","allowedDomains":["h.example"],"colour":1})")
        << "UNKNOWN_FIELD"
        << "colour";
    QTest::newRow("refuses a key without allowed domains")
        << json(R"({"siteName":"H","label":"e"})") << "MISSING_FIELD"
        << "allowedDomains";
    QTest::newRow("refuses a capability it does not know")
        << json(R"({"siteName":"H","label":"e","allowedDomains":["h.example"],)"
                R"("capabilities":{"teleport":true}})")
        << "UNKNOWN_FIELD"
        << "capabilities.teleport";
    QTest::newRow("refuses a site id of no site")
        << json(R"({"siteId":"site_none","label":"e","allowedDomains":["h.example"]})")
        << "SITE_NOT_FOUND"
        << "siteId";
}

void tst_WorkspaceActions::refusesASiteKeyRequestNamingTheField()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, code);
    QFETCH(QString, field);
    try {
        generateSiteKey(*m_store, *m_sites, body);
        QFAIL("generated a key it should have refused");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), code);
        QCOMPARE(e.field(), field);
    }
    QCOMPARE(m_sites->listSites(kLocalOwner).size(), 0); // nothing stored
}

void tst_WorkspaceActions::createsASiteOnceByName()
{
    const QJsonObject body =
        json(R"({"siteName":"Harbour","label":"embed","allowedDomains":["harbour.example"]})");
    const GeneratedSiteKey first = generateSiteKey(*m_store, *m_sites, body);
    QVERIFY(first.siteCreated);
    QVERIFY(first.key.publicKey.startsWith(QLatin1String("pk_site_")));
    const GeneratedSiteKey second = generateSiteKey(*m_store, *m_sites, body);
    QVERIFY(!second.siteCreated);
    QCOMPARE(second.site.id, first.site.id);
    QCOMPARE(m_sites->keyCount(first.site.id), 2);
}

void tst_WorkspaceActions::rotatesToANewPublicKey()
{
    const GeneratedSiteKey g = generateSiteKey(
        *m_store, *m_sites,
        json(R"({"siteName":"Harbour","label":"embed","allowedDomains":["harbour.example"]})"));
    const SiteKey rotated =
        rotateSiteKey(*m_store, *m_sites, QJsonObject{{QStringLiteral("keyId"), g.key.id}});
    QCOMPARE(rotated.id, g.key.id);
    QVERIFY(rotated.publicKey != g.key.publicKey);
    QVERIFY(!m_sites->findUsableKeyByPublicKey(g.key.publicKey));
    QVERIFY(m_sites->findUsableKeyByPublicKey(rotated.publicKey));
}

void tst_WorkspaceActions::deletesASiteWithItsKeys()
{
    const GeneratedSiteKey g = generateSiteKey(
        *m_store, *m_sites,
        json(R"({"siteName":"Harbour","label":"embed","allowedDomains":["harbour.example"]})"));
    createConnectKey(*m_sites, *m_connect, QJsonObject{{QStringLiteral("siteId"), g.site.id}},
                     QStringLiteral("owner"));
    const DeletedSite d =
        deleteSite(*m_sites, *m_connect, QJsonObject{{QStringLiteral("siteId"), g.site.id}});
    QCOMPARE(d.siteKeys, 1);
    QCOMPARE(d.connectKeys, 1);
    QVERIFY(!m_sites->findSite(g.site.id));
    QVERIFY(!m_sites->findUsableKeyByPublicKey(g.key.publicKey));
}

void tst_WorkspaceActions::capsActiveConnectKeysPerSite()
{
    const GeneratedSiteKey g = generateSiteKey(
        *m_store, *m_sites,
        json(R"({"siteName":"Harbour","label":"embed","allowedDomains":["harbour.example"]})"));
    const QJsonObject body{{QStringLiteral("siteId"), g.site.id}};
    QString first;
    for (int i = 0; i < ConnectKeyRepository::kMaxActivePerSite; ++i) {
        const auto minted = createConnectKey(*m_sites, *m_connect, body, QStringLiteral("owner"));
        QVERIFY(minted.secret.startsWith(QLatin1String("ck_")));
        if (first.isEmpty())
            first = minted.key.id;
    }
    try {
        createConnectKey(*m_sites, *m_connect, body, QStringLiteral("owner"));
        QFAIL("minted a ninth active Connect AI key");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("CONNECT_KEY_LIMIT"));
    }
    // Revoking one makes room; revoking it again says so.
    QVERIFY(!revokeConnectKey(*m_sites, *m_connect, QJsonObject{{QStringLiteral("keyId"), first}})
                 .alreadyRevoked);
    QVERIFY(revokeConnectKey(*m_sites, *m_connect, QJsonObject{{QStringLiteral("keyId"), first}})
                .alreadyRevoked);
    createConnectKey(*m_sites, *m_connect, body, QStringLiteral("owner"));
    QCOMPARE(m_connect->activeCount(g.site.id), ConnectKeyRepository::kMaxActivePerSite);
}

QTEST_GUILESS_MAIN(tst_WorkspaceActions)
#include "tst_workspaceactions.moc"
