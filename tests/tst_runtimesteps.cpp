// RemoteSteps: steps run in the visitor's page. A step goes out as a page.request event
// and its `done` is called once: with the page's result after the command's commit, or
// with an error when the run ends or is not the session's. Real store, no HTTP.
#include "RuntimeParts.h"

#include "core/DomainError.h"
#include "runtime/CommandProtocol.h"
#include "runtime/RemoteSteps.h"
#include "runtime/RuntimeProjection.h"

#include <QJsonDocument>

using namespace ph;
using namespace ph::runtime;
using ph::test::json;
using ph::test::thrown;

namespace {
// What a step's `done` was called with (and how often).
struct Outcome
{
    int calls = 0;
    bool ok = false;
    QJsonObject result;
    QString error;
    StepDone callback()
    {
        return [this](bool success, const QJsonObject &r, const QString &e) {
            ++calls;
            ok = success;
            result = r;
            error = e;
        };
    }
};
} // namespace

class tst_RuntimeSteps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void sendsAStepAsAPageRequest();
    void deliversThePagesResultAfterTheCommit();
    void refusesAResultNoStepWaitsFor_data();
    void refusesAResultNoStepWaitsFor();
    void failsTheStepsOfARunThatEnds();
    void failsAStepForARunThatIsNotActive();

private:
    QString stepIdOfLastRequest() const;
    std::unique_ptr<test::RuntimeParts> m_parts;
    std::unique_ptr<RuntimeProjection> m_projection;
    std::unique_ptr<RemoteSteps> m_steps;
    std::unique_ptr<CommandProtocol> m_commands;
    Session m_session;
    QString m_runId;
};

void tst_RuntimeSteps::init()
{
    m_parts = std::make_unique<test::RuntimeParts>();
    QVERIFY(m_parts->opened);
    m_projection = std::make_unique<RuntimeProjection>(*m_parts->journal);
    m_steps = std::make_unique<RemoteSteps>(*m_parts->journal, *m_projection);
    m_commands = std::make_unique<CommandProtocol>(*m_parts->journal, *m_projection, *m_steps);
    m_session = m_parts->insertSession();
    const CommandAnswer a = m_commands->command(
        m_session,
        json(R"({"clientEventId":"e1","message":"add the red shoes","expectedEpoch":1})"));
    m_runId = a.data.value(QStringLiteral("runId")).toString();
    QVERIFY(!m_runId.isEmpty());
}

void tst_RuntimeSteps::cleanup()
{
    m_commands.reset();
    m_steps.reset();
    m_projection.reset();
    m_parts.reset();
}

QString tst_RuntimeSteps::stepIdOfLastRequest() const
{
    const QList<Event> events = m_parts->repo().eventsAfter(m_session.id, 0, 100);
    for (auto it = events.crbegin(); it != events.crend(); ++it)
        if (it->type == QLatin1String("page.request"))
            return it->data.value(QStringLiteral("stepId")).toString();
    return QString();
}

