// The console's A2W runs panel against the real service: runs appear live with their
// site, agent, status and execution; the filters; the selected run's live events; an
// operator answering a question of a real run and cancelling one.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "runtime/RuntimeService.h"

#include "a2w/A2wRunsDock.h"
#include "a2w/A2wRunsModel.h"
#include "a2w/A2wService.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QUrlQuery>

using namespace ph;
using namespace ph::test;

class tst_A2wRunsPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void listsRunsLiveBySiteAgentStatusAndExecution();
    void filtersBySiteAndStatus();
    void followsTheSelectedRunsEventsAndCancelsIt();
    void showsARunTheVisitorDeclined();
    void answersAQuestionOfARealRun();
    void confirmsAnActionOfARealRun();
    void letsTheOperatorConfirmWhatAPageAsksOfAPerson();
    void offersTheLiveBrowserViews();
    void listsDelegatedSessionsAndRevokesOne();
    void listsVisitorSessionsAndEndsARun();

private:
    QString create(const QJsonObject &body, const QByteArray &prefer);
    int rowOf(const QString &id) { return m_dock->model()->rowOf(id); }

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::A2wRunsDock> m_dock;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void tst_A2wRunsPanel::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/shop", "<!doctype html><title>Shop</title><h1>Shop</h1><p>Sextant 310</p>");
    m_site.route("/account", [](const FixtureRequest &r) {
        if (r.headers.value("cookie").contains("session=ok"))
            return FixtureResponse::html("<!doctype html><title>Orders</title><table><tr><th>Name"
                                         "</th></tr><tr><td>Sextant</td></tr></table>");
        return FixtureResponse::html(
            "<!doctype html><title>Sign in</title><form method=post action=/session><label "
            "for=p>Password</label><input id=p name=password type=password><button>Sign in"
            "</button></form>");
    });
    m_site.route("/session", [](const FixtureRequest &) {
        FixtureResponse resp;
        resp.status = 303;
        resp.headers = {{"Location", "/account"}, {"Set-Cookie", "session=ok; Path=/"}};
        return resp;
    });
    m_site.page("/order", "<!doctype html><title>Basket</title><form method=post "
                          "action=/order/place><button type=submit>Place order</button></form>");
    m_site.page("/order/place", "<!doctype html><title>Thanks</title><h1>Order placed</h1>");
    m_site.page("/checkout", "<!doctype html><title>Checkout</title><p>Total $40.00</p><form "
                             "method=post action=/checkout/pay><button type=submit>Place order"
                             "</button></form>");
    m_site.page("/checkout/pay", "<!doctype html><title>Thanks</title><h1>Paid</h1>");
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    QCOMPARE(
        m_ph->client()
            .post(QStringLiteral("/generateSiteKey"),
                  {{QStringLiteral("siteName"), QStringLiteral("Panel shop")},
                   {QStringLiteral("label"), QStringLiteral("embed")},
                   {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}})
            .status,
        201);
    m_ph->allowBrowserHandoffs();                // off by default; browser runs are tested here
    m_ph->listPrivateHosts({m_site.hostPort()}); // the site is on a random loopback port
    m_dock = std::make_unique<ui::A2wRunsDock>(ui::ConsoleServices::of(m_ph->service()));
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_dock->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_dock->resize(1000, 600);
    m_dock->show();
}

void tst_A2wRunsPanel::cleanupTestCase()
{
    m_tester.reset();
    m_dock.reset();
    m_ph.reset();
}

QString tst_A2wRunsPanel::create(const QJsonObject &body, const QByteArray &prefer)
{
    const HttpResponse r = HttpClient(m_ph->base())
                               .send("POST", QStringLiteral("/v2/a2w/runs"),
                                     QJsonDocument(body).toJson(QJsonDocument::Compact),
                                     {{"Content-Type", "application/json"},
                                      {"Prefer", prefer},
                                      {"User-Agent", "PanelBot/1.0"}});
    r.expectStatus({201}, __FILE__, __LINE__);
    return r.json().value(QStringLiteral("id")).toString();
}

void tst_A2wRunsPanel::listsRunsLiveBySiteAgentStatusAndExecution()
{
    const QString id = create({{QStringLiteral("url"), m_site.url(QStringLiteral("/shop"))},
                               {QStringLiteral("prompt"), QStringLiteral("Read the page")}},
                              "execution=browser");
    const int row = rowOf(id);
    QVERIFY(row >= 0);
    auto cell = [&](int column) {
        return m_dock->model()->index(rowOf(id), column).data().toString();
    };
    QCOMPARE(cell(ui::A2wRunsModel::Site), QStringLiteral("127.0.0.1"));
    QCOMPARE(cell(ui::A2wRunsModel::Agent), QStringLiteral("PanelBot"));
    QCOMPARE(cell(ui::A2wRunsModel::Status), QStringLiteral("waiting_browser"));
    QCOMPARE(cell(ui::A2wRunsModel::Execution), QStringLiteral("browser"));
    QCOMPARE(cell(ui::A2wRunsModel::Task), QStringLiteral("Read the page"));
    // A change shows in place.
    m_ph->service().a2w().cancel(id);
    QCOMPARE(cell(ui::A2wRunsModel::Status), QStringLiteral("cancelled"));
}

