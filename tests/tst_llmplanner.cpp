// LlmPlanner without a browser: a PlanningContext of the test's own and an
// OpenAI-compatible stub (ModelScript) on loopback; each decision the model's answers
// lead to is checked, and the requests the planner sent.
#include "FakeTab.h"
#include "FixtureServer.h"
#include "ModelStub.h"

#include "core/Clock.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/planners/LlmPlanner.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace ph;
using engine::Decision;
using test::assistantCalls;
using test::FakeContext;
using test::FixtureServer;
using test::ModelScript;
using test::toolCall;

Q_DECLARE_METATYPE(Decision::Kind)

class tst_LlmPlanner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void decidesWhatTheModelAnswers_data();
    void decidesWhatTheModelAnswers();
    void sendsTheTaskAndTheToolsAndReturnsToolResults();

private:
    // The planner's next decision (it answers once the model has).
    std::optional<Decision> next(engine::LlmPlanner &planner, FakeContext &ctx,
                                 const engine::ToolResult *last = nullptr);

    QTemporaryDir m_dir;
    SystemClock m_clock;
    FixtureServer m_model;
    ModelScript m_script;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<Settings> m_settings;
    QNetworkAccessManager m_network;
};

void tst_LlmPlanner::initTestCase()
{
    QVERIFY(m_model.start());
    m_script.serveOn(m_model);
    m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("llm.db")), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_settings = std::make_unique<Settings>(*m_store);
    QCOMPARE(m_settings->set(SettingKeys::llmBaseUrl, m_model.url(QStringLiteral("/v1"))),
             QString());
    QCOMPARE(m_settings->set(SettingKeys::llmModel, QStringLiteral("stub-model")), QString());
}

void tst_LlmPlanner::init()
{
    m_script.reset();
}

std::optional<Decision> tst_LlmPlanner::next(engine::LlmPlanner &planner, FakeContext &ctx,
                                             const engine::ToolResult *last)
{
    std::optional<Decision> decided;
    planner.next(ctx, last, [&decided](Decision d) { decided = std::move(d); });
    if (!QTest::qWaitFor([&] { return decided.has_value(); }, 10000))
        return std::nullopt; // the caller reports it
    return decided;
}

void tst_LlmPlanner::decidesWhatTheModelAnswers_data()
{
    QTest::addColumn<QJsonObject>("answer");
    QTest::addColumn<int>("failure");
    QTest::addColumn<Decision::Kind>("kind");
    QTest::addColumn<QString>("expected"); // the tool, the text, or part of the error

    QTest::newRow("passes a tool call on as a call of that tool")
        << assistantCalls(
               {toolCall(QStringLiteral("c1"), QStringLiteral("act_on_tab"),
                         {{QStringLiteral("action"), QStringLiteral("navigate")},
                          {QStringLiteral("url"), QStringLiteral("https://a.example/")}})},
               300)
        << 0 << Decision::Kind::Call << QStringLiteral("act_on_tab");
    QTest::newRow("finishes with the text of the finish tool")
        << assistantCalls({toolCall(QStringLiteral("c1"), QStringLiteral("finish"),
                                    {{QStringLiteral("text"), QStringLiteral("Open 9 to 5")}})},
                          300)
        << 0 << Decision::Kind::Finish << QStringLiteral("Open 9 to 5");
    QJsonObject plain = assistantCalls({}, 200);
    QJsonArray choices = plain.value(QStringLiteral("choices")).toArray();
    QJsonObject choice = choices.at(0).toObject();
    choice.insert(QStringLiteral("message"),
                  QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                              {QStringLiteral("content"), QStringLiteral("It opens at 9.")}});
    choices.replace(0, choice);
    plain.insert(QStringLiteral("choices"), choices);
    QTest::newRow("ends the task with a plain answer")
        << plain << 0 << Decision::Kind::Finish << QStringLiteral("It opens at 9.");
    QTest::newRow("fails the run when the model's endpoint refuses the key")
        << QJsonObject() << 401 << Decision::Kind::Fail << QStringLiteral("401");
}

