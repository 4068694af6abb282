// CommandProtocol: the strict command envelope (clientEventId answered once, expectedEpoch
// and expectedSeq), one active run per session, run control and tab events, and the run
// signals owed after commit; on a real store with a manual clock. No HTTP.
#include "RuntimeParts.h"

#include "core/DomainError.h"
#include "runtime/CommandProtocol.h"
#include "runtime/RemoteSteps.h"
#include "runtime/RuntimeProjection.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace ph;
using namespace ph::runtime;
using ph::test::json;
using ph::test::thrown;

class tst_RuntimeCommands : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void refusesACommandOutsideTheProtocol_data();
    void refusesACommandOutsideTheProtocol();
    void startsARunAndSignalsItAfterTheCommit();
    void answersARetryWithTheSameAnswer();
    void keepsOneActiveRunPerSession();
    void replacesTheActiveRunOnlyWhenForced();
    void continuesARunThatAwaitsTheVisitor();
    void endsATaskAndMovesTheEpoch();
    void decidesATabEventAndStoresTheTab();
    void answersATabEventOfAnotherRunAsStale();
    void readsACommandsType_data();
    void readsACommandsType();
    void routesAMessage_data();
    void routesAMessage();

private:
    CommandAnswer send(QJsonObject body);
    std::unique_ptr<test::RuntimeParts> m_parts;
    std::unique_ptr<RuntimeProjection> m_projection;
    std::unique_ptr<RemoteSteps> m_steps;
    std::unique_ptr<CommandProtocol> m_commands;
    Session m_session;
    QStringList m_signals; // "started rtr_…", "answered rtr_… text", "stopped rtr_…"
    int m_events = 0;
};

void tst_RuntimeCommands::init()
{
    m_parts = std::make_unique<test::RuntimeParts>();
    QVERIFY(m_parts->opened);
    m_projection = std::make_unique<RuntimeProjection>(*m_parts->journal);
    m_steps = std::make_unique<RemoteSteps>(*m_parts->journal, *m_projection);
    m_commands = std::make_unique<CommandProtocol>(*m_parts->journal, *m_projection, *m_steps);
    RuntimeSignals &hooks = m_parts->journal->hooks();
    m_signals.clear();
    hooks.runStarted = [this](const QString &, const QString &run) {
        m_signals << QStringLiteral("started ") + run;
    };
    hooks.runAnswered = [this](const QString &, const QString &run, const QString &text) {
        m_signals << QStringLiteral("answered %1 %2").arg(run, text);
    };
    hooks.runStopped = [this](const QString &run) {
        m_signals << QStringLiteral("stopped ") + run;
    };
    m_session = m_parts->insertSession();
    m_events = 0;
}

void tst_RuntimeCommands::cleanup()
{
    m_commands.reset();
    m_steps.reset();
    m_projection.reset();
    m_parts.reset();
}

// A command at the session's current epoch (and seq), with a fresh clientEventId.
CommandAnswer tst_RuntimeCommands::send(QJsonObject body)
{
    const Session now = *m_parts->repo().findSession(m_session.id);
    if (!body.contains(QStringLiteral("clientEventId")))
        body.insert(QStringLiteral("clientEventId"), QStringLiteral("ev_%1").arg(++m_events));
    if (!body.contains(QStringLiteral("expectedEpoch")))
        body.insert(QStringLiteral("expectedEpoch"), now.epoch);
    if (!body.contains(QStringLiteral("expectedSeq")))
        body.insert(QStringLiteral("expectedSeq"), now.seq);
    return m_commands->command(now, body);
}

void tst_RuntimeCommands::refusesACommandOutsideTheProtocol_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("a command without a clientEventId is refused")
        << json(R"({"message":"hi","expectedEpoch":1})") << "MISSING_FIELD"
        << "clientEventId";
    QTest::newRow("a clientEventId over 128 characters is refused")
        << QJsonObject{{QStringLiteral("clientEventId"), QString(129, QLatin1Char('e'))},
                       {QStringLiteral("message"), QStringLiteral("hi")}}
        << "INVALID_FIELD"
        << "clientEventId";
    QTest::newRow("a command of no known type is refused")
        << json(R"({"clientEventId":"e1","type":"RUN_EVERYTHING","expectedEpoch":1})")
        << "INVALID_FIELD"
        << "type";
    QTest::newRow("a command without expectedEpoch is refused in strict mode")
        << json(R"({"clientEventId":"e1","message":"hi"})") << "stale_epoch"
        << "expectedEpoch";
    QTest::newRow("a command at another epoch is refused with the current one")
        << json(R"({"clientEventId":"e1","message":"hi","expectedEpoch":7})") << "stale_epoch"
        << "expectedEpoch";
    QTest::newRow("an empty message is refused")
        << json(R"({"clientEventId":"e1","message":"  ","expectedEpoch":1})") << "INVALID_FIELD"
        << "message";
    QTest::newRow("cancelling with no active run is a stale run")
        << json(R"({"clientEventId":"e1","action":"cancel","expectedEpoch":1})") << "stale_run"
        << "runId";
}