void tst_A2wRunsPanel::filtersBySiteAndStatus()
{
    const QString waiting = create({{QStringLiteral("url"), m_site.url(QStringLiteral("/shop"))},
                                    {QStringLiteral("prompt"), QStringLiteral("Wait")}},
                                   "execution=browser");
    QComboBox *status = m_dock->statusFilter();
    status->setCurrentIndex(status->findData(QStringLiteral("cancelled")));
    QVERIFY(rowOf(waiting) < 0);
    for (int r = 0; r < m_dock->model()->rowCount(); ++r)
        QCOMPARE(m_dock->model()->index(r, ui::A2wRunsModel::Status).data().toString(),
                 QStringLiteral("cancelled"));
    status->setCurrentIndex(status->findData(QStringLiteral("waiting_browser")));
    QVERIFY(rowOf(waiting) >= 0);
    QComboBox *site = m_dock->siteFilter();
    QVERIFY(site->findData(QStringLiteral("127.0.0.1")) > 0);
    site->setCurrentIndex(site->findData(QStringLiteral("127.0.0.1")));
    QVERIFY(rowOf(waiting) >= 0);
    status->setCurrentIndex(0);
    site->setCurrentIndex(0);
    m_ph->service().a2w().cancel(waiting);
}

void tst_A2wRunsPanel::followsTheSelectedRunsEventsAndCancelsIt()
{
    const QString id = create({{QStringLiteral("url"), m_site.url(QStringLiteral("/shop"))},
                               {QStringLiteral("prompt"), QStringLiteral("Follow me")}},
                              "execution=browser");
    QVERIFY(m_dock->select(id));
    QVERIFY(m_dock->eventsView()->toPlainText().contains(QLatin1String("waiting_browser")));
    QVERIFY(m_dock->cancelButton()->isEnabled());
    QVERIFY(!m_dock->answerButton()->isEnabled());
    m_dock->cancelButton()->click();
    QCOMPARE(m_ph->service().a2w().find(id)->status, QStringLiteral("cancelled"));
    const QString events = m_dock->eventsView()->toPlainText();
    QVERIFY2(events.contains(QLatin1String("done")), qPrintable(events));
    QVERIFY(!m_dock->cancelButton()->isEnabled());
}

void tst_A2wRunsPanel::showsARunTheVisitorDeclined()
{
    // A visitor opened a browser run's link and declined it in their page.
    const QString id = create({{QStringLiteral("url"), m_site.url(QStringLiteral("/shop"))},
                               {QStringLiteral("prompt"), QStringLiteral("Read my orders")}},
                              "execution=browser");
    a2w::A2wService &service = m_ph->service().a2w();
    service.declineBrowserRun(service.receiptFor(id), service.find(id)->siteId);
    const int row = rowOf(id);
    QVERIFY(row >= 0);
    QCOMPARE(m_dock->model()->index(row, ui::A2wRunsModel::Status).data().toString(),
             QStringLiteral("cancelled · declined by the visitor"));
    QVERIFY(m_dock->select(id));
    QVERIFY(!m_dock->cancelButton()->isEnabled());
    QVERIFY2(m_dock->eventsView()->toPlainText().contains(QLatin1String("declined")),
             qPrintable(m_dock->eventsView()->toPlainText()));
}

void tst_A2wRunsPanel::answersAQuestionOfARealRun()
{
    const QString id =
        create({{QStringLiteral("url"), m_site.url(QStringLiteral("/account"))},
                {QStringLiteral("prompt"), QStringLiteral("Sign in and list my orders")}},
               "execution=cloud");
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().a2w().find(id)->status,
                              QStringLiteral("input_required"), 30000);
    QVERIFY(m_dock->select(id));
    QVERIFY(m_dock->answerButton()->isEnabled());
    m_dock->answerEdit()->setText(QStringLiteral("s3cret!"));
    m_dock->answerButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().a2w().find(id)->status, QStringLiteral("completed"),
                              30000);
    QTRY_VERIFY(m_dock->eventsView()->toPlainText().contains(QLatin1String("done")));
    QVERIFY(!m_dock->eventsView()->toPlainText().contains(QLatin1String("s3cret!")));
}

