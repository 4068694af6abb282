// A2W runs (docs/api/a2w.md): the visiting agent's contract at /v2/a2w through the real
// service, browser and a fixture site: create, wait, stream, answer, cancel, expire,
// idempotency, access tokens, enabled sites, the GET variant and analytics.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "StrictCsp.h"
#include "TestMain.h"
#include "TestService.h"

#include "a2w/A2wService.h"
#include "browser/BrowserPool.h"
#include "core/Store.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QProcess>
#include <QSqlQuery>
#include <QTcpSocket>
#include <QTemporaryDir>

using namespace ph;
using namespace ph::test;

namespace {

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class tst_A2w : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void createsARunAndWaitsForItsResult();
    void refusesContractErrors_data();
    void refusesContractErrors();
    void refusesASiteThatDoesNotAllowRuns_data();
    void refusesASiteThatDoesNotAllowRuns();
    void aWrongTokenLooksLikeNoRun_data();
    void aWrongTokenLooksLikeNoRun();
    void asksAQuestionAndResumesOnItsAnswers();
    void bindsABareInputToEveryQuestion();
    void signsInWithAOneTimeCodeGivenOnce();
    void signsInWithAnEmailedLink();
    void asksAPersonBeforeSendingAForm();
    void cancelsWhenThePersonDeclines();
    void parksWhatAPageAsksOfAPerson_data();
    void parksWhatAPageAsksOfAPerson();
    void letsAGetFormThroughWithoutAsking();
    void refusesAuthInputARunDoesNotWaitFor_data();
    void refusesAuthInputARunDoesNotWaitFor();
    void streamsEveryEventToARealSseClient();
    void resumesAStreamFromLastEventId();
    void streamsNdjson();
    void cancelsARunningRun();
    void expiresARunWhoseInputIsNotGiven();
    void returnsTheSameRunForTheSameIdempotencyKey();
    void keepsAnIdempotencyKeyToItsCaller_data();
    void keepsAnIdempotencyKeyToItsCaller();
    void createsFromAGetLinkAsMarkdown();
    void waitsForABrowserAndHandsOffByReceipt();
    void runsAStoredShortcutAndChecksItsEngagementKind();
    void attributesTheVisitingAgent();
    void recordsTheRunInTheSitesAnalytics();
    void rateLimitsAnAnonymousAddress();
    void neverStoresAnAccessToken();
    void offersItsTableAsCsvAndJson();
    void makesOnlyTheFilesItsArtifactsName();
    void keepsWaitingRunsAcrossARestartAndFailsLostOnes();
    void keepsTheConfirmationGateAcrossARestart();
    void runsThePythonVisitingAgentOfTheDocs();
    void holdsNoPageWhileVisitorRunsWaitForAPerson();
    void servesTheOwnerWhileVisitorRunsFillTheirShare();

private:
    HttpResponse create(const QJsonObject &body, const HttpClient::Headers &headers = {},
                        TestService *service = nullptr);
    HttpResponse owner(const QString &path, const QJsonObject &body);
    // Makes the fixture site an enabled site of `service`.
    bool enableSite(TestService &service, const QString &name);
    QString shop() const { return m_site.url(QStringLiteral("/shop")); }

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    QString m_siteId;
    QString m_keyId;
    QStringList m_tokens;
};