void tst_RuntimeSteps::sendsAStepAsAPageRequest()
{
    Outcome outcome;
    const int announced = int(m_parts->advanced.size());
    m_steps->request(m_session.id, m_runId, json(R"({"op":"click","selector":"#buy"})"), 5000,
                     outcome.callback());
    const Event e = m_parts->repo().eventsAfter(m_session.id, 0, 100).last();
    QCOMPARE(e.type, QStringLiteral("page.request"));
    QCOMPARE(e.runId, m_runId);
    QCOMPARE(e.data.value(QStringLiteral("op")).toString(), QStringLiteral("click"));
    QCOMPARE(e.data.value(QStringLiteral("timeoutMs")).toInt(), 5000);
    QVERIFY(e.data.value(QStringLiteral("stepId")).toString().startsWith(QLatin1String("step_")));
    QCOMPARE(int(m_parts->advanced.size()), announced + 1);
    QCOMPARE(m_steps->pending(), 1);
    QCOMPARE(outcome.calls, 0);
}

void tst_RuntimeSteps::deliversThePagesResultAfterTheCommit()
{
    Outcome outcome;
    m_steps->request(m_session.id, m_runId, json(R"({"op":"click"})"), 5000, outcome.callback());
    const QString stepId = stepIdOfLastRequest();
    const Session now = *m_parts->repo().findSession(m_session.id);
    // Through the protocol: RUN_CONTROL continue with the step's id and result.
    const CommandAnswer a = m_commands->command(
        now, QJsonObject{{QStringLiteral("clientEventId"), QStringLiteral("e2")},
                         {QStringLiteral("action"), QStringLiteral("continue")},
                         {QStringLiteral("stepId"), stepId},
                         {QStringLiteral("expectedEpoch"), now.epoch},
                         {QStringLiteral("expectedSeq"), now.seq},
                         {QStringLiteral("result"),
                          json(R"({"ok":true,"url":"https://shop.harbour.example/cart"})")}});
    QCOMPARE(a.data.value(QStringLiteral("stepId")).toString(), stepId);
    QVERIFY(a.data.contains(QStringLiteral("projection")));
    QCOMPARE(outcome.calls, 1);
    QVERIFY(outcome.ok);
    QCOMPARE(outcome.result.value(QStringLiteral("url")).toString(),
             QStringLiteral("https://shop.harbour.example/cart"));
    QCOMPARE(m_steps->pending(), 0);
    // The session follows the page's URL; the run's continuation is recorded.
    QCOMPARE(m_parts->repo().findSession(m_session.id)->url,
             QStringLiteral("https://shop.harbour.example/cart"));
    QCOMPARE(m_parts->repo().findRun(m_runId)->continuationReason, QStringLiteral("loop_continue"));
}

void tst_RuntimeSteps::refusesAResultNoStepWaitsFor_data()
{
    QTest::addColumn<bool>("knownStep");
    QTest::addColumn<QJsonValue>("result");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("a result for a step nobody waits for is a stale run")
        << false << QJsonValue(json(R"({"ok":true})")) << "stale_run"
        << "stepId";
    QTest::newRow("a result that is not an object is refused")
        << true << QJsonValue(QStringLiteral("done")) << "INVALID_FIELD"
        << "result";
}

void tst_RuntimeSteps::refusesAResultNoStepWaitsFor()
{
    QFETCH(bool, knownStep);
    QFETCH(QJsonValue, result);
    QFETCH(QString, code);
    QFETCH(QString, field);
    Outcome outcome;
    m_steps->request(m_session.id, m_runId, json(R"({"op":"wait"})"), 5000, outcome.callback());
    Session now = *m_parts->repo().findSession(m_session.id);
    const QJsonObject body{
        {QStringLiteral("stepId"), knownStep ? stepIdOfLastRequest() : QStringLiteral("step_0_x")},
        {QStringLiteral("result"), result}};
    const DomainError e = thrown([&] { m_steps->deliver(now, body); });
    QCOMPARE(e.code(), code);
    QCOMPARE(e.field(), field);
    m_parts->journal->flush();
    QCOMPARE(outcome.calls, 0);
    QCOMPARE(m_steps->pending(), 1);
}

void tst_RuntimeSteps::failsTheStepsOfARunThatEnds()
{
    Outcome first;
    Outcome second;
    m_steps->request(m_session.id, m_runId, json(R"({"op":"click"})"), 5000, first.callback());
    m_steps->request(m_session.id, m_runId, json(R"({"op":"type"})"), 5000, second.callback());
    QCOMPARE(m_steps->pending(), 2);
    const Session now = *m_parts->repo().findSession(m_session.id);
    m_commands->command(now, QJsonObject{{QStringLiteral("clientEventId"), QStringLiteral("e3")},
                                         {QStringLiteral("action"), QStringLiteral("cancel")},
                                         {QStringLiteral("reason"), QStringLiteral("changed mind")},
                                         {QStringLiteral("expectedEpoch"), now.epoch},
                                         {QStringLiteral("expectedSeq"), now.seq}});
    QCOMPARE(first.calls, 1);
    QCOMPARE(second.calls, 1);
    QVERIFY(!first.ok);
    QCOMPARE(first.error, QStringLiteral("changed mind"));
    QCOMPARE(m_steps->pending(), 0);
}

void tst_RuntimeSteps::failsAStepForARunThatIsNotActive()
{
    Outcome outcome;
    m_steps->request(m_session.id, QStringLiteral("rtr_other"), json(R"({"op":"click"})"), 5000,
                     outcome.callback());
    // Never from inside the call: on the next turn of the event loop.
    QCOMPARE(outcome.calls, 0);
    QTRY_COMPARE(outcome.calls, 1);
    QVERIFY(!outcome.ok);
    QVERIFY(outcome.error.contains(QLatin1String("no longer the session's active run")));
    QCOMPARE(m_steps->pending(), 0);
    QCOMPARE(stepIdOfLastRequest(), QString());
}

QTEST_GUILESS_MAIN(tst_RuntimeSteps)
#include "tst_runtimesteps.moc"
