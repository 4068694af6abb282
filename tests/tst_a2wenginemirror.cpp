// a2w/EngineMirror: the engine run of an A2W run, started with a typed ExecuteRequest and
// followed through typed engine state (engine::RunSnapshot), on a fake engine and a real
// store (no HTTP, no browser).
#include "FakeEngineRuns.h"

#include "core/DomainError.h"

using namespace ph;
using namespace ph::a2w;
using engine::RunStatus;

Q_DECLARE_METATYPE(ph::engine::RunSnapshot)

class tst_A2wEngineMirror : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void startsTheEngineRunWithATypedRequest();
    void buildsTheRunsGates_data();
    void buildsTheRunsGates();
    void followsTheEngineRun_data();
    void followsTheEngineRun();
    void announcesEachStepOnceInOrder();
    void aRefusedStartLeavesTheRunFailed();
};

void tst_A2wEngineMirror::startsTheEngineRunWithATypedRequest()
{
    A2wEngineWorld world;
    QVERIFY(world.openEngine());
    const Run run = world.started(QStringLiteral("find the cheapest kettle"));
    QCOMPARE(world.engine.started.size(), 1);
    const engine::ExecuteRequest &r = world.engine.started.first();
    QCOMPARE(r.input, QStringLiteral("find the cheapest kettle"));
    QCOMPARE(r.urls, QStringList{QStringLiteral("https://shop.test/")});
    QCOMPARE(r.verbosity, QStringLiteral("steps"));
    QVERIFY(!r.historyContinue);
    // Stored as POST /agent's parser would have stored the same body.
    QCOMPARE(r.stored.value(QStringLiteral("input")).toString(), r.input);
    QCOMPARE(r.stored.value(QStringLiteral("response"))[QStringLiteral("verbosity")].toString(),
             QStringLiteral("steps"));
    QCOMPARE(run.trajectoryId, QStringLiteral("traj_1"));
    QVERIFY(world.repo->siteAccount(world.siteId).has_value());

    // Answering continues the same trajectory; the answers are never stored in clear.
    Run waiting = run;
    world.mirror->resume(waiting, {{QStringLiteral("size"), QStringLiteral("large")}}, {});
    QCOMPARE(world.engine.started.size(), 2);
    const engine::ExecuteRequest &c = world.engine.started.last();
    QVERIFY(c.historyContinue);
    QCOMPARE(c.trajectoryId, QStringLiteral("traj_1"));
    QCOMPARE(c.answers.value(QStringLiteral("size")).toString(), QStringLiteral("large"));
    QCOMPARE(c.stored[QStringLiteral("history")][QStringLiteral("answers")][QStringLiteral("size")]
                 .toString(),
             QStringLiteral("••••••"));
    QCOMPARE(world.repo->find(run.id)->status, Status::running);
}

void tst_A2wEngineMirror::buildsTheRunsGates_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QByteArray>("policy");
    QTest::addColumn<bool>("confirmSubmits");
    QTest::addColumn<QString>("sameOrigin");
    QTest::newRow("by default a run confirms submits and stays on its origin")
        << QByteArray("{}") << QByteArray("{}") << true << QStringLiteral("https://shop.test:443");
    QTest::newRow("a site that allows cross-host and needs no confirmation lets the run go")
        << QByteArray(R"({"aiAccess":{"crossHost":"allow","confirmation":"never"}})")
        << QByteArray("{}") << false << QString();
    QTest::newRow("a caller may tighten a loose site to confirmation and its own origin")
        << QByteArray(R"({"aiAccess":{"crossHost":"allow","confirmation":"never"}})")
        << QByteArray(R"({"crossHost":"same_host","confirmation":"required"})") << true
        << QStringLiteral("https://shop.test:443");
    QTest::newRow("a caller never loosens a site that keeps runs on their origin")
        << QByteArray("{}") << QByteArray(R"({"crossHost":"allow","confirmation":"never"})") << true
        << QStringLiteral("https://shop.test:443");
}

void tst_A2wEngineMirror::buildsTheRunsGates()
{
    QFETCH(QByteArray, config);
    QFETCH(QByteArray, policy);
    QFETCH(bool, confirmSubmits);
    QFETCH(QString, sameOrigin);
    A2wEngineWorld world;
    QVERIFY(world.openEngine(A2wWorld::json(config.constData())));
    Run run = world.addRun(Status::pending);
    run.request.insert(QStringLiteral("policy"), A2wWorld::json(policy.constData()));
    const engine::ExecuteRequest r =
        world.mirror->engineRequest(run, QString(), QStringLiteral("task"));
    QCOMPARE(r.confirmSubmits, confirmSubmits);
    QCOMPARE(r.sameOrigin, sameOrigin);
}

