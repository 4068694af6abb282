// Work inside a browser session, end to end (docs/api/sessions.md, "Work inside a
// session"): the real service on loopback with its real chromium session browsers, a
// fixture site with a sign-in, and playwright-core connected to the session's cdpUrl
// (tests/cdp/sessionwork.mjs). A script signs in and /scrape and /agent read the signed-in
// pages; /agent signs in and the script sees the cookie; a session that is not the
// caller's own, or not active, is refused; A2W runs and v1 tasks never take one.
#include "FixtureServer.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/chromium/ChromiumEngine.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

using namespace ph;
using namespace ph::test;

namespace {

const QString kEmail = QStringLiteral("ada@example.org");
const QString kPassword = QStringLiteral("s3cret!");

QJsonObject ordersSchema()
{
    return QJsonDocument::fromJson(
               R"json({"type":"object","properties":{"products":{"type":"array","items":{
        "type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}},"required":["name","price"]}}}})json")
        .object();
}

QStringList orderNames(const QJsonObject &response)
{
    QStringList out;
    const QJsonArray items = response.value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("json"))
                                 .toObject()
                                 .value(QStringLiteral("products"))
                                 .toArray();
    for (const auto &p : items)
        out << p.toObject().value(QStringLiteral("name")).toString();
    return out;
}

QJsonObject sessionRef(const QString &id)
{
    return {{QStringLiteral("id"), id}};
}

} // namespace

class tst_SessionWork : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void cleanupTestCase();
    void aScriptSignsInAndTheApiWorksSignedIn();
    void theAgentSignsInAndTheScriptIsSignedIn();
    void refusesWhatIsNotTheCallersActiveSession_data();
    void refusesWhatIsNotTheCallersActiveSession();
    void visitorRunsNeverTakeASession_data();
    void visitorRunsNeverTakeASession();

private:
    HttpClient as(const QString &key) const;
    // A new active session of `key`: its create answer.
    QJsonObject createSession(const QString &key);
    void release(const QString &key, const QString &id);
    QJsonObject playwright(const QString &action, const QString &cdpUrl);
    QJsonObject agent(const QString &key, const QJsonObject &body);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    QString m_keyA;
    QString m_keyB;
    QList<QPair<QString, QString>> m_sessions; // key, id: released at the end
};

void tst_SessionWork::initTestCase()
{
    if (ChromiumEngine::findExecutable(QString()).isEmpty())
        QSKIP("chromium is not installed (packaging/dev/deps.sh --bench installs it)");
    const QByteArray login = htmlPage(
        QStringLiteral("Sign in"),
        QStringLiteral("<h1>Sign in</h1><form method=\"post\" action=\"/session\"><label "
                       "for=\"e\">Email</label><input id=\"e\" name=\"email\" type=\"email\">"
                       "<label for=\"p\">Password</label><input id=\"p\" name=\"password\" "
                       "type=\"password\"><button type=\"submit\">Sign in</button></form>"));
    m_site.page("/login", login);
    m_site.route("/session", [login](const FixtureRequest &r) {
        const QUrlQuery form(QString::fromUtf8(r.body));
        if (form.queryItemValue(QStringLiteral("email"), QUrl::FullyDecoded) != kEmail ||
            form.queryItemValue(QStringLiteral("password"), QUrl::FullyDecoded) != kPassword) {
            FixtureResponse wrong = FixtureResponse::html(login);
            wrong.status = 401;
            return wrong;
        }
        FixtureResponse resp;
        resp.status = 303;
        resp.headers = {{"Location", "/account"}, {"Set-Cookie", "session=ok; Path=/"}};
        return resp;
    });
    m_site.route("/account", [login](const FixtureRequest &r) {
        if (!r.headers.value("cookie").contains("session=ok"))
            return FixtureResponse::html(login);
        return FixtureResponse::html(htmlPage(
            QStringLiteral("Orders"),
            QStringLiteral("<h1>Your orders</h1><p>Signed in as Ada Lovelace</p><table><thead>"
                           "<tr><th>Name</th><th>Price</th></tr></thead><tbody><tr><td>Sextant"
                           "</td><td>310.00</td></tr><tr><td>Chart</td><td>25.00</td></tr>"
                           "</tbody></table>")));
    });
    QVERIFY(m_site.start());
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_keyA = m_ph->mintKey(1000);
    m_keyB = m_ph->mintKey(1000);
    QVERIFY(!m_keyA.isEmpty() && !m_keyB.isEmpty());
}

// Each test's sessions end with it: a session is a browser process, and keys have limits.
void tst_SessionWork::cleanup()
{
    for (const auto &[key, id] : std::exchange(m_sessions, {}))
        as(key).send("DELETE", QStringLiteral("/sessions/") + id);
}

void tst_SessionWork::cleanupTestCase()
{
    m_ph.reset();
}

HttpClient tst_SessionWork::as(const QString &key) const
{
    HttpClient c(m_ph->base());
    c.setBearer(key);
    return c;
}