void tst_LlmPlanner::decidesWhatTheModelAnswers()
{
    QFETCH(QJsonObject, answer);
    QFETCH(int, failure);
    QFETCH(Decision::Kind, kind);
    QFETCH(QString, expected);
    if (failure)
        m_script.failures << failure;
    else
        m_script.answers << answer;
    FakeContext ctx;
    ctx.m_request.input = QStringLiteral("When does the harbour office open?");
    engine::LlmPlanner planner(ctx.m_request, *m_settings, m_network);
    const auto d = next(planner, ctx);
    QVERIFY2(d, "the planner never decided");
    QCOMPARE(d->kind, kind);
    switch (kind) {
    case Decision::Kind::Call:
        QCOMPARE(d->tool, expected);
        QCOMPARE(d->args.value(QStringLiteral("url")).toString(),
                 QStringLiteral("https://a.example/"));
        break;
    case Decision::Kind::Finish:
        QCOMPARE(d->text, expected);
        break;
    case Decision::Kind::Fail:
        QVERIFY2(d->error.contains(expected), qPrintable(d->error));
        break;
    }
}

void tst_LlmPlanner::sendsTheTaskAndTheToolsAndReturnsToolResults()
{
    m_script.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("act_on_tab"),
                  {{QStringLiteral("action"), QStringLiteral("navigate")},
                   {QStringLiteral("url"), QStringLiteral("https://a.example/")}})},
        300);
    m_script.answers << assistantCalls(
        {toolCall(QStringLiteral("c2"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("done")}})},
        300);
    FakeContext ctx;
    ctx.m_request.input = QStringLiteral("When does the harbour office open?");
    engine::LlmPlanner planner(ctx.m_request, *m_settings, m_network);
    const auto first = next(planner, ctx);
    QVERIFY(first && first->kind == Decision::Kind::Call);
    engine::ToolResult result;
    result.output = QJsonObject{{QStringLiteral("url"), QStringLiteral("https://a.example/")}};
    result.summary = QStringLiteral("opened");
    const auto second = next(planner, ctx, &result);
    QVERIFY(second && second->kind == Decision::Kind::Finish);

    QCOMPARE(m_script.requests.size(), 2);
    const QJsonObject firstRequest = m_script.requests.at(0);
    QCOMPARE(firstRequest.value(QStringLiteral("model")).toString(), QStringLiteral("stub-model"));
    const QString messages = QString::fromUtf8(
        QJsonDocument(firstRequest.value(QStringLiteral("messages")).toArray()).toJson());
    QVERIFY(messages.contains(QStringLiteral("When does the harbour office open?")));
    QStringList tools;
    for (const QJsonValue &t : firstRequest.value(QStringLiteral("tools")).toArray())
        tools << t.toObject()
                     .value(QStringLiteral("function"))
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString();
    QVERIFY2(tools.contains(QStringLiteral("act_on_tab")), qPrintable(tools.join(u',')));
    QVERIFY2(tools.contains(QStringLiteral("finish")), qPrintable(tools.join(u',')));
    // The second turn carries the tool result back, answering the call by its id.
    const QJsonArray again = m_script.requests.at(1).value(QStringLiteral("messages")).toArray();
    const QJsonObject toolMessage = again.last().toObject();
    QCOMPARE(toolMessage.value(QStringLiteral("role")).toString(), QStringLiteral("tool"));
    QCOMPARE(toolMessage.value(QStringLiteral("tool_call_id")).toString(), QStringLiteral("c1"));
    QVERIFY(toolMessage.value(QStringLiteral("content"))
                .toString()
                .contains(QStringLiteral("\"ok\":true")));
}

QTEST_GUILESS_MAIN(tst_LlmPlanner)
#include "tst_llmplanner.moc"
