// a2w/ParkedRuns: runs parked behind signed links (a confirmation, a delegated session's
// approval), auth input given out of band, and deadlines; on a fake engine and a real
// store (no HTTP).
#include "FakeEngineRuns.h"

#include "core/DomainError.h"

#include <QSignalSpy>
#include <QUrlQuery>

using namespace ph;
using namespace ph::a2w;
using engine::RunStatus;

class tst_A2wParkedRuns : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aConfirmLinkOpensOneParkingOfOneRun_data();
    void aConfirmLinkOpensOneParkingOfOneRun();
    void aDecisionResumesOrCancelsTheRun_data();
    void aDecisionResumesOrCancelsTheRun();
    void aVerificationLinkWaitsForADelegatedSession();
    void authInputIsTakenOnceLaterAsTheAwaitedKind();
    void overdueRunsExpire_data();
    void overdueRunsExpire();
};

namespace {
// A run waiting for the confirmation of an action, and the signature of its link.
std::pair<Run, QString> waitingForConfirmation(A2wEngineWorld &world)
{
    const Run run = world.started();
    world.engine.move(
        run.trajectoryId,
        A2wEngineWorld::state(RunStatus::RequiresInput,
                              {A2wEngineWorld::question(QStringLiteral("confirm_action"),
                                                        QStringLiteral("Submit the order?"))}));
    const Run parked = *world.repo->find(run.id);
    const QUrl link(parked.input[QStringLiteral("links")][QStringLiteral("confirm")].toString());
    return {parked, QUrlQuery(link).queryItemValue(QStringLiteral("sig"))};
}
} // namespace

void tst_A2wParkedRuns::aConfirmLinkOpensOneParkingOfOneRun_data()
{
    QTest::addColumn<bool>("sameRun");
    QTest::addColumn<bool>("sameSignature");
    QTest::addColumn<bool>("found");
    QTest::newRow("the run's own link finds the run") << true << true << true;
    QTest::newRow("a forged signature finds nothing") << true << false << false;
    QTest::newRow("one run's link does not open another run") << false << true << false;
}

void tst_A2wParkedRuns::aConfirmLinkOpensOneParkingOfOneRun()
{
    QFETCH(bool, sameRun);
    QFETCH(bool, sameSignature);
    QFETCH(bool, found);
    A2wEngineWorld world;
    QVERIFY(world.openEngine());
    const auto [run, signature] = waitingForConfirmation(world);
    QVERIFY(!signature.isEmpty());
    const Run other = world.addRun(Status::inputRequired);
    try {
        const Run shown = world.parked->confirmationFor(
            sameRun ? run.id : other.id, sameSignature ? signature : signature + u'x');
        QVERIFY(found);
        QCOMPARE(shown.id, run.id);
    } catch (const DomainError &e) {
        QVERIFY(!found);
        QCOMPARE(e.code(), QStringLiteral("CONFIRMATION_NOT_FOUND"));
    }
}

void tst_A2wParkedRuns::aDecisionResumesOrCancelsTheRun_data()
{
    QTest::addColumn<bool>("operatorDecides");
    QTest::addColumn<bool>("accept");
    QTest::addColumn<QString>("status");
    QTest::newRow("a person who accepts through the link resumes the run")
        << false << true << Status::running;
    QTest::newRow("a person who declines through the link cancels the run")
        << false << false << Status::cancelled;
    QTest::newRow("the operator accepts from the console without a link")
        << true << true << Status::running;
}

void tst_A2wParkedRuns::aDecisionResumesOrCancelsTheRun()
{
    QFETCH(bool, operatorDecides);
    QFETCH(bool, accept);
    QFETCH(QString, status);
    A2wEngineWorld world;
    QVERIFY(world.openEngine());
    const auto [run, signature] = waitingForConfirmation(world);
    const Run after = operatorDecides ? world.parked->confirmAsOperator(run.id, accept)
                                      : world.parked->confirm(run.id, signature, accept);
    QCOMPARE(after.status, status);
    if (accept) {
        QCOMPARE(world.engine.started.size(), 2);
        QCOMPARE(world.engine.started.last().answers.value(QStringLiteral("confirm_action")),
                 QJsonValue(QStringLiteral("confirm")));
    } else {
        QCOMPARE(world.engine.cancelled, QStringList{run.trajectoryId});
    }
    // The link was for that one parking.
    try {
        world.parked->confirmationFor(run.id, signature);
        QFAIL("the link opened twice");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("CONFIRMATION_NOT_FOUND"));
    }
}