void tst_A2wRunsPanel::confirmsAnActionOfARealRun()
{
    const QString id = create({{QStringLiteral("url"), m_site.url(QStringLiteral("/order"))},
                               {QStringLiteral("prompt"), QStringLiteral("click \"Place order\"")}},
                              "execution=cloud");
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().a2w().find(id)->status,
                              QStringLiteral("input_required"), 30000);
    QVERIFY(m_dock->select(id));
    QVERIFY(m_dock->confirmButton()->isEnabled());
    QVERIFY(!m_dock->answerButton()->isEnabled());
    QCOMPARE(m_site.hits("/order/place"), 0);
    m_dock->confirmButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().a2w().find(id)->status, QStringLiteral("completed"),
                              30000);
    QCOMPARE(m_site.hits("/order/place"), 1);
    QVERIFY(!m_dock->confirmButton()->isEnabled());
}

// A payment step parks the run with its reason; the list says what it waits for and the
// operator's Confirm is the person's "Done": the held order is sent once, then.
void tst_A2wRunsPanel::letsTheOperatorConfirmWhatAPageAsksOfAPerson()
{
    const QString id = create({{QStringLiteral("url"), m_site.url(QStringLiteral("/checkout"))},
                               {QStringLiteral("prompt"), QStringLiteral("click \"Place order\"")}},
                              "execution=cloud");
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().a2w().find(id)->status,
                              QStringLiteral("input_required"), 30000);
    QCOMPARE(m_ph->service().a2w().find(id)->input.value(QStringLiteral("reason")).toString(),
             QStringLiteral("payment_confirmation_required"));
    QVERIFY(m_dock->select(id));
    QVERIFY(m_dock->confirmButton()->isEnabled());
    QVERIFY(!m_dock->answerButton()->isEnabled());
    bool listed = false;
    const QAbstractItemModel *model = m_dock->view()->model();
    for (int row = 0; row < model->rowCount(); ++row)
        for (int column = 0; column < model->columnCount(); ++column)
            listed |= model->index(row, column)
                          .data()
                          .toString()
                          .contains(QLatin1String("waits for a person: a payment to confirm"));
    QVERIFY(listed);
    QCOMPARE(m_site.hits("/checkout/pay"), 0);
    m_dock->confirmButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().a2w().find(id)->status, QStringLiteral("completed"),
                              30000);
    QCOMPARE(m_site.hits("/checkout/pay"), 1);
}

void tst_A2wRunsPanel::offersTheLiveBrowserViews()
{
    QSignalSpy spy(m_dock.get(), &ui::A2wRunsDock::browserViewRequested);
    const QString id = create({{QStringLiteral("url"), m_site.url(QStringLiteral("/shop"))},
                               {QStringLiteral("prompt"), QStringLiteral("Read the page")}},
                              "execution=browser");
    QVERIFY(m_dock->select(id));
    m_dock->browserButton()->setEnabled(true); // a run in the cloud browser enables it
    m_dock->browserButton()->click();
    QCOMPARE(spy.count(), 1);
    m_ph->service().a2w().cancel(id);
}

void tst_A2wRunsPanel::listsDelegatedSessionsAndRevokesOne()
{
    // A verified agent asks for a delegated session; the owner approves it (the service
    // calls the verify page makes); the panel lists it and revokes it.
    a2w::CreateRequest ask = a2w::CreateRequest::fromJson(
        {{QStringLiteral("url"), m_site.url(QStringLiteral("/shop"))},
         {QStringLiteral("prompt"), QStringLiteral("Read the page")},
         {QStringLiteral("execution"),
          QJsonObject{{QStringLiteral("mode"), QStringLiteral("browser")}}},
         {QStringLiteral("auth"),
          QJsonObject{{QStringLiteral("mode"), QStringLiteral("delegated_session")}}}});
    a2w::Caller caller;
    caller.address = QStringLiteral("127.0.0.1");
    caller.verifiedAgent = QStringLiteral("https://agent.example");
    const a2w::Run run = m_ph->service().a2w().create(ask, caller, {}, {}, {}).run;
    QCOMPARE(run.status, a2w::Status::inputRequired);
    const QString verify = run.input[QStringLiteral("links")][QStringLiteral("verify")].toString();
    const QString sig = QUrlQuery(QUrl(verify)).queryItemValue(QStringLiteral("sig"));
    a2w::A2wService::DelegationGrant grant;
    grant.scope = {QStringLiteral("*")};
    grant.spendCapMilli = 5000;
    grant.ttlMs = 3600000;
    m_ph->service().a2w().approveDelegation(run.id, sig, grant, QStringLiteral("apiKey:owner"));

    QTableWidget *table = m_dock->delegationsView();
    QTRY_COMPARE(table->rowCount(), 1);
    QVERIFY(table->item(0, 0)->text().startsWith(QLatin1String("rds_")));
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("127.0.0.1"));
    QCOMPARE(table->item(0, 2)->text(), QStringLiteral("any task"));
    QCOMPARE(table->item(0, 3)->text(), QStringLiteral("0.0 of 5.0 credits"));
    QCOMPARE(table->item(0, 5)->text(), QStringLiteral("Active"));
    QVERIFY(!m_dock->revokeButton()->isEnabled());
    table->selectRow(0);
    QVERIFY(m_dock->revokeButton()->isEnabled());
    m_dock->revokeButton()->click();
    QTRY_COMPARE(table->item(0, 5)->text(), QStringLiteral("Revoked"));
    QVERIFY(m_ph->service().a2w().delegations().first().revokedAt.has_value());
    QVERIFY(!m_dock->revokeButton()->isEnabled());
}

