// The console's payloads and details (issue 19, item 4), against the real service: a
// delivery's attempt shows the request sent (headers, JSON body) and the receiver's
// answer (status, headers, body) from a loopback receiver this test starts, credentials
// redacted; a run's step shows its arguments and result JSON; copy-as-curl for runs (the
// key as $PILOTHOUSE_API_KEY, never the real one) and for deliveries (a command that
// really sends the webhook again); and migration 0023 keeps attempts logged before it.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "common/CurlText.h"
#include "common/JsonView.h"
#include "core/Clock.h"
#include "core/Store.h"
#include "deliveries/DeliveriesDock.h"
#include "deliveries/DeliveriesModel.h"
#include "trajectories/TrajectoriesDock.h"
#include "trajectories/TrajectoriesModel.h"
#include "webhooks/WebhookQueue.h"

#include <QApplication>
#include <QClipboard>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using namespace ph;
using namespace ph::test;

class tst_ConsoleDetails : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void deliveryShowsTheRequestAndTheAnswer_data();
    void deliveryShowsTheRequestAndTheAnswer();
    void deliveryCopiesAsACurlThatSendsItAgain();
    void stepShowsItsArgumentsAndResult_data();
    void stepShowsItsArgumentsAndResult();
    void runCopiesAsCurlWithoutTheKey_data();
    void runCopiesAsCurlWithoutTheKey();
    void shellQuotingSurvivesQuotes_data();
    void shellQuotingSurvivesQuotes();
    void attemptsLoggedBeforeTheMigrationStay();

private:
    QString sendTest(const QString &path, const QJsonObject &headers = {});

    FixtureServer m_receiver;
    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::DeliveriesDock> m_deliveries;
    std::unique_ptr<ui::TrajectoriesDock> m_runs;
    QString m_runId;
};

void tst_ConsoleDetails::initTestCase()
{
    QVERIFY(m_receiver.start());
    m_receiver.route("/ok", [](const FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"X-Receiver", "harbour-1"}, {"Content-Type", "text/plain"}};
        r.body = "thanks";
        return r;
    });
    m_receiver.route("/broken", [](const FixtureRequest &) {
        FixtureResponse r;
        r.status = 503;
        r.headers = {{"Retry-After", "120"}};
        r.body = "receiver is down";
        return r;
    });
    QVERIFY(m_site.start());
    m_site.page("/shop", "<!doctype html><title>Shop</title><table><thead><tr><th>Name</th>"
                         "<th>Price</th></tr></thead><tbody><tr><td>Rope</td><td>12.50</td></tr>"
                         "</tbody></table>");
    m_ph = std::make_unique<TestService>(QStringList{QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY(m_ph->ok());
    m_deliveries = std::make_unique<ui::DeliveriesDock>(ui::ConsoleServices::of(m_ph->service()));
    m_deliveries->resize(1100, 700);
    m_deliveries->show();
    m_runs = std::make_unique<ui::TrajectoriesDock>(ui::ConsoleServices::of(m_ph->service()));
    m_runs->resize(1100, 700);
    m_runs->show();
    // One real run for the step and curl tests.
    HttpClient c = m_ph->client();
    const QJsonObject body{
        {QStringLiteral("input"), QStringLiteral("List the products")},
        {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}}};
    const auto r =
        c.send("POST", QStringLiteral("/agent"), QJsonDocument(body).toJson(QJsonDocument::Compact),
               {{"Content-Type", "application/json"}, {"Prefer", "wait=60"}});
    m_runId = r.json().value(QStringLiteral("trajectoryId")).toString();
    QVERIFY2(!m_runId.isEmpty(), r.body.constData());
    QTRY_VERIFY(m_runs->model()->rowOf(m_runId) >= 0);
    QTRY_COMPARE_WITH_TIMEOUT(
        m_runs->model()
            ->index(m_runs->model()->rowOf(m_runId), ui::TrajectoriesModel::Status)
            .data()
            .toString(),
        QStringLiteral("success"), 60000);
}

void tst_ConsoleDetails::cleanupTestCase()
{
    m_runs.reset();
    m_deliveries.reset();
    m_ph.reset();
}