void tst_A2w::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page(
        "/shop",
        htmlPage(QStringLiteral("Harbour Shop"),
                 QStringLiteral("<h1>Products</h1><table><thead><tr><th>Name</th><th>Price"
                                "</th></tr></thead><tbody><tr><td>Sextant</td><td>310.00</td>"
                                "</tr><tr><td>Chart</td><td>25.00</td></tr></tbody></table>")));
    const QByteArray login = htmlPage(
        QStringLiteral("Sign in"),
        QStringLiteral("<h1>Sign in</h1><form method=\"post\" action=\"/session\"><label "
                       "for=\"e\">Email</label><input id=\"e\" name=\"email\" type=\"text\">"
                       "<label for=\"p\">Password</label><input id=\"p\" name=\"password\" "
                       "type=\"password\"><button type=\"submit\">Sign in</button></form>"));
    m_site.route("/session", [](const FixtureRequest &r) {
        const QUrlQuery form(QString::fromUtf8(r.body));
        FixtureResponse resp;
        if (form.queryItemValue(QStringLiteral("password"), QUrl::FullyDecoded) ==
            QLatin1String("s3cret!")) {
            resp.status = 303;
            resp.headers = {{"Location", "/account"}, {"Set-Cookie", "session=ok; Path=/"}};
        } else {
            resp =
                FixtureResponse::html(htmlPage(QStringLiteral("Sign in"), QStringLiteral("<p>No")));
            resp.status = 401;
        }
        return resp;
    });
    m_site.route("/account", [login](const FixtureRequest &r) {
        if (!r.headers.value("cookie").contains("session=ok"))
            return FixtureResponse::html(login);
        return FixtureResponse::html(htmlPage(
            QStringLiteral("Orders"),
            QStringLiteral("<h1>Your orders</h1><table><thead><tr><th>Name</th><th>Price"
                           "</th></tr></thead><tbody><tr><td>Sextant</td><td>310.00</td></tr>"
                           "</tbody></table>")));
    });
    // A sign-in with a password, then a one-time code.
    m_site.page(
        "/otp/login",
        htmlPage(QStringLiteral("Sign in"),
                 QStringLiteral("<form method=\"post\" action=\"/otp/session\"><label for=\"e\">"
                                "Email</label><input id=\"e\" name=\"email\"><label for=\"p\">"
                                "Password</label><input id=\"p\" name=\"password\" type=\"password"
                                "\"><button type=\"submit\">Sign in</button></form>")));
    m_site.route("/otp/session", [](const FixtureRequest &) {
        FixtureResponse resp;
        resp.status = 303;
        resp.headers = {{"Location", "/otp/verify"}};
        return resp;
    });
    const QByteArray verify =
        htmlPage(QStringLiteral("Verify"),
                 QStringLiteral("<p>We sent a code to a•••@example.org.</p><form method=\"post\" "
                                "action=\"/otp/check\"><label for=\"c\">Verification code</label>"
                                "<input id=\"c\" name=\"code\" autocomplete=\"one-time-code\">"
                                "<button type=\"submit\">Verify</button></form>"));
    m_site.page("/otp/verify", verify);
    m_site.route("/otp/check", [verify](const FixtureRequest &r) {
        FixtureResponse resp;
        if (QUrlQuery(QString::fromUtf8(r.body)).queryItemValue(QStringLiteral("code")) ==
            QLatin1String("731904")) {
            resp.status = 303;
            resp.headers = {{"Location", "/otp/orders"}, {"Set-Cookie", "otp=ok; Path=/"}};
        } else {
            resp = FixtureResponse::html(verify);
        }
        return resp;
    });
    // A sign-in by an emailed link.
    m_site.page("/magic/sent",
                htmlPage(QStringLiteral("Check your inbox"),
                         QStringLiteral("<h1>Check your inbox</h1><p>We emailed a sign-in link to "
                                        "ada@example.org.</p>")));
    m_site.route("/magic/open", [](const FixtureRequest &r) {
        FixtureResponse resp;
        if (r.path.contains("token=tok-4417")) {
            resp.status = 303;
            resp.headers = {{"Location", "/magic/orders"}, {"Set-Cookie", "magic=ok; Path=/"}};
        } else {
            resp =
                FixtureResponse::html(htmlPage(QStringLiteral("Expired"), QStringLiteral("<p>No")));
            resp.status = 403;
        }
        return resp;
    });
    for (const char *path : {"/otp/orders", "/magic/orders"}) {
        const QByteArray cookie = QByteArray(path).startsWith("/otp") ? "otp=ok" : "magic=ok";
        m_site.route(path, [cookie](const FixtureRequest &r) {
            if (!r.headers.value("cookie").contains(cookie))
                return FixtureResponse::html(
                    htmlPage(QStringLiteral("Denied"), QStringLiteral("<p>x")));
            return FixtureResponse::html(htmlPage(
                QStringLiteral("Orders"),
                QStringLiteral("<h1>Your orders</h1><table><thead><tr><th>Name</th><th>"
                               "Price</th></tr></thead><tbody><tr><td>Chart</td><td>25.00</td>"
                               "</tr></tbody></table>")));
        });
    }
    // A form that changes something (POST), and one that only asks (GET).
    m_site.page("/order", htmlPage(QStringLiteral("Basket"),
                                   QStringLiteral(
                                       "<h1>Basket</h1><p>Sextant, 310.00</p><form method=\"post\" "
                                       "action=\"/order/place\"><button type=\"submit\">Place order"
                                       "</button></form>")));
    m_site.page("/order/place",
                htmlPage(QStringLiteral("Thank you"), QStringLiteral("<h1>Order placed</h1>")));
    // Pages that ask something of a person (issue 34): a payment step with its total, a
    // human-verification widget, terms to accept, each before a form that goes on.
    m_site.page("/checkout",
                htmlPage(QStringLiteral("Checkout"),
                         QStringLiteral("<h1>Checkout</h1><p>Sextant 310.00</p><p>Total $310.00"
                                        "</p><form method=\"post\" action=\"/checkout/pay\">"
                                        "<button type=\"submit\">Place order</button></form>")));
    m_site.page("/human",
                htmlPage(QStringLiteral("Check"),
                         QStringLiteral("<h1>One moment</h1><div class=\"g-recaptcha\" "
                                        "data-sitekey=\"k\">[x] I'm not a robot</div><form "
                                        "method=\"post\" action=\"/checkout/pay\"><button "
                                        "type=\"submit\">Continue</button></form>")));
    m_site.page("/terms",
                htmlPage(QStringLiteral("Terms"),
                         QStringLiteral("<h1>Almost there</h1><form method=\"post\" "
                                        "action=\"/checkout/pay\"><label><input type=\"checkbox"
                                        "\" name=\"t\"> I agree to the Terms of Service</label>"
                                        "<button type=\"submit\">Continue</button></form>")));
    m_site.page("/checkout/pay",
                htmlPage(QStringLiteral("Thank you"), QStringLiteral("<h1>Done</h1>")));
    m_site.page("/find",
                htmlPage(QStringLiteral("Find"),
                         QStringLiteral("<form method=\"get\" action=\"/found\"><input "
                                        "name=\"q\" value=\"sextant\"><button type=\"submit"
                                        "\">Search</button></form>")));
    m_site.page("/found", htmlPage(QStringLiteral("Results"), QStringLiteral("<p>1 result</p>")));
    m_site.route("/hang", [](const FixtureRequest &) {
        auto r = FixtureResponse::html("<!doctype html><title>never</title><p>partial");
        r.hang = true;
        return r;
    });

    m_ph = std::make_unique<TestService>(
        QStringList{QStringLiteral("a2w.runsPerMinutePerAddress=1000")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    // The fixture site is an enabled site: a site key allows its host.
    const HttpResponse r =
        owner(QStringLiteral("/generateSiteKey"),
              {{QStringLiteral("siteName"), QStringLiteral("Harbour")},
               {QStringLiteral("label"), QStringLiteral("embed")},
               {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}});
    QCOMPARE(r.status, 201);
    m_siteId = r.json().value(QStringLiteral("siteId")).toString();
    m_keyId = r.json()[QStringLiteral("key")][QStringLiteral("keyId")].toString();
    QVERIFY(!m_siteId.isEmpty());
    QVERIFY(!m_keyId.isEmpty());
    m_ph->allowBrowserHandoffs(); // off by default; browser runs are tested here
    // The site is served on a random loopback port: its owner lists it.
    m_ph->listPrivateHosts({m_site.hostPort()}, m_siteId);
}

bool tst_A2w::enableSite(TestService &service, const QString &name)
{
    const bool created =
        service.client()
            .post(QStringLiteral("/generateSiteKey"),
                  {{QStringLiteral("siteName"), name},
                   {QStringLiteral("label"), QStringLiteral("embed")},
                   {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}})
            .status == 201;
    service.listPrivateHosts({m_site.hostPort()});
    return created;
}

void tst_A2w::cleanupTestCase()
{
    m_ph.reset();
}

HttpResponse tst_A2w::owner(const QString &path, const QJsonObject &body)
{
    return m_ph->client().post(path, body);
}

HttpResponse tst_A2w::create(const QJsonObject &body, const HttpClient::Headers &headers,
                             TestService *service)
{
    HttpClient c((service ? service : m_ph.get())->base());
    HttpClient::Headers h = headers;
    h.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    const HttpResponse r = c.send("POST", QStringLiteral("/v2/a2w/runs"), json(body), h);
    const QString url = r.json().value(QStringLiteral("run")).toString();
    if (url.contains(QLatin1String("access=")))
        m_tokens << url.section(QStringLiteral("access="), 1);
    return r;
}

void tst_A2w::createsARunAndWaitsForItsResult()
{
    const HttpResponse r = create({{QStringLiteral("url"), shop()},
                                   {QStringLiteral("prompt"), QStringLiteral("List the products")}},
                                  {{"Prefer", "execution=cloud, wait=25"}});
    QCOMPARE(r.status, 201);
    const QJsonObject o = r.json();
    QVERIFY(o.value(QStringLiteral("id")).toString().startsWith(QLatin1String("a2w_")));
    QCOMPARE(o.value(QStringLiteral("runId")), o.value(QStringLiteral("id")));
    QCOMPARE(o.value(QStringLiteral("protocol")).toString(), QStringLiteral("a2w"));
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(o.value(QStringLiteral("execution")).toString(), QStringLiteral("cloud"));
    QVERIFY(o.value(QStringLiteral("run")).toString().contains(QLatin1String("?access=a2wr_")));
    QVERIFY(o.value(QStringLiteral("workflow")).toString().contains(QLatin1String("access=a2ww_")));
    QCOMPARE(o.value(QStringLiteral("retryAfterMs")).toInt(), 0);
    const QJsonObject links = o.value(QStringLiteral("links")).toObject();
    for (const char *rel : {"self", "poll", "stream", "ndjson", "workflow", "continue", "cancel",
                            "open", "browserLink"})
        QVERIFY2(links.value(QLatin1String(rel)).toObject().contains(QStringLiteral("href")), rel);
    QCOMPARE(links[QStringLiteral("poll")][QStringLiteral("headers")][QStringLiteral("Prefer")]
                 .toString(),
             QStringLiteral("wait=10"));
    QCOMPARE(links[QStringLiteral("stream")][QStringLiteral("headers")][QStringLiteral("Accept")]
                 .toString(),
             QStringLiteral("text/event-stream"));
    QCOMPARE(links[QStringLiteral("ndjson")][QStringLiteral("headers")][QStringLiteral("Accept")]
                 .toString(),
             QStringLiteral("application/x-ndjson"));
    QVERIFY(
        o.value(QStringLiteral("open")).toString().contains(QLatin1String("/v2/a2w/open/rcpt_")));

    const QJsonObject result = o.value(QStringLiteral("result")).toObject();
    QVERIFY2(result.value(QStringLiteral("text")).toString().contains(QLatin1String("Sextant")),
             qPrintable(QJsonDocument(result).toJson()));
    QVERIFY(!result.value(QStringLiteral("summary")).toString().isEmpty());
    QCOMPARE(result[QStringLiteral("observation")][QStringLiteral("host")].toString(),
             QStringLiteral("127.0.0.1"));
    const QJsonArray messages =
        result[QStringLiteral("transcript")][QStringLiteral("messages")].toArray();
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages[0][QStringLiteral("text")].toString(), QStringLiteral("List the products"));

    // The workflow URL (with its own token) lists the run; the run's token is not its.
    const QString workflow = o.value(QStringLiteral("workflow")).toString();
    const HttpResponse wf = HttpClient().get(workflow);
    QCOMPARE(wf.status, 200);
    QCOMPARE(wf.json()[QStringLiteral("runs")][0][QStringLiteral("runId")], o.value("id"));
    QCOMPARE(
        HttpClient()
            .get(workflow.section(u'?', 0, 0) + QStringLiteral("?access=") +
                 o.value(QStringLiteral("run")).toString().section(QStringLiteral("access="), 1))
            .status,
        404);

    // The run URL reads the run back (the token in the query).
    const HttpResponse again = HttpClient().get(o.value(QStringLiteral("run")).toString());
    QCOMPARE(again.status, 200);
    QCOMPARE(again.json().value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
}

void tst_A2w::refusesContractErrors_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    const QString url = m_site.url(QStringLiteral("/shop"));
    auto row = [&](const char *name, QJsonObject body, int status, const char *code,
                   const char *field) {
        QTest::newRow(name) << json(body) << status << QString::fromLatin1(code)
                            << QString::fromLatin1(field);
    };
    row("refuses an unknown property", {{"url", url}, {"prompt", "x"}, {"colour", "red"}}, 400,
        "UNKNOWN_FIELD", "colour");
    row("refuses an unknown property of a nested object",
        {{"url", url}, {"prompt", "x"}, {"agent", QJsonObject{{"nickname", "x"}}}}, 400,
        "UNKNOWN_FIELD", "agent.nickname");
    row("refuses a run without a selector", {{"url", url}}, 400, "SELECTOR_REQUIRED", "prompt");
    row("refuses a prompt and a shortcut together",
        {{"url", url}, {"prompt", "x"}, {"shortcutId", "y"}}, 400, "CONFLICTING_SELECTORS",
        "shortcutId");
    row("refuses a missing url", {{"prompt", "x"}}, 400, "MISSING_FIELD", "url");
    row("refuses a url that is not http(s)", {{"url", "file:///etc/passwd"}, {"prompt", "x"}}, 400,
        "INVALID_URL", "url");
    row("refuses an unknown engagement kind",
        {{"url", url}, {"prompt", "x"}, {"engagementKind", "party"}}, 400, "INVALID_FIELD",
        "engagementKind");
    row("refuses a confirmation policy the contract does not name",
        {{"url", url}, {"prompt", "x"}, {"policy", QJsonObject{{"confirmation", "never"}}}}, 400,
        "INVALID_FIELD", "policy.confirmation");
    row("refuses an execution mode not among the allowed ones",
        {{"url", url},
         {"prompt", "x"},
         {"execution", QJsonObject{{"mode", "cloud"}, {"allowedModes", QJsonArray{"browser"}}}}},
        400, "EXECUTION_MODE_NOT_ALLOWED", "execution.allowedModes");
    row("refuses a page on no enabled site", {{"url", "http://shop.invalid/p"}, {"prompt", "x"}},
        404, "SITE_NOT_ENABLED", "url");
    row("refuses a shortcut the site does not publish", {{"url", url}, {"shortcutId", "nope"}}, 404,
        "SHORTCUT_NOT_FOUND", "shortcutId");
    row("refuses a playbook the site does not publish", {{"url", url}, {"playbookId", "nope"}}, 404,
        "PLAYBOOK_NOT_FOUND", "playbookId");
    row("refuses a capability the site does not declare instead of handing it to the planner",
        {{"url", url}, {"prompt", "x"}, {"capabilityId", "refunds.issue"}}, 404,
        "CAPABILITY_NOT_FOUND", "capabilityId");
    row("refuses an artifact name that is no file a run makes",
        {{"url", url}, {"prompt", "x"}, {"artifacts", QJsonArray{"table.csv", "report.pdf"}}}, 400,
        "INVALID_FIELD", "artifacts[1]");
}

void tst_A2w::refusesContractErrors()
{
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, field);
    const HttpResponse r = HttpClient(m_ph->base())
                               .send("POST", QStringLiteral("/v2/a2w/runs"), body,
                                     {{"Content-Type", "application/json"}});
    QCOMPARE(r.status, status);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
}

