// ResponseBuilder: the ApiExecuteResponse body of a run, without a browser or a server.
// A temporary SQLite store holds the snapshots of responses too large to answer inline.
#include "engine/ResponseBuilder.h"

#include "core/Clock.h"
#include "core/ObjectStore.h"
#include "core/Settings.h"
#include "core/Store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace ph;
using namespace ph::engine;

namespace {

StepRecord step(int seq, const QString &tool, const QString &status)
{
    StepRecord s;
    s.seq = seq;
    s.toolName = tool;
    s.status = status;
    s.args = {{QStringLiteral("action"), QStringLiteral("navigate")}};
    s.summary = QStringLiteral("step %1").arg(seq);
    s.output = QJsonObject{{QStringLiteral("url"), QStringLiteral("https://shop.example/")}};
    s.hasOutput = true;
    return s;
}

RunSnapshot finished()
{
    RunSnapshot run;
    run.status = RunStatus::Success;
    run.trajectoryId = QStringLiteral("traj_test");
    run.phase = 2;
    run.requestId = QStringLiteral("req_test");
    run.text = QStringLiteral("Extracted 2 items.");
    run.json = QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Rope")}},
                          QJsonObject{{QStringLiteral("name"), QStringLiteral("Fender")}}};
    run.steps = {step(1, QStringLiteral("act_on_tab"), QStringLiteral("success")),
                 step(2, QStringLiteral("crawl_and_extract_from_tab"), QStringLiteral("success"))};
    run.toolsUsed = {QStringLiteral("act_on_tab"), QStringLiteral("crawl_and_extract_from_tab")};
    run.creditsMilli = 2500;
    run.trajectoryCreditsMilli = 4000;
    run.creditsLeftMilli = 96000;
    run.planner = QStringLiteral("rule");
    return run;
}

} // namespace

class tst_ResponseBuilder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void answersTextAndJsonBlocks();
    void showsStepsByVerbosity_data();
    void showsStepsByVerbosity();
    void asksTheQuestionsOfARunWaitingForInput();
    void reportsWarningsAndTheError();
    void storesATooLargeResponseOnceAndPreviewsIt();
    void storesNothingForARunStillExecuting();
    void fitsEvenATinyCap();

private:
    int storedObjects();
    QJsonObject build(const RunSnapshot &run, const QString &verbosity = QStringLiteral("final"),
                      qint64 cap = 1 << 20, ResponseBuilder::SnapshotMemo *memo = nullptr)
    {
        return ResponseBuilder::build(run, verbosity, cap, m_store->objects(), *m_settings,
                                      QStringLiteral("key_test"), memo);
    }

    QTemporaryDir m_dir;
    ManualClock m_clock{1'800'000'000'000};
    std::unique_ptr<Store> m_store;
    std::unique_ptr<Settings> m_settings;
};

void tst_ResponseBuilder::initTestCase()
{
    m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("r.db")), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_settings = std::make_unique<Settings>(*m_store);
    m_settings->setRuntimeDefault(SettingKeys::publicBaseUrl, QStringLiteral("http://127.0.0.1:1"));
}

int tst_ResponseBuilder::storedObjects()
{
    QSqlQuery q(m_store->database());
    q.exec(QStringLiteral("SELECT COUNT(*) FROM stored_objects"));
    return q.next() ? q.value(0).toInt() : -1;
}