void tst_A2wEngineMirror::followsTheEngineRun_data()
{
    using E = A2wEngineWorld;
    QTest::addColumn<engine::RunSnapshot>("state");
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("lastEvent");
    QTest::newRow("an executing engine run makes the run running")
        << E::state(RunStatus::Executing) << Status::running << QString()
        << QStringLiteral("status");
    QTest::newRow("an ordinary question makes the run wait for input")
        << E::state(RunStatus::RequiresInput, {E::question("size", "Which size?")})
        << Status::inputRequired << kClarification << QStringLiteral("status");
    QTest::newRow("an action to confirm parks the run behind a confirm link")
        << E::state(RunStatus::RequiresInput, {E::question("confirm_action", "Submit?")})
        << Status::inputRequired << QStringLiteral("action_confirmation_required")
        << QStringLiteral("status");
    QTest::newRow("a one-time code is awaited as auth input, never as an answer")
        << E::state(RunStatus::RequiresInput, {E::question("code", "The code sent to a•••@x.test")})
        << Status::inputRequired << QStringLiteral("sign_in_link_required")
        << QStringLiteral("status");
    QTest::newRow("a success completes the run with the answer as its result")
        << E::state(RunStatus::Success, {}, QStringLiteral("Kettle A, 20 EUR")) << Status::completed
        << QString() << QStringLiteral("done");
    QTest::newRow("an engine error fails the run with the engine's reason")
        << E::state(RunStatus::Error, {}, {}, QStringLiteral("the page did not load"))
        << Status::failed << QString() << QStringLiteral("done");
    QTest::newRow("a cancelled engine run ends the run cancelled")
        << E::state(RunStatus::Cancelled) << Status::cancelled << QString()
        << QStringLiteral("done");
}

void tst_A2wEngineMirror::followsTheEngineRun()
{
    QFETCH(engine::RunSnapshot, state);
    QFETCH(QString, status);
    QFETCH(QString, reason);
    QFETCH(QString, lastEvent);
    A2wEngineWorld world;
    QVERIFY(world.openEngine());
    const Run run = world.started();
    world.engine.move(run.trajectoryId, state);
    const Run now = *world.repo->find(run.id);
    QCOMPARE(now.status, status);
    QCOMPARE(now.input.value(QStringLiteral("reason")).toString(), reason);
    QCOMPARE(world.events.last().type, lastEvent);
    if (reason == QLatin1String("action_confirmation_required"))
        QVERIFY(now.input[QStringLiteral("links")][QStringLiteral("confirm")].toString().contains(
            QStringLiteral("/v2/a2w/confirm/") + run.id + QStringLiteral("?sig=")));
    if (reason == QLatin1String("sign_in_link_required")) {
        QCOMPARE(now.authInput.value(QStringLiteral("kind")).toString(), QStringLiteral("otp"));
        QCOMPARE(now.authInput.value(QStringLiteral("emailMasked")).toString(),
                 QStringLiteral("a•••@x.test"));
    }
    if (status == Status::completed)
        QCOMPARE(now.result.value(QStringLiteral("text")).toString(), state.text);
    if (status == Status::failed)
        QCOMPARE(now.error, state.error);
    // A settled run is let go: the engine's later news changes nothing.
    if (Status::isTerminal(status)) {
        const qsizetype events = world.events.size();
        world.engine.move(run.trajectoryId, A2wEngineWorld::state(RunStatus::Executing));
        QCOMPARE(world.events.size(), events);
    }
}

void tst_A2wEngineMirror::announcesEachStepOnceInOrder()
{
    A2wEngineWorld world;
    QVERIFY(world.openEngine());
    const Run run = world.started();
    engine::RunSnapshot s = A2wEngineWorld::state(RunStatus::Executing);
    engine::StepRecord open;
    open.seq = 1;
    open.toolName = QStringLiteral("open_page");
    open.status = QStringLiteral("executing");
    s.steps = {open};
    world.engine.move(run.trajectoryId, s);
    s.steps[0].status = QStringLiteral("success");
    s.steps[0].summary = QStringLiteral("opened");
    world.engine.move(run.trajectoryId, s);
    world.engine.move(run.trajectoryId, s);
    QStringList seen;
    for (const Event &e : world.events)
        if (e.type == QLatin1String("tool") || e.type == QLatin1String("step"))
            seen << e.type + u' ' + e.data.value(QStringLiteral("status")).toString();
    QCOMPARE(seen, (QStringList{QStringLiteral("tool started"), QStringLiteral("step success")}));
}

void tst_A2wEngineMirror::aRefusedStartLeavesTheRunFailed()
{
    A2wEngineWorld world;
    QVERIFY(world.openEngine());
    Run run = world.addRun(Status::pending);
    run.url = QStringLiteral("ftp://shop.test/");
    try {
        world.mirror->start(run, QStringLiteral("task"));
        QFAIL("started");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("UNSUPPORTED_SCHEME"));
    }
    QCOMPARE(world.repo->find(run.id)->status, Status::failed);
    QVERIFY(world.engine.started.isEmpty());
}

QTEST_GUILESS_MAIN(tst_A2wEngineMirror)
#include "tst_a2wenginemirror.moc"
