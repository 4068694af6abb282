// The A2W network (docs/api/a2w.md, docs/api/v1-tasks.md) through the real service,
// browser and two fixture sites: capabilities and each site's MCP server (with the
// official MCP SDK client), handoffs and workflows across two sites with maxHops and
// crossHost, Web Bot Auth trust tiers with the reference signer (web-bot-auth) and a key
// directory served here, and the v1 task contract with its nine events and chunks.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "SignerKey.h"
#include "StrictCsp.h"
#include "TestMain.h"
#include "TestResolver.h"
#include "TestService.h"

#include "a2w/A2wService.h"
#include "a2w/TaskEvents.h"
#include "a2w/WebBotAuth.h"
#include "core/Store.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSqlQuery>
#include <QUrlQuery>

using namespace ph;
using namespace ph::test;

namespace {

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString tokenIn(const QString &url)
{
    return url.section(QStringLiteral("access="), 1);
}

} // namespace

class tst_A2wNetwork : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void describesASitesCapabilities();
    void keepsEachCallersCapabilitiesOutOfSharedCaches();
    void refusesCapabilitiesOfASiteThatPublishesNone_data();
    void refusesCapabilitiesOfASiteThatPublishesNone();
    void exposesOnlyWhatAgentDiscoveryAllows();
    void servesEachSitesToolsOverMcpToTheSdkClient();
    void handsARunOffToAnotherSite();
    void refusesAHandoffTheSitesDoNotAllow_data();
    void refusesAHandoffTheSitesDoNotAllow();
    void streamsAWorkflowAcrossTwoSites();
    void keepsARunOnItsHostUnderSameHost();
    void neverLetsAnAnonymousRunReachAnInternalService_data();
    void neverLetsAnAnonymousRunReachAnInternalService();
    void verifiesWebBotAuthSignatures_data();
    void verifiesWebBotAuthSignatures();
    void refusesAReplayedNonce();
    void givesEachTrustTierItsOwnRateLimit();
    void keepsSensitiveFieldsForVerifiedCallers_data();
    void keepsSensitiveFieldsForVerifiedCallers();
    void acceptsTheV1AliasTable_data();
    void acceptsTheV1AliasTable();
    void answersAV1CreateWithItsLinks();
    void streamsTheNineV1EventsInChunks();
    void continuesCancelsAndHandsOffAV1Task();
    void grantsADelegatedSessionBehindTheVerifyLink();
    void refusesADelegationTokenOutsideItsScope_data();
    void refusesADelegationTokenOutsideItsScope();
    void startsAWaitingRunOnlyForAVerifiedCallerContinuingWithAToken();
    void opensEachResourceWithItsOwnTokenOnly_data();
    void opensEachResourceWithItsOwnTokenOnly();
    // Site MCP sessions (docs/security.md, "Site MCP sessions").
    void capsSiteMcpSessionsPerCaller();
    void keepsAnotherCallersSiteMcpSessionThroughAThousandInitializes();
    void refusesASiteMcpSessionOverMcpMaxSessionBytes();

private:
    // A create signed by the reference signer (the verified tier).
    HttpResponse signedCreate(const QJsonObject &body, const QByteArray &prefer = {});
    // Approves the run's delegated session on its verify page; returns the page's status.
    int approve(const QString &verifyLink, const QString &credential, const QStringList &scope,
                double spendCap);
    HttpResponse post(const QString &path, const QJsonObject &body,
                      const HttpClient::Headers &headers = {});
    HttpResponse owner(const QString &path, const QJsonObject &body);
    void configure(const QString &keyId, const QJsonObject &config);
    QJsonObject sign(const QString &method, const QString &url, const QString &agent,
                     qint64 created, qint64 expires);
    QString shop() const { return m_site.url(QStringLiteral("/shop")); }
    // One JSON-RPC message to Harbour's MCP server from the client at `local` (a loopback
    // address) with X-Svc-Client-Id `clientId`, in `session` when given.
    HttpResponse siteMcp(const QString &local, const QString &clientId, const QJsonObject &message,
                         const QString &session = {});
    // initialize as that client: the new session's id, or empty.
    // An initialize naming `clientInfo` (empty: the client id as its name).
    HttpResponse initializeSiteMcp(const QString &local, const QString &clientId,
                                   const QJsonObject &clientInfo = {});
    QString openSiteMcp(const QString &local, const QString &clientId);
    int pingSiteMcp(const QString &local, const QString &clientId, const QString &session);
    // The second site: the same fixture server under the name localhost.
    QString lighthouse() const
    {
        return m_site.url(QStringLiteral("/shop"))
            .replace(QStringLiteral("127.0.0.1"), QStringLiteral("localhost"));
    }

    // The run's settled state, polled until it ends.
    QJsonObject settled(const HttpResponse &created);
    void setPrivateHosts(const QString &siteId, const QStringList &hosts);

    FixtureServer m_site;
    FixtureServer m_noKeys;   // a Signature-Agent with no key directory
    FixtureServer m_internal; // an internal service on loopback, another port
    std::unique_ptr<TestService> m_ph;
    QString m_harbourSite, m_harbourKey, m_lighthouseSite, m_lighthouseKey;
    QJsonObject m_jwk;
    QString m_agent; // the Signature-Agent header value (an sf-string)
    // Key directories are fetched from public addresses only: agent.test and nokeys.test
    // are "public" names whose connections go to m_site and m_noKeys on loopback.
    std::shared_ptr<TestResolver> m_resolver = std::make_shared<TestResolver>();
};

void tst_A2wNetwork::initTestCase()
{
    QVERIFY(m_site.start());
    QVERIFY(m_noKeys.start());
    QVERIFY(m_internal.start());
    m_internal.page("/secret",
                    htmlPage(QStringLiteral("Internal"),
                             QStringLiteral("<h1>Admin</h1><p>INTERNAL-SECRET-7731</p>")));
    // An open redirect on the site: /go?to=<anywhere>.
    m_site.route("/go", [](const FixtureRequest &req) {
        FixtureResponse r;
        r.status = 302;
        r.headers.append(
            {QByteArray("Location"),
             QUrl::fromPercentEncoding(
                 QString::fromLatin1(req.path).section(QStringLiteral("to="), 1).toLatin1())
                 .toUtf8()});
        return r;
    });
    m_site.page(
        "/shop",
        htmlPage(QStringLiteral("Harbour Shop"),
                 QStringLiteral("<h1>Products</h1><table><thead><tr><th>Name</th><th>Price"
                                "</th></tr></thead><tbody><tr><td>Sextant</td><td>310.00</td>"
                                "</tr><tr><td>Chart</td><td>25.00</td></tr></tbody></table>")));
    m_site.page("/elsewhere", htmlPage(QStringLiteral("Elsewhere"),
                                       QStringLiteral("<h1>Another host</h1><p>Beacon</p>")));
    m_site.page(
        "/big",
        htmlPage(QStringLiteral("Catalogue"),
                 QStringLiteral("<h1>Catalogue</h1><p>%1</p>")
                     .arg(QStringLiteral("Brass sextant with a mahogany case. ").repeated(60))));

    // The reference signer's key, and its directory on the fixture server.
    const SignerKey key = makeSignerKey(QStringLiteral(PILOTHOUSE_A2W_TEST_DIR));
    QVERIFY2(key.script.ok(), qPrintable(key.script.diagnostics()));
    m_jwk = key.jwk;
    serveKeyDirectory(m_site, key.directory, "max-age=300");
    m_agent = QStringLiteral("\"http://agent.test:%1\"").arg(m_site.port());
    m_resolver->add(QStringLiteral("agent.test"), {QHostAddress(QStringLiteral("203.0.113.9"))});
    m_resolver->route(QHostAddress(QStringLiteral("203.0.113.9")), m_site.port());
    m_resolver->add(QStringLiteral("nokeys.test"), {QHostAddress(QStringLiteral("203.0.113.10"))});
    m_resolver->route(QHostAddress(QStringLiteral("203.0.113.10")), m_noKeys.port());
    m_resolver->add(QStringLiteral("localhost"), {QHostAddress(QHostAddress::LocalHost)});

    m_ph = std::make_unique<TestService>(
        QStringList{QStringLiteral("a2w.runsPerMinutePerAddress=1000"),
                    QStringLiteral("a2w.runsPerMinuteIdentified=1000"),
                    QStringLiteral("a2w.eventChunkBytes=256")},
        QString(), nullptr, m_resolver);
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_ph->service().webBotAuth().setPlainHttpDirectoriesForTests(true);
    for (const auto &[name, domain, site, keyId] :
         {std::tuple{"Harbour", "127.0.0.1", &m_harbourSite, &m_harbourKey},
          std::tuple{"Lighthouse", "localhost", &m_lighthouseSite, &m_lighthouseKey}}) {
        const HttpResponse r =
            owner(QStringLiteral("/generateSiteKey"),
                  {{QStringLiteral("siteName"), QLatin1String(name)},
                   {QStringLiteral("label"), QStringLiteral("embed")},
                   {QStringLiteral("allowedDomains"), QJsonArray{QLatin1String(domain)}}});
        QCOMPARE(r.status, 201);
        *site = r.json().value(QStringLiteral("siteId")).toString();
        *keyId = r.json()[QStringLiteral("key")][QStringLiteral("keyId")].toString();
    }
    // Harbour publishes a shortcut (with a capability) and a playbook; both sites take
    // handoffs.
    configure(
        m_harbourKey,
        {{QStringLiteral("shortcuts"),
          QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("list-products")},
                                 {QStringLiteral("label"), QStringLiteral("List products")},
                                 {QStringLiteral("description"),
                                  QStringLiteral("Lists the products with their prices")},
                                 {QStringLiteral("prompt"), QStringLiteral("List the products")},
                                 {QStringLiteral("url"), shop()},
                                 {QStringLiteral("capabilityId"), QStringLiteral("catalog.list")}},
                     QJsonObject{{QStringLiteral("id"), QStringLiteral("tour")},
                                 {QStringLiteral("label"), QStringLiteral("Tour")},
                                 {QStringLiteral("kind"), QStringLiteral("journey")},
                                 {QStringLiteral("engagementKind"), QStringLiteral("demo")},
                                 {QStringLiteral("steps"),
                                  QJsonArray{QJsonObject{
                                      {QStringLiteral("title"), QStringLiteral("List the "
                                                                               "products")}}}}}}},
         {QStringLiteral("aiAccess"),
          QJsonObject{{QStringLiteral("allowDelegatedHandoffs"), true},
                      {QStringLiteral("confirmation"), QStringLiteral("auto")}}}});
    configure(m_lighthouseKey,
              {{QStringLiteral("aiAccess"),
                QJsonObject{{QStringLiteral("allowDelegatedHandoffs"), true},
                            {QStringLiteral("confirmation"), QStringLiteral("auto")}}}});
    m_ph->allowBrowserHandoffs(); // off by default; browser runs are tested here
    // Both sites are served on a random loopback port, not the standard one: their owner
    // lists it.
    setPrivateHosts(m_harbourSite, {m_site.hostPort()});
    setPrivateHosts(m_lighthouseSite, {QStringLiteral("localhost:%1").arg(m_site.port())});
}

void tst_A2wNetwork::cleanupTestCase()
{
    m_ph.reset();
}