void tst_ResponseBuilder::answersTextAndJsonBlocks()
{
    const QJsonObject r = build(finished());
    QCOMPARE(r.value(QStringLiteral("success")).toBool(), true);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonArray output = r.value(QStringLiteral("output")).toArray();
    QCOMPARE(output.size(), 2);
    QCOMPARE(output.at(0).toObject().value(QStringLiteral("type")).toString(),
             QStringLiteral("text"));
    QCOMPARE(output.at(1).toObject().value(QStringLiteral("type")).toString(),
             QStringLiteral("json"));
    const QJsonObject result = r.value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("text")).toString(), QStringLiteral("Extracted 2 items."));
    QCOMPARE(result.value(QStringLiteral("json")).toArray().size(), 2);
    const QJsonObject usage = r.value(QStringLiteral("usage")).toObject();
    QCOMPARE(usage.value(QStringLiteral("creditsUsed")).toDouble(), 2.5);
    QCOMPARE(usage.value(QStringLiteral("currentCreditsUsed")).toDouble(), 4.0);
    QCOMPARE(usage.value(QStringLiteral("creditsLeft")).toDouble(), 96.0);
    const QJsonObject metadata = r.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(metadata.value(QStringLiteral("taskRef")).toString(), QStringLiteral("traj_test/2"));
    QCOMPARE(metadata.value(QStringLiteral("toolsUsed")).toArray().size(), 2);
    QVERIFY(!r.contains(QStringLiteral("steps")));
    // history on every response, the final verbosity's too (docs/api/agent.md).
    QCOMPARE(r.value(QStringLiteral("history"))
                 .toObject()
                 .value(QStringLiteral("previousSteps"))
                 .toArray()
                 .size(),
             2);
}

void tst_ResponseBuilder::showsStepsByVerbosity_data()
{
    QTest::addColumn<QString>("verbosity");
    QTest::addColumn<bool>("steps");
    QTest::addColumn<int>("toolResults");
    QTest::newRow("final shows no steps but the history for continuing") << "final" << false << 0;
    QTest::newRow("steps lists each step and the history for continuing") << "steps" << true << 0;
    QTest::newRow("debug adds each step's tool_result block") << "debug" << true << 2;
}

void tst_ResponseBuilder::showsStepsByVerbosity()
{
    QFETCH(QString, verbosity);
    QFETCH(bool, steps);
    QFETCH(int, toolResults);
    const QJsonObject r = build(finished(), verbosity);
    QCOMPARE(r.contains(QStringLiteral("steps")), steps);
    QVERIFY(r.contains(QStringLiteral("history")));
    int blocks = 0;
    for (const QJsonValue &b : r.value(QStringLiteral("output")).toArray())
        blocks +=
            b.toObject().value(QStringLiteral("type")).toString() == QLatin1String("tool_result");
    QCOMPARE(blocks, toolResults);
    if (steps) {
        const QJsonArray list = r.value(QStringLiteral("steps")).toArray();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list.at(1).toObject().value(QStringLiteral("toolName")).toString(),
                 QStringLiteral("crawl_and_extract_from_tab"));
    }
    const QJsonObject history = r.value(QStringLiteral("history")).toObject();
    QCOMPARE(history.value(QStringLiteral("previousSteps")).toArray().size(), 2);
    QCOMPARE(history.value(QStringLiteral("lastToolPreviousSteps"))
                 .toObject()
                 .value(QStringLiteral("toolName"))
                 .toString(),
             QStringLiteral("crawl_and_extract_from_tab"));
}

void tst_ResponseBuilder::asksTheQuestionsOfARunWaitingForInput()
{
    RunSnapshot run = finished();
    run.status = RunStatus::RequiresInput;
    run.text.clear();
    run.json.reset();
    Question q;
    q.key = QStringLiteral("email");
    q.question = QStringLiteral("What is the email to sign in to shop.example?");
    run.questions = {q};
    const QJsonObject r = build(run);
    QCOMPARE(r.value(QStringLiteral("success")).toBool(), false);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("requires_input"));
    QVERIFY(r.value(QStringLiteral("result"))
                .toObject()
                .value(QStringLiteral("text"))
                .toString()
                .contains(QStringLiteral("- What is the email to sign in to shop.example?")));
    QCOMPARE(r.value(QStringLiteral("questions")).toArray().size(), 1);
    QVERIFY(r.contains(QStringLiteral("history"))); // a continuation needs it at any verbosity
}

