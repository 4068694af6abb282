// a2w/Delegations: delegated sessions minted for a run, checked for a site and a scope
// item, spent, revoked; in a real store (no HTTP).
#include "FakeEngineRuns.h"

#include "core/DomainError.h"

#include <QSignalSpy>

using namespace ph;
using namespace ph::a2w;

class tst_A2wDelegations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aTokenIsCheckedForItsSiteScopeAndCap_data();
    void aTokenIsCheckedForItsSiteScopeAndCap();
    void anApprovalIsRefusedForABadGrant_data();
    void anApprovalIsRefusedForABadGrant();
    void aScopeThatDoesNotCoverTheRunCancelsIt();
    void theNewTokenIsReadOnce();
};

namespace {
const char *kShop = R"({"shortcuts":[
    {"id":"kettles","label":"Find kettles","prompt":"find kettles"},
    {"id":"order","label":"Order","prompt":"order","capabilityId":"buy"}]})";

Delegations::Grant grant(const QStringList &scope)
{
    return {scope, 5'000, 3'600'000};
}
} // namespace

void tst_A2wDelegations::aTokenIsCheckedForItsSiteScopeAndCap_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("siteId"); // empty: the session's site
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("change"); // revoke, expire, spend
    QTest::addColumn<QString>("code");   // empty: allowed
    QTest::newRow("a token within its scope on its site is good")
        << QString() << QString() << QStringLiteral("kettles") << QString() << QString();
    QTest::newRow("a capability id of the scope is covered too")
        << QString() << QString() << QStringLiteral("buy") << QString() << QString();
    QTest::newRow("an unknown token is invalid")
        << QStringLiteral("rds_nothing") << QString() << QStringLiteral("kettles") << QString()
        << QStringLiteral("DELEGATION_INVALID");
    QTest::newRow("a session of another site is out of scope")
        << QString() << QStringLiteral("site_other") << QStringLiteral("kettles") << QString()
        << QStringLiteral("DELEGATION_OUT_OF_SCOPE");
    QTest::newRow("a free prompt needs a session that allows everything")
        << QString() << QString() << QString() << QString()
        << QStringLiteral("DELEGATION_OUT_OF_SCOPE");
    QTest::newRow("a revoked session is refused")
        << QString() << QString() << QStringLiteral("kettles") << QStringLiteral("revoke")
        << QStringLiteral("DELEGATION_REVOKED");
    QTest::newRow("an expired session is refused")
        << QString() << QString() << QStringLiteral("kettles") << QStringLiteral("expire")
        << QStringLiteral("DELEGATION_EXPIRED");
    QTest::newRow("a session that spent its cap is refused")
        << QString() << QString() << QStringLiteral("kettles") << QStringLiteral("spend")
        << QStringLiteral("DELEGATION_CAP_REACHED");
}

void tst_A2wDelegations::aTokenIsCheckedForItsSiteScopeAndCap()
{
    QFETCH(QString, token);
    QFETCH(QString, siteId);
    QFETCH(QString, what);
    QFETCH(QString, change);
    QFETCH(QString, code);
    A2wEngineWorld world;
    QVERIFY(world.openEngine(A2wWorld::json(kShop)));
    Run run = world.addRun(Status::inputRequired);
    run.kind = QStringLiteral("shortcut");
    run.selector = QStringLiteral("kettles");
    QSignalSpy changed(world.recorder.get(), &RunRecorder::delegationsChanged);
    const std::optional<QString> minted = world.delegations->approve(
        run, grant({QStringLiteral("kettles"), QStringLiteral("buy")}), QStringLiteral("owner"));
    QVERIFY(minted);
    QCOMPARE(changed.size(), 1);
    const Delegation d = world.delegations->list(10).first();
    if (change == QLatin1String("revoke"))
        world.delegations->revoke(d.id);
    else if (change == QLatin1String("expire"))
        world.clock.advance(3'600'000);
    else if (change == QLatin1String("spend"))
        world.repo->addSpent(d.id, 5'000);
    try {
        const Delegation checked = world.delegations->check(
            token.isEmpty() ? *minted : token, siteId.isEmpty() ? world.siteId : siteId, what);
        QVERIFY2(code.isEmpty(), "allowed");
        QCOMPARE(checked.id, d.id);
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), code);
    }
}

