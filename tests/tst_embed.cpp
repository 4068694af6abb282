// The embed SDK on a real site page in Debian's chromium (playwright-core): the page
// carries the one-line snippet; the SDK opens a runtime session with the site's public
// key (cross-origin), shows the configured greeting, and runs a visitor's task on the
// live page through the real service (the rule planner's steps performed by the SDK
// with the page agent). Policy, token refresh, the stale-epoch retry and trackGoal too.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include "a2w/A2wService.h"
#include "core/Clock.h"
#include "runtime/RuntimeService.h"

#include <QDateTime>
#include <QFileInfo>
#include <QtTest>

using namespace ph;
using namespace ph::test;

class tst_Embed : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void servesTheSdkWithinItsBudget();
    void runsAVisitorsTaskOnTheLivePage();
    void blocksAnExternalLinkByPolicy();
    void refreshesAnExpiredSessionTokenTransparently();
    void retriesAStaleEpochOnce();
    void recordsTrackGoalInTheOwnersAnalytics();
    void claimsAnA2wBrowserRunThroughItsOpenLink();
    void keepsThePageWhereTheVisitorLeftIt();
    void appliesTheSitesPoliciesToAVisitorsRun_data();
    void appliesTheSitesPoliciesToAVisitorsRun();
    void asksTheSignedInVisitorBeforeAnAgentActs_data();
    void asksTheSignedInVisitorBeforeAnAgentActs();

private:
    QJsonObject visit(const QString &path, const QString &scenario, const QJsonObject &extra = {});

    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<TestService> m_ph;
    FixtureServer m_site;
    QString m_siteId;
    QString m_publicKey;
    QString m_keyId;
    // The victim's account on the fixture site (a cookie login).
    bool m_deleted = false;
};