HttpResponse tst_A2wNetwork::post(const QString &path, const QJsonObject &body,
                                  const HttpClient::Headers &headers)
{
    HttpClient::Headers h = headers;
    h.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    return HttpClient(m_ph->base()).send("POST", path, json(body), h);
}

HttpResponse tst_A2wNetwork::owner(const QString &path, const QJsonObject &body)
{
    return m_ph->client().post(path, body);
}

void tst_A2wNetwork::configure(const QString &keyId, const QJsonObject &config)
{
    // An upsert replaces aiAccess whole: browser runs (off by default) stay allowed here
    // unless a row says otherwise.
    QJsonObject withLinks = config;
    if (config.contains(QStringLiteral("aiAccess"))) {
        QJsonObject ai = config.value(QStringLiteral("aiAccess")).toObject();
        if (!ai.contains(QStringLiteral("browserDeepLinks")))
            ai.insert(QStringLiteral("browserDeepLinks"), true);
        withLinks.insert(QStringLiteral("aiAccess"), ai);
    }
    const HttpResponse r =
        owner(QStringLiteral("/upsertSiteConfig"),
              {{QStringLiteral("keyId"), keyId}, {QStringLiteral("siteConfig"), withLinks}});
    QVERIFY2(r.status == 200, r.body.constData());
}

QJsonObject tst_A2wNetwork::sign(const QString &method, const QString &url, const QString &agent,
                                 qint64 created, qint64 expires)
{
    const NodeResult r = runNodeScript(QStringLiteral(PILOTHOUSE_A2W_TEST_DIR),
                                       {QStringLiteral("sign.mjs"), QStringLiteral("sign"),
                                        QString::fromUtf8(json(m_jwk)), method, url, agent,
                                        QString::number(created), QString::number(expires)},
                                       30000);
    if (!r.ok())
        qWarning() << r.diagnostics();
    return r.result();
}

void tst_A2wNetwork::describesASitesCapabilities()
{
    for (const QString &query :
         {QStringLiteral("url=") + QString::fromLatin1(QUrl::toPercentEncoding(shop())),
          QStringLiteral("host=127.0.0.1"), QStringLiteral("siteId=") + m_harbourSite}) {
        const HttpResponse r = m_ph->client().get(QStringLiteral("/v2/a2w/capabilities?") + query);
        QVERIFY2(r.status == 200, qPrintable(query + QLatin1Char(' ') + QString::fromUtf8(r.body)));
        const QJsonObject o = r.json();
        QCOMPARE(o.value(QStringLiteral("protocol")).toString(), QStringLiteral("mcp"));
        QVERIFY(o[QStringLiteral("serverInfo")][QStringLiteral("name")].toString().contains(
            m_harbourSite));
        QCOMPARE(o[QStringLiteral("executor")][QStringLiteral("contract")].toString(),
                 QStringLiteral("a2w"));
        QCOMPARE(o[QStringLiteral("executor")][QStringLiteral("runEndpoint")].toString(),
                 m_ph->base() + QStringLiteral("/v2/a2w/runs"));
        QCOMPARE(o[QStringLiteral("mcp")][QStringLiteral("transport")].toString(),
                 QStringLiteral("streamable-http"));
        QCOMPARE(o[QStringLiteral("mcp")][QStringLiteral("url")].toString(),
                 m_ph->base() + QStringLiteral("/v2/a2w/sites/%1/mcp").arg(m_harbourSite));
        QStringList names;
        for (const QJsonValue &t : o.value(QStringLiteral("tools")).toArray()) {
            names << t[QStringLiteral("name")].toString();
            QCOMPARE(t[QStringLiteral("inputSchema")][QStringLiteral("type")].toString(),
                     QStringLiteral("object"));
        }
        QCOMPARE(names,
                 (QStringList{QStringLiteral("run_task"), QStringLiteral("shortcut_list-products"),
                              QStringLiteral("playbook_tour")}));
        // The declared capability takes its arguments.
        const QJsonObject shortcut = o.value(QStringLiteral("tools")).toArray().at(1).toObject();
        QVERIFY(shortcut[QStringLiteral("inputSchema")][QStringLiteral("properties")]
                    .toObject()
                    .contains(QStringLiteral("args")));
        QCOMPARE(shortcut[QStringLiteral("description")].toString(),
                 QStringLiteral("Lists the products with their prices"));
    }
}

void tst_A2wNetwork::keepsEachCallersCapabilitiesOutOfSharedCaches()
{
    // `trust` is the caller's own: a shared cache must not hand a verified caller's
    // answer to an anonymous one (or the other way round).
    const QString path = QStringLiteral("/v2/a2w/capabilities?siteId=") + m_harbourSite;
    const HttpResponse anonymous = HttpClient(m_ph->base()).get(path);
    QCOMPARE(anonymous.status, 200);
    QCOMPARE(anonymous.json().value(QStringLiteral("trust")).toString(),
             QStringLiteral("anonymous"));
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QJsonObject sig =
        sign(QStringLiteral("GET"), m_ph->base() + path, m_agent, now - 5, now + 300);
    const HttpResponse verified =
        HttpClient(m_ph->base())
            .get(path, {{"Signature", sig.value(QStringLiteral("Signature")).toString().toLatin1()},
                        {"Signature-Input",
                         sig.value(QStringLiteral("Signature-Input")).toString().toLatin1()},
                        {"Signature-Agent", m_agent.toLatin1()}});
    QVERIFY2(verified.status == 200, verified.body.constData());
    QCOMPARE(verified.json().value(QStringLiteral("trust")).toString(), QStringLiteral("verified"));
    for (const HttpResponse &r : {anonymous, verified}) {
        auto tokens = [](const QByteArray &value) {
            QList<QByteArray> out;
            for (const QByteArray &part : value.toLower().split(','))
                out << part.trimmed();
            return out;
        };
        const QList<QByteArray> cacheControl = tokens(r.header("cache-control"));
        QVERIFY2(cacheControl.contains("private") && !cacheControl.contains("public"),
                 r.header("cache-control").constData());
        const QList<QByteArray> vary = tokens(r.header("vary"));
        for (const char *header :
             {"signature", "signature-input", "signature-agent", "x-svc-client-id"})
            QVERIFY2(vary.contains(header), r.header("vary").constData());
    }
}

void tst_A2wNetwork::refusesCapabilitiesOfASiteThatPublishesNone_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::newRow("a host no site key allows is no enabled site")
        << QStringLiteral("host=unknown.example") << 404 << QStringLiteral("SITE_NOT_ENABLED");
    QTest::newRow("an unknown site id is no enabled site")
        << QStringLiteral("siteId=site_nothing") << 404 << QStringLiteral("SITE_NOT_ENABLED");
    QTest::newRow("no url, host or siteId names the missing field")
        << QString() << 400 << QStringLiteral("MISSING_FIELD");
}

void tst_A2wNetwork::refusesCapabilitiesOfASiteThatPublishesNone()
{
    QFETCH(QString, query);
    QFETCH(int, status);
    QFETCH(QString, code);
    const HttpResponse r = m_ph->client().get(QStringLiteral("/v2/a2w/capabilities?") + query);
    QCOMPARE(r.status, status);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
}

void tst_A2wNetwork::exposesOnlyWhatAgentDiscoveryAllows()
{
    const QString path = QStringLiteral("/v2/a2w/capabilities?siteId=") + m_lighthouseSite;
    auto names = [&] {
        QStringList out;
        for (const QJsonValue &t :
             m_ph->client().get(path).json().value(QStringLiteral("tools")).toArray())
            out << t[QStringLiteral("name")].toString();
        return out;
    };
    QCOMPARE(names(), QStringList{QStringLiteral("run_task")});
    configure(m_lighthouseKey, {{QStringLiteral("agentDiscovery"),
                                 QJsonObject{{QStringLiteral("expose"),
                                              QJsonObject{{QStringLiteral("prompt"), false}}}}}});
    QCOMPARE(names(), QStringList());
    configure(m_lighthouseKey, {{QStringLiteral("agentDiscovery"),
                                 QJsonObject{{QStringLiteral("enabled"), false}}}});
    const HttpResponse off = m_ph->client().get(path);
    QCOMPARE(off.status, 403);
    QCOMPARE(off.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("DISCOVERY_DISABLED"));
    // …and its MCP server is gone with it.
    QCOMPARE(post(QStringLiteral("/v2/a2w/sites/%1/mcp").arg(m_lighthouseSite),
                  {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                   {QStringLiteral("id"), 1},
                   {QStringLiteral("method"), QStringLiteral("ping")}})
                 .status,
             403);
    configure(
        m_lighthouseKey,
        {{QStringLiteral("agentDiscovery"),
          QJsonObject{{QStringLiteral("enabled"), true},
                      {QStringLiteral("expose"), QJsonObject{{QStringLiteral("prompt"), true}}}}}});
    QCOMPARE(names(), QStringList{QStringLiteral("run_task")});
}

