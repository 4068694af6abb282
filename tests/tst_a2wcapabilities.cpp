// a2w/SiteCapabilities: the capability / MCP catalogue of an enabled site, read straight
// from the site's configuration in a real store (no HTTP).
#include "A2wWorld.h"

#include "a2w/SiteCapabilities.h"
#include "core/DomainError.h"

using namespace ph;
using namespace ph::a2w;

class tst_A2wCapabilities : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void listsTheToolsTheSitePublishes_data();
    void listsTheToolsTheSitePublishes();
    void refusesASiteThatIsNotDiscoverable_data();
    void refusesASiteThatIsNotDiscoverable();
    void turnsAToolCallIntoACreateRequest_data();
    void turnsAToolCallIntoACreateRequest();
};

namespace {
const char *kShop = R"({"shortcuts":[
    {"id":"kettles","label":"Find kettles","prompt":"find kettles","url":"https://shop.test/kettles"},
    {"id":"order","kind":"journey","label":"Order","steps":[{"title":"Cart"}],"capabilityId":"buy"},
    {"id":"old","label":"Old","prompt":"old","enabled":false}]})";

QStringList namesOf(const QJsonArray &tools)
{
    QStringList names;
    for (const QJsonValue &t : tools)
        names << t.toObject().value(QStringLiteral("name")).toString();
    return names;
}
} // namespace

void tst_A2wCapabilities::listsTheToolsTheSitePublishes_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QStringList>("tools");
    QTest::newRow("a site publishes a prompt tool and its enabled shortcuts and playbooks")
        << QByteArray(kShop)
        << QStringList{QStringLiteral("run_task"), QStringLiteral("shortcut_kettles"),
                       QStringLiteral("playbook_order")};
    QTest::newRow("a site that exposes no prompt offers its shortcuts only")
        << QByteArray(R"({"agentDiscovery":{"expose":{"prompt":false,"playbooks":false}},
                          "shortcuts":[{"id":"kettles","label":"K","prompt":"k"},
                                       {"id":"o","kind":"journey","label":"O"}]})")
        << QStringList{QStringLiteral("shortcut_kettles")};
}

void tst_A2wCapabilities::listsTheToolsTheSitePublishes()
{
    QFETCH(QByteArray, config);
    QFETCH(QStringList, tools);
    A2wWorld world;
    QVERIFY(world.open(A2wWorld::json(config.constData())));
    const SiteCapabilities capabilities(*world.store, *world.sites);
    const SiteTools byHost = capabilities.capabilities({}, QStringLiteral("shop.test"), {});
    QCOMPARE(namesOf(byHost.tools), tools);
    QCOMPARE(byHost.siteId, world.siteId);
    QCOMPARE(byHost.url, QStringLiteral("https://shop.test/"));
    const SiteTools byUrl =
        capabilities.capabilities(QStringLiteral("https://shop.test/a"), {}, {});
    QCOMPARE(byUrl.url, QStringLiteral("https://shop.test/a"));
    QCOMPARE(namesOf(capabilities.capabilitiesOfSite(world.siteId).tools), tools);
}

void tst_A2wCapabilities::refusesASiteThatIsNotDiscoverable_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("code");
    QTest::newRow("a host no site key allows is not an enabled site")
        << QByteArray("{}") << QStringLiteral("elsewhere.test")
        << QStringLiteral("SITE_NOT_ENABLED");
    QTest::newRow("a site that turned AI access off is not offered")
        << QByteArray(R"({"aiAccess":{"enabled":false}})") << QStringLiteral("shop.test")
        << QStringLiteral("AI_ACCESS_DISABLED");
    QTest::newRow("a site that turned discovery off does not publish its capabilities")
        << QByteArray(R"({"agentDiscovery":{"enabled":false}})") << QStringLiteral("shop.test")
        << QStringLiteral("DISCOVERY_DISABLED");
}

void tst_A2wCapabilities::refusesASiteThatIsNotDiscoverable()
{
    QFETCH(QByteArray, config);
    QFETCH(QString, host);
    QFETCH(QString, code);
    A2wWorld world;
    QVERIFY(world.open(A2wWorld::json(config.constData())));
    const SiteCapabilities capabilities(*world.store, *world.sites);
    try {
        capabilities.capabilities({}, host, {});
        QFAIL("no error");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), code);
    }
}

void tst_A2wCapabilities::turnsAToolCallIntoACreateRequest_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QByteArray>("arguments");
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("capabilityId");
    QTest::newRow("run_task is a prompt on the page it names")
        << QStringLiteral("run_task")
        << QByteArray(R"({"url":"https://shop.test/b","prompt":"find mugs"})")
        << QStringLiteral("https://shop.test/b") << QStringLiteral("find mugs") << QString();
    QTest::newRow("a shortcut without a url starts on the shortcut's own page")
        << QStringLiteral("shortcut_kettles") << QByteArray("{}")
        << QStringLiteral("https://shop.test/kettles") << QStringLiteral("kettles") << QString();
    QTest::newRow("a playbook with arguments runs its capability on the site's page")
        << QStringLiteral("playbook_order") << QByteArray(R"({"args":{"size":"M"}})")
        << QStringLiteral("https://shop.test/") << QStringLiteral("order") << QStringLiteral("buy");
}

void tst_A2wCapabilities::turnsAToolCallIntoACreateRequest()
{
    QFETCH(QString, tool);
    QFETCH(QByteArray, arguments);
    QFETCH(QString, url);
    QFETCH(QString, selector);
    QFETCH(QString, capabilityId);
    A2wWorld world;
    QVERIFY(world.open(A2wWorld::json(kShop)));
    const SiteCapabilities capabilities(*world.store, *world.sites);
    const SiteTools site = capabilities.capabilitiesOfSite(world.siteId);
    const CreateRequest request =
        capabilities.requestForTool(site, tool, A2wWorld::json(arguments.constData()));
    QCOMPARE(request.url, url);
    QCOMPARE(request.selector, selector);
    QCOMPARE(request.capabilityId, capabilityId);
    QCOMPARE(request.executionPreference(), QStringLiteral("cloud"));
    try {
        capabilities.requestForTool(site, QStringLiteral("shortcut_old"), {});
        QFAIL("a disabled shortcut is a tool");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("TOOL_NOT_FOUND"));
    }
}

QTEST_GUILESS_MAIN(tst_A2wCapabilities)
#include "tst_a2wcapabilities.moc"