void tst_Embed::initTestCase()
{
    if (!QFileInfo::exists(QStringLiteral("/usr/bin/chromium")))
        QSKIP("Debian's chromium is not installed (packaging/dev/deps.sh --bench installs it)");
    m_clock = std::make_unique<ManualClock>(QDateTime::currentMSecsSinceEpoch());
    m_ph = std::make_unique<TestService>(QStringList{}, QString(), m_clock.get());
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    QVERIFY(m_site.start());
    HttpClient owner = m_ph->client();
    HttpResponse r =
        owner.post(QStringLiteral("/generateSiteKey"),
                   {{QStringLiteral("siteName"), QStringLiteral("Harbour shop")},
                    {QStringLiteral("label"), QStringLiteral("embed")},
                    // The site answers on two hosts (crossHost is about moving between them).
                    {QStringLiteral("allowedDomains"),
                     QJsonArray{QStringLiteral("127.0.0.1"), QStringLiteral("localhost")}},
                    {QStringLiteral("sitePolicy"),
                     QJsonObject{{QStringLiteral("externalDenyDomains"),
                                  QJsonArray{QStringLiteral("blocked.test")}}}}});
    QCOMPARE(r.status, 201);
    m_siteId = r.json().value(QStringLiteral("siteId")).toString();
    m_publicKey = r.json()[QStringLiteral("key")][QStringLiteral("publicKey")].toString();
    m_keyId = r.json()[QStringLiteral("key")][QStringLiteral("keyId")].toString();
    r = owner.post(QStringLiteral("/upsertSiteConfig"),
                   {{QStringLiteral("keyId"), m_keyId},
                    {QStringLiteral("siteConfig"),
                     QJsonObject{{QStringLiteral("greeting"),
                                  QJsonObject{{QStringLiteral("text"),
                                               QStringLiteral("Ahoy! How can I help?")}}}}}});
    QCOMPARE(r.status, 200);
    m_ph->allowBrowserHandoffs(); // off by default; browser runs are tested here
    // Both hosts serve the site on a random loopback port: its owner lists them.
    m_ph->listPrivateHosts({m_site.hostPort(), QStringLiteral("localhost:%1").arg(m_site.port())},
                           m_siteId);

    // The site: the snippet is the only thing it adds for Pilothouse.
    const QString snippet =
        QStringLiteral("<script src=\"%1/embed.js\" data-site-key=\"%2\" data-site-id=\"%3\" "
                       "defer></script>")
            .arg(m_ph->base(), m_publicKey, m_siteId);
    m_site.page("/form", htmlPage(QStringLiteral("Contact"),
                                  QStringLiteral("<h1>Contact us</h1><form action=\"/thanks\">"
                                                 "<label>Name <input name=\"name\"></label>"
                                                 "<button type=\"submit\">Send</button></form>") +
                                      snippet));
    m_site.route("/thanks", [snippet](const FixtureRequest &req) {
        const QString name = QUrlQuery(QUrl(QString::fromUtf8(req.path)).query())
                                 .queryItemValue(QStringLiteral("name"));
        return FixtureResponse::html(
            htmlPage(QStringLiteral("Thanks"),
                     QStringLiteral("<h1>Thanks, %1</h1>").arg(name.toHtmlEscaped()) + snippet));
    });
    m_site.page("/tall", htmlPage(QStringLiteral("Tall"),
                                  QStringLiteral("<h1>Top</h1><div style=\"height:4000px\"></div>"
                                                 "<label>Far field <input name=\"far\"></label>") +
                                      snippet));
    m_site.page(
        "/links",
        htmlPage(QStringLiteral("Links"),
                 QStringLiteral("<a href=\"https://www.blocked.test/page\">out</a>") + snippet));
    // An account behind a cookie login: a recovery code and a "Delete my account" form
    // (POST). Only the signed-in visitor's browser sees them.
    const QByteArray cookie = "harbour_sid=victim-7f3a";
    auto signedIn = [cookie](const FixtureRequest &req) {
        return req.headers.value("cookie").contains(cookie);
    };
    m_site.route("/login", [cookie](const FixtureRequest &) {
        FixtureResponse page = FixtureResponse::html(
            htmlPage(QStringLiteral("Signed in"), QStringLiteral("<h1>Welcome back</h1>")));
        page.headers.append(
            qMakePair(QByteArray("Set-Cookie"), cookie + "; Path=/; HttpOnly; SameSite=Lax"));
        return page;
    });
    m_site.route("/account", [this, signedIn, snippet](const FixtureRequest &req) {
        if (!signedIn(req) || m_deleted)
            return FixtureResponse::html(htmlPage(
                QStringLiteral("Account"), QStringLiteral("<h1>Please sign in</h1>") + snippet));
        return FixtureResponse::html(
            htmlPage(QStringLiteral("Your account"),
                     QStringLiteral("<h1>Your account</h1><p>Recovery code: <b>RC-4417-ZETA</b></p>"
                                    "<form method=\"post\" action=\"/account/delete\">"
                                    "<button type=\"submit\">Delete my account</button></form>") +
                         snippet));
    });
    m_site.route("/account/delete", [this, signedIn, snippet](const FixtureRequest &req) {
        if (req.method == "POST" && signedIn(req))
            m_deleted = true;
        return FixtureResponse::html(
            htmlPage(QStringLiteral("Deleted"),
                     QStringLiteral("<h1>Your account is deleted</h1>") + snippet));
    });
    // What the service has done so far, for the browser script to read mid-scenario:
    // the A2W run's status and the runtime runs that carry it.
    m_site.route("/probe", [this](const FixtureRequest &req) {
        const QUrlQuery q(QUrl(QString::fromUtf8(req.path)).query());
        const QString a2wId = q.queryItemValue(QStringLiteral("a2w"));
        const auto a2wRun = m_ph->service().a2w().find(a2wId);
        int carried = 0;
        for (const auto &run : m_ph->service().runtime().repository().runsOf(
                 q.queryItemValue(QStringLiteral("session"))))
            carried += run.a2wRunId == a2wId;
        FixtureResponse answer;
        answer.headers.append(
            qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        answer.body = QJsonDocument(QJsonObject{{QStringLiteral("a2wStatus"),
                                                 a2wRun ? a2wRun->status : QString()},
                                                {QStringLiteral("runtimeRuns"), carried},
                                                {QStringLiteral("deleted"), m_deleted}})
                          .toJson(QJsonDocument::Compact);
        return answer;
    });
    // Hooks the browser script calls to move the service's clock and a session's epoch.
    m_site.route("/advance-clock", [this](const FixtureRequest &) {
        m_clock->advance(11 * 60 * 1000);
        return FixtureResponse::html("ok");
    });
    m_site.route("/bump-epoch", [this](const FixtureRequest &req) {
        const QString id = QUrlQuery(QUrl(QString::fromUtf8(req.path)).query())
                               .queryItemValue(QStringLiteral("session"));
        auto &repo = m_ph->service().runtime().repository();
        if (auto s = repo.findSession(id)) {
            s->epoch += 1;
            repo.updateSession(*s);
        }
        return FixtureResponse::html("ok");
    });
}

void tst_Embed::cleanupTestCase()
{
    m_ph.reset();
}

QJsonObject tst_Embed::visit(const QString &path, const QString &scenario, const QJsonObject &extra)
{
    QJsonObject cfg{
        {QStringLiteral("url"), path.startsWith(QLatin1String("http")) ? path : m_site.url(path)},
        {QStringLiteral("scenario"), scenario},
        {QStringLiteral("fixture"), m_site.url(QString()).chopped(0)}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        cfg.insert(it.key(), it.value());
    const NodeResult r =
        runNodeScript(QStringLiteral(PILOTHOUSE_EMBED_TEST_DIR),
                      {QStringLiteral("embed.mjs"),
                       QString::fromUtf8(QJsonDocument(cfg).toJson(QJsonDocument::Compact))},
                      120000);
    if (!r.ok())
        qWarning().noquote() << r.diagnostics();
    return r.result();
}

void tst_Embed::servesTheSdkWithinItsBudget()
{
    HttpClient c(m_ph->base());
    const HttpResponse r = c.get(QStringLiteral("/embed.js"));
    QCOMPARE(r.status, 200);
    QVERIFY(r.header("content-type").startsWith("text/javascript"));
    QVERIFY(!r.header("etag").isEmpty());
    QVERIFY(r.body.contains("Pilothouse"));
    // No eval and no Function constructor: it runs under a strict CSP.
    QVERIFY(!r.body.contains("eval("));
    QVERIFY(!r.body.contains("new Function"));
    QVERIFY2(qCompress(r.body, 9).size() < 60 * 1024, "over the 60 KB budget");
    const HttpResponse again =
        c.send("GET", QStringLiteral("/embed.js"), {}, {{"If-None-Match", r.header("etag")}});
    QCOMPARE(again.status, 304);
}

void tst_Embed::runsAVisitorsTaskOnTheLivePage()
{
    const QJsonObject out = visit(QStringLiteral("/form"), QStringLiteral("form"));
    QVERIFY2(out.value(QStringLiteral("url")).toString().contains(QStringLiteral("/thanks")),
             QJsonDocument(out).toJson().constData());
    // The greeting from the site configuration, and a keyboard-reachable launcher.
    QVERIFY(out.value(QStringLiteral("greeting"))
                .toArray()
                .contains(QStringLiteral("assistant: Ahoy! How can I help?")));
    QVERIFY(!out.value(QStringLiteral("launcher")).toString().isEmpty());
    // The form was filled and submitted on the visitor's page.
    const QList<FixtureRequest> hits = m_site.requests("/thanks");
    QVERIFY(!hits.isEmpty());
    QVERIFY2(hits.last().path.contains("name=Ann"), hits.last().path.constData());
    // The run completed, across the page load.
    const QString sessionId = out.value(QStringLiteral("sessionId")).toString();
    const auto runs = m_ph->service().runtime().repository().runsOf(sessionId);
    QVERIFY(!runs.isEmpty());
    QCOMPARE(runs.last().status, QStringLiteral("completed"));
    QCOMPARE(runs.last().continuationReason, QStringLiteral("same_tab_navigation_handoff"));
}

void tst_Embed::blocksAnExternalLinkByPolicy()
{
    // crossHost: allow, so that the site's deny list in the tab preflight is what blocks
    // (under same_host, the default, the run never asks to leave its host).
    auto crossHost = [this](const QString &value) {
        return m_ph->client()
            .post(QStringLiteral("/upsertSiteConfig"),
                  {{QStringLiteral("keyId"), m_keyId},
                   {QStringLiteral("siteConfig"),
                    QJsonObject{{QStringLiteral("aiAccess"),
                                 QJsonObject{{QStringLiteral("crossHost"), value},
                                             {QStringLiteral("browserDeepLinks"), true}}}}}})
            .status;
    };
    QCOMPARE(crossHost(QStringLiteral("allow")), 200);
    const QJsonObject out = visit(QStringLiteral("/links"), QStringLiteral("external"));
    QCOMPARE(crossHost(QStringLiteral("same_host")), 200);
    QVERIFY2(out.value(QStringLiteral("url")).toString().endsWith(QStringLiteral("/links")),
             QJsonDocument(out).toJson().constData());
    const auto runs = m_ph->service().runtime().repository().runsOf(
        out.value(QStringLiteral("sessionId")).toString());
    QVERIFY(!runs.isEmpty());
    QCOMPARE(runs.last().status, QStringLiteral("failed"));
    const auto tabs = m_ph->service().runtime().repository().tabsOf(
        out.value(QStringLiteral("sessionId")).toString());
    QVERIFY(std::any_of(tabs.begin(), tabs.end(),
                        [](const auto &t) { return t.status == QLatin1String("blocked"); }));
}

void tst_Embed::refreshesAnExpiredSessionTokenTransparently()
{
    const QJsonObject out = visit(QStringLiteral("/form"), QStringLiteral("expired"));
    QVERIFY2(out.value(QStringLiteral("runId")).toString().startsWith(QLatin1String("rtr_")),
             QJsonDocument(out).toJson().constData());
    QCOMPARE(out.value(QStringLiteral("refreshes")).toInt(), 1);
    // An expired token cannot be refreshed (the spec's next action is a bootstrap with
    // the public key): the SDK opened a new session and sent the message there.
    const QString after = out.value(QStringLiteral("sessionAfter")).toString();
    QVERIFY(after != out.value(QStringLiteral("sessionId")).toString());
    const auto runs = m_ph->service().runtime().repository().runsOf(after);
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs.first().id, out.value(QStringLiteral("runId")).toString());
}

void tst_Embed::retriesAStaleEpochOnce()
{
    const QJsonObject out = visit(QStringLiteral("/form"), QStringLiteral("stale"));
    QVERIFY2(out.value(QStringLiteral("runId")).toString().startsWith(QLatin1String("rtr_")),
             QJsonDocument(out).toJson().constData());
    QCOMPARE(out.value(QStringLiteral("retries")).toArray(),
             QJsonArray{QStringLiteral("stale_epoch")});
    QCOMPARE(out.value(QStringLiteral("epoch")).toInt(), 2);
}

void tst_Embed::recordsTrackGoalInTheOwnersAnalytics()
{
    const QJsonObject out = visit(QStringLiteral("/form"), QStringLiteral("goal"));
    QVERIFY2(out.value(QStringLiteral("tracked")).toBool(),
             QJsonDocument(out).toJson().constData());
    const HttpResponse summary = m_ph->client().get(
        QStringLiteral("/config/v1/sites/%1/analytics/summary?range=7d").arg(m_siteId));
    QCOMPARE(summary.status, 200);
    QVERIFY2(summary.body.contains("\"goals\":1"), summary.body.constData());
}

void tst_Embed::claimsAnA2wBrowserRunThroughItsOpenLink()
{
    // A visiting agent asks for a run in a person's browser: it waits for one.
    HttpClient agent(m_ph->base());
    const HttpResponse created = agent.send(
        "POST", QStringLiteral("/v2/a2w/runs"),
        QJsonDocument(
            QJsonObject{{QStringLiteral("url"), m_site.url(QStringLiteral("/form"))},
                        {QStringLiteral("prompt"),
                         QStringLiteral("Type \"Ann\" into \"Name\" and click \"Send\"")}})
            .toJson(),
        {{"Content-Type", "application/json"}, {"Prefer", "execution=browser"}});
    QCOMPARE(created.status, 201);
    QCOMPARE(created.json().value(QStringLiteral("status")).toString(),
             QStringLiteral("waiting_browser"));
    const QString run = created.json().value(QStringLiteral("run")).toString();
    const int before = int(m_site.requests("/thanks").size());
    // A visitor opens the link: the site's page, the SDK claims the run and does it there.
    const QJsonObject out =
        visit(created.json().value(QStringLiteral("open")).toString(), QStringLiteral("claim"));
    QVERIFY2(out.value(QStringLiteral("url")).toString().contains(QStringLiteral("/thanks")),
             QJsonDocument(out).toJson().constData());
    QVERIFY(out.value(QStringLiteral("landed")).toString().contains(QStringLiteral("/form")));
    QCOMPARE(int(m_site.requests("/thanks").size()), before + 1);
    QVERIFY(m_site.requests("/thanks").last().path.contains("name=Ann"));
    // The A2W caller sees it run and finish.
    const QJsonObject o =
        HttpClient::pollUntil(run, {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QVERIFY2(o[QStringLiteral("result")][QStringLiteral("text")].toString().startsWith(
                 QStringLiteral("Done")),
             QJsonDocument(o).toJson().constData());
    // The same receipt cannot be claimed twice.
    const auto runs = m_ph->service().runtime().repository().runsOf(
        out.value(QStringLiteral("sessionId")).toString());
    QVERIFY(!runs.isEmpty());
    QVERIFY(!runs.first().a2wRunId.isEmpty());
}

void tst_Embed::keepsThePageWhereTheVisitorLeftIt()
{
    const QJsonObject out = visit(QStringLiteral("/tall"), QStringLiteral("noscroll"));
    QCOMPARE(out.value(QStringLiteral("typed")).toString(), QStringLiteral("far away"));
    QCOMPARE(out.value(QStringLiteral("scrollY")).toInt(-1), 0);
}

void tst_Embed::appliesTheSitesPoliciesToAVisitorsRun_data()
{
    QTest::addColumn<QJsonObject>("aiAccess"); // over the defaults (confirmation: required,
                                               // crossHost: same_host)
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("landsOn"); // the page the visitor ends on
    QTest::addColumn<bool>("deleted");
    const QString other = QStringLiteral("Open http://localhost:%1/form").arg(m_site.port());
    QTest::newRow("a form the visitor's run would send waits for their confirmation")
        << QJsonObject() << "/account"
        << "confirm-own"
        << "Click \"Delete my account\""
        << "127.0.0.1:" << true;
    QTest::newRow("the visitor's run stays on the page's host under same_host")
        << QJsonObject() << "/form"
        << "send-blocked" << other << "127.0.0.1:" << false;
    QTest::newRow("crossHost allow lets the visitor's run open another host of the site")
        << QJsonObject{{QStringLiteral("crossHost"), QStringLiteral("allow")}} << "/form"
        << "send-leaves" << other << "localhost:" << false;
}

void tst_Embed::appliesTheSitesPoliciesToAVisitorsRun()
{
    QFETCH(QJsonObject, aiAccess);
    QFETCH(QString, path);
    QFETCH(QString, scenario);
    QFETCH(QString, message);
    QFETCH(QString, landsOn);
    QFETCH(bool, deleted);
    m_deleted = false;
    auto configure = [this](QJsonObject ai) {
        ai.insert(QStringLiteral("browserDeepLinks"), true); // an upsert replaces aiAccess
        return m_ph->client()
            .post(QStringLiteral("/upsertSiteConfig"),
                  {{QStringLiteral("keyId"), m_keyId},
                   {QStringLiteral("siteConfig"), QJsonObject{{QStringLiteral("aiAccess"), ai}}}})
            .status;
    };
    QCOMPARE(configure(aiAccess), 200);
    const QJsonObject out = visit(path, scenario,
                                  {{QStringLiteral("login"), m_site.url(QStringLiteral("/login"))},
                                   {QStringLiteral("message"), message}});
    QCOMPARE(configure({{QStringLiteral("crossHost"), QStringLiteral("same_host")},
                        {QStringLiteral("confirmation"), QStringLiteral("required")}}),
             200);
    const QByteArray dump = QJsonDocument(out).toJson();
    QVERIFY2(out.value(QStringLiteral("url")).toString().contains(landsOn), dump.constData());
    if (scenario == QLatin1String("confirm-own"))
        QVERIFY2(!out[QStringLiteral("beforeConfirm")][QStringLiteral("deleted")].toBool(true),
                 dump.constData());
    if (scenario == QLatin1String("send-blocked"))
        QVERIFY2(dump.contains("crossHost"), dump.constData());
    QCOMPARE(m_deleted, deleted);
}

void tst_Embed::asksTheSignedInVisitorBeforeAnAgentActs_data()
{
    QTest::addColumn<QString>("prompt");
    QTest::addColumn<QString>("scenario"); // embed.mjs: what the visitor does
    QTest::addColumn<bool>("deleted");     // the account is gone after
    QTest::addColumn<QString>("a2wStatus");
    QTest::addColumn<bool>("withheld");     // the result says the visitor kept it
    QTest::addColumn<bool>("codeReturned"); // the caller can read the recovery code
    const QString read = QStringLiteral("Read the recovery code on this page");
    const QString remove = QStringLiteral("Click \"Delete my account\"");
    QTest::newRow("declining a read runs nothing and sends nothing back")
        << read << "consent-decline" << false << "cancelled" << false << false;
    QTest::newRow("declining a deletion leaves the account")
        << remove << "consent-decline" << false << "cancelled" << false << false;
    QTest::newRow("an accepted read the visitor withholds sends nothing back")
        << read << "consent-withhold" << false << "completed" << true << false;
    QTest::newRow("an accepted read goes back only as the visitor shares it")
        << read << "consent-share" << false << "completed" << false << true;
    QTest::newRow("an accepted deletion still waits for the visitor's confirmation")
        << remove << "consent-confirm" << true << "completed" << true << false;
}

void tst_Embed::asksTheSignedInVisitorBeforeAnAgentActs()
{
    QFETCH(QString, prompt);
    QFETCH(QString, scenario);
    QFETCH(bool, deleted);
    QFETCH(QString, a2wStatus);
    QFETCH(bool, withheld);
    QFETCH(bool, codeReturned);
    m_deleted = false;

    // An anonymous agent asks for the task in a person's browser, and sends the victim
    // the link. The agent itself sees no account: the page is behind the victim's login.
    HttpClient agent(m_ph->base());
    const HttpResponse created = agent.send(
        "POST", QStringLiteral("/v2/a2w/runs"),
        QJsonDocument(QJsonObject{{QStringLiteral("url"), m_site.url(QStringLiteral("/account"))},
                                  {QStringLiteral("prompt"), prompt}})
            .toJson(),
        {{"Content-Type", "application/json"},
         {"Prefer", "execution=browser"},
         {"User-Agent", "SneakyBot/1.0"}});
    QCOMPARE(created.status, 201);
    const QString id = created.json().value(QStringLiteral("id")).toString();
    const QString run = created.json().value(QStringLiteral("run")).toString();

    // The victim, signed in, opens the link.
    const QJsonObject out = visit(created.json().value(QStringLiteral("open")).toString(), scenario,
                                  {{QStringLiteral("login"), m_site.url(QStringLiteral("/login"))},
                                   {QStringLiteral("a2w"), id}});
    const QByteArray dump = QJsonDocument(out).toJson();
    // The prompt in the page: which agent (and that it is not verified), what, where.
    const QString dialog = out.value(QStringLiteral("dialog")).toString();
    QVERIFY2(dialog.contains(prompt), dump.constData());
    QVERIFY2(dialog.contains(QStringLiteral("SneakyBot")), dump.constData());
    QVERIFY2(dialog.contains(QStringLiteral("anonymous")), dump.constData());
    QVERIFY2(dialog.contains(QStringLiteral("Harbour shop")), dump.constData());
    // Nothing ran while the visitor was being asked.
    const QJsonObject before = out.value(QStringLiteral("beforeConsent")).toObject();
    QCOMPARE(before.value(QStringLiteral("a2wStatus")).toString(),
             QStringLiteral("waiting_browser"));
    QCOMPARE(before.value(QStringLiteral("runtimeRuns")).toInt(-1), 0);
    if (scenario == QLatin1String("consent-confirm")) {
        // The form it would send waited for the visitor's confirmation.
        QVERIFY2(!out[QStringLiteral("beforeConfirm")][QStringLiteral("deleted")].toBool(true),
                 dump.constData());
    }
    if (scenario != QLatin1String("consent-decline")) {
        // The visitor saw exactly what would be sent before deciding.
        QVERIFY2(out.value(QStringLiteral("shareDialog"))
                     .toString()
                     .contains(scenario == QLatin1String("consent-confirm")
                                   ? QStringLiteral("Done")
                                   : QStringLiteral("RC-4417-ZETA")),
                 dump.constData());
    }
    QCOMPARE(m_deleted, deleted);

    // What the A2W caller gets: the run and all its events.
    const QJsonObject o =
        HttpClient::pollUntil(run, {QStringLiteral("completed"), QStringLiteral("failed"),
                                    QStringLiteral("cancelled"), QStringLiteral("expired")});
    QCOMPARE(o.value(QStringLiteral("status")).toString(), a2wStatus);
    if (a2wStatus == QLatin1String("cancelled"))
        QCOMPARE(o.value(QStringLiteral("error")).toString(),
                 QStringLiteral("declined by the visitor"));
    QCOMPARE(o[QStringLiteral("result")][QStringLiteral("withheld")].toBool(), withheld);
    QByteArray seen = QJsonDocument(o).toJson();
    for (const a2w::Event &e : m_ph->service().a2w().events(id, 0))
        seen += QJsonDocument(e.toJson()).toJson();
    QCOMPARE(seen.contains("RC-4417-ZETA"), codeReturned);
    if (codeReturned)
        QVERIFY2(o[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
                     QStringLiteral("RC-4417-ZETA")),
                 QJsonDocument(o).toJson().constData());
}

PH_WEBENGINE_TEST_MAIN(tst_Embed)
#include "tst_embed.moc"