QJsonObject tst_SessionWork::createSession(const QString &key)
{
    const HttpResponse r = as(key).post(QStringLiteral("/sessions"), QJsonObject());
    if (!r.expectStatus({201}, __FILE__, __LINE__))
        return {};
    const QJsonObject created = r.json();
    m_sessions.append({key, created.value(QStringLiteral("id")).toString()});
    return created;
}

void tst_SessionWork::release(const QString &key, const QString &id)
{
    const HttpResponse r = as(key).send("DELETE", QStringLiteral("/sessions/") + id);
    r.expectStatus({200}, __FILE__, __LINE__);
}

QJsonObject tst_SessionWork::playwright(const QString &action, const QString &cdpUrl)
{
    const QJsonObject cfg{{QStringLiteral("action"), action},
                          {QStringLiteral("cdpUrl"), cdpUrl},
                          {QStringLiteral("site"), m_site.url(QString())},
                          {QStringLiteral("email"), kEmail},
                          {QStringLiteral("password"), kPassword}};
    const NodeResult r =
        runNodeScript(QStringLiteral(PILOTHOUSE_CDP_TEST_DIR),
                      {QStringLiteral("sessionwork.mjs"),
                       QString::fromUtf8(QJsonDocument(cfg).toJson(QJsonDocument::Compact))},
                      90000);
    if (!r.ok())
        qWarning().noquote() << r.diagnostics();
    return r.result();
}

QJsonObject tst_SessionWork::agent(const QString &key, const QJsonObject &body)
{
    const HttpResponse r = as(key).post(QStringLiteral("/agent"), body);
    r.expectStatus({200}, __FILE__, __LINE__);
    return r.json();
}