void tst_A2wParkedRuns::aVerificationLinkWaitsForADelegatedSession()
{
    A2wEngineWorld world;
    QVERIFY(world.openEngine());
    Run run = world.addRun(Status::pending);
    world.parked->parkForVerification(run, QStringLiteral("buy a kettle"));
    const Run parked = *world.repo->find(run.id);
    QCOMPARE(parked.input.value(QStringLiteral("reason")).toString(),
             QStringLiteral("auth_required"));
    QCOMPARE(parked.pendingTask, QStringLiteral("buy a kettle"));
    const QUrl link(parked.input[QStringLiteral("links")][QStringLiteral("verify")].toString());
    const QString signature = QUrlQuery(link).queryItemValue(QStringLiteral("sig"));
    QCOMPARE(world.parked->verificationFor(run.id, signature).id, run.id);
    // A verify link is no confirm link.
    QVERIFY_THROWS_EXCEPTION(DomainError, world.parked->confirmationFor(run.id, signature));
    QVERIFY(world.engine.started.isEmpty());
}

void tst_A2wParkedRuns::authInputIsTakenOnceLaterAsTheAwaitedKind()
{
    A2wEngineWorld world;
    QVERIFY(world.openEngine());
    const Run run = world.started();
    world.engine.move(run.trajectoryId,
                      A2wEngineWorld::state(
                          RunStatus::RequiresInput,
                          {A2wEngineWorld::question(QStringLiteral("magic_link"),
                                                    QStringLiteral("Paste the emailed link"))}));
    try {
        world.parked->provideAuthInput(run.id, QStringLiteral("123456"), QStringLiteral("otp"));
        QFAIL("a code for a link");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("AUTH_KIND_MISMATCH"));
    }
    const Run provided = world.parked->provideAuthInput(
        run.id, QStringLiteral("https://shop.test/magic?t=1"), QStringLiteral("magic_link"));
    QCOMPARE(provided.authInput.value(QStringLiteral("status")).toString(),
             QStringLiteral("provided"));
    QVERIFY(world.engine.started.size() == 1); // later, not now
    QTRY_COMPARE(world.engine.started.size(), 2);
    QCOMPARE(world.engine.started.last().answers.value(QStringLiteral("magic_link")).toString(),
             QStringLiteral("https://shop.test/magic?t=1"));
    QCOMPARE(world.repo->find(run.id)->authInput.value(QStringLiteral("status")).toString(),
             QStringLiteral("consumed"));
    try {
        world.parked->provideAuthInput(run.id, QStringLiteral("again"), QStringLiteral("unknown"));
        QFAIL("taken twice");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("NOT_AWAITING_SIGN_IN"));
    }
}

void tst_A2wParkedRuns::overdueRunsExpire_data()
{
    QTest::addColumn<bool>("browser");
    QTest::addColumn<QString>("error");
    QTest::newRow("a question nobody answered in time expires the run")
        << false << QStringLiteral("the input was not given in time");
    QTest::newRow("a browser run nobody claimed in time expires")
        << true << QStringLiteral("no browser claimed the run in time");
}

void tst_A2wParkedRuns::overdueRunsExpire()
{
    QFETCH(bool, browser);
    QFETCH(QString, error);
    A2wEngineWorld world;
    QVERIFY(world.openEngine());
    Run run;
    if (browser) {
        run = world.addRun(Status::waitingBrowser, QStringLiteral("browser"));
        run.expiresAt = world.clock.nowMs() + 1000;
        world.repo->update(run);
    } else {
        run = world.started();
        world.engine.move(
            run.trajectoryId,
            A2wEngineWorld::state(
                RunStatus::RequiresInput,
                {A2wEngineWorld::question(QStringLiteral("size"), QStringLiteral("Which size?"))}));
    }
    world.parked->expireOverdue();
    QCOMPARE(world.repo->find(run.id)->status,
             browser ? Status::waitingBrowser : Status::inputRequired);
    world.clock.advance(world.settings->int64Value(SettingKeys::a2wInputExpirySeconds) * 1000 + 1);
    QSignalSpy deadlines(world.recorder.get(), &RunRecorder::deadlinesChanged);
    world.parked->expireOverdue();
    const Run after = *world.repo->find(run.id);
    QCOMPARE(after.status, Status::expired);
    QCOMPARE(after.error, error);
    QCOMPARE(deadlines.size(), 1);
    QCOMPARE(world.engine.cancelled, browser ? QStringList() : QStringList{run.trajectoryId});
}

QTEST_GUILESS_MAIN(tst_A2wParkedRuns)
#include "tst_a2wparkedruns.moc"