void tst_A2w::refusesASiteThatDoesNotAllowRuns_data()
{
    QTest::addColumn<QJsonObject>("aiAccess");
    QTest::addColumn<QString>("execution");
    QTest::addColumn<QString>("code");
    QTest::newRow("refuses every run when AI access is off")
        << QJsonObject{{QStringLiteral("enabled"), false}} << "cloud"
        << "AI_ACCESS_DISABLED";
    QTest::newRow("refuses a cloud run when the cloud browser is off")
        << QJsonObject{{QStringLiteral("cloudBrowser"), false}} << "cloud"
        << "CLOUD_EXECUTION_DISABLED";
    QTest::newRow("refuses a browser run when browser links are off")
        << QJsonObject{{QStringLiteral("browserDeepLinks"), false}} << "browser"
        << "BROWSER_EXECUTION_DISABLED";
}

void tst_A2w::refusesASiteThatDoesNotAllowRuns()
{
    QFETCH(QJsonObject, aiAccess);
    QFETCH(QString, execution);
    QFETCH(QString, code);
    TestService ph;
    QVERIFY(ph.ok());
    HttpClient o = ph.client();
    const HttpResponse site =
        o.post(QStringLiteral("/generateSiteKey"),
               {{QStringLiteral("siteName"), QStringLiteral("Closed")},
                {QStringLiteral("label"), QStringLiteral("embed")},
                {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}});
    QCOMPARE(site.status, 201);
    QCOMPARE(o.post(QStringLiteral("/upsertSiteConfig"),
                    {{QStringLiteral("keyId"),
                      site.json()[QStringLiteral("key")][QStringLiteral("keyId")]},
                     {QStringLiteral("siteConfig"),
                      QJsonObject{{QStringLiteral("aiAccess"), aiAccess}}}})
                 .status,
             200);
    const HttpResponse r =
        create({{QStringLiteral("url"), shop()},
                {QStringLiteral("prompt"), QStringLiteral("List the products")},
                {QStringLiteral("execution"), QJsonObject{{QStringLiteral("mode"), execution}}}},
               {}, &ph);
    QCOMPARE(r.status, 403);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QSqlQuery q(ph.service().store().database());
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM a2w_runs")) && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
}

void tst_A2w::aWrongTokenLooksLikeNoRun_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("a wrong token in the query") << "query";
    QTest::newRow("a wrong bearer token") << "bearer";
    QTest::newRow("no token at all") << "none";
    QTest::newRow("another run's token") << "other";
    QTest::newRow("a run that does not exist") << "missing";
}

void tst_A2w::aWrongTokenLooksLikeNoRun()
{
    QFETCH(QString, how);
    const HttpResponse a = create({{QStringLiteral("url"), shop()},
                                   {QStringLiteral("prompt"), QStringLiteral("List the products")}},
                                  {{"Prefer", "execution=browser"}});
    const HttpResponse b = create({{QStringLiteral("url"), shop()},
                                   {QStringLiteral("prompt"), QStringLiteral("List the products")}},
                                  {{"Prefer", "execution=browser"}});
    QCOMPARE(a.status, 201);
    const QString id = a.json().value(QStringLiteral("id")).toString();
    const QString other =
        b.json().value(QStringLiteral("run")).toString().section(QStringLiteral("access="), 1);
    const QString path = m_ph->base() + QStringLiteral("/v2/a2w/runs/") +
                         (how == QLatin1String("missing") ? QStringLiteral("a2w_nothing") : id);
    HttpResponse r;
    if (how == QLatin1String("query"))
        r = HttpClient().get(path + QStringLiteral("?access=a2wr_wrong"));
    else if (how == QLatin1String("bearer"))
        r = HttpClient().get(path, {{"Authorization", "Bearer a2wr_wrong"}});
    else if (how == QLatin1String("none"))
        r = HttpClient().get(path);
    else
        r = HttpClient().get(path + QStringLiteral("?access=") + other);
    QCOMPARE(r.status, 404);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("RUN_NOT_FOUND"));
    // Cancelling needs the token too.
    QCOMPARE(HttpClient().send("DELETE", path + QStringLiteral("?access=a2wr_wrong")).status, 404);
}