QString tst_ConsoleDetails::sendTest(const QString &path, const QJsonObject &headers)
{
    HttpClient c = m_ph->client();
    QJsonObject body{{QStringLiteral("url"), m_receiver.url(path)},
                     {QStringLiteral("secret"), QStringLiteral("s3cret-signing-key")}};
    if (!headers.isEmpty())
        body.insert(QStringLiteral("headers"), headers);
    const auto r = c.post(QStringLiteral("/webhooks/test"), body);
    return r.json().value(QStringLiteral("deliveries")).toArray().at(0).toString();
}

void tst_ConsoleDetails::deliveryShowsTheRequestAndTheAnswer_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonObject>("headers");
    QTest::addColumn<QStringList>("requestHas");
    QTest::addColumn<QStringList>("answerHas");

    QTest::newRow("a signed delivery answered 200 shows the signature, the body and the answer")
        << QStringLiteral("/ok") << QJsonObject()
        << QStringList{QStringLiteral("POST ") + m_receiver.url(QStringLiteral("/ok")),
                       QStringLiteral("X-Svc-Event: webhook.test"),
                       QStringLiteral("X-Svc-Delivery-Attempt: 1"),
                       QStringLiteral("X-Svc-Signature: "),
                       QStringLiteral("Content-Type: application/json")}
        << QStringList{QStringLiteral("HTTP 200"), QStringLiteral("X-Receiver: harbour-1"),
                       QStringLiteral("thanks")};
    QTest::newRow("a receiver that is down shows its status, its headers and its reply")
        << QStringLiteral("/broken") << QJsonObject()
        << QStringList{QStringLiteral("X-Svc-Delivery-Id: ")}
        << QStringList{QStringLiteral("HTTP 503"), QStringLiteral("Retry-After: 120"),
                       QStringLiteral("receiver is down")};
    QTest::newRow("a credential header the subscription set is shown redacted")
        << QStringLiteral("/ok")
        << QJsonObject{{QStringLiteral("X-Api-Token"), QStringLiteral("tok-very-secret")}}
        << QStringList{QStringLiteral("X-Api-Token: [redacted]")}
        << QStringList{QStringLiteral("HTTP 200")};
}

void tst_ConsoleDetails::deliveryShowsTheRequestAndTheAnswer()
{
    QFETCH(QString, path);
    QFETCH(QJsonObject, headers);
    QFETCH(QStringList, requestHas);
    QFETCH(QStringList, answerHas);
    const int before = m_receiver.hits(path.toUtf8());
    const QString id = sendTest(path, headers);
    QVERIFY(!id.isEmpty());
    QTRY_COMPARE(m_receiver.hits(path.toUtf8()), before + 1);
    QTRY_VERIFY(m_deliveries->model()->rowOf(id) >= 0);
    QTRY_VERIFY(m_ph->service().webhooks().find(id, true)->attemptLog.size() == 1);
    QVERIFY(m_deliveries->select(id));
    const QString request = m_deliveries->requestHeadersView()->toPlainText();
    for (const QString &text : requestHas)
        QVERIFY2(request.contains(text), qPrintable(text + QStringLiteral(" in\n") + request));
    // What the receiver got is what the panel shows: the same signature, the same body.
    const FixtureRequest got = m_receiver.requests(path.toUtf8()).last();
    QVERIFY2(request.contains(QStringLiteral("X-Svc-Signature: ") +
                              QString::fromUtf8(got.headers.value("x-svc-signature"))),
             qPrintable(request));
    QCOMPARE(m_deliveries->requestBodyView()->json().toObject(),
             QJsonDocument::fromJson(got.body).object());
    QVERIFY(m_deliveries->requestBodyView()->toPlainText().contains(QLatin1String("webhook.test")));
    // Never a secret: neither the signing key nor a credential header's value.
    QVERIFY(!request.contains(QLatin1String("s3cret-signing-key")));
    QVERIFY(!request.contains(QLatin1String("tok-very-secret")));
    if (!headers.isEmpty())
        QCOMPARE(got.headers.value("x-api-token"), QByteArray("tok-very-secret"));
    const QString answer = m_deliveries->answerView()->toPlainText();
    for (const QString &text : answerHas)
        QVERIFY2(answer.contains(text), qPrintable(text + QStringLiteral(" in\n") + answer));
}

