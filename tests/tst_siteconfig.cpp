// SiteConfig: the typed, read-only view over a site's stored configuration; every
// default comes from SiteConfigSchema::defaults(), none is written at a read.
#include "sites/SiteConfig.h"
#include "sites/SiteConfigSchema.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using ph::sites::SiteConfig;
using ph::sites::SiteConfigSchema;

namespace {
QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

// Every accessor's answer as one JSON value, so one row compares them all.
QJsonObject readAll(const SiteConfig &c)
{
    const auto ai = c.aiAccess();
    const auto d = c.agentDiscovery();
    return {
        {"businessType", c.businessType()},
        {"shortcuts", c.shortcuts().size()},
        {"knowledge", c.knowledge().size()},
        {"experience.seedCallToAction", c.experience().seedCallToAction()},
        {"experience.anchor", c.experience().anchor()},
        {"experience.liveActionMode", c.experience().liveActionMode()},
        {"experience.liveCardCount", c.experience().liveCardCount()},
        {"experience.launcherLabel", c.experience().launcherLabel()},
        {"greeting.text", c.greeting().text()},
        {"greeting.delay", c.greeting().delay()},
        {"greeting.duration", c.greeting().duration()},
        {"greeting.disabled", c.greeting().disabled()},
        {"voice.enabled", c.voice().enabled()},
        {"voice.language", c.voice().language()},
        {"voice.autoStopMs", c.voice().autoStopMs()},
        {"aiAccess.enabled", ai.enabled()},
        {"aiAccess.browserDeepLinks", ai.browserDeepLinks()},
        {"aiAccess.cloudBrowser", ai.cloudBrowser()},
        {"aiAccess.allowDelegatedHandoffs", ai.allowDelegatedHandoffs()},
        {"aiAccess.confirmation", ai.confirmation()},
        {"aiAccess.confirmationRequired", ai.confirmationRequired()},
        {"aiAccess.crossHost", ai.crossHost()},
        {"aiAccess.crossHostAllowed", ai.crossHostAllowed()},
        {"aiAccess.maxHops", ai.maxHops()},
        {"analytics.enabled", c.analytics().enabled()},
        {"analytics.displayPersonalData", c.analytics().displayPersonalData()},
        {"agentDiscovery.enabled", d.enabled()},
        {"agentDiscovery.preferExecution", d.preferExecution()},
        {"agentDiscovery.siteManifestUrl", d.siteManifestUrl()},
        {"agentDiscovery.expose.prompt", d.expose().prompt()},
        {"agentDiscovery.expose.shortcuts", d.expose().shortcuts()},
        {"agentDiscovery.expose.playbooks", d.expose().playbooks()},
        {"agentDiscovery.discoverySurface.mode", d.discoverySurface().mode()},
        {"agentDiscovery.discoverySurface.branding", d.discoverySurface().branding()},
        {"agentDiscovery.discoverySurface.actionReveal", d.discoverySurface().actionReveal()},
        {"agentDiscovery.discoverySurface.beaconLabel", d.discoverySurface().beaconLabel()},
        {"pageConfig.disableAutoScroll", c.pageConfig().disableAutoScroll()},
        {"pageConfig.adaptiveSettleMaxWaitMs", c.pageConfig().adaptiveSettleMaxWaitMs()},
    };
}

// The documented defaults (docs/api/sites.md#runtime-owned-defaults), written out here
// on purpose: a change to SiteConfigSchema::defaults() must be a change to this test.
QJsonObject documentedDefaults()
{
    return {
        {"businessType", "other"},
        {"shortcuts", 0},
        {"knowledge", 0},
        {"experience.seedCallToAction", "Ask me to do it for you"},
        {"experience.anchor", "bottom-center"},
        {"experience.liveActionMode", "transparent"},
        {"experience.liveCardCount", 3},
        {"experience.launcherLabel", ""},
        {"greeting.text", "Hi! I can find things and get them done on this site for you."},
        {"greeting.delay", 4000},
        {"greeting.duration", 8000},
        {"greeting.disabled", false},
        {"voice.enabled", false},
        {"voice.language", "en"},
        {"voice.autoStopMs", 1200},
        {"aiAccess.enabled", true},
        {"aiAccess.browserDeepLinks", false},
        {"aiAccess.cloudBrowser", true},
        {"aiAccess.allowDelegatedHandoffs", false},
        {"aiAccess.confirmation", "required"},
        {"aiAccess.confirmationRequired", true},
        {"aiAccess.crossHost", "same_host"},
        {"aiAccess.crossHostAllowed", false},
        {"aiAccess.maxHops", 2},
        {"analytics.enabled", true},
        {"analytics.displayPersonalData", false},
        {"agentDiscovery.enabled", true},
        {"agentDiscovery.preferExecution", "cloud"},
        {"agentDiscovery.siteManifestUrl", ""},
        {"agentDiscovery.expose.prompt", true},
        {"agentDiscovery.expose.shortcuts", true},
        {"agentDiscovery.expose.playbooks", true},
        {"agentDiscovery.discoverySurface.mode", "beacon"},
        {"agentDiscovery.discoverySurface.branding", "site"},
        {"agentDiscovery.discoverySurface.actionReveal", "hover"},
        {"agentDiscovery.discoverySurface.beaconLabel", "AI actions"},
        {"pageConfig.disableAutoScroll", true},
        {"pageConfig.adaptiveSettleMaxWaitMs", 1500},
    };
}

QJsonObject with(QJsonObject o, const QJsonObject &changes)
{
    for (auto it = changes.begin(); it != changes.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}
} // namespace

class tst_SiteConfig : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsTypedFieldsOverTheDefaults_data();
    void readsTypedFieldsOverTheDefaults();
    void effectiveAgreesWithTheSchema_data();
    void effectiveAgreesWithTheSchema();
};