void tst_A2wNetwork::servesEachSitesToolsOverMcpToTheSdkClient()
{
    const QString mcpUrl = m_ph->client()
                               .get(QStringLiteral("/v2/a2w/capabilities?siteId=") + m_harbourSite)
                               .json()[QStringLiteral("mcp")][QStringLiteral("url")]
                               .toString();
    const NodeResult r =
        runNodeScript(QStringLiteral(PILOTHOUSE_MCP_TEST_DIR),
                      {QStringLiteral("site_mcp.mjs"), mcpUrl,
                       QStringLiteral("shortcut_list-products"), QStringLiteral("{}")},
                      150000);
    QVERIFY2(r.ok(), qPrintable(r.diagnostics()));
    const QJsonObject out = r.result();
    QCOMPARE(out[QStringLiteral("server")][QStringLiteral("name")].toString(),
             QStringLiteral("pilothouse-a2w"));
    QCOMPARE(out[QStringLiteral("tools")].toArray().size(), 3);
    const QJsonObject result = out.value(QStringLiteral("result")).toObject();
    QVERIFY2(!result.value(QStringLiteral("isError")).toBool(),
             qPrintable(QString::fromUtf8(r.out)));
    // The call went through the canonical contract: a real A2W run, completed, whose
    // result names what the page lists, with its run link.
    const QJsonObject run = result.value(QStringLiteral("structured")).toObject();
    QCOMPARE(run.value(QStringLiteral("protocol")).toString(), QStringLiteral("a2w"));
    QCOMPARE(run.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QVERIFY(run[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
        QLatin1String("Sextant")));
    const HttpResponse again = HttpClient().get(run.value(QStringLiteral("run")).toString());
    QCOMPARE(again.status, 200);
    QCOMPARE(again.json().value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
}

void tst_A2wNetwork::handsARunOffToAnotherSite()
{
    const HttpResponse parent =
        post(QStringLiteral("/v2/a2w/runs"),
             {{QStringLiteral("url"), shop()},
              {QStringLiteral("prompt"), QStringLiteral("List the products")},
              {QStringLiteral("agent"),
               QJsonObject{{QStringLiteral("displayName"), QStringLiteral("Scout")}}}},
             {{"Prefer", "wait=25"}});
    QCOMPARE(parent.status, 201);
    const QString parentRun = parent.json().value(QStringLiteral("run")).toString();
    const QString parentId = parent.json().value(QStringLiteral("id")).toString();
    const HttpResponse child =
        post(QStringLiteral("/v2/a2w/runs/%1/handoffs?access=%2").arg(parentId, tokenIn(parentRun)),
             {{QStringLiteral("url"), lighthouse()},
              {QStringLiteral("prompt"), QStringLiteral("List the products")},
              {QStringLiteral("contextSummary"), QStringLiteral("The harbour sells a sextant")},
              {QStringLiteral("expectedOutput"), QStringLiteral("the cheapest chart")},
              {QStringLiteral("lastObservation"),
               QJsonObject{{QStringLiteral("title"), QStringLiteral("Harbour Shop")}}}});
    QVERIFY2(child.status == 201, child.body.constData());
    const QJsonObject c = child.json();
    QVERIFY(c.value(QStringLiteral("id")).toString() != parentId);
    QCOMPARE(c.value(QStringLiteral("parentRunId")).toString(), parentId);
    QCOMPARE(c.value(QStringLiteral("hop")).toInt(), 1);
    // The agent is inherited; the child's token is its own.
    QCOMPARE(c[QStringLiteral("agent")][QStringLiteral("displayName")].toString(),
             QStringLiteral("Scout"));
    QCOMPARE(c.value(QStringLiteral("workflow")).toString().section(u'?', 0, 0),
             parent.json().value(QStringLiteral("workflow")).toString().section(u'?', 0, 0));
    const QJsonObject done =
        HttpClient::pollUntil(c.value(QStringLiteral("run")).toString(),
                              {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(done.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(done[QStringLiteral("result")][QStringLiteral("observation")][QStringLiteral("host")]
                 .toString(),
             QStringLiteral("localhost"));
    // What the parent passed on reached the child's planner (its task).
    QSqlQuery q(m_ph->service().store().database());
    QVERIFY(q.exec(QStringLiteral("SELECT t.task FROM trajectories t JOIN a2w_runs r ON "
                                  "r.trajectory_id = t.id WHERE r.id = '%1'")
                       .arg(c.value(QStringLiteral("id")).toString())));
    QVERIFY(q.next());
    const QString task = q.value(0).toString();
    QVERIFY2(task.contains(QLatin1String("The harbour sells a sextant")), qPrintable(task));
    QVERIFY(task.contains(QLatin1String("the cheapest chart")));
    QVERIFY(task.contains(QLatin1String("Harbour Shop")));
}

void tst_A2wNetwork::refusesAHandoffTheSitesDoNotAllow_data()
{
    QTest::addColumn<QJsonObject>("harbourAi");
    QTest::addColumn<QJsonObject>("lighthouseAi");
    QTest::addColumn<QJsonObject>("policy");
    QTest::addColumn<int>("hops"); // handoffs to make; the last is the one checked
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    const QJsonObject open{{QStringLiteral("allowDelegatedHandoffs"), true},
                           {QStringLiteral("maxHops"), 2}};
    QTest::newRow("a site that takes no handoffs refuses one")
        << open << QJsonObject{{QStringLiteral("allowDelegatedHandoffs"), false}} << QJsonObject()
        << 1 << 403 << QStringLiteral("HANDOFF_NOT_ALLOWED");
    QTest::newRow("the receiving site's maxHops holds")
        << open
        << QJsonObject{{QStringLiteral("allowDelegatedHandoffs"), true},
                       {QStringLiteral("maxHops"), 0}}
        << QJsonObject() << 1 << 403 << QStringLiteral("MAX_HOPS_EXCEEDED");
    QTest::newRow("the caller's maxHops holds when it is the smaller")
        << open << open << QJsonObject{{QStringLiteral("maxHops"), 0}} << 1 << 403
        << QStringLiteral("MAX_HOPS_EXCEEDED");
    QTest::newRow("a second hop is allowed within maxHops 2")
        << open << open << QJsonObject() << 2 << 201 << QString();
    QTest::newRow("a third hop is refused by maxHops 2")
        << open << open << QJsonObject() << 3 << 403 << QStringLiteral("MAX_HOPS_EXCEEDED");
}

void tst_A2wNetwork::refusesAHandoffTheSitesDoNotAllow()
{
    QFETCH(QJsonObject, harbourAi);
    QFETCH(QJsonObject, lighthouseAi);
    QFETCH(QJsonObject, policy);
    QFETCH(int, hops);
    QFETCH(int, status);
    QFETCH(QString, code);
    configure(m_harbourKey, {{QStringLiteral("aiAccess"), harbourAi}});
    configure(m_lighthouseKey, {{QStringLiteral("aiAccess"), lighthouseAi}});
    // Browser runs: they wait, so the handoffs are about policy alone.
    QJsonObject body{{QStringLiteral("url"), shop()},
                     {QStringLiteral("prompt"), QStringLiteral("List the products")}};
    if (!policy.isEmpty())
        body.insert(QStringLiteral("policy"), policy);
    const HttpResponse root =
        post(QStringLiteral("/v2/a2w/runs"), body, {{"Prefer", "execution=browser"}});
    QCOMPARE(root.status, 201);
    QString id = root.json().value(QStringLiteral("id")).toString();
    QString token = tokenIn(root.json().value(QStringLiteral("run")).toString());
    HttpResponse last;
    for (int i = 1; i <= hops; ++i) {
        last = post(QStringLiteral("/v2/a2w/runs/%1/handoffs?access=%2").arg(id, token),
                    {{QStringLiteral("url"), i % 2 ? lighthouse() : shop()},
                     {QStringLiteral("prompt"), QStringLiteral("Read the page")},
                     {QStringLiteral("execution"),
                      QJsonObject{{QStringLiteral("mode"), QStringLiteral("browser")}}}});
        if (i < hops) {
            QVERIFY2(last.status == 201, last.body.constData());
            id = last.json().value(QStringLiteral("id")).toString();
            token = tokenIn(last.json().value(QStringLiteral("run")).toString());
        }
    }
    QVERIFY2(last.status == status, last.body.constData());
    if (!code.isEmpty()) {
        QCOMPARE(last.json().value(QStringLiteral("code")).toString(), code);
        QVERIFY(!last.json().value(QStringLiteral("field")).toString().isEmpty());
    }
    // Nothing another run's token opens.
    QCOMPARE(post(QStringLiteral("/v2/a2w/runs/%1/handoffs?access=a2wr_wrong").arg(id),
                  {{QStringLiteral("url"), lighthouse()},
                   {QStringLiteral("prompt"), QStringLiteral("x")}})
                 .status,
             404);
    const QJsonObject reset{{QStringLiteral("allowDelegatedHandoffs"), true},
                            {QStringLiteral("maxHops"), 2}};
    configure(m_harbourKey, {{QStringLiteral("aiAccess"), reset}});
    configure(m_lighthouseKey, {{QStringLiteral("aiAccess"), reset}});
}

void tst_A2wNetwork::streamsAWorkflowAcrossTwoSites()
{
    const HttpResponse parent =
        post(QStringLiteral("/v2/a2w/runs"),
             {{QStringLiteral("url"), shop()},
              {QStringLiteral("prompt"), QStringLiteral("List the products")}},
             {{"Prefer", "wait=25"}});
    QCOMPARE(parent.status, 201);
    const QString workflow = parent.json().value(QStringLiteral("workflow")).toString();
    const HttpResponse child =
        post(QStringLiteral("/v2/a2w/runs/%1/handoffs?access=%2")
                 .arg(parent.json().value(QStringLiteral("id")).toString(),
                      tokenIn(parent.json().value(QStringLiteral("run")).toString())),
             {{QStringLiteral("url"), lighthouse()},
              {QStringLiteral("prompt"), QStringLiteral("List the products")}});
    QCOMPARE(child.status, 201);
    const QString childId = child.json().value(QStringLiteral("id")).toString();

    // NDJSON: the events of both runs, each naming its run, then the snapshot.
    const QString path = QUrl(workflow).path() + QStringLiteral("?access=") + tokenIn(workflow);
    const QByteArray reply = HttpClient::raw(
        m_ph->port(),
        "GET " + path.toUtf8() + " HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\n\r\n",
        90000, "\"type\":\"workflow\"");
    QSet<QString> runs;
    QJsonObject snapshot;
    qint64 previous = 0;
    for (const QByteArray &line : reply.mid(reply.indexOf("\r\n\r\n") + 4).split('\n')) {
        const QJsonObject e = QJsonDocument::fromJson(line).object();
        if (e.isEmpty() || e.value(QStringLiteral("type")).toString() == QLatin1String("ping"))
            continue;
        if (e.value(QStringLiteral("type")).toString() == QLatin1String("workflow")) {
            snapshot = e.value(QStringLiteral("data")).toObject();
            continue;
        }
        runs << e.value(QStringLiteral("runId")).toString();
        const qint64 id = e.value(QStringLiteral("id")).toString().toLongLong();
        QVERIFY(id > previous);
        previous = id;
    }
    QCOMPARE(runs.size(), 2);
    QVERIFY(runs.contains(childId));
    QCOMPARE(snapshot.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    const QJsonArray list = snapshot.value(QStringLiteral("runs")).toArray();
    QCOMPARE(list.size(), 2);
    QCOMPARE(list[1][QStringLiteral("parentRunId")].toString(),
             parent.json().value(QStringLiteral("id")).toString());
    QCOMPARE(list[1][QStringLiteral("host")].toString(), QStringLiteral("localhost"));
    QVERIFY(snapshot[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
        QLatin1String("Sextant")));
    QCOMPARE(snapshot[QStringLiteral("result")][QStringLiteral("runId")].toString(), childId);

    // SSE with a real client, from the start: the same lineage.
    const NodeResult sse = runNodeScript(QStringLiteral(PILOTHOUSE_A2W_TEST_DIR),
                                         {QStringLiteral("stream.mjs"), workflow,
                                          QStringLiteral("60000"), QStringLiteral("workflow")},
                                         90000);
    QVERIFY2(sse.ok(), qPrintable(sse.diagnostics()));
    QSet<QString> seen;
    for (const QJsonValue &e : sse.result().value(QStringLiteral("events")).toArray())
        seen << e[QStringLiteral("data")][QStringLiteral("runId")].toString();
    QVERIFY(seen.contains(childId));
}

void tst_A2wNetwork::keepsARunOnItsHostUnderSameHost()
{
    const QString elsewhere =
        m_site.url(QStringLiteral("/elsewhere"))
            .replace(QStringLiteral("127.0.0.1"), QStringLiteral("localhost"));
    const QJsonObject body{
        {QStringLiteral("url"), shop()},
        {QStringLiteral("prompt"), QStringLiteral("Open %1 and read the page").arg(elsewhere)}};
    // Harbour's default crossHost is same_host: the step that leaves the host fails.
    const int before = m_site.hits("/elsewhere");
    const HttpResponse kept = post(QStringLiteral("/v2/a2w/runs"), body, {{"Prefer", "wait=25"}});
    QCOMPARE(kept.status, 201);
    const QJsonObject k =
        HttpClient::pollUntil(kept.json().value(QStringLiteral("run")).toString(),
                              {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(m_site.hits("/elsewhere"), before);
    QVERIFY2(k.value(QStringLiteral("status")).toString() == QLatin1String("failed") ||
                 !k[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
                     QLatin1String("Beacon")),
             qPrintable(QString::fromUtf8(json(k))));
    bool refusedStep = false;
    QSqlQuery q(m_ph->service().store().database());
    QVERIFY(q.exec(QStringLiteral("SELECT data FROM a2w_events WHERE run_id = '%1' AND type = "
                                  "'step'")
                       .arg(k.value(QStringLiteral("id")).toString())));
    while (q.next())
        refusedStep |= q.value(0).toString().contains(QLatin1String("crossHost"));
    QVERIFY(refusedStep);

    // The site allows it: the same run may leave its origin, but the other host is
    // private (loopback) and not one of Harbour's: still refused…
    configure(m_harbourKey, {{QStringLiteral("aiAccess"), QJsonObject{{QStringLiteral("crossHost"),
                                                                       QStringLiteral("allow")}}}});
    const QJsonObject refused =
        settled(post(QStringLiteral("/v2/a2w/runs"), body, {{"Prefer", "wait=25"}}));
    QCOMPARE(m_site.hits("/elsewhere"), before);
    QVERIFY(!refused[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
        QLatin1String("Beacon")));
    // …until the owner lists it among Harbour's private hosts: the run reaches it.
    setPrivateHosts(m_harbourSite,
                    {m_site.hostPort(), QStringLiteral("localhost:%1").arg(m_site.port())});
    const QJsonObject c =
        settled(post(QStringLiteral("/v2/a2w/runs"), body, {{"Prefer", "wait=25"}}));
    QCOMPARE(c.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QVERIFY(m_site.hits("/elsewhere") > before);
    // …unless the caller narrows it.
    QJsonObject narrowed = body;
    narrowed.insert(QStringLiteral("policy"),
                    QJsonObject{{QStringLiteral("crossHost"), QStringLiteral("same_host")}});
    const int after = m_site.hits("/elsewhere");
    const HttpResponse n = post(QStringLiteral("/v2/a2w/runs"), narrowed, {{"Prefer", "wait=25"}});
    HttpClient::pollUntil(n.json().value(QStringLiteral("run")).toString(),
                          {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(m_site.hits("/elsewhere"), after);
    setPrivateHosts(m_harbourSite, {m_site.hostPort()});
    configure(m_harbourKey,
              {{QStringLiteral("aiAccess"),
                QJsonObject{{QStringLiteral("crossHost"), QStringLiteral("same_host")}}}});
}

QJsonObject tst_A2wNetwork::settled(const HttpResponse &created)
{
    if (created.status != 201)
        return created.json();
    return HttpClient::pollUntil(created.json().value(QStringLiteral("run")).toString(),
                                 {QStringLiteral("completed"), QStringLiteral("failed")});
}

void tst_A2wNetwork::setPrivateHosts(const QString &siteId, const QStringList &hosts)
{
    const HttpResponse r =
        owner(QStringLiteral("/updateSitePrivateHosts"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("privateHosts"), QJsonArray::fromStringList(hosts)}});
    QCOMPARE(r.status, 200);
}

void tst_A2wNetwork::neverLetsAnAnonymousRunReachAnInternalService_data()
{
    // The review's reproduction: an anonymous caller, an enabled site on loopback (the
    // reverse-proxy setup, network.allowPrivateTargets on), an internal service on
    // another port of the same host.
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("prompt");
    QTest::addColumn<QString>("crossHost"); // Harbour's aiAccess.crossHost
    const QString secret = QStringLiteral("http://127.0.0.1:%1/secret").arg(m_internal.port());
    const QString named = QStringLiteral("http://localhost:%1/secret").arg(m_internal.port());
    QTest::newRow("an open redirect on the site to loopback on another port")
        << m_site.url(QStringLiteral("/go?to=") +
                      QString::fromLatin1(QUrl::toPercentEncoding(secret)))
        << QStringLiteral("Read the page") << QStringLiteral("allow");
    QTest::newRow("an open redirect on the site to localhost")
        << m_site.url(QStringLiteral("/go?to=") +
                      QString::fromLatin1(QUrl::toPercentEncoding(named)))
        << QStringLiteral("Read the page") << QStringLiteral("allow");
    QTest::newRow("an open redirect under same_host")
        << m_site.url(QStringLiteral("/go?to=") +
                      QString::fromLatin1(QUrl::toPercentEncoding(secret)))
        << QStringLiteral("Read the page") << QStringLiteral("same_host");
    QTest::newRow("a prompt naming the same host on another port under same_host")
        << shop() << QStringLiteral("Open %1 and read the page").arg(secret)
        << QStringLiteral("same_host");
    QTest::newRow("a plain prompt under crossHost allow")
        << shop() << QStringLiteral("Open %1 and read the page").arg(secret)
        << QStringLiteral("allow");
}

void tst_A2wNetwork::neverLetsAnAnonymousRunReachAnInternalService()
{
    QFETCH(QString, url);
    QFETCH(QString, prompt);
    QFETCH(QString, crossHost);
    configure(m_harbourKey, {{QStringLiteral("aiAccess"),
                              QJsonObject{{QStringLiteral("crossHost"), crossHost}}}});
    const int before = m_internal.hits("/secret");
    const QJsonObject run =
        settled(post(QStringLiteral("/v2/a2w/runs"),
                     {{QStringLiteral("url"), url}, {QStringLiteral("prompt"), prompt}},
                     {{"Prefer", "wait=25"}}));
    configure(m_harbourKey,
              {{QStringLiteral("aiAccess"),
                QJsonObject{{QStringLiteral("crossHost"), QStringLiteral("same_host")}}}});
    QVERIFY2(!json(run).contains("INTERNAL-SECRET-7731"), json(run).constData());
    QCOMPARE(m_internal.hits("/secret"), before);
    // The site's own origin stayed reachable: the run started (its page was loaded).
    QVERIFY2(run.value(QStringLiteral("status")).toString() == QLatin1String("failed") ||
                 run.value(QStringLiteral("status")).toString() == QLatin1String("completed"),
             json(run).constData());
}

void tst_A2wNetwork::verifiesWebBotAuthSignatures_data()
{
    QTest::addColumn<QString>("how");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("trust");
    QTest::newRow("a valid signature earns the verified tier")
        << QStringLiteral("valid") << 201 << QString() << QStringLiteral("verified");
    QTest::newRow("no signature stays accepted, anonymous")
        << QStringLiteral("none") << 201 << QString() << QStringLiteral("anonymous");
    QTest::newRow("an agent object is identified")
        << QStringLiteral("agent") << 201 << QString() << QStringLiteral("identified");
    QTest::newRow("a tampered signature is refused")
        << QStringLiteral("tampered") << 401 << QStringLiteral("SIGNATURE_INVALID") << QString();
    QTest::newRow("a signature over another host is refused")
        << QStringLiteral("other-authority") << 401 << QStringLiteral("SIGNATURE_INVALID")
        << QString();
    QTest::newRow("an expired signature is refused")
        << QStringLiteral("expired") << 401 << QStringLiteral("SIGNATURE_EXPIRED") << QString();
    QTest::newRow("a window longer than allowed is refused")
        << QStringLiteral("long") << 401 << QStringLiteral("SIGNATURE_EXPIRED") << QString();
    QTest::newRow("a key directory that has no such key is refused")
        << QStringLiteral("unknown-directory") << 401 << QStringLiteral("SIGNATURE_KEY_UNKNOWN")
        << QString();
    QTest::newRow("a malformed Signature-Input is refused")
        << QStringLiteral("malformed") << 401 << QStringLiteral("SIGNATURE_MALFORMED") << QString();
}

void tst_A2wNetwork::verifiesWebBotAuthSignatures()
{
    QFETCH(QString, how);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, trust);
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QString target = m_ph->base() + QStringLiteral("/v2/a2w/runs");
    QJsonObject body{{QStringLiteral("url"), shop()},
                     {QStringLiteral("prompt"), QStringLiteral("List the products")}};
    HttpClient::Headers headers{{"Prefer", "execution=browser"}};
    QString agent = m_agent;
    if (how == QLatin1String("unknown-directory"))
        agent = QStringLiteral("\"http://nokeys.test:%1\"").arg(m_noKeys.port());
    if (how == QLatin1String("agent"))
        body.insert(QStringLiteral("agent"),
                    QJsonObject{{QStringLiteral("displayName"), QStringLiteral("Scout")}});
    if (how != QLatin1String("none") && how != QLatin1String("agent")) {
        const qint64 created = how == QLatin1String("expired") ? now - 600 : now - 5;
        const qint64 expires = how == QLatin1String("expired") ? now - 300
                               : how == QLatin1String("long")  ? now + 7200
                                                               : now + 300;
        const QString signedUrl =
            how == QLatin1String("other-authority")
                ? QString(target).replace(QStringLiteral("127.0.0.1"), QStringLiteral("localhost"))
                : target;
        QJsonObject sig = sign(QStringLiteral("POST"), signedUrl, agent, created, expires);
        QVERIFY(!sig.isEmpty());
        QByteArray signature = sig.value(QStringLiteral("Signature")).toString().toLatin1();
        QByteArray input = sig.value(QStringLiteral("Signature-Input")).toString().toLatin1();
        if (how == QLatin1String("tampered")) {
            // One byte of the signature changed, still valid base64.
            const int at = signature.indexOf(':') + 5;
            signature[at] = signature[at] == 'A' ? 'B' : 'A';
        }
        if (how == QLatin1String("malformed"))
            input = "sig1=(\"@authority\";created=1";
        headers.append(qMakePair(QByteArray("Signature"), QByteArray(signature)));
        headers.append(qMakePair(QByteArray("Signature-Input"), QByteArray(input)));
        headers.append(qMakePair(QByteArray("Signature-Agent"), QByteArray(agent.toLatin1())));
    }
    const HttpResponse r = post(QStringLiteral("/v2/a2w/runs"), body, headers);
    QVERIFY2(r.status == status, r.body.constData());
    if (!code.isEmpty()) {
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
        QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("Signature"));
        return;
    }
    QCOMPARE(r.json()[QStringLiteral("agent")][QStringLiteral("trust")].toString(), trust);
    if (trust == QLatin1String("verified"))
        QCOMPARE(r.json()[QStringLiteral("agent")][QStringLiteral("signatureAgent")].toString(),
                 QStringLiteral("http://agent.test:%1").arg(m_site.port()));
}

void tst_A2wNetwork::refusesAReplayedNonce()
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QJsonObject sig =
        sign(QStringLiteral("POST"), m_ph->base() + QStringLiteral("/v2/a2w/runs"), m_agent,
             now - 5, now + 300);
    const HttpClient::Headers headers{
        {"Prefer", "execution=browser"},
        {"Signature", sig.value(QStringLiteral("Signature")).toString().toLatin1()},
        {"Signature-Input", sig.value(QStringLiteral("Signature-Input")).toString().toLatin1()},
        {"Signature-Agent", m_agent.toLatin1()}};
    const QJsonObject body{{QStringLiteral("url"), shop()},
                           {QStringLiteral("prompt"), QStringLiteral("List the products")}};
    QCOMPARE(post(QStringLiteral("/v2/a2w/runs"), body, headers).status, 201);
    const HttpResponse replay = post(QStringLiteral("/v2/a2w/runs"), body, headers);
    QCOMPARE(replay.status, 401);
    QCOMPARE(replay.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("SIGNATURE_REPLAYED"));
    // The nonce is kept across a restart: it is in the store.
    QSqlQuery q(m_ph->service().store().database());
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM a2w_signature_nonces")));
    QVERIFY(q.next() && q.value(0).toInt() >= 1);
}

void tst_A2wNetwork::givesEachTrustTierItsOwnRateLimit()
{
    TestService ph({QStringLiteral("a2w.runsPerMinutePerAddress=1"),
                    QStringLiteral("a2w.runsPerMinuteIdentified=2"),
                    QStringLiteral("a2w.runsPerMinuteVerified=3")},
                   QString(), nullptr, m_resolver);
    QVERIFY(ph.ok());
    ph.service().webBotAuth().setPlainHttpDirectoriesForTests(true);
    QCOMPARE(
        ph.client()
            .post(QStringLiteral("/generateSiteKey"),
                  {{QStringLiteral("siteName"), QStringLiteral("Limited")},
                   {QStringLiteral("label"), QStringLiteral("embed")},
                   {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}})
            .status,
        201);
    ph.allowBrowserHandoffs();
    ph.listPrivateHosts({m_site.hostPort()});
    auto create = [&](const QString &tier) {
        QJsonObject body{{QStringLiteral("url"), shop()},
                         {QStringLiteral("prompt"), QStringLiteral("List the products")}};
        HttpClient::Headers headers{{"Prefer", "execution=browser"},
                                    {"Content-Type", "application/json"}};
        if (tier == QLatin1String("identified"))
            headers.append(qMakePair(QByteArray("X-Svc-Client-Id"), QByteArray("scout-7")));
        if (tier == QLatin1String("verified")) {
            const qint64 now = QDateTime::currentSecsSinceEpoch();
            const QJsonObject sig =
                sign(QStringLiteral("POST"), ph.base() + QStringLiteral("/v2/a2w/runs"), m_agent,
                     now - 5, now + 300);
            headers.append(qMakePair(
                QByteArray("Signature"),
                QByteArray(sig.value(QStringLiteral("Signature")).toString().toLatin1())));
            headers.append(qMakePair(
                QByteArray("Signature-Input"),
                QByteArray(sig.value(QStringLiteral("Signature-Input")).toString().toLatin1())));
            headers.append(
                qMakePair(QByteArray("Signature-Agent"), QByteArray(m_agent.toLatin1())));
        }
        const HttpResponse r =
            HttpClient(ph.base()).send("POST", QStringLiteral("/v2/a2w/runs"), json(body), headers);
        return r.status == 429
                   ? r.json()[QStringLiteral("details")][QStringLiteral("trust")].toString() +
                         QStringLiteral(" limited")
                   : r.json()[QStringLiteral("agent")][QStringLiteral("trust")].toString();
    };
    QCOMPARE(create(QStringLiteral("anonymous")), QStringLiteral("anonymous"));
    QCOMPARE(create(QStringLiteral("anonymous")), QStringLiteral("anonymous limited"));
    QCOMPARE(create(QStringLiteral("identified")), QStringLiteral("identified"));
    QCOMPARE(create(QStringLiteral("identified")), QStringLiteral("identified"));
    QCOMPARE(create(QStringLiteral("identified")), QStringLiteral("identified limited"));
    for (int i = 0; i < 3; ++i)
        QCOMPARE(create(QStringLiteral("verified")), QStringLiteral("verified"));
    QCOMPARE(create(QStringLiteral("verified")), QStringLiteral("verified limited"));
}

void tst_A2wNetwork::keepsSensitiveFieldsForVerifiedCallers_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<bool>("signedRequest");
    QTest::addColumn<int>("status");
    const QJsonObject commerce{{QStringLiteral("cart"), QStringLiteral("c-1")}};
    QTest::newRow("commerce from an anonymous caller is refused naming commerce")
        << QStringLiteral("commerce") << QJsonValue(commerce) << false << 403;
    QTest::newRow("payment from an anonymous caller is refused naming payment")
        << QStringLiteral("payment") << QJsonValue(commerce) << false << 403;
    QTest::newRow("a delegated session from an anonymous caller is refused naming auth")
        << QStringLiteral("auth")
        << QJsonValue(QJsonObject{{QStringLiteral("mode"), QStringLiteral("delegated_session")},
                                  {QStringLiteral("token"), QStringLiteral("rds_x")}})
        << false << 403;
    QTest::newRow("commerce from a verified caller is accepted")
        << QStringLiteral("commerce") << QJsonValue(commerce) << true << 201;
}

void tst_A2wNetwork::keepsSensitiveFieldsForVerifiedCallers()
{
    QFETCH(QString, field);
    QFETCH(QJsonValue, value);
    QFETCH(bool, signedRequest);
    QFETCH(int, status);
    HttpClient::Headers headers{{"Prefer", "execution=browser"}};
    if (signedRequest) {
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const QJsonObject sig =
            sign(QStringLiteral("POST"), m_ph->base() + QStringLiteral("/v2/a2w/runs"), m_agent,
                 now - 5, now + 300);
        headers.append(
            qMakePair(QByteArray("Signature"),
                      QByteArray(sig.value(QStringLiteral("Signature")).toString().toLatin1())));
        headers.append(qMakePair(
            QByteArray("Signature-Input"),
            QByteArray(sig.value(QStringLiteral("Signature-Input")).toString().toLatin1())));
        headers.append(qMakePair(QByteArray("Signature-Agent"), QByteArray(m_agent.toLatin1())));
    }
    const HttpResponse r = post(QStringLiteral("/v2/a2w/runs"),
                                {{QStringLiteral("url"), shop()},
                                 {QStringLiteral("prompt"), QStringLiteral("List the products")},
                                 {field, value}},
                                headers);
    QVERIFY2(r.status == status, r.body.constData());
    if (status == 403) {
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("TRUST_TIER_TOO_LOW"));
        QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
    }
}

void tst_A2wNetwork::acceptsTheV1AliasTable_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    const QString url = m_site.url(QStringLiteral("/shop"));
    const QJsonObject cloud{{QStringLiteral("mode"), QStringLiteral("browser")}};
    auto row = [&](const char *name, QJsonObject body, int status, const char *code,
                   const char *field) {
        body.insert(QStringLiteral("execution"), cloud);
        QTest::newRow(name) << body << status << QString::fromLatin1(code)
                            << QString::fromLatin1(field);
    };
    row("the canonical url and goal create a task",
        {{QStringLiteral("url"), url}, {QStringLiteral("goal"), QStringLiteral("List")}}, 201, "",
        "");
    row("targetUrl stands for url",
        {{QStringLiteral("targetUrl"), url}, {QStringLiteral("goal"), QStringLiteral("List")}}, 201,
        "", "");
    row("prompt stands for goal",
        {{QStringLiteral("url"), url}, {QStringLiteral("prompt"), QStringLiteral("List")}}, 201, "",
        "");
    row("shortcut stands for shortcutId",
        {{QStringLiteral("url"), url},
         {QStringLiteral("shortcut"), QStringLiteral("list-products")}},
        201, "", "");
    row("a capabilityId alone is a task",
        {{QStringLiteral("url"), url},
         {QStringLiteral("capabilityId"), QStringLiteral("catalog.list")},
         {QStringLiteral("args"), QJsonObject{{QStringLiteral("limit"), 5}}}},
        201, "", "");
    row("target.capabilityId is a capability too",
        {{QStringLiteral("url"), url},
         {QStringLiteral("target"),
          QJsonObject{{QStringLiteral("capabilityId"), QStringLiteral("catalog.list")}}}},
        201, "", "");
    row("the same value under both names is accepted",
        {{QStringLiteral("url"), url},
         {QStringLiteral("targetUrl"), url},
         {QStringLiteral("goal"), QStringLiteral("List")}},
        201, "", "");
    row("url and targetUrl that disagree are a contract error",
        {{QStringLiteral("url"), url},
         {QStringLiteral("targetUrl"), url + QStringLiteral("?x")},
         {QStringLiteral("goal"), QStringLiteral("List")}},
        400, "CONFLICTING_ALIASES", "targetUrl");
    row("goal and prompt that disagree are a contract error",
        {{QStringLiteral("url"), url},
         {QStringLiteral("goal"), QStringLiteral("List")},
         {QStringLiteral("prompt"), QStringLiteral("Buy")}},
        400, "CONFLICTING_ALIASES", "prompt");
    row("goal and shortcutId together are conflicting selectors",
        {{QStringLiteral("url"), url},
         {QStringLiteral("goal"), QStringLiteral("List")},
         {QStringLiteral("shortcut"), QStringLiteral("list-products")}},
        400, "CONFLICTING_SELECTORS", "shortcutId");
    row("no goal, shortcut or capability is a typed error", {{QStringLiteral("url"), url}}, 400,
        "SELECTOR_REQUIRED", "goal");
    row("no url is a missing field", {{QStringLiteral("goal"), QStringLiteral("List")}}, 400,
        "MISSING_FIELD", "url");
    row("an A2W-only field is unknown to v1",
        {{QStringLiteral("url"), url},
         {QStringLiteral("goal"), QStringLiteral("List")},
         {QStringLiteral("playbookId"), QStringLiteral("tour")}},
        400, "UNKNOWN_FIELD", "playbookId");
    row("an unknown target field names its path",
        {{QStringLiteral("url"), url},
         {QStringLiteral("goal"), QStringLiteral("List")},
         {QStringLiteral("target"), QJsonObject{{QStringLiteral("cell"), QStringLiteral("a")}}}},
        400, "UNKNOWN_FIELD", "target.cell");
}

void tst_A2wNetwork::acceptsTheV1AliasTable()
{
    QFETCH(QJsonObject, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, field);
    const HttpResponse r = post(QStringLiteral("/v1/tasks"), body);
    QVERIFY2(r.status == status, r.body.constData());
    if (status != 201) {
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
        QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
        return;
    }
    // The task stored what the canonical shape says.
    const HttpResponse task = HttpClient().get(r.json().value(QStringLiteral("task")).toString());
    QCOMPARE(task.status, 200);
    QCOMPARE(task.json().value(QStringLiteral("url")).toString(), shop());
}

void tst_A2wNetwork::answersAV1CreateWithItsLinks()
{
    const QJsonObject body{{QStringLiteral("url"), shop()},
                           {QStringLiteral("goal"), QStringLiteral("List the products")}};
    // auto (the default): no person present, so the cloud; the browser links are offered.
    const HttpResponse automatic = post(QStringLiteral("/v1/tasks"), body);
    QCOMPARE(automatic.status, 201);
    const QJsonObject a = automatic.json();
    QVERIFY(a.value(QStringLiteral("id")).toString().startsWith(QLatin1String("task_")));
    QCOMPARE(a.value(QStringLiteral("status")).toString(), QStringLiteral("pending"));
    QVERIFY(a.value(QStringLiteral("task")).toString().contains(QLatin1String("/v1/tasks/")));
    QVERIFY(a.value(QStringLiteral("task")).toString().contains(QLatin1String("access=taskr_")));
    QVERIFY(
        a.value(QStringLiteral("workflow")).toString().contains(QLatin1String("/v1/workflows/")));
    QVERIFY(a.contains(QStringLiteral("open")));
    QVERIFY(a.contains(QStringLiteral("browserLink")));
    const QJsonObject done =
        HttpClient::pollUntil(a.value(QStringLiteral("task")).toString(),
                              {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(done.value(QStringLiteral("execution")).toString(), QStringLiteral("cloud"));
    QVERIFY(done[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
        QLatin1String("Sextant")));
    // A person present and a site that allows deep links: the browser.
    QJsonObject present = body;
    present.insert(QStringLiteral("execution"), QJsonObject{{QStringLiteral("userPresent"), true}});
    const HttpResponse p = post(QStringLiteral("/v1/tasks"), present);
    QCOMPARE(p.status, 201);
    QCOMPARE(HttpClient()
                 .get(p.json().value(QStringLiteral("task")).toString())
                 .json()
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("waiting_browser"));
    // Explicit cloud: no browser handoff URLs.
    QJsonObject cloud = body;
    cloud.insert(QStringLiteral("execution"),
                 QJsonObject{{QStringLiteral("mode"), QStringLiteral("cloud")}});
    const HttpResponse c = post(QStringLiteral("/v1/tasks"), cloud);
    QCOMPARE(c.status, 201);
    QVERIFY(!c.json().contains(QStringLiteral("open")));
    QVERIFY(!c.json().contains(QStringLiteral("browserLink")));
    QVERIFY(!HttpClient()
                 .get(c.json().value(QStringLiteral("task")).toString())
                 .json()
                 .contains(QStringLiteral("open")));
    // Prefer: execution=cloud counts the same.
    const HttpResponse preferred =
        post(QStringLiteral("/v1/tasks"), body, {{"Prefer", "execution=cloud"}});
    QVERIFY(!preferred.json().contains(QStringLiteral("browserLink")));
    // A v1 task is not an A2W run, and the reverse: each contract serves its own.
    const QString id = a.value(QStringLiteral("id")).toString();
    const QString token = tokenIn(a.value(QStringLiteral("task")).toString());
    QCOMPARE(HttpClient(m_ph->base())
                 .send("POST", QStringLiteral("/v2/a2w/runs/%1/handoffs?access=%2").arg(id, token),
                       json({{QStringLiteral("url"), lighthouse()},
                             {QStringLiteral("prompt"), QStringLiteral("x")}}),
                       {{"Content-Type", "application/json"}})
                 .status,
             404);
}

void tst_A2wNetwork::streamsTheNineV1EventsInChunks()
{
    const HttpResponse r = post(QStringLiteral("/v1/tasks"),
                                {{QStringLiteral("url"), m_site.url(QStringLiteral("/big"))},
                                 {QStringLiteral("goal"), QStringLiteral("Read the page")},
                                 {QStringLiteral("execution"),
                                  QJsonObject{{QStringLiteral("mode"), QStringLiteral("cloud")}}}});
    QCOMPARE(r.status, 201);
    const QString task = r.json().value(QStringLiteral("task")).toString();
    const QString id = r.json().value(QStringLiteral("id")).toString();
    const QByteArray reply = HttpClient::raw(
        m_ph->port(),
        "GET /v1/tasks/" + id.toUtf8() + "?access=" + tokenIn(task).toUtf8() +
            " HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\n\r\n",
        90000, "\r\n0\r\n\r\n"); // the end of the chunked stream: every chunk of done is in
    QVERIFY(reply.contains("application/x-ndjson"));
    QStringList types;
    QList<QJsonObject> doneChunks;
    const QStringList nine = ph::a2w::TaskEvents::types();
    for (const QByteArray &line : reply.mid(reply.indexOf("\r\n\r\n") + 4).split('\n')) {
        const QJsonObject e = QJsonDocument::fromJson(line).object();
        if (e.isEmpty())
            continue;
        const QString type = e.value(QStringLiteral("type")).toString();
        QVERIFY2(nine.contains(type), qPrintable(type));
        for (const char *k : {"id", "type", "ts", "data"})
            QVERIFY2(e.contains(QLatin1String(k)), k);
        if (e.value(QStringLiteral("chunked")).toBool()) {
            QVERIFY(e.value(QStringLiteral("data")).isString());
            QVERIFY(e.value(QStringLiteral("data")).toString().toUtf8().size() <= 256);
            if (type == QLatin1String("done"))
                doneChunks << e;
            QCOMPARE(e.value(QStringLiteral("id")).toString(),
                     QStringLiteral("%1:%2")
                         .arg(e.value(QStringLiteral("id")).toString().section(u':', 0, 0))
                         .arg(e.value(QStringLiteral("chunkIndex")).toInt()));
        }
        if (types.isEmpty() || types.last() != type)
            types << type;
    }
    QCOMPARE(types.first(), QStringLiteral("ready"));
    QCOMPARE(types.last(), QStringLiteral("done"));
    for (const char *t : {"status", "tool", "step", "message", "observation"})
        QVERIFY2(types.contains(QLatin1String(t)), qPrintable(types.join(u' ')));
    // The done event's data (its result) went in chunks that join into the JSON.
    QVERIFY(doneChunks.size() > 1);
    QCOMPARE(doneChunks.last().value(QStringLiteral("chunkCount")).toInt(), doneChunks.size());
    const QJsonObject data = ph::a2w::TaskEvents::join(doneChunks);
    QCOMPARE(data.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QVERIFY(data[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
        QLatin1String("sextant")));

    // SSE with a real client: the same types, resumable by id.
    const NodeResult sse = runNodeScript(
        QStringLiteral(PILOTHOUSE_A2W_TEST_DIR),
        {QStringLiteral("stream.mjs"), task, QStringLiteral("60000"), QStringLiteral("v1")}, 90000);
    QVERIFY2(sse.ok(), qPrintable(sse.diagnostics()));
    const QJsonArray events = sse.result().value(QStringLiteral("events")).toArray();
    QCOMPARE(events.first()[QStringLiteral("type")].toString(), QStringLiteral("ready"));
    QCOMPARE(events.last()[QStringLiteral("type")].toString(), QStringLiteral("done"));

    // A failed task (nothing listens on the port, one the owner listed) ends with error,
    // then done.
    setPrivateHosts(m_harbourSite, {m_site.hostPort(), QStringLiteral("127.0.0.1:1")});
    const HttpResponse failing =
        post(QStringLiteral("/v1/tasks"),
             {{QStringLiteral("url"), QStringLiteral("http://127.0.0.1:1/closed")},
              {QStringLiteral("goal"), QStringLiteral("Read the page")},
              {QStringLiteral("execution"),
               QJsonObject{{QStringLiteral("mode"), QStringLiteral("cloud")}}}});
    QCOMPARE(failing.status, 201);
    const QString failingTask = failing.json().value(QStringLiteral("task")).toString();
    const QJsonObject end =
        HttpClient::pollUntil(failingTask, {QStringLiteral("completed"), QStringLiteral("failed")});
    setPrivateHosts(m_harbourSite, {m_site.hostPort()});
    QCOMPARE(end.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
    const QByteArray errors = HttpClient::raw(
        m_ph->port(),
        "GET " + QUrl(failingTask).path().toUtf8() + "?access=" + tokenIn(failingTask).toUtf8() +
            " HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\n\r\n",
        30000, "\"type\":\"done\"");
    QVERIFY(errors.contains("\"type\":\"error\""));
    QVERIFY(errors.indexOf("\"type\":\"error\"") < errors.indexOf("\"type\":\"done\""));
}

void tst_A2wNetwork::continuesCancelsAndHandsOffAV1Task()
{
    // A task that waits for a browser can be cancelled; one that runs can hand off.
    const HttpResponse waiting =
        post(QStringLiteral("/v1/tasks"),
             {{QStringLiteral("url"), shop()},
              {QStringLiteral("goal"), QStringLiteral("List the products")},
              {QStringLiteral("execution"),
               QJsonObject{{QStringLiteral("mode"), QStringLiteral("browser")}}}});
    const QString task = waiting.json().value(QStringLiteral("task")).toString();
    // Not waiting for input: {input} is refused with the state.
    const HttpResponse notWaiting =
        HttpClient().send("POST", task, json({{QStringLiteral("input"), QStringLiteral("yes")}}),
                          {{"Content-Type", "application/json"}});
    QCOMPARE(notWaiting.status, 409);
    const HttpResponse missing = HttpClient().send("POST", task, json(QJsonObject{}),
                                                   {{"Content-Type", "application/json"}});
    QCOMPARE(missing.status, 400);
    QCOMPARE(missing.json().value(QStringLiteral("field")).toString(), QStringLiteral("input"));

    const HttpResponse child = HttpClient().send(
        "POST",
        QString(task).replace(QStringLiteral("?access="), QStringLiteral("/handoffs?access=")),
        json({{QStringLiteral("url"), lighthouse()},
              {QStringLiteral("instruction"), QStringLiteral("List the products")},
              {QStringLiteral("contextSummary"), QStringLiteral("from the harbour")},
              {QStringLiteral("execution"),
               QJsonObject{{QStringLiteral("mode"), QStringLiteral("cloud")}}}}),
        {{"Content-Type", "application/json"}});
    QVERIFY2(child.status == 201, child.body.constData());
    QVERIFY(child.json().value(QStringLiteral("id")).toString().startsWith(QLatin1String("task_")));
    QVERIFY(!child.json().contains(QStringLiteral("browserLink")));

    const HttpResponse cancelled = HttpClient().send("DELETE", task);
    QCOMPARE(cancelled.status, 200);
    QCOMPARE(cancelled.json().value(QStringLiteral("status")).toString(),
             QStringLiteral("cancelled"));

    // The v1 workflow lists both tasks.
    const HttpResponse wf =
        HttpClient().get(waiting.json().value(QStringLiteral("workflow")).toString());
    QCOMPARE(wf.status, 200);
    const QJsonArray tasks = wf.json().value(QStringLiteral("tasks")).toArray();
    QCOMPARE(tasks.size(), 2);
    QCOMPARE(tasks[1][QStringLiteral("parentTaskId")].toString(),
             waiting.json().value(QStringLiteral("id")).toString());
    // A wrong token is no task.
    QCOMPARE(
        HttpClient().get(task.section(u'?', 0, 0) + QStringLiteral("?access=taskr_wrong")).status,
        404);
}

HttpResponse tst_A2wNetwork::signedCreate(const QJsonObject &body, const QByteArray &prefer)
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QJsonObject sig =
        sign(QStringLiteral("POST"), m_ph->base() + QStringLiteral("/v2/a2w/runs"), m_agent,
             now - 5, now + 300);
    return post(
        QStringLiteral("/v2/a2w/runs"), body,
        {qMakePair(QByteArray("Signature"),
                   sig.value(QStringLiteral("Signature")).toString().toLatin1()),
         qMakePair(QByteArray("Signature-Input"),
                   sig.value(QStringLiteral("Signature-Input")).toString().toLatin1()),
         qMakePair(QByteArray("Signature-Agent"), m_agent.toLatin1()),
         qMakePair(QByteArray("Prefer"), prefer.isEmpty() ? QByteArray("wait=0") : prefer)});
}

int tst_A2wNetwork::approve(const QString &verifyLink, const QString &credential,
                            const QStringList &scope, double spendCap)
{
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("decision"), QStringLiteral("approve"));
    form.addQueryItem(QStringLiteral("credential"), credential);
    for (const QString &item : scope)
        form.addQueryItem(QStringLiteral("scope"), item);
    form.addQueryItem(QStringLiteral("spendCap"), QString::number(spendCap));
    form.addQueryItem(QStringLiteral("expiresInMinutes"), QStringLiteral("60"));
    const HttpResponse r =
        HttpClient().send("POST", verifyLink, form.toString(QUrl::FullyEncoded).toUtf8(),
                          {{"Content-Type", "application/x-www-form-urlencoded"}});
    if (r.status != 200)
        qWarning() << "approve:" << r.status << r.body;
    return r.status;
}

void tst_A2wNetwork::grantsADelegatedSessionBehindTheVerifyLink()
{
    const QJsonObject ask{
        {QStringLiteral("url"), shop()},
        {QStringLiteral("shortcutId"), QStringLiteral("list-products")},
        {QStringLiteral("auth"),
         QJsonObject{{QStringLiteral("mode"), QStringLiteral("delegated_session")}}}};
    const HttpResponse r = signedCreate(ask);
    QVERIFY2(r.status == 201, r.body.constData());
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    const QJsonObject input = r.json().value(QStringLiteral("input")).toObject();
    QCOMPARE(input.value(QStringLiteral("reason")).toString(), QStringLiteral("auth_required"));
    const QString verify = input[QStringLiteral("links")][QStringLiteral("verify")].toString();
    QVERIFY(verify.contains(QLatin1String("/v2/a2w/verify/")));
    QVERIFY(!r.json()[QStringLiteral("links")].toObject().contains(QStringLiteral("verify")));
    const QString run = r.json().value(QStringLiteral("run")).toString();

    // The page a person opens: the task and the scope to grant, the run's own ticked.
    const HttpResponse page = HttpClient().get(verify);
    QCOMPARE(page.status, 200);
    QVERIFY(page.body.contains("value=\"list-products\" checked"));
    // It asks for the owner's credential: a strict policy, nothing loads or frames it.
    QVERIFY2(strictCspProblem(page).isEmpty(), qPrintable(strictCspProblem(page)));
    QCOMPARE(HttpClient().get(verify + QStringLiteral("x")).status, 404);
    // A credential that is not the owner's changes nothing.
    QCOMPARE(approve(verify, QStringLiteral("sk_not_a_key"), {QStringLiteral("list-products")}, 5),
             401);
    QCOMPARE(HttpClient().get(run).json().value(QStringLiteral("status")).toString(),
             QStringLiteral("input_required"));
    // A scope item the site does not publish is a typed error.
    QCOMPARE(approve(verify, m_ph->ownerKey(), {QStringLiteral("launch-rockets")}, 5), 400);
    QCOMPARE(approve(verify, m_ph->ownerKey(), {QStringLiteral("list-products")}, 5), 200);
    // The link is spent.
    QCOMPARE(approve(verify, m_ph->ownerKey(), {QStringLiteral("list-products")}, 5), 404);

    // The run goes on under the session; its caller reads the token once.
    const QJsonObject firstRead = HttpClient().get(run).json();
    const QJsonObject delegation = firstRead.value(QStringLiteral("delegation")).toObject();
    const QString token = delegation.value(QStringLiteral("token")).toString();
    QVERIFY2(token.startsWith(QLatin1String("rds_")),
             qPrintable(QString::fromUtf8(json(firstRead))));
    QCOMPARE(delegation.value(QStringLiteral("scope")).toArray(),
             QJsonArray{QStringLiteral("list-products")});
    const QJsonObject done =
        HttpClient::pollUntil(run, {QStringLiteral("completed"), QStringLiteral("failed")});
    QCOMPARE(done.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    const QJsonObject again = HttpClient().get(run).json();
    QVERIFY(!again[QStringLiteral("delegation")].toObject().contains(QStringLiteral("token")));
    QVERIFY(again[QStringLiteral("delegation")][QStringLiteral("spent")].toDouble() > 0);

    // Never a raw credential at rest: only its hash is stored.
    QSqlQuery q(m_ph->service().store().database());
    for (const char *sql : {"SELECT token_hash || scope || approved_by FROM a2w_delegations",
                            "SELECT request || COALESCE(delegation_sealed, '') FROM a2w_runs",
                            "SELECT data FROM a2w_events"}) {
        QVERIFY2(q.exec(QString::fromLatin1(sql)), sql);
        while (q.next())
            QVERIFY2(!q.value(0).toString().contains(token), sql);
    }

    // Within its scope, the token starts runs at once.
    QJsonObject use = ask;
    use.insert(QStringLiteral("auth"),
               QJsonObject{{QStringLiteral("mode"), QStringLiteral("delegated_session")},
                           {QStringLiteral("token"), token}});
    const HttpResponse used = signedCreate(use);
    QVERIFY2(used.status == 201, used.body.constData());
    QCOMPARE(HttpClient::pollUntil(used.json().value(QStringLiteral("run")).toString(),
                                   {QStringLiteral("completed"), QStringLiteral("failed")})
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("completed"));

    // Revoked from the console: refused from then on.
    const QList<a2w::Delegation> all = m_ph->service().a2w().delegations();
    QVERIFY(!all.isEmpty());
    m_ph->service().a2w().revokeDelegation(all.first().id);
    const HttpResponse revoked = signedCreate(use);
    QCOMPARE(revoked.status, 401);
    QCOMPARE(revoked.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("DELEGATION_REVOKED"));
}

void tst_A2wNetwork::refusesADelegationTokenOutsideItsScope_data()
{
    QTest::addColumn<QJsonObject>("change");
    QTest::addColumn<QString>("tamper"); // expire, exhaust, or nothing
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("the shortcut it covers starts")
        << QJsonObject() << QString() << 201 << QString() << QString();
    QTest::newRow("a free prompt is outside a shortcut's scope")
        << QJsonObject{{QStringLiteral("prompt"), QStringLiteral("List the products")}} << QString()
        << 403 << QStringLiteral("DELEGATION_OUT_OF_SCOPE") << QStringLiteral("auth.token");
    QTest::newRow("another shortcut is outside its scope")
        << QJsonObject{{QStringLiteral("playbookId"), QStringLiteral("tour")}} << QString() << 403
        << QStringLiteral("DELEGATION_OUT_OF_SCOPE") << QStringLiteral("auth.token");
    QTest::newRow("another site is outside its scope")
        << QJsonObject{{QStringLiteral("url"), QStringLiteral("http://localhost/shop")}}
        << QString() << 403 << QStringLiteral("DELEGATION_OUT_OF_SCOPE") << QStringLiteral("url");
    QTest::newRow("a session that spent its cap is refused")
        << QJsonObject() << QStringLiteral("exhaust") << 402
        << QStringLiteral("DELEGATION_CAP_REACHED") << QStringLiteral("auth.token");
    QTest::newRow("an expired session is refused")
        << QJsonObject() << QStringLiteral("expire") << 401 << QStringLiteral("DELEGATION_EXPIRED")
        << QStringLiteral("auth.token");
    QTest::newRow("a token nobody minted is refused")
        << QJsonObject{{QStringLiteral("token"), QStringLiteral("rds_made_up")}} << QString() << 401
        << QStringLiteral("DELEGATION_INVALID") << QStringLiteral("auth.token");
}

void tst_A2wNetwork::refusesADelegationTokenOutsideItsScope()
{
    QFETCH(QJsonObject, change);
    QFETCH(QString, tamper);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, field);
    // A session for list-products, approved through the loop (browser runs: they wait).
    const QJsonObject ask{
        {QStringLiteral("url"), shop()},
        {QStringLiteral("shortcutId"), QStringLiteral("list-products")},
        {QStringLiteral("execution"),
         QJsonObject{{QStringLiteral("mode"), QStringLiteral("browser")}}},
        {QStringLiteral("auth"),
         QJsonObject{{QStringLiteral("mode"), QStringLiteral("delegated_session")}}}};
    const HttpResponse r = signedCreate(ask);
    QCOMPARE(r.status, 201);
    const QString verify =
        r.json()[QStringLiteral("input")][QStringLiteral("links")][QStringLiteral("verify")]
            .toString();
    QCOMPARE(approve(verify, m_ph->ownerKey(), {QStringLiteral("list-products")}, 5), 200);
    const QJsonObject approved =
        HttpClient().get(r.json().value(QStringLiteral("run")).toString()).json();
    // The browser run waits for a browser again, with a deadline.
    QCOMPARE(approved.value(QStringLiteral("status")).toString(),
             QStringLiteral("waiting_browser"));
    QVERIFY(approved.contains(QStringLiteral("expiresAt")));
    const QString token =
        approved[QStringLiteral("delegation")][QStringLiteral("token")].toString();
    QVERIFY(token.startsWith(QLatin1String("rds_")));
    // Time and spending, moved on in the store (every session so far: each row has its own).
    QSqlQuery q(m_ph->service().store().database());
    if (tamper == QLatin1String("expire"))
        QVERIFY(q.exec(QStringLiteral("UPDATE a2w_delegations SET expires_at = 1")));
    if (tamper == QLatin1String("exhaust"))
        QVERIFY(q.exec(QStringLiteral("UPDATE a2w_delegations SET spent_milli = spend_cap_milli")));
    QJsonObject use = ask;
    use.insert(QStringLiteral("auth"),
               QJsonObject{{QStringLiteral("mode"), QStringLiteral("delegated_session")},
                           {QStringLiteral("token"),
                            change.value(QStringLiteral("token")).toString(token)}});
    for (auto it = change.begin(); it != change.end(); ++it) {
        if (it.key() == QLatin1String("token"))
            continue;
        if (it.key() == QLatin1String("prompt") || it.key() == QLatin1String("playbookId"))
            use.remove(QStringLiteral("shortcutId"));
        use.insert(it.key(), it.value() == QJsonValue(QStringLiteral("http://localhost/shop"))
                                 ? QJsonValue(lighthouse())
                                 : it.value());
    }
    const HttpResponse used = signedCreate(use);
    QVERIFY2(used.status == status, used.body.constData());
    if (!code.isEmpty()) {
        QCOMPARE(used.json().value(QStringLiteral("code")).toString(), code);
        QCOMPARE(used.json().value(QStringLiteral("field")).toString(), field);
    }
}

void tst_A2wNetwork::startsAWaitingRunOnlyForAVerifiedCallerContinuingWithAToken()
{
    // One run gets a session through the loop; a second run waiting for one is continued
    // with its token instead of another approval.
    const QJsonObject ask{
        {QStringLiteral("url"), shop()},
        {QStringLiteral("shortcutId"), QStringLiteral("list-products")},
        {QStringLiteral("auth"),
         QJsonObject{{QStringLiteral("mode"), QStringLiteral("delegated_session")}}}};
    const HttpResponse a = signedCreate(ask);
    QCOMPARE(
        approve(a.json()[QStringLiteral("input")][QStringLiteral("links")][QStringLiteral("verify")]
                    .toString(),
                m_ph->ownerKey(), {QStringLiteral("*")}, 50),
        200);
    const QString token = HttpClient()
                              .get(a.json().value(QStringLiteral("run")).toString())
                              .json()[QStringLiteral("delegation")][QStringLiteral("token")]
                              .toString();
    QVERIFY(token.startsWith(QLatin1String("rds_")));
    const HttpResponse b = signedCreate(ask);
    QCOMPARE(b.json().value(QStringLiteral("status")).toString(), QStringLiteral("input_required"));
    const QString run = b.json().value(QStringLiteral("run")).toString();
    const QByteArray withToken =
        json({{QStringLiteral("auth"),
               QJsonObject{{QStringLiteral("mode"), QStringLiteral("delegated_session")},
                           {QStringLiteral("token"), token}}}});
    // The token is a sensitive field on continue as on create: an anonymous or merely
    // identified caller holding the run's URL and the token is refused, and the run
    // goes on waiting.
    for (const HttpClient::Headers &lower :
         {HttpClient::Headers{{"Content-Type", "application/json"}},
          HttpClient::Headers{{"Content-Type", "application/json"},
                              {"X-Svc-Client-Id", "scout-7"}}}) {
        const HttpResponse refused = HttpClient().send("POST", run, withToken, lower);
        QVERIFY2(refused.status == 403, refused.body.constData());
        QCOMPARE(refused.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("TRUST_TIER_TOO_LOW"));
        QCOMPARE(refused.json().value(QStringLiteral("field")).toString(), QStringLiteral("auth"));
        QCOMPARE(HttpClient().get(run).json().value(QStringLiteral("status")).toString(),
                 QStringLiteral("input_required"));
    }
    // Signed by the verified agent, it starts the run.
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QJsonObject sig = sign(QStringLiteral("POST"), run, m_agent, now - 5, now + 300);
    const HttpResponse continued = HttpClient().send(
        "POST", run, withToken,
        {{"Content-Type", "application/json"},
         {"Signature", sig.value(QStringLiteral("Signature")).toString().toLatin1()},
         {"Signature-Input", sig.value(QStringLiteral("Signature-Input")).toString().toLatin1()},
         {"Signature-Agent", m_agent.toLatin1()}});
    QVERIFY2(continued.status == 200, continued.body.constData());
    QCOMPARE(HttpClient::pollUntil(run, {QStringLiteral("completed"), QStringLiteral("failed")})
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("completed"));
}

void tst_A2wNetwork::opensEachResourceWithItsOwnTokenOnly_data()
{
    // The token matrix of the A2W and v1 resources: a run, a task and their workflows,
    // each against every kind of token (and the owner's API key, which is no token here).
    auto browser = [this](const QString &path, const QJsonObject &body) {
        QJsonObject b = body;
        b.insert(QStringLiteral("url"), shop());
        b.insert(QStringLiteral("execution"),
                 QJsonObject{{QStringLiteral("mode"), QStringLiteral("browser")}});
        return post(path, b).json();
    };
    const QJsonObject runA = browser(QStringLiteral("/v2/a2w/runs"),
                                     {{QStringLiteral("prompt"), QStringLiteral("Read")}});
    const QJsonObject runB = browser(QStringLiteral("/v2/a2w/runs"),
                                     {{QStringLiteral("prompt"), QStringLiteral("Read")}});
    const QJsonObject task =
        browser(QStringLiteral("/v1/tasks"), {{QStringLiteral("goal"), QStringLiteral("Read")}});
    const QString a = runA.value(QStringLiteral("id")).toString();
    const QString t = task.value(QStringLiteral("id")).toString();
    const QString wfA = QUrl(runA.value(QStringLiteral("workflow")).toString()).path();
    const QString wfT = QUrl(task.value(QStringLiteral("workflow")).toString()).path();
    const QStringList tokens{QString(),
                             tokenIn(runA.value(QStringLiteral("run")).toString()),
                             tokenIn(runB.value(QStringLiteral("run")).toString()),
                             tokenIn(task.value(QStringLiteral("task")).toString()),
                             tokenIn(runA.value(QStringLiteral("workflow")).toString()),
                             tokenIn(task.value(QStringLiteral("workflow")).toString()),
                             m_ph->ownerKey(),
                             QStringLiteral("rds_thisIsNoDelegatedSessionOfThisService00")};
    const QStringList names{QStringLiteral("no token"),
                            QStringLiteral("the run's token"),
                            QStringLiteral("another run's token"),
                            QStringLiteral("the task's token"),
                            QStringLiteral("the run's workflow token"),
                            QStringLiteral("the task's workflow token"),
                            QStringLiteral("the owner's API key"),
                            QStringLiteral("a delegation token")};
    struct Row
    {
        QByteArray method;
        QString path;
        int owner; // the index of the one token that opens it
    };
    const QList<Row> rows{
        {"GET", QStringLiteral("/v2/a2w/runs/") + a, 1},
        {"GET", QStringLiteral("/v2/a2w/runs/%1/artifacts").arg(a), 1},
        {"POST", QStringLiteral("/v2/a2w/runs/") + a, 1},
        {"GET", wfA, 4},
        {"GET", QStringLiteral("/v1/tasks/") + t, 3},
        {"POST", QStringLiteral("/v1/tasks/") + t, 3},
        {"GET", wfT, 5},
    };
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("token");
    QTest::addColumn<bool>("opens");
    for (const Row &r : rows)
        for (qsizetype c = 0; c < tokens.size(); ++c) {
            const bool opens = c == r.owner;
            const QByteArray name =
                QStringLiteral("%1 %2 with %3 %4")
                    .arg(QString::fromLatin1(r.method), r.path.section(u'/', 0, 3), names.at(c),
                         opens ? QStringLiteral("opens") : QStringLiteral("is 404"))
                    .toUtf8();
            QTest::newRow(name.constData()) << r.method << r.path << tokens.at(c) << opens;
        }
}

void tst_A2wNetwork::opensEachResourceWithItsOwnTokenOnly()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, path);
    QFETCH(QString, token);
    QFETCH(bool, opens);
    HttpClient client(m_ph->base());
    if (!token.isEmpty())
        client.setBearer(token);
    const HttpResponse r = client.send(
        method, path,
        method == "POST" ? json({{QStringLiteral("input"), QStringLiteral("yes")}}) : QByteArray(),
        {{"Content-Type", "application/json"}});
    if (opens) {
        // Opened: the resource, or (an answer to a run that asks nothing) its state.
        QVERIFY2(r.status == 200 || r.status == 409, r.body.constData());
    } else {
        QVERIFY2(r.status == 404, r.body.constData());
        QVERIFY(r.json()
                    .value(QStringLiteral("code"))
                    .toString()
                    .endsWith(QLatin1String("_NOT_FOUND")));
    }
    if (!token.isEmpty() && !opens)
        QVERIFY(!r.body.contains(token.toUtf8()));
}

HttpResponse tst_A2wNetwork::siteMcp(const QString &local, const QString &clientId,
                                     const QJsonObject &message, const QString &session)
{
    HttpClient::Headers headers{{"Content-Type", "application/json"},
                                {"Accept", "application/json, text/event-stream"},
                                {"X-Svc-Client-Id", clientId.toUtf8()}};
    if (!session.isEmpty())
        headers.append({"Mcp-Session-Id", session.toLatin1()});
    const QUrl url(m_ph->base() + QStringLiteral("/v2/a2w/sites/%1/mcp").arg(m_harbourSite));
    if (local == QLatin1String("127.0.0.1"))
        return HttpClient(m_ph->base()).send("POST", url.toString(), json(message), headers);
    return HttpClient::sendFrom(local, "POST", url, json(message), headers);
}

HttpResponse tst_A2wNetwork::initializeSiteMcp(const QString &local, const QString &clientId,
                                               const QJsonObject &clientInfo)
{
    return siteMcp(
        local, clientId,
        {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
         {QStringLiteral("id"), 1},
         {QStringLiteral("method"), QStringLiteral("initialize")},
         {QStringLiteral("params"),
          QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")},
                      {QStringLiteral("capabilities"), QJsonObject()},
                      {QStringLiteral("clientInfo"),
                       clientInfo.isEmpty()
                           ? QJsonObject{{QStringLiteral("name"), clientId},
                                         {QStringLiteral("version"), QStringLiteral("1")}}
                           : clientInfo}}}});
}

QString tst_A2wNetwork::openSiteMcp(const QString &local, const QString &clientId)
{
    const HttpResponse r = initializeSiteMcp(local, clientId);
    return r.status == 200 ? QString::fromLatin1(r.header("mcp-session-id")) : QString();
}

int tst_A2wNetwork::pingSiteMcp(const QString &local, const QString &clientId,
                                const QString &session)
{
    return siteMcp(local, clientId,
                   {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                    {QStringLiteral("id"), 2},
                    {QStringLiteral("method"), QStringLiteral("ping")}},
                   session)
        .status;
}

void tst_A2wNetwork::capsSiteMcpSessionsPerCaller()
{
    // Each caller (client address and client id) is its own credential: the cap of
    // mcp.maxSessionsPerCredential, changed while the service runs, evicts the caller's
    // own least recently used session, never another caller's.
    const ScopedSetting cap(*m_ph, QStringLiteral("mcp.maxSessionsPerCredential"), 2);
    QVERIFY2(cap.error.isEmpty(), qPrintable(cap.error));
    const QString local = QStringLiteral("127.0.0.1");
    const QString a = openSiteMcp(local, QStringLiteral("agent-a"));
    QVERIFY(!a.isEmpty());
    QStringList b;
    for (int i = 0; i < 3; ++i) // one over the cap
        b << openSiteMcp(local, QStringLiteral("agent-b"));
    QVERIFY(!b.contains(QString()));
    QCOMPARE(pingSiteMcp(local, QStringLiteral("agent-b"), b.at(0)), 404); // evicted
    QCOMPARE(pingSiteMcp(local, QStringLiteral("agent-b"), b.at(1)), 200);
    QCOMPARE(pingSiteMcp(local, QStringLiteral("agent-b"), b.at(2)), 200);
    QCOMPARE(pingSiteMcp(local, QStringLiteral("agent-a"), a), 200);
    // A session is its caller's: another caller does not get into it.
    QCOMPARE(pingSiteMcp(local, QStringLiteral("agent-b"), a), 404);
    QCOMPARE(pingSiteMcp(QStringLiteral("127.0.0.2"), QStringLiteral("agent-a"), a), 404);
}

void tst_A2wNetwork::keepsAnotherCallersSiteMcpSessionThroughAThousandInitializes()
{
    // An agent at another address holds a session; one address then initializes a
    // thousand times under a new client id each time, as many sessions as the endpoint
    // keeps (mcp.maxSessions, 1000 by default). The flood evicts its own sessions.
    const QString agent = QStringLiteral("127.0.0.2");
    const QString mine = openSiteMcp(agent, QStringLiteral("careful-agent"));
    QVERIFY(!mine.isEmpty());
    QString last;
    for (int i = 0; i < 1000; ++i) {
        last = openSiteMcp(QStringLiteral("127.0.0.1"), QStringLiteral("flood-%1").arg(i));
        QVERIFY2(!last.isEmpty(), qPrintable(QString::number(i)));
    }
    QCOMPARE(pingSiteMcp(agent, QStringLiteral("careful-agent"), mine), 200);
    QCOMPARE(pingSiteMcp(QStringLiteral("127.0.0.1"), QStringLiteral("flood-999"), last), 200);
}

void tst_A2wNetwork::refusesASiteMcpSessionOverMcpMaxSessionBytes()
{
    const ScopedSetting bytes(*m_ph, QStringLiteral("mcp.maxSessionBytes"), 512);
    QVERIFY2(bytes.error.isEmpty(), qPrintable(bytes.error));
    const HttpResponse r =
        initializeSiteMcp(QStringLiteral("127.0.0.1"), QStringLiteral("large"),
                          {{QStringLiteral("name"), QString(1000, QLatin1Char('x'))},
                           {QStringLiteral("version"), QStringLiteral("1")}});
    QCOMPARE(r.status, 400);
    const QJsonObject error = r.json().value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("code")).toInt(), -32602);
    QVERIFY2(error.value(QStringLiteral("message"))
                 .toString()
                 .contains(QStringLiteral("mcp.maxSessionBytes")),
             r.body.constData());
    QVERIFY(!openSiteMcp(QStringLiteral("127.0.0.1"), QStringLiteral("small")).isEmpty());
}

PH_WEBENGINE_TEST_MAIN(tst_A2wNetwork)
#include "tst_a2wnetwork.moc"