void tst_RuntimeCommands::refusesACommandOutsideTheProtocol()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, code);
    QFETCH(QString, field);
    const DomainError e = thrown([&] { m_commands->command(m_session, body); });
    QCOMPARE(e.code(), code);
    QCOMPARE(e.field(), field);
    // Nothing changed, nothing is owed.
    m_parts->journal->flush();
    QCOMPARE(m_parts->repo().findSession(m_session.id)->seq, m_session.seq);
    QVERIFY(m_signals.isEmpty());
}

void tst_RuntimeCommands::startsARunAndSignalsItAfterTheCommit()
{
    const CommandAnswer a = send(json(R"({"message":"click the buy button"})"));
    QCOMPARE(a.status, 200);
    const QString runId = a.data.value(QStringLiteral("runId")).toString();
    QVERIFY(runId.startsWith(QLatin1String("rtr_")));
    QCOMPARE(a.data.value(QStringLiteral("acceptedMode")).toString(), QStringLiteral("act"));
    QCOMPARE(a.data.value(QStringLiteral("state")).toString(), QStringLiteral("running"));
    QCOMPARE(m_signals, QStringList{QStringLiteral("started ") + runId});
    QCOMPARE(m_parts->repo().findSession(m_session.id)->activeRunId, runId);
    QCOMPARE(m_parts->advanced.size(), 1);
}

void tst_RuntimeCommands::answersARetryWithTheSameAnswer()
{
    const QJsonObject body = json(R"({"clientEventId":"once","message":"open the cart"})");
    const CommandAnswer first = send(body);
    const CommandAnswer again = send(body);
    QCOMPARE(again.status, first.status);
    QCOMPARE(again.data, first.data);
    QCOMPARE(m_signals.size(), 1); // one run started, not two
}

void tst_RuntimeCommands::keepsOneActiveRunPerSession()
{
    send(json(R"({"message":"open the cart"})"));
    const Session now = *m_parts->repo().findSession(m_session.id);
    DomainError e = thrown([&] { send(json(R"({"message":"and then pay"})")); });
    QCOMPARE(e.code(), QStringLiteral("active_run_exists"));
    QCOMPARE(e.details().value(QStringLiteral("continuePrompt")).toBool(), true);
    // While a run is active, expectedSeq is required.
    e = thrown([&] {
        m_commands->command(now,
                            json(R"({"clientEventId":"x","message":"pay","expectedEpoch":1})"));
    });
    QCOMPARE(e.code(), QStringLiteral("stale_seq"));
    QCOMPARE(e.details().value(QStringLiteral("currentSeq")).toInteger(), now.seq);
}

void tst_RuntimeCommands::replacesTheActiveRunOnlyWhenForced()
{
    const QString old =
        send(json(R"({"message":"open the cart"})")).data.value(QStringLiteral("runId")).toString();
    const QString fresh = send(json(R"({"message":"pay","forceNewRun":true})"))
                              .data.value(QStringLiteral("runId"))
                              .toString();
    QVERIFY(fresh != old);
    QCOMPARE(m_parts->repo().findRun(old)->status, QStringLiteral("cancelled"));
    QCOMPARE(m_signals,
             (QStringList{QStringLiteral("started ") + old, QStringLiteral("stopped ") + old,
                          QStringLiteral("started ") + fresh}));
}

void tst_RuntimeCommands::continuesARunThatAwaitsTheVisitor()
{
    const QString run =
        send(json(R"({"message":"book a table"})")).data.value(QStringLiteral("runId")).toString();
    m_commands->runProgress(run, QStringLiteral("awaiting_user"),
                            json(R"({"text":"For how many?","questions":["guests"]})"));
    QCOMPARE(m_parts->repo().findRun(run)->status, QStringLiteral("awaiting_user"));
    const CommandAnswer a = send(json(R"({"message":"four","continueRun":true})"));
    QCOMPARE(a.data.value(QStringLiteral("runId")).toString(), run);
    QCOMPARE(m_signals.last(), QStringLiteral("answered %1 four").arg(run));
    QCOMPARE(m_parts->repo().findRun(run)->status, QStringLiteral("running"));
    // The engine's end settles it without stopping the engine again.
    m_commands->runProgress(run, QStringLiteral("completed"), json(R"({"text":"Booked."})"));
    QCOMPARE(m_parts->repo().findRun(run)->status, QStringLiteral("completed"));
    QVERIFY(!m_signals.contains(QStringLiteral("stopped ") + run));
    QVERIFY(m_parts->repo().findSession(m_session.id)->activeRunId.isEmpty());
}