void tst_SiteConfig::readsTypedFieldsOverTheDefaults_data()
{
    QTest::addColumn<QJsonObject>("stored");
    QTest::addColumn<QJsonObject>("expected");
    const QJsonObject d = documentedDefaults();

    QTest::newRow("an empty config gives the documented defaults") << QJsonObject() << d;
    QTest::newRow("a set value wins over its default")
        << json(R"({"aiAccess": {"maxHops": 5, "crossHost": "allow", "confirmation": "auto"},
                    "businessType": "saas", "greeting": {"delay": 0}})")
        << with(d, {{"aiAccess.maxHops", 5},
                    {"aiAccess.crossHost", "allow"},
                    {"aiAccess.crossHostAllowed", true},
                    {"aiAccess.confirmation", "auto"},
                    {"aiAccess.confirmationRequired", false},
                    {"businessType", "saas"},
                    {"greeting.delay", 0}});
    QTest::newRow("a false stored over a true default stays false")
        << json(
               R"({"aiAccess": {"enabled": false}, "agentDiscovery": {"expose": {"prompt": false}}})")
        << with(d, {{"aiAccess.enabled", false}, {"agentDiscovery.expose.prompt", false}});
    QTest::newRow("a field set in a section keeps the section's other defaults")
        << json(R"({"agentDiscovery": {"discoverySurface": {"mode": "inline"}}})")
        << with(d, {{"agentDiscovery.discoverySurface.mode", "inline"}});
    QTest::newRow("a field without a default reads as stored")
        << json(R"({"experience": {"launcherLabel": "Help"},
                    "agentDiscovery": {"siteManifestUrl": "https://a.example/m.json"}})")
        << with(d, {{"experience.launcherLabel", "Help"},
                    {"agentDiscovery.siteManifestUrl", "https://a.example/m.json"}});
    QTest::newRow("a wrong type falls back to the default")
        << json(R"({"aiAccess": {"maxHops": "5", "enabled": 0, "crossHost": true},
                    "voice": {"autoStopMs": 2.5}, "businessType": 7, "shortcuts": {}})")
        << d;
    QTest::newRow("a section of the wrong type falls back to its defaults")
        << json(R"({"aiAccess": [1, 2], "greeting": "hello"})") << d;
    QTest::newRow("lists come back as stored")
        << json(R"({"shortcuts": [{"id": "a"}, {"id": "b"}], "knowledge": [{"id": "k"}]})")
        << with(d, {{"shortcuts", 2}, {"knowledge", 1}});
}

void tst_SiteConfig::readsTypedFieldsOverTheDefaults()
{
    QFETCH(QJsonObject, stored);
    QFETCH(QJsonObject, expected);
    const QJsonObject actual = readAll(SiteConfig(stored));
    for (auto it = expected.begin(); it != expected.end(); ++it)
        QVERIFY2(actual.value(it.key()) == it.value(),
                 qPrintable(QStringLiteral("%1: %2, expected %3")
                                .arg(it.key(),
                                     QString::fromUtf8(
                                         QJsonDocument(QJsonObject{{"v", actual.value(it.key())}})
                                             .toJson(QJsonDocument::Compact)),
                                     QString::fromUtf8(QJsonDocument(QJsonObject{{"v", it.value()}})
                                                           .toJson(QJsonDocument::Compact)))));
    QCOMPARE(actual.keys(), expected.keys());
}

void tst_SiteConfig::effectiveAgreesWithTheSchema_data()
{
    QTest::addColumn<QJsonObject>("stored");
    QTest::newRow("an empty config's effective value is the schema's defaults") << QJsonObject();
    QTest::newRow("a stored section merges key by key as the schema merges it")
        << json(R"({"aiAccess": {"maxHops": 1}, "agentDiscovery": {"expose": {"prompt": false}}})");
}

void tst_SiteConfig::effectiveAgreesWithTheSchema()
{
    QFETCH(QJsonObject, stored);
    const SiteConfig config(stored);
    QCOMPARE(config.effective(), SiteConfigSchema::effective(stored));
    QCOMPARE(config.stored(), stored);
    QCOMPARE(config.aiAccess().effective(),
             SiteConfigSchema::effective(stored).value(QStringLiteral("aiAccess")).toObject());
    QCOMPARE(
        config.agentDiscovery().effective(),
        SiteConfigSchema::effective(stored).value(QStringLiteral("agentDiscovery")).toObject());
}

QTEST_GUILESS_MAIN(tst_SiteConfig)
#include "tst_siteconfig.moc"