void tst_A2w::asksAQuestionAndResumesOnItsAnswers()
{
    const HttpResponse r =
        create({{QStringLiteral("url"), m_site.url(QStringLiteral("/account"))},
                {QStringLiteral("prompt"), QStringLiteral("Sign in and list my orders")}},
               {{"Prefer", "wait=25"}});
    QCOMPARE(r.status, 201);
    QJsonObject o = r.json();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    const QJsonObject input = o.value(QStringLiteral("input")).toObject();
    QCOMPARE(input.value(QStringLiteral("reason")).toString(),
             QStringLiteral("clarification_required"));
    QVERIFY(!input.value(QStringLiteral("message")).toString().isEmpty());
    QVERIFY(input.contains(QStringLiteral("links")));
    QVERIFY(!input.value(QStringLiteral("expiresAt")).toString().isEmpty());
    const QJsonArray questions = input.value(QStringLiteral("questions")).toArray();
    QCOMPARE(questions.size(), 2);
    QCOMPARE(questions[0][QStringLiteral("key")].toString(), QStringLiteral("email"));

    const QString run = o.value(QStringLiteral("run")).toString();
    const HttpResponse answered = HttpClient().send(
        "POST", run,
        json({{QStringLiteral("answers"),
               QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                           {QStringLiteral("password"), QStringLiteral("s3cret!")},
                           {QStringLiteral("unasked"), QStringLiteral("ignored")}}}}),
        {{"Content-Type", "application/json"}});
    QCOMPARE(answered.status, 200);
    QVERIFY(!answered.body.contains("s3cret!"));
    o = HttpClient::pollUntil(run, {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QVERIFY(o[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
        QLatin1String("Sextant")));
    // Answering a run that no longer waits is a typed conflict.
    const HttpResponse late = HttpClient().send("POST", run, json({{"input", "again"}}),
                                                {{"Content-Type", "application/json"}});
    QCOMPARE(late.status, 409);
    QCOMPARE(late.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("NOT_WAITING_FOR_INPUT"));
}

void tst_A2w::bindsABareInputToEveryQuestion()
{
    const HttpResponse r =
        create({{QStringLiteral("url"), m_site.url(QStringLiteral("/account"))},
                {QStringLiteral("prompt"), QStringLiteral("Sign in and list my orders")}},
               {{"Prefer", "wait=25"}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    const QString run = r.json().value(QStringLiteral("run")).toString();
    // The same text for email and password: the fixture accepts the password only, so the
    // sign-in succeeds when the bare input reached both fields.
    const HttpResponse answered =
        HttpClient().send("POST", run, json({{QStringLiteral("input"), QStringLiteral("s3cret!")}}),
                          {{"Content-Type", "application/json"}});
    QCOMPARE(answered.status, 200);
    const QJsonObject o =
        HttpClient::pollUntil(run, {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
}

void tst_A2w::signsInWithAOneTimeCodeGivenOnce()
{
    const HttpResponse r =
        create({{QStringLiteral("url"), m_site.url(QStringLiteral("/otp/login"))},
                {QStringLiteral("prompt"), QStringLiteral("Sign in and list my orders")}},
               {{"Prefer", "wait=25"}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    const QString run = r.json().value(QStringLiteral("run")).toString();
    // First the password form: an ordinary question.
    QCOMPARE(r.json()[QStringLiteral("input")][QStringLiteral("reason")].toString(),
             QStringLiteral("clarification_required"));
    QCOMPARE(
        HttpClient()
            .send("POST", run,
                  json({{QStringLiteral("answers"),
                         QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                                     {QStringLiteral("password"), QStringLiteral("pw")}}}}),
                  {{"Content-Type", "application/json"}})
            .status,
        200);
    QJsonObject o =
        HttpClient::pollUntil(run, {QStringLiteral("input_required"), QStringLiteral("failed"),
                                    QStringLiteral("completed")});
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    QCOMPARE(o[QStringLiteral("input")][QStringLiteral("reason")].toString(),
             QStringLiteral("sign_in_link_required"));
    QJsonObject auth = o.value(QStringLiteral("authInput")).toObject();
    QCOMPARE(auth.value(QStringLiteral("status")).toString(), QStringLiteral("awaiting"));
    QCOMPARE(auth.value(QStringLiteral("kind")).toString(), QStringLiteral("otp"));
    QVERIFY(!auth.value(QStringLiteral("prompt")).toString().isEmpty());
    // The code page shows where it sent the code: authInput names it, masked.
    QCOMPARE(auth.value(QStringLiteral("emailMasked")).toString(),
             QStringLiteral("a•••@example.org"));
    // An ordinary answer does not resume a sign-in.
    QCOMPARE(
        HttpClient()
            .send("POST", run, json({{"input", "731904"}}), {{"Content-Type", "application/json"}})
            .status,
        409);

    const QString authUrl =
        run.section(u'?', 0, 0) + QStringLiteral("/auth-input?") + run.section(u'?', 1);
    const HttpResponse provided =
        HttpClient().send("POST", authUrl,
                          json({{QStringLiteral("value"), QStringLiteral("731904")},
                                {QStringLiteral("kind"), QStringLiteral("otp")}}),
                          {{"Content-Type", "application/json"}});
    QCOMPARE(provided.status, 200);
    QCOMPARE(provided.json()[QStringLiteral("authInput")][QStringLiteral("status")].toString(),
             QStringLiteral("provided"));
    QVERIFY(!provided.body.contains("731904"));
    o = HttpClient::pollUntil(run, {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(o[QStringLiteral("authInput")][QStringLiteral("status")].toString(),
             QStringLiteral("consumed"));
    QVERIFY(o[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
        QLatin1String("Chart")));
    // awaiting → provided → consumed, in the events; the code nowhere in the store.
    QStringList states;
    for (const ph::a2w::Event &e :
         m_ph->service().a2w().events(o.value(QStringLiteral("id")).toString(), 0))
        if (e.data.contains(QStringLiteral("authInput")))
            states << e.data[QStringLiteral("authInput")][QStringLiteral("status")].toString();
    QCOMPARE(states, (QStringList{QStringLiteral("awaiting"), QStringLiteral("provided"),
                                  QStringLiteral("consumed")}));
    QSqlQuery q(m_ph->service().store().database());
    for (const char *sql :
         {"SELECT COALESCE(auth_sealed, '') || COALESCE(auth_input, '') || request FROM a2w_runs",
          "SELECT data FROM a2w_events", "SELECT args FROM steps", "SELECT request FROM phases",
          "SELECT response FROM phases", "SELECT COALESCE(state, '') FROM phases"}) {
        QVERIFY2(q.exec(QString::fromLatin1(sql)), sql);
        while (q.next())
            QVERIFY2(!q.value(0).toString().contains(QLatin1String("731904")), sql);
    }
    // Used once: a second value has nothing to go to.
    QCOMPARE(HttpClient()
                 .send("POST", authUrl, json({{"value", "731904"}, {"kind", "otp"}}),
                       {{"Content-Type", "application/json"}})
                 .status,
             409);
}

void tst_A2w::signsInWithAnEmailedLink()
{
    const HttpResponse r =
        create({{QStringLiteral("url"), m_site.url(QStringLiteral("/magic/sent"))},
                {QStringLiteral("prompt"), QStringLiteral("Sign in and list my orders")}},
               {{"Prefer", "wait=25"}});
    QJsonObject o = r.json();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    QCOMPARE(o[QStringLiteral("input")][QStringLiteral("reason")].toString(),
             QStringLiteral("sign_in_link_required"));
    const QJsonObject auth = o.value(QStringLiteral("authInput")).toObject();
    QCOMPARE(auth.value(QStringLiteral("kind")).toString(), QStringLiteral("magic_link"));
    QCOMPARE(auth.value(QStringLiteral("emailMasked")).toString(),
             QStringLiteral("a•••@example.org"));
    const QString run = o.value(QStringLiteral("run")).toString();
    const QString link = m_site.url(QStringLiteral("/magic/open?token=tok-4417"));
    const HttpResponse provided = HttpClient().send(
        "POST", run.section(u'?', 0, 0) + QStringLiteral("/auth-input"),
        json(
            {{QStringLiteral("value"), link}, {QStringLiteral("kind"), QStringLiteral("unknown")}}),
        {{"Content-Type", "application/json"},
         {"Authorization", "Bearer " + run.section(QStringLiteral("access="), 1).toUtf8()}});
    QCOMPARE(provided.status, 200);
    o = HttpClient::pollUntil(run, {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(m_site.hits("/magic/open"), 1); // opened in the run's page, once
    QVERIFY(!QJsonDocument(o).toJson().contains("tok-4417"));
}

void tst_A2w::asksAPersonBeforeSendingAForm()
{
    const int placed = m_site.hits("/order/place");
    const HttpResponse r =
        create({{QStringLiteral("url"), m_site.url(QStringLiteral("/order"))},
                {QStringLiteral("prompt"), QStringLiteral("click \"Place order\"")}},
               {{"Prefer", "wait=25"}});
    QJsonObject o = r.json();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    const QJsonObject input = o.value(QStringLiteral("input")).toObject();
    QCOMPARE(input.value(QStringLiteral("reason")).toString(),
             QStringLiteral("action_confirmation_required"));
    QVERIFY(
        input.value(QStringLiteral("message")).toString().contains(QLatin1String("Place order")));
    const QString confirm = input[QStringLiteral("links")][QStringLiteral("confirm")].toString();
    QVERIFY(confirm.contains(QLatin1String("/v2/a2w/confirm/")));
    QVERIFY(!o.value(QStringLiteral("links")).toObject().contains(QStringLiteral("confirm")));
    QCOMPARE(m_site.hits("/order/place"), placed); // nothing sent yet
    // The caller cannot confirm for the person.
    const QString run = o.value(QStringLiteral("run")).toString();
    QCOMPARE(
        HttpClient()
            .send("POST", run, json({{"input", "confirm"}}), {{"Content-Type", "application/json"}})
            .status,
        409);
    // The person opens the link: it says what will happen; a forged one says nothing.
    const HttpResponse shown = HttpClient().get(confirm);
    QCOMPARE(shown.status, 200);
    QVERIFY(shown.header("content-type").startsWith("text/html"));
    QVERIFY(shown.body.contains("Place order"));
    QVERIFY2(strictCspProblem(shown).isEmpty(), qPrintable(strictCspProblem(shown)));
    QCOMPARE(HttpClient().get(confirm.section(QStringLiteral("sig="), 0, 0) + "sig=forged").status,
             404);
    const HttpResponse confirmed =
        HttpClient().send("POST", confirm, "decision=confirm",
                          {{"Content-Type", "application/x-www-form-urlencoded"}});
    QCOMPARE(confirmed.status, 200);
    QVERIFY2(strictCspProblem(confirmed).isEmpty(), qPrintable(strictCspProblem(confirmed)));
    o = HttpClient::pollUntil(run, {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(m_site.hits("/order/place"), placed + 1);
    // Used: the link confirms nothing more.
    QCOMPARE(HttpClient()
                 .send("POST", confirm, "decision=confirm",
                       {{"Content-Type", "application/x-www-form-urlencoded"}})
                 .status,
             404);
}

void tst_A2w::parksWhatAPageAsksOfAPerson_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("button");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("shown");
    QTest::newRow("a payment step with its total waits for the payment's confirmation")
        << "/checkout"
        << "Place order"
        << "payment_confirmation_required"
        << "$310.00";
    QTest::newRow("a reCAPTCHA widget waits for a person to prove they are human")
        << "/human"
        << "Continue"
        << "human_verification_required"
        << "recaptcha";
    QTest::newRow("an unchecked terms box waits for a person to accept the terms")
        << "/terms"
        << "Continue"
        << "terms_acknowledgement_required"
        << "Terms of Service";
}

// The page, not the planner, says what a person must do: the run parks with that reason
// before the step, shows it behind a signed confirm link (forged: nothing; used: nothing
// more), and goes on where it was once the person says it is done.
void tst_A2w::parksWhatAPageAsksOfAPerson()
{
    QFETCH(QString, path);
    QFETCH(QString, button);
    QFETCH(QString, reason);
    QFETCH(QString, shown);
    const int paid = m_site.hits("/checkout/pay");
    const HttpResponse r =
        create({{QStringLiteral("url"), m_site.url(path)},
                {QStringLiteral("prompt"), QStringLiteral("click \"%1\"").arg(button)}},
               {{"Prefer", "wait=25"}});
    QJsonObject o = r.json();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    const QJsonObject input = o.value(QStringLiteral("input")).toObject();
    QCOMPARE(input.value(QStringLiteral("reason")).toString(), reason);
    QVERIFY2(input.value(QStringLiteral("message")).toString().contains(shown),
             qPrintable(input.value(QStringLiteral("message")).toString()));
    QCOMPARE(m_site.hits("/checkout/pay"), paid); // nothing sent
    const QString confirm = input[QStringLiteral("links")][QStringLiteral("confirm")].toString();
    QVERIFY(confirm.contains(QLatin1String("/v2/a2w/confirm/")));
    const HttpResponse page = HttpClient().get(confirm);
    QCOMPARE(page.status, 200);
    QVERIFY2(page.body.contains(shown.toHtmlEscaped().toUtf8()), page.body.constData());
    QCOMPARE(HttpClient().get(confirm.section(QStringLiteral("sig="), 0, 0) + "sig=forged").status,
             404);
    QCOMPARE(HttpClient()
                 .send("POST", confirm, "decision=confirm",
                       {{"Content-Type", "application/x-www-form-urlencoded"}})
                 .status,
             200);
    const QString run = o.value(QStringLiteral("run")).toString();
    o = HttpClient::pollUntil(run, {QStringLiteral("completed"), QStringLiteral("failed")});
    QVERIFY2(o.value(QStringLiteral("status")).toString() == QLatin1String("completed"),
             qPrintable(o.value(QStringLiteral("error")).toString()));
    QCOMPARE(m_site.hits("/checkout/pay"), paid + 1);
    QCOMPARE(HttpClient()
                 .send("POST", confirm, "decision=confirm",
                       {{"Content-Type", "application/x-www-form-urlencoded"}})
                 .status,
             404);
}

void tst_A2w::cancelsWhenThePersonDeclines()
{
    const int placed = m_site.hits("/order/place");
    const HttpResponse r =
        create({{QStringLiteral("url"), m_site.url(QStringLiteral("/order"))},
                {QStringLiteral("prompt"), QStringLiteral("click \"Place order\"")}},
               {{"Prefer", "wait=25"}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    const QString confirm =
        r.json()[QStringLiteral("input")][QStringLiteral("links")][QStringLiteral("confirm")]
            .toString();
    QCOMPARE(HttpClient()
                 .send("POST", confirm, "decision=decline",
                       {{"Content-Type", "application/x-www-form-urlencoded"}})
                 .status,
             200);
    const QJsonObject o = HttpClient().get(r.json().value(QStringLiteral("run")).toString()).json();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));
    QCOMPARE(m_site.hits("/order/place"), placed);
}

void tst_A2w::letsAGetFormThroughWithoutAsking()
{
    const HttpResponse r = create({{QStringLiteral("url"), m_site.url(QStringLiteral("/find"))},
                                   {QStringLiteral("prompt"), QStringLiteral("click \"Search\"")}},
                                  {{"Prefer", "wait=25"}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(m_site.hits("/found"), 1);
}

void tst_A2w::refusesAuthInputARunDoesNotWaitFor_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::newRow("refuses a run that waits for no sign-in")
        << QByteArray(R"({"value":"1","kind":"otp"})") << 409 << "NOT_AWAITING_SIGN_IN";
    QTest::newRow("refuses a kind the contract does not name")
        << QByteArray(R"({"value":"1","kind":"sms"})") << 400 << "INVALID_FIELD";
    QTest::newRow("refuses a missing value")
        << QByteArray(R"({"kind":"otp"})") << 400 << "MISSING_FIELD";
    QTest::newRow("refuses an unknown property")
        << QByteArray(R"({"value":"1","kind":"otp","remember":true})") << 400 << "UNKNOWN_FIELD";
}

void tst_A2w::refusesAuthInputARunDoesNotWaitFor()
{
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    const HttpResponse r = create({{QStringLiteral("url"), shop()},
                                   {QStringLiteral("prompt"), QStringLiteral("List the products")}},
                                  {{"Prefer", "execution=browser"}});
    const QString run = r.json().value(QStringLiteral("run")).toString();
    const HttpResponse a = HttpClient().send(
        "POST", run.section(u'?', 0, 0) + QStringLiteral("/auth-input?") + run.section(u'?', 1),
        body, {{"Content-Type", "application/json"}});
    QCOMPARE(a.status, status);
    QCOMPARE(a.json().value(QStringLiteral("code")).toString(), code);
    HttpClient().send("DELETE", run);
}

void tst_A2w::streamsEveryEventToARealSseClient()
{
    const HttpResponse r =
        create({{QStringLiteral("url"), shop()},
                {QStringLiteral("prompt"), QStringLiteral("List the products")}});
    QCOMPARE(r.status, 201);
    const NodeResult run = runNodeScript(
        QStringLiteral(PILOTHOUSE_A2W_TEST_DIR),
        {QStringLiteral("stream.mjs"), r.json().value(QStringLiteral("run")).toString()}, 90000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject result = run.result();
    QVERIFY(result.value(QStringLiteral("closedAfterDone")).toBool());
    QStringList types;
    qint64 lastId = 0;
    for (const QJsonValue &v : result.value(QStringLiteral("events")).toArray()) {
        const QJsonObject e = v.toObject();
        types << e.value(QStringLiteral("type")).toString();
        const qint64 id = e.value(QStringLiteral("id")).toString().toLongLong();
        QVERIFY(id > lastId); // ids rise: they are what Last-Event-ID resumes from
        lastId = id;
        // Each event is the uniform envelope.
        const QJsonObject envelope = e.value(QStringLiteral("data")).toObject();
        QCOMPARE(envelope.value(QStringLiteral("type")).toString(), types.last());
        QVERIFY(envelope.contains(QStringLiteral("ts")));
        QVERIFY(envelope.contains(QStringLiteral("data")));
    }
    QCOMPARE(types.first(), QStringLiteral("status"));
    QVERIFY2(types.contains(QStringLiteral("step")), qPrintable(types.join(u' ')));
    QVERIFY(types.contains(QStringLiteral("result")));
    QCOMPARE(types.last(), QStringLiteral("done"));
}

void tst_A2w::resumesAStreamFromLastEventId()
{
    const HttpResponse r = create({{QStringLiteral("url"), shop()},
                                   {QStringLiteral("prompt"), QStringLiteral("List the products")}},
                                  {{"Prefer", "wait=25"}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    const QString id = r.json().value(QStringLiteral("id")).toString();
    const QString token =
        r.json().value(QStringLiteral("run")).toString().section(QStringLiteral("access="), 1);
    const QList<ph::a2w::Event> all = m_ph->service().a2w().events(id, 0);
    QVERIFY(all.size() > 3);
    const qint64 from = all.at(1).seq;
    const QByteArray reply = HttpClient::raw(
        m_ph->port(),
        "GET /v2/a2w/runs/" + id.toUtf8() +
            " HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
            "Authorization: Bearer " +
            token.toUtf8() + "\r\nLast-Event-ID: " + QByteArray::number(from) + "\r\n\r\n",
        10000, "event: done");
    QVERIFY(!reply.contains("id: " + QByteArray::number(from) + "\n"));
    QVERIFY(reply.contains("id: " + QByteArray::number(from + 1) + "\n"));
    QVERIFY(reply.contains("event: done"));
}

void tst_A2w::streamsNdjson()
{
    const HttpResponse r =
        create({{QStringLiteral("url"), shop()},
                {QStringLiteral("prompt"), QStringLiteral("List the products")}});
    const QString id = r.json().value(QStringLiteral("id")).toString();
    const QString token =
        r.json().value(QStringLiteral("run")).toString().section(QStringLiteral("access="), 1);
    const QByteArray reply =
        HttpClient::raw(m_ph->port(),
                        "GET /v2/a2w/runs/" + id.toUtf8() + "?access=" + token.toUtf8() +
                            " HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\n\r\n",
                        60000, "\"type\":\"done\"");
    QVERIFY(reply.contains("application/x-ndjson"));
    const QByteArray body = reply.mid(reply.indexOf("\r\n\r\n") + 4);
    int lines = 0;
    for (const QByteArray &line : body.split('\n')) {
        const QJsonObject e = QJsonDocument::fromJson(line).object();
        if (e.isEmpty())
            continue;
        ++lines;
        QVERIFY(e.contains(QStringLiteral("id")) && e.contains(QStringLiteral("type")) &&
                e.contains(QStringLiteral("ts")) && e.contains(QStringLiteral("data")));
    }
    QVERIFY(lines >= 3);
}

void tst_A2w::cancelsARunningRun()
{
    const HttpResponse r = create({{QStringLiteral("url"), m_site.url(QStringLiteral("/hang"))},
                                   {QStringLiteral("prompt"), QStringLiteral("Read the page")}});
    QCOMPARE(r.status, 201);
    const QString run = r.json().value(QStringLiteral("run")).toString();
    QTRY_VERIFY_WITH_TIMEOUT(m_site.hits("/hang") > 0, 20000);
    const HttpResponse cancelled = HttpClient().send("DELETE", run);
    QCOMPARE(cancelled.status, 200);
    QCOMPARE(cancelled.json().value(QStringLiteral("status")).toString(),
             QStringLiteral("cancelled"));
    const HttpResponse again = HttpClient().send("DELETE", run);
    QCOMPARE(again.status, 409);
    QCOMPARE(again.json().value(QStringLiteral("code")).toString(), QStringLiteral("RUN_ENDED"));
    QCOMPARE(HttpClient().get(run).json().value(QStringLiteral("status")).toString(),
             QStringLiteral("cancelled"));
}

void tst_A2w::expiresARunWhoseInputIsNotGiven()
{
    TestService ph({QStringLiteral("a2w.inputExpirySeconds=2")});
    QVERIFY(ph.ok());
    QCOMPARE(
        ph.client()
            .post(QStringLiteral("/generateSiteKey"),
                  {{QStringLiteral("siteName"), QStringLiteral("Expiring")},
                   {QStringLiteral("label"), QStringLiteral("embed")},
                   {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}})
            .status,
        201);
    ph.listPrivateHosts({m_site.hostPort()});
    const HttpResponse r =
        create({{QStringLiteral("url"), m_site.url(QStringLiteral("/account"))},
                {QStringLiteral("prompt"), QStringLiteral("Sign in and list my orders")}},
               {{"Prefer", "wait=25"}}, &ph);
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    const QString run = r.json().value(QStringLiteral("run")).toString();
    const QJsonObject o = HttpClient::pollUntil(run, {QStringLiteral("expired")});
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("expired"));
    QVERIFY(!o.contains(QStringLiteral("input")));
    const HttpResponse late = HttpClient().send("POST", run, json({{"input", "x"}}),
                                                {{"Content-Type", "application/json"}});
    QCOMPARE(late.status, 409);
}

void tst_A2w::returnsTheSameRunForTheSameIdempotencyKey()
{
    const QJsonObject body{{QStringLiteral("url"), shop()},
                           {QStringLiteral("prompt"), QStringLiteral("List the products")}};
    const HttpResponse first = create(body, {{"Idempotency-Key", "order-7"}});
    QCOMPARE(first.status, 201);
    const HttpResponse second = create(body, {{"Idempotency-Key", "order-7"}});
    QCOMPARE(second.status, 200);
    QCOMPARE(second.json().value(QStringLiteral("id")), first.json().value(QStringLiteral("id")));
    QCOMPARE(second.json().value(QStringLiteral("run")), first.json().value(QStringLiteral("run")));
    QJsonObject other = body;
    other.insert(QStringLiteral("prompt"), QStringLiteral("Something else"));
    const HttpResponse conflict = create(other, {{"Idempotency-Key", "order-7"}});
    QCOMPARE(conflict.status, 409);
    QCOMPARE(conflict.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("IDEMPOTENCY_KEY_REUSED"));
    QCOMPARE(conflict.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("Idempotency-Key"));
}

void tst_A2w::keepsAnIdempotencyKeyToItsCaller_data()
{
    QTest::addColumn<QByteArray>("firstClientId");
    QTest::addColumn<QByteArray>("secondClientId");
    QTest::addColumn<QString>("secondAddress");
    QTest::newRow("another client id with the same key and body gets a run of its own")
        << QByteArray("scout-1") << QByteArray("scout-2") << QStringLiteral("127.0.0.1");
    QTest::newRow("an anonymous caller after an identified one gets a run of its own")
        << QByteArray("scout-3") << QByteArray() << QStringLiteral("127.0.0.1");
    QTest::newRow("another client address gets a run of its own")
        << QByteArray() << QByteArray() << QStringLiteral("127.0.0.2");
}

void tst_A2w::keepsAnIdempotencyKeyToItsCaller()
{
    QFETCH(QByteArray, firstClientId);
    QFETCH(QByteArray, secondClientId);
    QFETCH(QString, secondAddress);
    const QByteArray key =
        "shared-" + QCryptographicHash::hash(QTest::currentDataTag(), QCryptographicHash::Sha1)
                        .toHex()
                        .left(12);
    const QJsonObject body{{QStringLiteral("url"), shop()},
                           {QStringLiteral("prompt"), QStringLiteral("List the products")}};
    HttpClient::Headers first{{"Idempotency-Key", key}, {"Prefer", "execution=browser"}};
    if (!firstClientId.isEmpty())
        first.append(qMakePair(QByteArray("X-Svc-Client-Id"), firstClientId));
    const HttpResponse mine = create(body, first);
    QVERIFY2(mine.status == 201, mine.body.constData());
    QCOMPARE(create(body, first).json().value(QStringLiteral("id")),
             mine.json().value(QStringLiteral("id"))); // the caller's own replay

    // The other caller sends the same key and the same bytes, from its own address
    // (a socket bound to it: all of 127/8 is loopback).
    QByteArray request =
        "POST /v2/a2w/runs HTTP/1.1\r\nHost: " + QUrl(m_ph->base()).authority().toLatin1() +
        "\r\nContent-Type: application/json\r\nPrefer: execution=browser\r\n"
        "Idempotency-Key: " +
        key + "\r\nConnection: close\r\n";
    if (!secondClientId.isEmpty())
        request += "X-Svc-Client-Id: " + secondClientId + "\r\n";
    const QByteArray payload = json(body);
    request += "Content-Length: " + QByteArray::number(payload.size()) + "\r\n\r\n" + payload;
    QTcpSocket socket;
    QVERIFY(socket.bind(QHostAddress(secondAddress)));
    socket.connectToHost(QHostAddress::LocalHost, m_ph->port());
    QVERIFY(socket.waitForConnected(10000));
    socket.write(request);
    QByteArray answer;
    QTRY_VERIFY_WITH_TIMEOUT(
        (answer += socket.readAll(), socket.state() == QAbstractSocket::UnconnectedState), 30000);
    answer += socket.readAll();
    QCOMPARE(answer.mid(9, 3), QByteArray("201"));
    const QJsonObject theirs =
        QJsonDocument::fromJson(answer.mid(answer.indexOf("\r\n\r\n") + 4)).object();
    // A fresh run with its own tokens: never the first caller's run, run token or
    // workflow token.
    QVERIFY(!theirs.value(QStringLiteral("id")).toString().isEmpty());
    QVERIFY(theirs.value(QStringLiteral("id")) != mine.json().value(QStringLiteral("id")));
    QVERIFY(theirs.value(QStringLiteral("run")) != mine.json().value(QStringLiteral("run")));
    QVERIFY(theirs.value(QStringLiteral("workflow")) !=
            mine.json().value(QStringLiteral("workflow")));
    const QString myToken =
        mine.json().value(QStringLiteral("run")).toString().section(QStringLiteral("access="), 1);
    QVERIFY(!QString::fromUtf8(answer).contains(myToken));
}

void tst_A2w::createsFromAGetLinkAsMarkdown()
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("url"), m_site.url(QStringLiteral("/hang")));
    q.addQueryItem(QStringLiteral("prompt"), QStringLiteral("Read the page"));
    q.addQueryItem(QStringLiteral("wait"), QStringLiteral("0"));
    const HttpResponse r =
        HttpClient(m_ph->base())
            .get(QStringLiteral("/v2/a2w/runs?") + q.toString(QUrl::FullyEncoded));
    QCOMPARE(r.status, 201);
    QVERIFY(r.header("content-type").startsWith("text/markdown"));
    QCOMPARE(r.header("x-robots-tag"), QByteArray("noindex, nofollow, noarchive"));
    const QString md = QString::fromUtf8(r.body);
    QVERIFY2(md.startsWith(QLatin1String("# A2W run a2w_")), qPrintable(md));
    QVERIFY(md.contains(QLatin1String("**Status:** ")));
    QVERIFY(md.contains(QLatin1String("**Run:** ")));
    QVERIFY(md.contains(QLatin1String("## Still running")));
    QVERIFY(md.contains(QLatin1String("## Links")));
    QVERIFY(md.contains(QLatin1String("format=markdown&wait=10")));

    // JSON on request; POST-only fields never ride in a link.
    q.addQueryItem(QStringLiteral("format"), QStringLiteral("json"));
    const HttpResponse j =
        HttpClient(m_ph->base())
            .get(QStringLiteral("/v2/a2w/runs?") + q.toString(QUrl::FullyEncoded));
    QCOMPARE(j.status, 201);
    QCOMPARE(j.json().value(QStringLiteral("execution")).toString(), QStringLiteral("cloud"));
    q.addQueryItem(QStringLiteral("payment"), QStringLiteral("card"));
    const HttpResponse refused =
        HttpClient(m_ph->base())
            .get(QStringLiteral("/v2/a2w/runs?") + q.toString(QUrl::FullyEncoded));
    QCOMPARE(refused.status, 400);
    QCOMPARE(refused.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("POST_ONLY_FIELD"));
    // A refused GET-create is still a link: not indexed either.
    QCOMPARE(refused.header("x-robots-tag"), QByteArray("noindex, nofollow, noarchive"));
    const HttpResponse badWait = HttpClient(m_ph->base())
                                     .get(QStringLiteral("/v2/a2w/runs?prompt=x&wait=soon&url=") +
                                          QString::fromLatin1(QUrl::toPercentEncoding(shop())));
    QCOMPARE(badWait.status, 400);
    QCOMPARE(badWait.header("x-robots-tag"), QByteArray("noindex, nofollow, noarchive"));
    // A link written by hand or by a form encodes spaces as '+': the task reads them as
    // spaces (the run line shows the task).
    const HttpResponse plus =
        HttpClient(m_ph->base())
            .get(QStringLiteral("/v2/a2w/runs?prompt=Read+the+page&wait=0&url=") +
                 QString::fromLatin1(QUrl::toPercentEncoding(m_site.url(QStringLiteral("/hang")))));
    QCOMPARE(plus.status, 201);
    const QString plusMd = QString::fromUtf8(plus.body);
    QVERIFY2(plusMd.contains(QLatin1String("(Read the page on ")), qPrintable(plusMd));
    HttpClient().send("DELETE", plusMd.section(QStringLiteral("**Run:** "), 1).section(u' ', 0, 0));
    for (const QJsonObject &o : {r.json(), j.json()})
        Q_UNUSED(o);
    // Leave nothing hanging for later tests.
    HttpClient().send("DELETE", j.json().value(QStringLiteral("run")).toString());
    const QString mdRun = md.section(QStringLiteral("**Run:** "), 1).section(u' ', 0, 0);
    HttpClient().send("DELETE", mdRun);
}

void tst_A2w::waitsForABrowserAndHandsOffByReceipt()
{
    const HttpResponse r = create({{QStringLiteral("url"), shop()},
                                   {QStringLiteral("prompt"), QStringLiteral("List the products")}},
                                  {{"Prefer", "execution=browser"}});
    QCOMPARE(r.status, 201);
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(),
             QStringLiteral("waiting_browser"));
    QCOMPARE(r.json().value(QStringLiteral("execution")).toString(), QStringLiteral("browser"));
    const QString open = r.json().value(QStringLiteral("open")).toString();
    const HttpResponse handoff = HttpClient().get(open);
    QCOMPARE(handoff.status, 303);
    QVERIFY(handoff.header("location").startsWith(shop().toUtf8() + "#pilothouse-a2w=rcpt_"));
    QCOMPARE(HttpClient().get(m_ph->base() + QStringLiteral("/v2/a2w/open/rcpt_forged")).status,
             404);
}

void tst_A2w::runsAStoredShortcutAndChecksItsEngagementKind()
{
    QJsonObject shortcut{{QStringLiteral("id"), QStringLiteral("list-products")},
                         {QStringLiteral("label"), QStringLiteral("List products")},
                         {QStringLiteral("prompt"), QStringLiteral("List the products")},
                         {QStringLiteral("engagementKind"), QStringLiteral("task")}};
    QJsonObject playbook{
        {QStringLiteral("id"), QStringLiteral("tour")},
        {QStringLiteral("label"), QStringLiteral("Tour")},
        {QStringLiteral("kind"), QStringLiteral("journey")},
        {QStringLiteral("engagementKind"), QStringLiteral("demo")},
        {QStringLiteral("steps"),
         QJsonArray{QJsonObject{{QStringLiteral("title"), QStringLiteral("List the products")}}}}};
    QCOMPARE(owner(QStringLiteral("/upsertSiteConfig"),
                   {{QStringLiteral("keyId"), m_keyId},
                    {QStringLiteral("siteConfig"),
                     QJsonObject{{QStringLiteral("shortcuts"), QJsonArray{shortcut, playbook}}}}})
                 .status,
             200);
    const HttpResponse r = create({{QStringLiteral("url"), shop()},
                                   {QStringLiteral("shortcutId"), QStringLiteral("list-products")}},
                                  {{"Prefer", "wait=25"}});
    QCOMPARE(r.status, 201);
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(r.json().value(QStringLiteral("engagementKind")).toString(), QStringLiteral("task"));

    const HttpResponse p = create(
        {{QStringLiteral("url"), shop()}, {QStringLiteral("playbookId"), QStringLiteral("tour")}},
        {{"Prefer", "execution=browser"}});
    QCOMPARE(p.status, 201);
    QCOMPARE(p.json().value(QStringLiteral("engagementKind")).toString(), QStringLiteral("demo"));
    // A shortcut id is not a playbook id, and a stored kind is authoritative.
    QCOMPARE(create({{QStringLiteral("url"), shop()},
                     {QStringLiteral("playbookId"), QStringLiteral("list-products")}})
                 .status,
             404);
    const HttpResponse mismatch =
        create({{QStringLiteral("url"), shop()},
                {QStringLiteral("shortcutId"), QStringLiteral("list-products")},
                {QStringLiteral("engagementKind"), QStringLiteral("support")}});
    QCOMPARE(mismatch.status, 400);
    QCOMPARE(mismatch.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("ENGAGEMENT_KIND_MISMATCH"));
    QCOMPARE(mismatch.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("engagementKind"));
}

void tst_A2w::attributesTheVisitingAgent()
{
    const HttpResponse given =
        create({{QStringLiteral("url"), shop()},
                {QStringLiteral("prompt"), QStringLiteral("List the products")},
                {QStringLiteral("agent"),
                 QJsonObject{{QStringLiteral("displayName"), QStringLiteral("Scout")},
                             {QStringLiteral("vendor"), QStringLiteral("Acme")}}}},
               {{"Prefer", "execution=browser"}});
    const HttpResponse guessed =
        create({{QStringLiteral("url"), shop()},
                {QStringLiteral("prompt"), QStringLiteral("List the products")}},
               {{"Prefer", "execution=browser"},
                {"User-Agent", "ShopBot/2.1 (+https://bot.example)"},
                {"X-Svc-Client-Id", "client-9"}});
    const auto a = m_ph->service().a2w().find(given.json().value(QStringLiteral("id")).toString());
    const auto b =
        m_ph->service().a2w().find(guessed.json().value(QStringLiteral("id")).toString());
    QVERIFY(a && b);
    QCOMPARE(a->agent.value(QStringLiteral("displayName")).toString(), QStringLiteral("Scout"));
    QCOMPARE(a->agent.value(QStringLiteral("attributedBy")).toString(), QStringLiteral("agent"));
    QCOMPARE(b->agent.value(QStringLiteral("displayName")).toString(), QStringLiteral("ShopBot"));
    QCOMPARE(b->agent.value(QStringLiteral("clientId")).toString(), QStringLiteral("client-9"));
    QCOMPARE(b->agent.value(QStringLiteral("attributedBy")).toString(),
             QStringLiteral("heuristic"));
}

void tst_A2w::recordsTheRunInTheSitesAnalytics()
{
    const HttpResponse r = create({{QStringLiteral("url"), shop()},
                                   {QStringLiteral("prompt"), QStringLiteral("List the products")}},
                                  {{"Prefer", "wait=25"}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    const QString id = r.json().value(QStringLiteral("id")).toString();
    // The owner's AI sees it in the aggregate summary.
    const QJsonObject summary =
        m_ph->client()
            .get(QStringLiteral("/config/v1/sites/%1/analytics/summary").arg(m_siteId))
            .json();
    QVERIFY2(summary[QStringLiteral("totals")][QStringLiteral("interactions")].toInt() >= 1,
             QJsonDocument(summary).toJson().constData());
    QVERIFY(summary[QStringLiteral("totals")][QStringLiteral("conversions")].toInt() >= 1);
    QSqlQuery q(m_ph->service().store().database());
    QVERIFY(q.exec(QStringLiteral("SELECT data FROM analytics_interactions WHERE site_id = '%1'")
                       .arg(m_siteId)));
    bool found = false;
    while (q.next())
        found |= q.value(0).toString().contains(id);
    QVERIFY(found);
}

void tst_A2w::rateLimitsAnAnonymousAddress()
{
    TestService ph({QStringLiteral("a2w.runsPerMinutePerAddress=2")});
    QVERIFY(ph.ok());
    QCOMPARE(
        ph.client()
            .post(QStringLiteral("/generateSiteKey"),
                  {{QStringLiteral("siteName"), QStringLiteral("Limited")},
                   {QStringLiteral("label"), QStringLiteral("embed")},
                   {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}})
            .status,
        201);
    ph.listPrivateHosts({m_site.hostPort()});
    ph.allowBrowserHandoffs();
    const QJsonObject body{{QStringLiteral("url"), shop()},
                           {QStringLiteral("prompt"), QStringLiteral("List the products")}};
    QCOMPARE(create(body, {{"Prefer", "execution=browser"}}, &ph).status, 201);
    QCOMPARE(create(body, {{"Prefer", "execution=browser"}}, &ph).status, 201);
    const HttpResponse limited = create(body, {{"Prefer", "execution=browser"}}, &ph);
    QCOMPARE(limited.status, 429);
    QCOMPARE(limited.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("RATE_LIMITED"));
    QVERIFY(limited.header("retry-after").toInt() >= 1);
}

void tst_A2w::neverStoresAnAccessToken()
{
    QVERIFY(m_tokens.size() > 5);
    QSqlQuery q(m_ph->service().store().database());
    for (const char *sql :
         {"SELECT token_hash || request || agent FROM a2w_runs", "SELECT data FROM a2w_events",
          "SELECT tokens_sealed FROM a2w_idempotency", "SELECT token_hash FROM a2w_workflows"}) {
        QVERIFY2(q.exec(QString::fromLatin1(sql)), sql);
        while (q.next())
            for (const QString &token : std::as_const(m_tokens))
                QVERIFY2(!q.value(0).toString().contains(token), sql);
    }
}

void tst_A2w::offersItsTableAsCsvAndJson()
{
    const HttpResponse r =
        create({{QStringLiteral("url"), shop()},
                {QStringLiteral("prompt"), QStringLiteral("List the products")},
                {QStringLiteral("accept"),
                 QJsonObject{{QStringLiteral("modes"),
                              QJsonArray{QStringLiteral("text"), QStringLiteral("artifacts")}}}}},
               {{"Prefer", "wait=25"}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QVERIFY(r.json()[QStringLiteral("links")].toObject().contains(QStringLiteral("artifacts")));
    const QString run = r.json().value(QStringLiteral("run")).toString();
    const QString url =
        run.section(u'?', 0, 0) + QStringLiteral("/artifacts?") + run.section(u'?', 1);
    const HttpResponse a = HttpClient().get(url);
    QCOMPARE(a.status, 200);
    QCOMPARE(a.json().value(QStringLiteral("runId")), r.json().value(QStringLiteral("id")));
    QHash<QString, QJsonObject> byName;
    for (const QJsonValue &v : a.json().value(QStringLiteral("artifacts")).toArray())
        byName.insert(v.toObject().value(QStringLiteral("name")).toString(), v.toObject());
    QVERIFY2(byName.contains(QStringLiteral("table.csv")) &&
                 byName.contains(QStringLiteral("table.json")),
             a.body.constData());
    const HttpResponse csv = HttpClient().get(
        byName[QStringLiteral("table.csv")].value(QStringLiteral("url")).toString());
    QCOMPARE(csv.status, 200);
    QVERIFY(csv.header("content-type").startsWith("text/csv"));
    QVERIFY2(csv.body.contains("Sextant") && csv.body.contains("310"), csv.body.constData());
    QCOMPARE(csv.body.size(), byName[QStringLiteral("table.csv")]["sizeBytes"].toInt());
    // A picture of the page the run ended on.
    QString picture;
    for (auto it = byName.begin(); it != byName.end(); ++it)
        if (it.value().value(QStringLiteral("contentType")).toString() ==
            QLatin1String("image/png"))
            picture = it.value().value(QStringLiteral("url")).toString();
    QVERIFY2(!picture.isEmpty(), a.body.constData());
    const HttpResponse png = HttpClient().get(picture);
    QCOMPARE(png.status, 200);
    QVERIFY(png.body.startsWith("\x89PNG\r\n\x1a\n"));
    QImage image;
    QVERIFY(image.loadFromData(png.body, "PNG"));
    QVERIFY(image.width() >= 1000);
    // Not a blank picture: the page's text left dark pixels.
    int dark = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            dark += qGray(image.pixel(x, y)) < 100;
    QVERIFY2(dark > 50, qPrintable(QString::number(dark)));
    // A re-GET signs the links afresh (a later expiry, a new signature).
    const QString first = a.json()[QStringLiteral("expiresAt")].toString();
    QTRY_VERIFY(HttpClient().get(url).json()[QStringLiteral("expiresAt")].toString() > first);
}

// `artifacts` names select the files: here the CSV table alone (no JSON table, no
// spreadsheet, document or picture).
void tst_A2w::makesOnlyTheFilesItsArtifactsName()
{
    const HttpResponse r =
        create({{QStringLiteral("url"), shop()},
                {QStringLiteral("prompt"), QStringLiteral("List the products")},
                {QStringLiteral("artifacts"), QJsonArray{QStringLiteral("table.csv")}}},
               {{"Prefer", "wait=25"}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    const QString run = r.json().value(QStringLiteral("run")).toString();
    const HttpResponse a = HttpClient().get(run.section(u'?', 0, 0) +
                                            QStringLiteral("/artifacts?") + run.section(u'?', 1));
    QCOMPARE(a.status, 200);
    QStringList names;
    for (const QJsonValue &v : a.json().value(QStringLiteral("artifacts")).toArray())
        names << v.toObject().value(QStringLiteral("name")).toString();
    QCOMPARE(names, QStringList{QStringLiteral("table.csv")});
}

void tst_A2w::keepsWaitingRunsAcrossARestartAndFailsLostOnes()
{
    QTemporaryDir dir;
    QString waiting, asking, lost;
    {
        TestService first({}, dir.path());
        QVERIFY(first.ok());
        QCOMPARE(
            first.client()
                .post(QStringLiteral("/generateSiteKey"),
                      {{QStringLiteral("siteName"), QStringLiteral("Restarted")},
                       {QStringLiteral("label"), QStringLiteral("embed")},
                       {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}})
                .status,
            201);
        first.listPrivateHosts({m_site.hostPort()});
        first.allowBrowserHandoffs();
        waiting = create({{QStringLiteral("url"), shop()},
                          {QStringLiteral("prompt"), QStringLiteral("List the products")}},
                         {{"Prefer", "execution=browser"}}, &first)
                      .json()
                      .value(QStringLiteral("run"))
                      .toString();
        lost = create({{QStringLiteral("url"), shop()},
                       {QStringLiteral("prompt"), QStringLiteral("List the products")}},
                      {{"Prefer", "execution=browser"}}, &first)
                   .json()
                   .value(QStringLiteral("run"))
                   .toString();
        const HttpResponse r =
            create({{QStringLiteral("url"), m_site.url(QStringLiteral("/account"))},
                    {QStringLiteral("prompt"), QStringLiteral("Sign in and list my orders")}},
                   {{"Prefer", "wait=25"}}, &first);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(),
                 QStringLiteral("input_required"));
        asking = r.json().value(QStringLiteral("run")).toString();
    }
    // What a process killed mid-run leaves: a run stored as running.
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(dir.filePath(QStringLiteral("pilothouse.db")));
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("UPDATE a2w_runs SET status = 'running' WHERE id = '%1'")
                           .arg(lost.section(QStringLiteral("/runs/"), 1).section(u'?', 0, 0))));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));

    TestService second({}, dir.path());
    QVERIFY(second.ok());
    auto at = [&second](const QString &url) {
        return second.base() + url.mid(url.indexOf(QLatin1String("/v2/")));
    };
    const QJsonObject w = HttpClient().get(at(waiting)).json();
    QCOMPARE(w.value(QStringLiteral("status")).toString(), QStringLiteral("waiting_browser"));
    const QJsonObject l = HttpClient().get(at(lost)).json();
    QCOMPARE(l.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
    QVERIFY(l.value(QStringLiteral("error")).toString().contains(QLatin1String("restarted")));
    // The run waiting for input goes on where it stopped.
    const QJsonObject a = HttpClient().get(at(asking)).json();
    QCOMPARE(a.value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    QCOMPARE(
        HttpClient()
            .send("POST", at(asking),
                  json({{QStringLiteral("answers"),
                         QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                                     {QStringLiteral("password"), QStringLiteral("s3cret!")}}}}),
                  {{"Content-Type", "application/json"}})
            .status,
        200);
    const QJsonObject done =
        HttpClient::pollUntil(at(asking), {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(done.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
}

void tst_A2w::keepsTheConfirmationGateAcrossARestart()
{
    QTemporaryDir dir;
    const int placed = m_site.hits("/order/place");
    QString run, confirm;
    {
        TestService first({QStringLiteral("agent.pausedLeaseMs=0")}, dir.path());
        QVERIFY(first.ok());
        QCOMPARE(
            first.client()
                .post(QStringLiteral("/generateSiteKey"),
                      {{QStringLiteral("siteName"), QStringLiteral("Gated")},
                       {QStringLiteral("label"), QStringLiteral("embed")},
                       {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}})
                .status,
            201);
        first.listPrivateHosts({m_site.hostPort()});
        const HttpResponse r =
            create({{QStringLiteral("url"), m_site.url(QStringLiteral("/order"))},
                    {QStringLiteral("prompt"), QStringLiteral("click \"Place order\"")}},
                   {{"Prefer", "wait=25"}}, &first);
        QCOMPARE(r.json()[QStringLiteral("input")][QStringLiteral("reason")].toString(),
                 QStringLiteral("action_confirmation_required"));
        run = r.json().value(QStringLiteral("run")).toString();
        confirm =
            r.json()[QStringLiteral("input")][QStringLiteral("links")][QStringLiteral("confirm")]
                .toString();
    }
    TestService second({}, dir.path());
    QVERIFY(second.ok());
    auto at = [&second](const QString &url) {
        return second.base() + url.mid(url.indexOf(QLatin1String("/v2/")));
    };
    QCOMPARE(m_site.hits("/order/place"), placed);
    QCOMPARE(HttpClient()
                 .send("POST", at(confirm), "decision=confirm",
                       {{"Content-Type", "application/x-www-form-urlencoded"}})
                 .status,
             200);
    const QJsonObject o =
        HttpClient::pollUntil(at(run), {QStringLiteral("completed"), QStringLiteral("failed"),
                                        QStringLiteral("input_required")});
    QVERIFY2(o.value(QStringLiteral("status")).toString() == QLatin1String("completed"),
             QJsonDocument(o).toJson().constData());
    QCOMPARE(m_site.hits("/order/place"), placed + 1); // sent once, after the confirmation
}

void tst_A2w::runsThePythonVisitingAgentOfTheDocs()
{
    // The demo shop's sign-in and orders pages, served as they are in docs/examples.
    for (const char *name : {"login.html", "orders.html"}) {
        QFile f(QStringLiteral(SOURCE_DIR "/docs/examples/") + QLatin1String(name));
        QVERIFY(f.open(QIODevice::ReadOnly));
        m_site.page(QByteArray("/") + name, f.readAll());
    }
    QTemporaryDir dir;
    QProcess python;
    python.setWorkingDirectory(dir.path());
    python.start(QStringLiteral("python3"),
                 {QStringLiteral(SOURCE_DIR "/docs/examples/a2w_agent.py"), m_ph->base(),
                  m_site.url(QStringLiteral("/login.html")),
                  QStringLiteral("Sign in and list my orders"),
                  QStringLiteral("email=ada@example.org"), QStringLiteral("password=s3cret!")});
    QVERIFY(python.waitForStarted());
    QVERIFY(QTest::qWaitFor([&] { return python.state() == QProcess::NotRunning; }, 120000));
    const QByteArray out = python.readAllStandardOutput();
    QVERIFY2(python.exitCode() == 0, out + python.readAllStandardError());
    const QJsonObject last = QJsonDocument::fromJson(out.trimmed().split('\n').last()).object();
    QCOMPARE(last.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QVERIFY2(out.contains("input "), out); // it answered a question
    const QJsonArray saved = last.value(QStringLiteral("saved")).toArray();
    QCOMPARE(saved.size(), 1);
    QVERIFY(QFileInfo(dir.filePath(saved[0].toString())).size() > 0);
}

void tst_A2w::holdsNoPageWhileVisitorRunsWaitForAPerson()
{
    // Four anonymous runs that wait for a person's answers on the default pool of four
    // pages (docs/security.md, "Fair shares of the browser pool"): while they wait they
    // hold no page, so the owner's scrape is served while they still wait, and an answer
    // goes on in a fresh page.
    TestService ph({QStringLiteral("a2w.runsPerMinutePerAddress=1000")});
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    QVERIFY(enableSite(ph, QStringLiteral("Waiting")));
    QCOMPARE(ph.service().pool().stats().size, 4);
    QStringList runs;
    for (int i = 0; i < 4; ++i) {
        const HttpResponse r =
            create({{QStringLiteral("url"), m_site.url(QStringLiteral("/account"))},
                    {QStringLiteral("prompt"), QStringLiteral("Sign in and list my orders")}},
                   {{"Prefer", "execution=cloud, wait=0"}}, &ph);
        QCOMPARE(r.status, 201);
        runs << r.json().value(QStringLiteral("run")).toString();
    }
    for (const QString &run : std::as_const(runs)) {
        const QJsonObject o =
            HttpClient::pollUntil(run, {QStringLiteral("input_required"), QStringLiteral("failed"),
                                        QStringLiteral("completed")});
        QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    }
    QCOMPARE(ph.service().pool().stats().busy, 0);

    const HttpResponse scraped =
        ph.client().post(QStringLiteral("/scrape"), {{QStringLiteral("urls"), QJsonArray{shop()}}});
    QCOMPARE(scraped.status, 200);
    const QJsonObject result =
        scraped.json().value(QStringLiteral("results")).toArray().at(0).toObject();
    QCOMPARE(result.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    for (const QString &run : std::as_const(runs))
        QCOMPARE(HttpClient().get(run).json().value(QStringLiteral("status")).toString(),
                 QStringLiteral("input_required"));

    // An answer replays the run into a fresh page and finishes it.
    QCOMPARE(
        HttpClient()
            .send("POST", runs.first(),
                  json({{QStringLiteral("answers"),
                         QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                                     {QStringLiteral("password"), QStringLiteral("s3cret!")}}}}),
                  {{"Content-Type", "application/json"}})
            .status,
        200);
    const QJsonObject done = HttpClient::pollUntil(
        runs.first(), {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(done.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QVERIFY(done[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
        QLatin1String("Sextant")));
}

void tst_A2w::servesTheOwnerWhileVisitorRunsFillTheirShare()
{
    // Four anonymous runs on a page that never finishes loading: one site's visitor work
    // holds at most its share (a quarter of four pages: one), the rest wait, and the
    // owner's scrape gets a free page and completes while all four are still running.
    TestService ph({QStringLiteral("a2w.runsPerMinutePerAddress=1000"),
                    QStringLiteral("pool.navigationTimeoutMs=120000")});
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    QVERIFY(enableSite(ph, QStringLiteral("Hanging")));
    QStringList runs;
    for (int i = 0; i < 4; ++i) {
        const HttpResponse r = create({{QStringLiteral("url"), m_site.url(QStringLiteral("/hang"))},
                                       {QStringLiteral("prompt"), QStringLiteral("Read the page")}},
                                      {{"Prefer", "execution=cloud, wait=0"}}, &ph);
        QCOMPARE(r.status, 201);
        runs << r.json().value(QStringLiteral("run")).toString();
    }
    // Every run has asked the pool for its page.
    BrowserPool &pool = ph.service().pool();
    QTRY_COMPARE(pool.stats().busy + pool.stats().queued, 4);

    const HttpResponse scraped =
        ph.client().post(QStringLiteral("/scrape"), {{QStringLiteral("urls"), QJsonArray{shop()}}});
    QCOMPARE(scraped.status, 200);
    const QJsonObject result =
        scraped.json().value(QStringLiteral("results")).toArray().at(0).toObject();
    QCOMPARE(result.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    for (const QString &run : std::as_const(runs))
        QCOMPARE(HttpClient().get(run).json().value(QStringLiteral("status")).toString(),
                 QStringLiteral("running"));
    // One site's runs: one page held, three waiting that no freed page would serve.
    QCOMPARE(pool.stats().visitorBusy, 1);
    QCOMPARE(pool.stats().queued, 3);
    QCOMPARE(pool.stats().servable, 0);
    for (const QString &run : std::as_const(runs))
        QCOMPARE(HttpClient().send("DELETE", run).status, 200);
}

PH_WEBENGINE_TEST_MAIN(tst_A2w)
#include "tst_a2w.moc"