void tst_A2wDelegations::anApprovalIsRefusedForABadGrant_data()
{
    QTest::addColumn<QStringList>("scope");
    QTest::addColumn<qint64>("capMilli");
    QTest::addColumn<qint64>("ttlMs");
    QTest::addColumn<QString>("field");
    QTest::newRow("a grant must name something the agent may do")
        << QStringList() << qint64(5000) << qint64(3'600'000) << QStringLiteral("scope");
    QTest::newRow("a grant names only the site's own shortcuts and capabilities")
        << QStringList{QStringLiteral("teapots")} << qint64(5000) << qint64(3'600'000)
        << QStringLiteral("scope");
    QTest::newRow("a grant caps spending above nothing")
        << QStringList{QStringLiteral("*")} << qint64(0) << qint64(3'600'000)
        << QStringLiteral("spendCap");
    QTest::newRow("a grant lasts a minute at least")
        << QStringList{QStringLiteral("*")} << qint64(5000) << qint64(1000)
        << QStringLiteral("expiresIn");
}

void tst_A2wDelegations::anApprovalIsRefusedForABadGrant()
{
    QFETCH(QStringList, scope);
    QFETCH(qint64, capMilli);
    QFETCH(qint64, ttlMs);
    QFETCH(QString, field);
    A2wEngineWorld world;
    QVERIFY(world.openEngine(A2wWorld::json(kShop)));
    Run run = world.addRun(Status::inputRequired);
    try {
        world.delegations->approve(run, {scope, capMilli, ttlMs}, QStringLiteral("owner"));
        QFAIL("approved");
    } catch (const DomainError &e) {
        QCOMPARE(e.field(), field);
    }
    QVERIFY(world.delegations->list(10).isEmpty());
}

void tst_A2wDelegations::aScopeThatDoesNotCoverTheRunCancelsIt()
{
    A2wEngineWorld world;
    QVERIFY(world.openEngine(A2wWorld::json(kShop)));
    Run run = world.addRun(Status::inputRequired); // a free prompt
    QVERIFY(!world.delegations->approve(run, grant({QStringLiteral("kettles")}),
                                        QStringLiteral("owner")));
    QCOMPARE(world.repo->find(run.id)->status, Status::cancelled);
    QCOMPARE(world.delegations->list(10).size(), 1);
}

void tst_A2wDelegations::theNewTokenIsReadOnce()
{
    A2wEngineWorld world;
    QVERIFY(world.openEngine(A2wWorld::json(kShop)));
    Run run = world.addRun(Status::inputRequired);
    const std::optional<QString> token =
        world.delegations->approve(run, grant({QStringLiteral("*")}), QStringLiteral("owner"));
    QVERIFY(token);
    run.delegationId = world.delegations->list(10).first().id;
    QCOMPARE(world.delegations->of(run, true).value(QStringLiteral("token")).toString(), *token);
    QVERIFY(!world.delegations->of(run, true).contains(QStringLiteral("token")));
    QCOMPARE(world.delegations->of(run, false).value(QStringLiteral("scope")).toArray(),
             QJsonArray{QStringLiteral("*")});
    QVERIFY(world.delegations->inForce(run.delegationId));
    world.delegations->revoke(run.delegationId);
    QVERIFY(!world.delegations->inForce(run.delegationId));
    try {
        world.delegations->revoke(run.delegationId);
        QFAIL("revoked twice");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("DELEGATION_REVOKED"));
    }
}

QTEST_GUILESS_MAIN(tst_A2wDelegations)
#include "tst_a2wdelegations.moc"
