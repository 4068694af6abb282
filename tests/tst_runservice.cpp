// RunService on the real service (real store, pool and QtWebEngine page), called
// directly as the console calls it: a saved tool runs as the bridge runs user_<name>
// and is logged like an API request; refusals (no credits, a full pool, an unknown tool,
// parameters that do not fit) are typed and start nothing; runs are polled and
// cancelled, and another key's run is not there.
#include "FixtureServer.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/BrowserPool.h"
#include "cloud/RunService.h"
#include "cloud/ToolLibrary.h"
#include "core/ApiKeyService.h"
#include "core/DomainError.h"
#include "core/Store.h"
#include "engine/AgentRun.h"
#include "engine/RunManager.h"

#include <QPointer>

using namespace ph;
using namespace ph::cloud;
using namespace ph::test;

class tst_RunService : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void runsASavedToolAsTheBridgeDoes();
    void refusesToStart_data();
    void refusesToStart();
    void cancelsARunningRun();
    void refusesAnotherKeysRun_data();
    void refusesAnotherKeysRun();

private:
    RunService &runs() { return m_ph->service().runService(); }
    // Rows of the request log under `endpoint`.
    int logged(const QString &endpoint, const QString &keyId) const
    {
        Sql q(m_ph->service().store(),
              QStringLiteral(
                  "SELECT COUNT(*) FROM api_requests WHERE endpoint = :e AND key_id = :k"));
        q.bind(QStringLiteral(":e"), endpoint).bind(QStringLiteral(":k"), keyId).exec();
        return q.next() ? q.value(0).toInt() : -1;
    }

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    QString m_owner;
    QString m_trajectory; // a finished run of the owner's
};

void tst_RunService::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/shop", "<!doctype html><title>Shop</title><h1>Rope</h1>");
    m_site.route("/slow", [](const FixtureRequest &) {
        FixtureResponse r = FixtureResponse::html("<title>Slow</title>");
        r.delayMs = 60000;
        return r;
    });
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_owner = m_ph->service().store().apiKeys().activeOwnerId();
    ToolDraft title;
    title.name = QStringLiteral("title_of");
    title.parameters = QJsonObject{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("suffix"),
                      QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}};
    title.code = QStringLiteral("return document.title + ' / ' + params.suffix;");
    title.url = m_site.url(QStringLiteral("/shop"));
    m_ph->service().toolLibrary().createTool(m_owner, title);
    ToolDraft slow;
    slow.name = QStringLiteral("slow");
    slow.code = QStringLiteral("return 1;");
    slow.url = m_site.url(QStringLiteral("/slow"));
    m_ph->service().toolLibrary().createTool(m_owner, slow);
}

void tst_RunService::cleanupTestCase()
{
    m_ph.reset();
}

void tst_RunService::runsASavedToolAsTheBridgeDoes()
{
    const int visits = m_site.hits("/shop");
    QPointer<engine::AgentRun> run = runs().runSavedTool(
        m_owner, QStringLiteral("title_of"),
        {{QStringLiteral("suffix"), QStringLiteral("console")}}, QStringLiteral("console"));
    QVERIFY(run);
    m_trajectory = run->trajectoryId();
    QVERIFY(m_trajectory.startsWith(QLatin1String("traj_")));
    QTRY_VERIFY_WITH_TIMEOUT(
        runs().latest(m_trajectory, m_owner).value(QStringLiteral("status")).toString() !=
            QLatin1String("executing"),
        60000);
    const QJsonObject latest = runs().latest(m_trajectory, m_owner);
    QCOMPARE(latest.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY2(QJsonDocument(latest).toJson().contains("Shop / console"),
             QJsonDocument(latest).toJson().constData());
    QCOMPARE(m_site.hits("/shop"), visits + 1);
    // Logged as the API logs a request; stored as the bridge stores user_<name>.
    QTRY_COMPARE(logged(QStringLiteral("console"), m_owner), 1);
    const auto first = m_ph->service().runs().firstRequest(m_trajectory, m_owner);
    QVERIFY(first);
    QCOMPARE(first->value(QStringLiteral("tool")).toString(), QStringLiteral("user_title_of"));
    QCOMPARE(first->value(QStringLiteral("source")).toString(), QStringLiteral("console"));
    // A finished run has nothing to cancel.
    try {
        runs().cancel(m_trajectory, m_owner);
        QFAIL("cancelled");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Conflict);
        QCOMPARE(e.code(), QStringLiteral("NOT_RUNNING"));
    }
}