void tst_ConsoleDetails::deliveryCopiesAsACurlThatSendsItAgain()
{
    const QString id =
        sendTest(QStringLiteral("/ok"),
                 {{QStringLiteral("X-Api-Token"), QStringLiteral("tok-very-secret")}});
    QTRY_VERIFY(m_deliveries->model()->rowOf(id) >= 0);
    QTRY_VERIFY(m_ph->service().webhooks().find(id, true)->attemptLog.size() == 1);
    QVERIFY(m_deliveries->select(id));
    QVERIFY(m_deliveries->copyCurlButton()->isEnabled());
    m_deliveries->copyCurlButton()->click();
    const QString curl = QApplication::clipboard()->text();
    QCOMPARE(curl, m_deliveries->currentCurl());
    QVERIFY2(
        curl.startsWith(
            QStringLiteral("curl -sS -X POST '%1'").arg(m_receiver.url(QStringLiteral("/ok")))),
        qPrintable(curl));
    QVERIFY(curl.contains(QLatin1String("-H 'X-Svc-Event: webhook.test'")));
    QVERIFY(curl.contains(QLatin1String("-H 'X-Svc-Signature: ")));
    QVERIFY(curl.contains(QLatin1String("--data-binary '{")));
    QVERIFY(!curl.contains(QLatin1String("Host:")));
    QVERIFY(!curl.contains(QLatin1String("s3cret-signing-key")));
    QVERIFY(!curl.contains(QLatin1String("tok-very-secret")));
    // Run by a shell, it sends the same body and signature to the receiver again.
    if (QStandardPaths::findExecutable(QStringLiteral("curl")).isEmpty())
        QSKIP("no curl on this machine");
    const FixtureRequest first = m_receiver.requests("/ok").last();
    const int before = m_receiver.hits("/ok");
    QProcess shell;
    shell.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), curl});
    QVERIFY(shell.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(shell.state() == QProcess::NotRunning, 20000);
    QCOMPARE(shell.exitCode(), 0);
    QCOMPARE(shell.readAllStandardOutput(), QByteArray("thanks"));
    QCOMPARE(m_receiver.hits("/ok"), before + 1);
    const FixtureRequest again = m_receiver.requests("/ok").last();
    QCOMPARE(again.body, first.body);
    QCOMPARE(again.headers.value("x-svc-signature"), first.headers.value("x-svc-signature"));
    QCOMPARE(again.headers.value("x-svc-delivery-id"), id.toUtf8());
}

void tst_ConsoleDetails::stepShowsItsArgumentsAndResult_data()
{
    QTest::addColumn<bool>("lastStep");
    QTest::addColumn<QString>("argsHave");
    QTest::addColumn<QString>("resultHas");
    QTest::newRow("the first step shows the page it was called with")
        << false << m_site.url(QStringLiteral("/shop")) << QString();
    QTest::newRow("the step that read the table shows what it read")
        << true << QString() << QStringLiteral("Rope");
}

void tst_ConsoleDetails::stepShowsItsArgumentsAndResult()
{
    QFETCH(bool, lastStep);
    QFETCH(QString, argsHave);
    QFETCH(QString, resultHas);
    QVERIFY(m_runs->select(m_runId));
    const int steps = m_runs->stepsTable()->rowCount();
    QVERIFY(steps >= 2);
    // The step whose result has the text (the reading step), or the first one.
    int row = 0;
    if (lastStep) {
        row = -1;
        for (int r = 0; r < steps && row < 0; ++r) {
            m_runs->selectStep(r);
            if (m_runs->stepResultView()->toPlainText().contains(resultHas))
                row = r;
        }
        QVERIFY2(row >= 0, "no step shows the table it read");
    }
    m_runs->selectStep(row);
    const auto repoSteps = m_ph->service().trajectories().steps(m_runId, 1);
    QCOMPARE(m_runs->stepArgsView()->json().toObject(), repoSteps.at(row).args);
    if (!argsHave.isEmpty())
        QVERIFY2(m_runs->stepArgsView()->toPlainText().contains(argsHave),
                 qPrintable(m_runs->stepArgsView()->toPlainText()));
    if (!resultHas.isEmpty()) {
        QVERIFY(m_runs->stepResultView()->toPlainText().contains(resultHas));
        QCOMPARE(m_runs->stepResultView()->json(), repoSteps.at(row).output);
    }
    // Highlighted: the views carry the JSON highlighter's formats.
    for (const ui::JsonView *view : {m_runs->stepArgsView(), m_runs->stepResultView()}) {
        bool coloured = false;
        for (QTextBlock b = view->document()->begin(); b.isValid() && !coloured; b = b.next())
            coloured = !b.layout()->formats().isEmpty();
        QVERIFY2(coloured, qPrintable(view->toPlainText()));
    }
}

