// a2w/LaunchPolicy: whether, where and how a create request runs (enabled site,
// execution, trust tier, sensitive fields, task text, engagement kind, rate, idempotency),
// decided on a real store (no HTTP, no engine).
#include "A2wWorld.h"

#include "a2w/Delegations.h"
#include "a2w/LaunchPolicy.h"
#include "a2w/SiteCapabilities.h"
#include "core/DomainError.h"

using namespace ph;
using namespace ph::a2w;

class tst_A2wLaunchPolicy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void plansARun_data();
    void plansARun();
    void refusesARun_data();
    void refusesARun();
    void ratesEachTierOnItsOwn();
    void anIdempotencyKeyIsTheCallersOwn();
};

namespace {
const char *kShop = R"({"shortcuts":[
    {"id":"kettles","label":"Find kettles","prompt":"find kettles","engagementKind":"support",
     "steps":[{"title":"Search","prompt":"kettle"}]},
    {"id":"order","kind":"journey","label":"Order","capabilityId":"buy"},
    {"id":"reorder","label":"Reorder","prompt":"reorder","capabilityId":"orders.repeat",
     "argsSchema":{"type":"object","properties":{"orderId":{"type":"string","minLength":1}},
                   "required":["orderId"],"additionalProperties":false}}]})";

struct Policy
{
    A2wWorld world;
    std::unique_ptr<SiteCapabilities> capabilities;
    std::unique_ptr<Delegations> delegations;
    std::unique_ptr<LaunchPolicy> policy;

    bool open(const QJsonObject &config)
    {
        if (!world.open(config))
            return false;
        capabilities = std::make_unique<SiteCapabilities>(*world.store, *world.sites);
        delegations = std::make_unique<Delegations>(*world.store, *world.repo, *world.recorder,
                                                    *capabilities);
        policy = std::make_unique<LaunchPolicy>(*world.store, *world.settings, *world.sites,
                                                *world.repo, *delegations);
        return true;
    }
};

Caller anonymous(const QString &address = QStringLiteral("192.0.2.1"))
{
    Caller c;
    c.address = address;
    c.userAgent = QStringLiteral("ShopBot/1.0 (+https://bot.test)");
    return c;
}
} // namespace