void tst_RunService::refusesToStart_data()
{
    QTest::addColumn<QString>("why");
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QJsonObject>("params");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("refuses a tool the key has not saved")
        << "owner"
        << "nope" << QJsonObject() << "TOOL_NOT_FOUND"
        << "tool";
    QTest::newRow("refuses parameters that do not fit the tool's schema")
        << "owner"
        << "title_of" << QJsonObject{{QStringLiteral("suffix"), 5}} << "INVALID_FIELD"
        << "params.suffix";
    QTest::newRow("refuses a key without credits")
        << "broke"
        << "title_of" << QJsonObject() << "CREDITS_EXHAUSTED"
        << "";
    QTest::newRow("refuses when the browser pool is full") << "full"
                                                           << "title_of" << QJsonObject() << "BUSY"
                                                           << "";
}

void tst_RunService::refusesToStart()
{
    QFETCH(QString, why);
    QFETCH(QString, tool);
    QFETCH(QJsonObject, params);
    QFETCH(QString, code);
    QFETCH(QString, field);
    QString keyId = m_owner;
    if (why == QLatin1String("broke")) {
        ApiKeyService &keys = m_ph->service().keyService();
        keyId = keys.mint({QStringLiteral("broke"), QStringLiteral("user"),
                           ApiKeyService::Balance::of(0)})
                    .key.id;
        ToolDraft copy;
        copy.name = tool;
        copy.code = QStringLiteral("return 1;");
        copy.url = m_site.url(QStringLiteral("/shop"));
        m_ph->service().toolLibrary().createTool(keyId, copy);
    }
    BrowserPool &pool = m_ph->service().pool();
    const BrowserPool::Options roomy = pool.options();
    if (why == QLatin1String("full")) {
        BrowserPool::Options full = roomy;
        full.size = 0;
        full.queueLimit = 0;
        pool.setOptions(full);
    }
    const int before = logged(QStringLiteral("console"), keyId);
    const int active = m_ph->service().runs().active(keyId);
    try {
        runs().runSavedTool(keyId, tool, params, QStringLiteral("console"));
        pool.setOptions(roomy);
        QFAIL("started");
    } catch (const DomainError &e) {
        pool.setOptions(roomy);
        QCOMPARE(e.code(), code);
        QCOMPARE(e.field(), field);
    }
    // Nothing started, nothing logged.
    QCOMPARE(logged(QStringLiteral("console"), keyId), before);
    QCOMPARE(m_ph->service().runs().active(keyId), active);
}

void tst_RunService::cancelsARunningRun()
{
    QPointer<engine::AgentRun> run =
        runs().runSavedTool(m_owner, QStringLiteral("slow"), {}, QStringLiteral("console"));
    QVERIFY(run);
    const QString id = run->trajectoryId();
    QCOMPARE(runs().live(id), run.data());
    QCOMPARE(runs().latest(id, m_owner).value(QStringLiteral("status")).toString(),
             QStringLiteral("executing"));
    runs().cancel(id, m_owner);
    QTRY_COMPARE_WITH_TIMEOUT(runs().latest(id, m_owner).value(QStringLiteral("status")).toString(),
                              QStringLiteral("cancelled"), 30000);
}

void tst_RunService::refusesAnotherKeysRun_data()
{
    QTest::addColumn<bool>("cancel");
    QTest::newRow("does not show another key's run") << false;
    QTest::newRow("does not cancel another key's run") << true;
}

void tst_RunService::refusesAnotherKeysRun()
{
    QFETCH(bool, cancel);
    QVERIFY(!m_trajectory.isEmpty());
    const QString other = m_ph->service()
                              .keyService()
                              .mint({QStringLiteral("other"), QStringLiteral("user"), {}})
                              .key.id;
    for (const QString &id : {m_trajectory, QStringLiteral("traj_nobody")}) {
        try {
            if (cancel)
                runs().cancel(id, other);
            else
                runs().latest(id, other);
            QFAIL("answered");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Kind::NotFound);
            QCOMPARE(e.code(), QStringLiteral("TRAJECTORY_NOT_FOUND"));
        }
    }
    QCOMPARE(runs().latest(m_trajectory, m_owner).value(QStringLiteral("status")).toString(),
             QStringLiteral("success"));
}

PH_WEBENGINE_TEST_MAIN(tst_RunService)
#include "tst_runservice.moc"