void tst_ConsoleDetails::runCopiesAsCurlWithoutTheKey_data()
{
    QTest::addColumn<QString>("expected");
    QTest::newRow("it posts to the API's /agent")
        << QStringLiteral("curl -sS -X POST '%1/agent'").arg(m_ph->base());
    QTest::newRow("the key is read from PILOTHOUSE_API_KEY")
        << QStringLiteral("-H \"Authorization: Bearer $PILOTHOUSE_API_KEY\"");
    QTest::newRow("the body is the request that started the run")
        << QStringLiteral("\"input\":\"List the products\"");
    QTest::newRow("the pages it read are in it") << m_site.url(QStringLiteral("/shop"));
}

void tst_ConsoleDetails::runCopiesAsCurlWithoutTheKey()
{
    QFETCH(QString, expected);
    QVERIFY(m_runs->select(m_runId));
    m_runs->copyCurlButton()->click();
    const QString curl = QApplication::clipboard()->text();
    QCOMPARE(curl, m_runs->currentCurl());
    QVERIFY2(curl.contains(expected), qPrintable(curl));
    QVERIFY(!curl.contains(m_ph->ownerKey()));
    QVERIFY(!curl.contains(QLatin1String("\"source\"")));
}

void tst_ConsoleDetails::shellQuotingSurvivesQuotes_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("a plain word stays one word") << QStringLiteral("hello");
    QTest::newRow("a single quote is closed, escaped and reopened") << QStringLiteral("it's");
    QTest::newRow("a dollar sign is not expanded") << QStringLiteral("$HOME and `ls`");
}

void tst_ConsoleDetails::shellQuotingSurvivesQuotes()
{
    QFETCH(QString, text);
    QProcess shell;
    shell.start(QStringLiteral("/bin/sh"),
                {QStringLiteral("-c"), QStringLiteral("printf %s ") + ui::shellQuote(text)});
    QVERIFY(shell.waitForFinished());
    QCOMPARE(QString::fromUtf8(shell.readAllStandardOutput()), text);
}

void tst_ConsoleDetails::attemptsLoggedBeforeTheMigrationStay()
{
    // A store at schema 22 (before the attempt headers) with a delivery and its attempt.
    QTemporaryDir dir;
    SystemClock clock;
    const QString path = dir.filePath(QStringLiteral("old.sqlite"));
    {
        Store store(path, clock);
        QString error;
        QVERIFY2(store.open(&error, 22), qPrintable(error));
        QSqlQuery q(store.database());
        QVERIFY(q.exec(QStringLiteral(
            "INSERT INTO webhook_deliveries (id, request_id, url, event, payload, config, status,"
            " attempts, created_at, last_status) VALUES ('dlv_old', 'req_old',"
            " 'https://hooks.example/x', 'workflow.completed', '{\"a\":1}', '{}', 'delivered', 1,"
            " 1700000000000, 200)")));
        QVERIFY(q.exec(QStringLiteral(
            "INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, latency_ms,"
            " response) VALUES ('dlv_old', 1, 1700000000000, 200, 12, 'ok')")));
    }
    Store store(path, clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    QSqlQuery q(store.database());
    QVERIFY(q.exec(QStringLiteral("SELECT response, request_headers, response_headers FROM"
                                  " webhook_attempts WHERE delivery_id = 'dlv_old'")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
    QVERIFY(q.value(1).isNull());
    QVERIFY(q.value(2).isNull());
    // The queue reads it: the attempt is there, without the headers it never logged.
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM webhook_attempts")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 1);
}

PH_WIDGETS_TEST_MAIN(tst_ConsoleDetails)
#include "tst_consoledetails.moc"