void tst_A2wRunsPanel::listsVisitorSessionsAndEndsARun()
{
    // A visitor's page opens a runtime session and starts a run.
    HttpResponse r = m_ph->client().post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Visitor shop")},
         {QStringLiteral("label"), QStringLiteral("embed")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("visitors.example")}}});
    QCOMPARE(r.status, 201);
    HttpClient page(m_ph->base());
    r = page.post(QStringLiteral("/v2/runtime/session/open"),
                  {{QStringLiteral("siteId"), r.json().value(QStringLiteral("siteId"))},
                   {QStringLiteral("url"), QStringLiteral("https://visitors.example/cart")},
                   {QStringLiteral("publicKey"),
                    r.json()[QStringLiteral("key")][QStringLiteral("publicKey")]}});
    QCOMPARE(r.status, 200);
    const QJsonObject opened = r.json().value(QStringLiteral("data")).toObject();
    const QString sessionId = opened.value(QStringLiteral("sessionId")).toString();
    page.setBearer(opened.value(QStringLiteral("sessionToken")).toString());
    r = page.post(QStringLiteral("/v2/runtime/command"),
                  {{QStringLiteral("sessionId"), sessionId},
                   {QStringLiteral("message"), QStringLiteral("click Checkout")},
                   {QStringLiteral("clientEventId"), QStringLiteral("c1")},
                   {QStringLiteral("expectedEpoch"), 1},
                   {QStringLiteral("expectedSeq"), opened.value(QStringLiteral("seq"))}});
    QCOMPARE(r.status, 200);
    const QString runId = r.json()[QStringLiteral("data")][QStringLiteral("runId")].toString();

    // The panel lists it live, with its active run.
    QTableWidget *view = m_dock->visitorSessionsView();
    auto rowOfSession = [view, sessionId] {
        for (int row = 0; row < view->rowCount(); ++row)
            if (view->item(row, 0) && view->item(row, 0)->text() == sessionId)
                return row;
        return -1;
    };
    QTRY_VERIFY_WITH_TIMEOUT(rowOfSession() >= 0, 5000);
    const int row = rowOfSession();
    QCOMPARE(view->item(row, 1)->text(), QStringLiteral("visitors.example"));
    QVERIFY(view->item(row, 2)->text().contains(runId));
    QVERIFY(!view->accessibleName().isEmpty());
    view->selectRow(row);
    QVERIFY(m_dock->endRunButton()->isEnabled());
    QVERIFY(m_dock->eventsView()->toPlainText().contains(QStringLiteral("run.started")));

    // The operator ends it: the run is cancelled, the visitor's page hears it.
    m_dock->endRunButton()->click();
    const auto run = m_ph->service().runtime().repository().findRun(runId);
    QCOMPARE(run->status, QStringLiteral("cancelled"));
    QTRY_VERIFY_WITH_TIMEOUT(view->item(rowOfSession(), 2)->text() == tr("none") ||
                                 !view->item(rowOfSession(), 2)->text().contains(runId),
                             5000);
    QVERIFY(!m_dock->endRunButton()->isEnabled());
    r = page.post(QStringLiteral("/v2/runtime/state"), {{QStringLiteral("sessionId"), sessionId}});
    const QJsonArray events = r.json()[QStringLiteral("data")][QStringLiteral("events")].toArray();
    QVERIFY(std::any_of(events.begin(), events.end(), [](const QJsonValue &e) {
        return e[QStringLiteral("type")].toString() == QLatin1String("run.transition") &&
               e[QStringLiteral("data")][QStringLiteral("reason")].toString() ==
                   QLatin1String("ended by the operator");
    }));
}

PH_WIDGETS_TEST_MAIN(tst_A2wRunsPanel)
#include "tst_a2wrunspanel.moc"