void tst_RuntimeCommands::endsATaskAndMovesTheEpoch()
{
    const QString run =
        send(json(R"({"message":"open the cart"})")).data.value(QStringLiteral("runId")).toString();
    const CommandAnswer a = send(json(R"({"action":"end_task"})"));
    QCOMPARE(a.data.value(QStringLiteral("action")).toString(), QStringLiteral("end_task"));
    QCOMPARE(m_parts->repo().findRun(run)->status, QStringLiteral("completed"));
    QCOMPARE(m_parts->repo().findSession(m_session.id)->epoch, qint64(2));
    QCOMPARE(m_signals.last(), QStringLiteral("stopped ") + run);
    // A command at the old epoch is now stale.
    QCOMPARE(thrown([&] { send(json(R"({"message":"again","expectedEpoch":1})")); }).code(),
             QStringLiteral("stale_epoch"));
}

void tst_RuntimeCommands::decidesATabEventAndStoresTheTab()
{
    const CommandAnswer a =
        send(json(R"({"type":"TAB_EVENT","targetUrl":"https://docs.other.example/"})"));
    QCOMPARE(a.data.value(QStringLiteral("decision")).toString(), QStringLiteral("open_new_tab"));
    const QString tabId = a.data.value(QStringLiteral("logicalTabId")).toString();
    QCOMPARE(tabId, QStringLiteral("tab_1"));
    const QList<Tab> tabs = m_parts->repo().tabsOf(m_session.id);
    QCOMPARE(tabs.size(), 1);
    QCOMPARE(tabs.first().logicalTabId, tabId);
    QCOMPARE(tabs.first().parentTabId, QStringLiteral("main"));
    QCOMPARE(m_parts->repo().eventsAfter(m_session.id, 0, 10).last().type,
             QStringLiteral("tab.decision"));
    // In place: the session follows the page.
    send(json(R"({"type":"TAB_EVENT","targetUrl":"https://blog.harbour.example/a"})"));
    QCOMPARE(m_parts->repo().findSession(m_session.id)->url,
             QStringLiteral("https://blog.harbour.example/a"));
}

void tst_RuntimeCommands::answersATabEventOfAnotherRunAsStale()
{
    const CommandAnswer a =
        send(json(R"({"targetUrl":"https://docs.other.example/","runId":"rtr_gone"})"));
    QCOMPARE(a.status, 200);
    QCOMPARE(a.data.value(QStringLiteral("decision")).toString(), QStringLiteral("stale_run"));
    QCOMPARE(a.data.value(QStringLiteral("staleRunReason")).toString(),
             QStringLiteral("no_active_run"));
    QVERIFY(m_parts->repo().tabsOf(m_session.id).isEmpty());
}

void tst_RuntimeCommands::readsACommandsType_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("type");
    QTest::newRow("a named type is taken as it is")
        << json(R"({"type":"TAB_EVENT"})") << "TAB_EVENT";
    QTest::newRow("a body with an action is run control")
        << json(R"({"action":"cancel"})") << "RUN_CONTROL";
    QTest::newRow("a body with a target URL is a tab event")
        << json(R"({"targetUrl":"https://a.example/"})") << "TAB_EVENT";
    QTest::newRow("a body with a url is a tab event")
        << json(R"({"url":"https://a.example/"})") << "TAB_EVENT";
    QTest::newRow("anything else is run input") << json(R"({"message":"hi"})") << "RUN_INPUT";
}

void tst_RuntimeCommands::readsACommandsType()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, type);
    QCOMPARE(CommandProtocol::typeOf(body), type);
}

void tst_RuntimeCommands::routesAMessage_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("mode");
    QTest::newRow("a single action acts at once") << "click the buy button"
                                                  << "act";
    QTest::newRow("a task of several steps goes to the planner")
        << "open the cart, and pay with the saved card"
        << "planner";
    QTest::newRow("a task that reads data goes to the planner") << "list the opening hours"
                                                                << "planner";
    QTest::newRow("a German task of several steps goes to the planner")
        << "öffne den Warenkorb, dann bezahle"
        << "planner";
    QTest::newRow("a long single action still acts") << QString(170, QLatin1Char('a')) << "act";
}

void tst_RuntimeCommands::routesAMessage()
{
    QFETCH(QString, message);
    QFETCH(QString, mode);
    QString chosen;
    const QJsonObject routing = CommandProtocol::route(message, &chosen);
    QCOMPARE(chosen, mode);
    QVERIFY(!routing.value(QStringLiteral("reason")).toString().isEmpty());
}

QTEST_GUILESS_MAIN(tst_RuntimeCommands)
#include "tst_runtimecommands.moc"