// Playwright signs in through cdpUrl; /scrape in the session reads the signed-in page and
// /agent (the rule planner) lists the orders there without being asked to sign in.
void tst_SessionWork::aScriptSignsInAndTheApiWorksSignedIn()
{
    const QJsonObject session = createSession(m_keyA);
    const QString id = session.value(QStringLiteral("id")).toString();
    QVERIFY(id.startsWith(QLatin1String("bs_")));
    const QJsonObject signedIn =
        playwright(QStringLiteral("signin"), session.value(QStringLiteral("cdpUrl")).toString());
    QVERIFY2(signedIn.value(QStringLiteral("ok")).toBool(),
             qPrintable(signedIn.value(QStringLiteral("error")).toString()));
    QCOMPARE(signedIn.value(QStringLiteral("heading")).toString(), QStringLiteral("Your orders"));

    const HttpResponse scraped = as(m_keyA).post(
        QStringLiteral("/scrape"),
        {{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/account"))}},
         {QStringLiteral("formats"), QJsonArray{QStringLiteral("text")}},
         {QStringLiteral("browserSession"), sessionRef(id)}});
    QCOMPARE(scraped.status, 200);
    const QJsonObject result =
        scraped.json().value(QStringLiteral("results")).toArray().first().toObject();
    QVERIFY2(
        result.value(QStringLiteral("text")).toString().contains(QLatin1String("Ada Lovelace")),
        scraped.body.constData());
    // The same URL in the pool: a fresh isolated page, not signed in.
    const HttpResponse pooled = as(m_keyA).post(
        QStringLiteral("/scrape"),
        {{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/account"))}},
         {QStringLiteral("formats"), QJsonArray{QStringLiteral("text")}}});
    QCOMPARE(pooled.status, 200);
    QVERIFY(!pooled.body.contains("Ada Lovelace"));

    const QJsonObject run =
        agent(m_keyA, {{QStringLiteral("input"), QStringLiteral("List my orders")},
                       {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/account"))}},
                       {QStringLiteral("schema"), ordersSchema()},
                       {QStringLiteral("browserSession"), sessionRef(id)}});
    QCOMPARE(run.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(orderNames(run), (QStringList{QStringLiteral("Sextant"), QStringLiteral("Chart")}));
}

// The reverse: /agent fills the sign-in form (asking for the credentials, answered in the
// same trajectory), and Playwright connected to the session finds the cookie.
void tst_SessionWork::theAgentSignsInAndTheScriptIsSignedIn()
{
    const QJsonObject session = createSession(m_keyA);
    const QString id = session.value(QStringLiteral("id")).toString();
    const QJsonObject first =
        agent(m_keyA, {{QStringLiteral("input"), QStringLiteral("Sign in and list my orders")},
                       {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/account"))}},
                       {QStringLiteral("schema"), ordersSchema()},
                       {QStringLiteral("browserSession"), sessionRef(id)}});
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("requires_input"));
    QJsonObject history = first.value(QStringLiteral("history")).toObject();
    history.insert(QStringLiteral("continue"), true);
    history.insert(QStringLiteral("answers"), QJsonObject{{QStringLiteral("email"), kEmail},
                                                          {QStringLiteral("password"), kPassword}});
    const QJsonObject second = agent(
        m_keyA, {{QStringLiteral("input"), QStringLiteral("Here are my credentials")},
                 {QStringLiteral("trajectoryId"), first.value(QStringLiteral("trajectoryId"))},
                 {QStringLiteral("history"), history},
                 {QStringLiteral("browserSession"), sessionRef(id)}});
    QCOMPARE(second.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(orderNames(second), (QStringList{QStringLiteral("Sextant"), QStringLiteral("Chart")}));

    const QJsonObject seen =
        playwright(QStringLiteral("cookies"), session.value(QStringLiteral("cdpUrl")).toString());
    QVERIFY2(seen.value(QStringLiteral("ok")).toBool(),
             qPrintable(seen.value(QStringLiteral("error")).toString()));
    QVERIFY2(seen.value(QStringLiteral("cookies")).toArray().contains(QStringLiteral("session=ok")),
             QJsonDocument(seen).toJson().constData());
}

void tst_SessionWork::refusesWhatIsNotTheCallersActiveSession_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QString>("which"); // other, unknown, released
    QTest::addColumn<QJsonObject>("extra");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("field");
    QTest::newRow("another key's session is not found by /scrape, never forbidden")
        << QStringLiteral("/scrape") << QStringLiteral("other") << QJsonObject() << 404
        << QString();
    QTest::newRow("another key's session is not found by /agent, never forbidden")
        << QStringLiteral("/agent") << QStringLiteral("other") << QJsonObject() << 404 << QString();
    QTest::newRow("a session id nobody has is not found")
        << QStringLiteral("/scrape") << QStringLiteral("unknown") << QJsonObject() << 404
        << QString();
    QTest::newRow("a released session is no longer worked in: 409")
        << QStringLiteral("/scrape") << QStringLiteral("released") << QJsonObject() << 409
        << QString();
    QTest::newRow("a released session takes no run either: 409")
        << QStringLiteral("/agent") << QStringLiteral("released") << QJsonObject() << 409
        << QString();
    QTest::newRow("qtwebengine pages cannot work in a session")
        << QStringLiteral("/scrape") << QStringLiteral("unknown")
        << QJsonObject{{QStringLiteral("browser"),
                        QJsonObject{{QStringLiteral("engine"), QStringLiteral("qtwebengine")}}}}
        << 400 << QStringLiteral("browser.engine");
    QTest::newRow("an unknown field of browserSession is named")
        << QStringLiteral("/agent") << QStringLiteral("unknown")
        << QJsonObject{{QStringLiteral("browserSession"),
                        QJsonObject{{QStringLiteral("id"), QStringLiteral("bs_x")},
                                    {QStringLiteral("profile"), QStringLiteral("p")}}}}
        << 400 << QStringLiteral("browserSession.profile");
}

void tst_SessionWork::refusesWhatIsNotTheCallersActiveSession()
{
    QFETCH(QString, endpoint);
    QFETCH(QString, which);
    QFETCH(QJsonObject, extra);
    QFETCH(int, status);
    QFETCH(QString, field);
    QString id = QStringLiteral("bs_doesnotexist0000");
    if (which == QLatin1String("released"))
        id = createSession(m_keyA).value(QStringLiteral("id")).toString();
    else if (which == QLatin1String("other"))
        id = createSession(m_keyB).value(QStringLiteral("id")).toString();
    if (which == QLatin1String("released"))
        release(m_keyA, id);
    QJsonObject body{{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/account"))}},
                     {QStringLiteral("browserSession"), sessionRef(id)}};
    if (endpoint == QLatin1String("/agent"))
        body.insert(QStringLiteral("input"), QStringLiteral("Read the page"));
    for (auto it = extra.begin(); it != extra.end(); ++it)
        body.insert(it.key(), it.value());
    const int before = m_site.hits("/account");
    const HttpResponse r = as(m_keyA).post(endpoint, body);
    QVERIFY2(r.status == status, r.body.constData());
    if (!field.isEmpty())
        QVERIFY2(r.body.contains(field.toUtf8()), r.body.constData());
    // Nothing was loaded for a refused request; another key's id is never echoed as theirs.
    QCOMPARE(m_site.hits("/account"), before);
}

void tst_SessionWork::visitorRunsNeverTakeASession_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QJsonObject>("body");
    const QJsonObject ref{{QStringLiteral("id"), QStringLiteral("bs_abc")}};
    QTest::newRow("an A2W run refuses browserSession")
        << QStringLiteral("/v2/a2w/runs")
        << QJsonObject{{QStringLiteral("url"), QStringLiteral("https://shop.test/")},
                       {QStringLiteral("prompt"), QStringLiteral("find a kettle")},
                       {QStringLiteral("browserSession"), ref}};
    QTest::newRow("a v1 task refuses browserSession")
        << QStringLiteral("/v1/tasks")
        << QJsonObject{{QStringLiteral("url"), QStringLiteral("https://shop.test/")},
                       {QStringLiteral("goal"), QStringLiteral("find a kettle")},
                       {QStringLiteral("browserSession"), ref}};
}

void tst_SessionWork::visitorRunsNeverTakeASession()
{
    QFETCH(QString, endpoint);
    QFETCH(QJsonObject, body);
    const HttpResponse r = as(m_keyA).post(endpoint, body);
    QVERIFY2(r.status == 400, r.body.constData());
    QVERIFY2(r.body.contains("browserSession"), r.body.constData());
}

PH_WEBENGINE_TEST_MAIN(tst_SessionWork)
#include "tst_sessionwork.moc"