void tst_ResponseBuilder::reportsWarningsAndTheError()
{
    RunSnapshot run = finished();
    run.status = RunStatus::Error;
    run.json.reset();
    run.error = QStringLiteral("crawl_and_extract_from_tab failed: BLOCKED");
    run.warnings = {QStringLiteral("schema: price missing")};
    const QJsonObject r = build(run);
    QCOMPARE(r.value(QStringLiteral("success")).toBool(), false);
    QCOMPARE(r.value(QStringLiteral("error")).toString(), run.error);
    QCOMPARE(r.value(QStringLiteral("warnings")).toArray().first().toString(),
             QStringLiteral("schema: price missing"));
}

void tst_ResponseBuilder::storesATooLargeResponseOnceAndPreviewsIt()
{
    RunSnapshot run = finished();
    run.text = QString(20000, QLatin1Char('x'));
    const int before = storedObjects();
    ResponseBuilder::SnapshotMemo memo;
    const QJsonObject r = build(run, QStringLiteral("steps"), 4096, &memo);
    QVERIFY(QJsonDocument(r).toJson(QJsonDocument::Compact).size() <= 4096);
    const QJsonObject metadata = r.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(metadata.value(QStringLiteral("outputTooLarge")).toBool(), true);
    const QJsonObject ref = metadata.value(QStringLiteral("responseRef")).toObject();
    QVERIFY(ref.value(QStringLiteral("downloadUrl")).toString().startsWith(u"http://127.0.0.1:1/"));
    QVERIFY(r.value(QStringLiteral("result"))
                .toObject()
                .value(QStringLiteral("text"))
                .toString()
                .endsWith(u"…"));
    QVERIFY(!r.contains(QStringLiteral("steps")));
    QCOMPARE(storedObjects(), before + 1);
    // The stored copy is the whole response.
    const QByteArray stored = m_store->objects().data(ref.value(QStringLiteral("id")).toString());
    QVERIFY(stored.size() > 20000);
    QVERIFY(QJsonDocument::fromJson(stored).object().contains(QStringLiteral("steps")));
    // Read again unchanged: the same snapshot, nothing stored twice.
    const QJsonObject again = build(run, QStringLiteral("steps"), 4096, &memo);
    QCOMPARE(again.value(QStringLiteral("metadata"))
                 .toObject()
                 .value(QStringLiteral("responseRef"))
                 .toObject()
                 .value(QStringLiteral("id")),
             ref.value(QStringLiteral("id")));
    QCOMPARE(storedObjects(), before + 1);
}

void tst_ResponseBuilder::storesNothingForARunStillExecuting()
{
    RunSnapshot run = finished();
    run.status = RunStatus::Executing;
    run.text = QString(20000, QLatin1Char('x'));
    const int before = storedObjects();
    const QJsonObject r = build(run, QStringLiteral("final"), 4096);
    QCOMPARE(r.value(QStringLiteral("metadata"))
                 .toObject()
                 .value(QStringLiteral("outputTooLarge"))
                 .toBool(),
             true);
    QVERIFY(
        !r.value(QStringLiteral("metadata")).toObject().contains(QStringLiteral("responseRef")));
    QCOMPARE(storedObjects(), before);
}

void tst_ResponseBuilder::fitsEvenATinyCap()
{
    RunSnapshot run = finished();
    run.warnings = QStringList(50, QStringLiteral("a warning that takes room"));
    const QJsonObject r = build(run, QStringLiteral("final"), 1200);
    QVERIFY(QJsonDocument(r).toJson(QJsonDocument::Compact).size() <= 1200);
    QVERIFY(r.value(QStringLiteral("output")).toArray().isEmpty());
    QVERIFY(!r.contains(QStringLiteral("warnings")));
}

QTEST_GUILESS_MAIN(tst_ResponseBuilder)
#include "tst_responsebuilder.moc"