void tst_A2wLaunchPolicy::plansARun_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("prefer");
    QTest::addColumn<QString>("execution");
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("engagementKind");
    QTest::newRow("a prompt runs in the cloud as it is written")
        << QByteArray(R"({"url":"https://shop.test/","prompt":"find a kettle"})") << QString()
        << QStringLiteral("cloud") << QStringLiteral("find a kettle") << QString();
    QTest::newRow("a stored shortcut runs its prompt and steps with its engagement kind")
        << QByteArray(R"({"url":"https://shop.test/","shortcutId":"kettles"})") << QString()
        << QStringLiteral("cloud") << QStringLiteral("find kettles\nStep 1: Search — kettle")
        << QStringLiteral("support");
    QTest::newRow("a shortcut called by its capability runs once with the values its schema admits")
        << QByteArray(
               R"({"url":"https://shop.test/","shortcutId":"reorder","capabilityId":"orders.repeat","args":{"orderId":"A7"}})")
        << QString() << QStringLiteral("cloud")
        << QStringLiteral("reorder\nWith these values:\norderId: A7") << QString();
    QTest::newRow("a declared capability beside a prompt adds its entry and values")
        << QByteArray(
               R"({"url":"https://shop.test/","prompt":"order","capabilityId":"buy","args":{"size":2}})")
        << QString() << QStringLiteral("cloud")
        << QStringLiteral("order\nOrder\nWith these values:\nsize: 2") << QString();
    QTest::newRow("Prefer asks for the visitor's browser where the site allows handoffs")
        << QByteArray(R"({"url":"https://shop.test/","prompt":"find a kettle"})")
        << QStringLiteral("browser") << QStringLiteral("browser") << QStringLiteral("find a kettle")
        << QString();
}

void tst_A2wLaunchPolicy::plansARun()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, prefer);
    QFETCH(QString, execution);
    QFETCH(QString, task);
    QFETCH(QString, engagementKind);
    Policy p;
    QJsonObject config = A2wWorld::json(kShop);
    config.insert(QStringLiteral("aiAccess"),
                  QJsonObject{{QStringLiteral("browserDeepLinks"), true}});
    QVERIFY(p.open(config));
    const LaunchPolicy::Plan plan = p.policy->plan(
        CreateRequest::fromJson(A2wWorld::json(body.constData())), anonymous(), prefer, {});
    QCOMPARE(plan.siteId, p.world.siteId);
    QCOMPARE(plan.execution, execution);
    QCOMPARE(plan.task, task);
    QCOMPARE(plan.engagementKind, engagementKind);
    QCOMPARE(plan.trust, Trust::anonymous);
    QCOMPARE(plan.agent.value(QStringLiteral("displayName")).toString(), QStringLiteral("ShopBot"));
    QCOMPARE(plan.hop, 0);
}

void tst_A2wLaunchPolicy::refusesARun_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("code");
    QTest::newRow("a host no site key allows is not an enabled site")
        << QByteArray("{}") << QByteArray(R"({"url":"https://other.test/","prompt":"x"})")
        << QStringLiteral("SITE_NOT_ENABLED");
    QTest::newRow("a site that turned AI access off takes no runs")
        << QByteArray(R"({"aiAccess":{"enabled":false}})")
        << QByteArray(R"({"url":"https://shop.test/","prompt":"x"})")
        << QStringLiteral("AI_ACCESS_DISABLED");
    QTest::newRow("a site without the cloud browser takes no cloud runs")
        << QByteArray(R"({"aiAccess":{"cloudBrowser":false}})")
        << QByteArray(R"({"url":"https://shop.test/","prompt":"x"})")
        << QStringLiteral("CLOUD_EXECUTION_DISABLED");
    QTest::newRow("browser handoffs are off until the owner opts in")
        << QByteArray("{}")
        << QByteArray(R"({"url":"https://shop.test/","prompt":"x","execution":{"mode":"browser"}})")
        << QStringLiteral("BROWSER_EXECUTION_DISABLED");
    QTest::newRow("a shortcut the site does not publish is not found")
        << QByteArray(kShop) << QByteArray(R"({"url":"https://shop.test/","shortcutId":"tea"})")
        << QStringLiteral("SHORTCUT_NOT_FOUND");
    QTest::newRow("an engagement kind that contradicts the stored one is refused")
        << QByteArray(kShop)
        << QByteArray(
               R"({"url":"https://shop.test/","shortcutId":"kettles","engagementKind":"task"})")
        << QStringLiteral("ENGAGEMENT_KIND_MISMATCH");
    QTest::newRow("commerce from an anonymous caller needs a verified signature")
        << QByteArray("{}")
        << QByteArray(R"({"url":"https://shop.test/","prompt":"x","commerce":{"maxTotal":5}})")
        << QStringLiteral("TRUST_TIER_TOO_LOW");
    QTest::newRow("a capability the site does not declare is not found, never planner text")
        << QByteArray(kShop)
        << QByteArray(R"({"url":"https://shop.test/","prompt":"x","capabilityId":"refund"})")
        << QStringLiteral("CAPABILITY_NOT_FOUND");
    QTest::newRow("a disabled capability is not found")
        << QByteArray(
               R"({"shortcuts":[{"id":"o","label":"O","capabilityId":"buy","enabled":false}]})")
        << QByteArray(R"({"url":"https://shop.test/","prompt":"x","capabilityId":"buy"})")
        << QStringLiteral("CAPABILITY_NOT_FOUND");
    QTest::newRow("an argument of the wrong type is refused by the capability's schema")
        << QByteArray(kShop)
        << QByteArray(
               R"({"url":"https://shop.test/","prompt":"x","capabilityId":"orders.repeat","args":{"orderId":7}})")
        << QStringLiteral("INVALID_FIELD");
    QTest::newRow("an argument the capability's schema does not know is refused")
        << QByteArray(kShop)
        << QByteArray(
               R"({"url":"https://shop.test/","prompt":"x","capabilityId":"orders.repeat","args":{"orderId":"A7","x":1}})")
        << QStringLiteral("INVALID_FIELD");
    QTest::newRow("a missing required argument is refused")
        << QByteArray(kShop)
        << QByteArray(
               R"({"url":"https://shop.test/","shortcutId":"reorder","capabilityId":"orders.repeat"})")
        << QStringLiteral("INVALID_FIELD");
}

void tst_A2wLaunchPolicy::refusesARun()
{
    QFETCH(QByteArray, config);
    QFETCH(QByteArray, body);
    QFETCH(QString, code);
    Policy p;
    QVERIFY(p.open(A2wWorld::json(config.constData())));
    try {
        p.policy->plan(CreateRequest::fromJson(A2wWorld::json(body.constData())), anonymous(), {},
                       {});
        QFAIL("planned");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), code);
        // The refusal names the field: the capability, or its arguments.
        if (code == QLatin1String("CAPABILITY_NOT_FOUND"))
            QCOMPARE(e.field(), QStringLiteral("capabilityId"));
        if (code == QLatin1String("INVALID_FIELD"))
            QCOMPARE(e.field(), QStringLiteral("args"));
    }
}

void tst_A2wLaunchPolicy::ratesEachTierOnItsOwn()
{
    Policy p;
    QVERIFY(p.open({}));
    QCOMPARE(p.world.settings->set(SettingKeys::a2wRunsPerMinutePerAddress, 2), QString());
    const CreateRequest request = CreateRequest::fromJson(
        A2wWorld::json(R"({"url":"https://shop.test/","prompt":"find a kettle"})"));
    p.policy->plan(request, anonymous(), {}, {});
    p.policy->plan(request, anonymous(), {}, {});
    try {
        p.policy->plan(request, anonymous(), {}, {});
        QFAIL("a third run in the minute");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("RATE_LIMITED"));
    }
    // Another address is another caller; a minute later the first may run again.
    p.policy->plan(request, anonymous(QStringLiteral("192.0.2.2")), {}, {});
    p.world.clock.advance(60'000);
    p.policy->plan(request, anonymous(), {}, {});
}

void tst_A2wLaunchPolicy::anIdempotencyKeyIsTheCallersOwn()
{
    Policy p;
    QVERIFY(p.open({}));
    const CreateRequest request = CreateRequest::fromJson(
        A2wWorld::json(R"({"url":"https://shop.test/","prompt":"find a kettle"})"));
    const QString mine =
        LaunchPolicy::idempotencyKey(QStringLiteral("a2w"), request, anonymous(), "k1");
    QVERIFY(!mine.isEmpty());
    QVERIFY(mine != LaunchPolicy::idempotencyKey(QStringLiteral("a2w"), request,
                                                 anonymous(QStringLiteral("192.0.2.9")), "k1"));
    QVERIFY(
        LaunchPolicy::idempotencyKey(QStringLiteral("a2w"), request, anonymous(), {}).isEmpty());
    QVERIFY(!p.policy->seen(mine, QStringLiteral("body")));
    p.policy->remember(mine, QStringLiteral("body"), QStringLiteral("a2w_1"),
                       {{QStringLiteral("run"), QStringLiteral("a2wr_x")}});
    const auto seen = p.policy->seen(mine, QStringLiteral("body"));
    QVERIFY(seen);
    QCOMPARE(seen->runId, QStringLiteral("a2w_1"));
    QCOMPARE(seen->tokens.value(QStringLiteral("run")).toString(), QStringLiteral("a2wr_x"));
    try {
        p.policy->seen(mine, QStringLiteral("another body"));
        QFAIL("reused");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("IDEMPOTENCY_KEY_REUSED"));
    }
}

QTEST_GUILESS_MAIN(tst_A2wLaunchPolicy)
#include "tst_a2wlaunchpolicy.moc"
