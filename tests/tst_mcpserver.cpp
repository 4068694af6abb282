// The MCP streamable-HTTP server side (server/mcp) as the configuration MCP offers it:
// initialize and version negotiation, sessions, DELETE, batches, headers, JSON-RPC and
// tool errors.
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/Clock.h"
#include "core/JsonSchema.h"
#include "mcp/McpServer.h"

#include <QJsonArray>

using namespace ph;
using namespace ph::test;

class tst_McpServer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void negotiatesTheProtocolVersion_data();
    void negotiatesTheProtocolVersion();
    void requiresAKnownSession();
    void endsASessionWithDelete();
    void keepsASessionToItsCredential();
    void acknowledgesNotifications();
    void listsTheToolsWithoutAnApplyTool();
    void callsATool();
    void reportsToolErrorsAsResults();
    void reportsProtocolErrors_data();
    void reportsProtocolErrors();
    void checksTheProtocolVersionHeader();
    void acceptsBatchesOnlyWhereTheVersionAllows();
    void refusesBadTransportRequests();
    void checksArgumentsAgainstTheSchema_data();
    void checksArgumentsAgainstTheSchema();
    void evictsACredentialsLeastRecentlyUsedSession_data();
    void evictsACredentialsLeastRecentlyUsedSession();
    void evictsTheLeastRecentlyUsedSessionOverTheEndpointsCap();
    void refusesASessionOverMcpMaxSessionBytes();
    void endsASessionIdleForMcpSessionIdleMs();

private:
    // The service with small session limits and a clock the test moves.
    TestService &limited();
    HttpResponse limitedRpc(const QString &path, const QString &key, const QJsonObject &message,
                            const QString &session = {});
    QString openLimited(const QString &path, const QString &key,
                        const QJsonObject &clientInfo = {});
    ManualClock m_clock{1'800'000'000'000};
    std::unique_ptr<TestService> m_limited;

    HttpResponse rpc(const QJsonValue &message, const QString &session = {},
                     const HttpClient::Headers &extra = {}, const QString &key = {});
    QString initialize(const QString &version = QStringLiteral("2025-06-18"),
                       const QString &key = {});
    static QJsonObject request(int id, const QString &method, const QJsonObject &params = {});

    std::unique_ptr<TestService> m_ph;
    QString m_siteId;
    QString m_connectKey;
};

namespace {
const QString kPath = QStringLiteral("/config/mcp");
}

void tst_McpServer::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    const auto site = m_ph->client().post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("MCP site")},
         {QStringLiteral("label"), QStringLiteral("k")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("example.com")}}});
    QCOMPARE(site.status, 201);
    m_siteId = site.json().value(QStringLiteral("siteId")).toString();
    m_connectKey =
        m_ph->client()
            .post(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), m_siteId}})
            .json()
            .value(QStringLiteral("key"))
            .toString();
    QVERIFY(!m_connectKey.isEmpty());
}

void tst_McpServer::cleanupTestCase()
{
    m_limited.reset();
    m_ph.reset();
}

QJsonObject tst_McpServer::request(int id, const QString &method, const QJsonObject &params)
{
    QJsonObject o{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                  {QStringLiteral("id"), id},
                  {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        o.insert(QStringLiteral("params"), params);
    return o;
}

HttpResponse tst_McpServer::rpc(const QJsonValue &message, const QString &session,
                                const HttpClient::Headers &extra, const QString &key)
{
    HttpClient c(m_ph->base());
    c.setBearer(key.isEmpty() ? m_ph->ownerKey() : key);
    HttpClient::Headers headers{{"Accept", "application/json, text/event-stream"}};
    if (!session.isEmpty())
        headers.append({"Mcp-Session-Id", session.toLatin1()});
    headers.append(extra);
    const QByteArray body = message.isArray()
                                ? QJsonDocument(message.toArray()).toJson(QJsonDocument::Compact)
                                : QJsonDocument(message.toObject()).toJson(QJsonDocument::Compact);
    return c.send("POST", kPath, body, headers);
}

QString tst_McpServer::initialize(const QString &version, const QString &key)
{
    const auto r = rpc(request(1, QStringLiteral("initialize"),
                               {{QStringLiteral("protocolVersion"), version},
                                {QStringLiteral("capabilities"), QJsonObject()},
                                {QStringLiteral("clientInfo"),
                                 QJsonObject{{QStringLiteral("name"), QStringLiteral("qt-test")},
                                             {QStringLiteral("version"), QStringLiteral("1")}}}}),
                       {}, {}, key);
    return r.status == 200 ? QString::fromLatin1(r.header("mcp-session-id")) : QString();
}

void tst_McpServer::negotiatesTheProtocolVersion_data()
{
    QTest::addColumn<QString>("requested");
    QTest::addColumn<QString>("answered");
    QTest::newRow("answers 2025-06-18 with 2025-06-18") << "2025-06-18"
                                                        << "2025-06-18";
    QTest::newRow("answers 2025-03-26 with 2025-03-26") << "2025-03-26"
                                                        << "2025-03-26";
    QTest::newRow("answers 2024-11-05 with 2024-11-05") << "2024-11-05"
                                                        << "2024-11-05";
    QTest::newRow("answers a newer version with our latest") << "2099-01-01"
                                                             << "2025-06-18";
    QTest::newRow("answers an older unknown version with our latest") << "2024-01-01"
                                                                      << "2025-06-18";
}

void tst_McpServer::negotiatesTheProtocolVersion()
{
    QFETCH(QString, requested);
    QFETCH(QString, answered);
    const auto r = rpc(request(7, QStringLiteral("initialize"),
                               {{QStringLiteral("protocolVersion"), requested},
                                {QStringLiteral("capabilities"), QJsonObject()},
                                {QStringLiteral("clientInfo"),
                                 QJsonObject{{QStringLiteral("name"), QStringLiteral("t")},
                                             {QStringLiteral("version"), QStringLiteral("1")}}}}));
    QCOMPARE(r.status, 200);
    QVERIFY(r.header("content-type").startsWith("application/json"));
    QVERIFY(r.header("mcp-session-id").startsWith("mcp_"));
    const QJsonObject body = r.json();
    QCOMPARE(body.value(QStringLiteral("id")).toInt(), 7);
    const QJsonObject result = body.value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("protocolVersion")).toString(), answered);
    QVERIFY(
        result.value(QStringLiteral("capabilities")).toObject().contains(QStringLiteral("tools")));
    QCOMPARE(result.value(QStringLiteral("serverInfo"))
                 .toObject()
                 .value(QStringLiteral("name"))
                 .toString(),
             QStringLiteral("pilothouse-config"));
    QVERIFY(!result.value(QStringLiteral("instructions")).toString().isEmpty());
}

void tst_McpServer::requiresAKnownSession()
{
    auto r = rpc(request(2, QStringLiteral("tools/list")));
    QCOMPARE(r.status, 400);
    QCOMPARE(
        r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
        -32000);
    r = rpc(request(2, QStringLiteral("tools/list")), QStringLiteral("mcp_unknownsession"));
    QCOMPARE(r.status, 404);
    QVERIFY(r.json().contains(QStringLiteral("error")));
}

void tst_McpServer::endsASessionWithDelete()
{
    const QString session = initialize();
    QVERIFY(!session.isEmpty());
    QCOMPARE(rpc(request(3, QStringLiteral("ping")), session).status, 200);
    HttpClient c(m_ph->base());
    c.setBearer(m_ph->ownerKey());
    QCOMPARE(c.send("DELETE", kPath, {}, {{"Mcp-Session-Id", session.toLatin1()}}).status, 204);
    QCOMPARE(rpc(request(4, QStringLiteral("ping")), session).status, 404);
    QCOMPARE(c.send("DELETE", kPath, {}, {{"Mcp-Session-Id", session.toLatin1()}}).status, 404);
    QCOMPARE(c.send("DELETE", kPath).status, 400);
}

void tst_McpServer::keepsASessionToItsCredential()
{
    const QString session = initialize();
    // A Connect AI key cannot ride on the owner's session.
    QCOMPARE(rpc(request(5, QStringLiteral("ping")), session, {}, m_connectKey).status, 404);
    const QString own = initialize(QStringLiteral("2025-06-18"), m_connectKey);
    QVERIFY(!own.isEmpty());
    QCOMPARE(rpc(request(5, QStringLiteral("ping")), own, {}, m_connectKey).status, 200);
    // Authentication still runs on every request.
    QCOMPARE(rpc(request(5, QStringLiteral("ping")), own, {}, QStringLiteral("ck_wrong")).status,
             401);
}

void tst_McpServer::acknowledgesNotifications()
{
    const QString session = initialize();
    const auto r =
        rpc(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("method"), QStringLiteral("notifications/initialized")}},
            session);
    QCOMPARE(r.status, 202);
    QVERIFY(r.body.isEmpty());
}

void tst_McpServer::listsTheToolsWithoutAnApplyTool()
{
    const QString session = initialize();
    const auto r = rpc(request(8, QStringLiteral("tools/list")), session);
    QCOMPARE(r.status, 200);
    const QJsonArray tools = r.json()
                                 .value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("tools"))
                                 .toArray();
    QStringList names;
    for (const QJsonValue &t : tools) {
        const QJsonObject tool = t.toObject();
        names.append(tool.value(QStringLiteral("name")).toString());
        QVERIFY(!tool.value(QStringLiteral("description")).toString().isEmpty());
        QCOMPARE(tool.value(QStringLiteral("inputSchema"))
                     .toObject()
                     .value(QStringLiteral("type"))
                     .toString(),
                 QStringLiteral("object"));
    }
    names.sort();
    QCOMPARE(names,
             (QStringList{QStringLiteral("draft_journey"), QStringLiteral("get_analytics_summary"),
                          QStringLiteral("get_config_brief"), QStringLiteral("get_config_section"),
                          QStringLiteral("get_journey"), QStringLiteral("list_journeys"),
                          QStringLiteral("list_pending_changes"), QStringLiteral("list_sites"),
                          QStringLiteral("propose_config_change"),
                          QStringLiteral("validate_config_patch")}));
    for (const QString &n : std::as_const(names))
        QVERIFY(!n.contains(QLatin1String("apply")));
}

void tst_McpServer::callsATool()
{
    const QString session = initialize(QStringLiteral("2025-06-18"), m_connectKey);
    const auto r = rpc(request(9, QStringLiteral("tools/call"),
                               {{QStringLiteral("name"), QStringLiteral("list_sites")}}),
                       session, {}, m_connectKey);
    QCOMPARE(r.status, 200);
    const QJsonObject result = r.json().value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("isError")).toBool(), false);
    const QJsonArray sites = result.value(QStringLiteral("structuredContent"))
                                 .toObject()
                                 .value(QStringLiteral("sites"))
                                 .toArray();
    QCOMPARE(sites.size(), 1);
    QCOMPARE(sites.at(0).toObject().value(QStringLiteral("siteId")).toString(), m_siteId);
    const QString text = result.value(QStringLiteral("content"))
                             .toArray()
                             .at(0)
                             .toObject()
                             .value(QStringLiteral("text"))
                             .toString();
    QCOMPARE(QJsonDocument::fromJson(text.toUtf8()).object(),
             result.value(QStringLiteral("structuredContent")).toObject());

    // structuredContent is a 2025-06-18 field; older sessions get text content only.
    const QString old = initialize(QStringLiteral("2025-03-26"), m_connectKey);
    const auto r2 = rpc(request(9, QStringLiteral("tools/call"),
                                {{QStringLiteral("name"), QStringLiteral("list_sites")}}),
                        old, {}, m_connectKey);
    QVERIFY(!r2.json()
                 .value(QStringLiteral("result"))
                 .toObject()
                 .contains(QStringLiteral("structuredContent")));
}

void tst_McpServer::reportsToolErrorsAsResults()
{
    const QString session = initialize(QStringLiteral("2025-06-18"), m_connectKey);
    // A handler's typed error: another site is not found.
    auto r =
        rpc(request(10, QStringLiteral("tools/call"),
                    {{QStringLiteral("name"), QStringLiteral("get_config_section")},
                     {QStringLiteral("arguments"),
                      QJsonObject{{QStringLiteral("siteId"), QStringLiteral("site_elsewhere")}}}}),
            session, {}, m_connectKey);
    QCOMPARE(r.status, 200);
    QJsonObject result = r.json().value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("isError")).toBool(), true);
    QJsonObject error = QJsonDocument::fromJson(result.value(QStringLiteral("content"))
                                                    .toArray()
                                                    .at(0)
                                                    .toObject()
                                                    .value(QStringLiteral("text"))
                                                    .toString()
                                                    .toUtf8())
                            .object();
    QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("SITE_NOT_FOUND"));
    QCOMPARE(error.value(QStringLiteral("field")).toString(), QStringLiteral("siteId"));
    // Arguments that do not match the schema.
    r = rpc(request(11, QStringLiteral("tools/call"),
                    {{QStringLiteral("name"), QStringLiteral("get_config_brief")},
                     {QStringLiteral("arguments"),
                      QJsonObject{{QStringLiteral("siteId"), m_siteId},
                                  {QStringLiteral("section"), QStringLiteral("secrets")}}}}),
            session, {}, m_connectKey);
    result = r.json().value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("isError")).toBool(), true);
    error = QJsonDocument::fromJson(result.value(QStringLiteral("content"))
                                        .toArray()
                                        .at(0)
                                        .toObject()
                                        .value(QStringLiteral("text"))
                                        .toString()
                                        .toUtf8())
                .object();
    QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("INVALID_ARGUMENTS"));
    QVERIFY(error.value(QStringLiteral("error")).toString().contains(QLatin1String("section")));
}

void tst_McpServer::reportsProtocolErrors_data()
{
    QTest::addColumn<QJsonObject>("message");
    QTest::addColumn<int>("code");
    QTest::newRow("an unknown method is -32601")
        << request(12, QStringLiteral("resources/list")) << -32601;
    QTest::newRow("an unknown tool is -32602")
        << request(13, QStringLiteral("tools/call"),
                   {{QStringLiteral("name"), QStringLiteral("apply_config_change")}})
        << -32602;
    QTest::newRow("arguments that are not an object are -32602")
        << request(14, QStringLiteral("tools/call"),
                   {{QStringLiteral("name"), QStringLiteral("list_sites")},
                    {QStringLiteral("arguments"), QJsonArray()}})
        << -32602;
    QTest::newRow("a message that is not JSON-RPC 2.0 is -32600")
        << QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("1.0")},
                       {QStringLiteral("id"), 15},
                       {QStringLiteral("method"), QStringLiteral("ping")}}
        << -32600;
}

void tst_McpServer::reportsProtocolErrors()
{
    QFETCH(QJsonObject, message);
    QFETCH(int, code);
    const QString session = initialize();
    const auto r = rpc(message, session);
    QCOMPARE(r.status, 200);
    QCOMPARE(
        r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
        code);
    QCOMPARE(r.json().value(QStringLiteral("id")), message.value(QStringLiteral("id")));
}

void tst_McpServer::checksTheProtocolVersionHeader()
{
    const QString session = initialize(QStringLiteral("2025-03-26"));
    QCOMPARE(
        rpc(request(16, QStringLiteral("ping")), session, {{"MCP-Protocol-Version", "2025-03-26"}})
            .status,
        200);
    QCOMPARE(rpc(request(16, QStringLiteral("ping")), session).status,
             200); // absent: the session's
    QCOMPARE(
        rpc(request(16, QStringLiteral("ping")), session, {{"MCP-Protocol-Version", "2025-06-18"}})
            .status,
        400);
    QCOMPARE(
        rpc(request(16, QStringLiteral("ping")), session, {{"MCP-Protocol-Version", "1999-01-01"}})
            .status,
        400);
}

void tst_McpServer::acceptsBatchesOnlyWhereTheVersionAllows()
{
    const QString old = initialize(QStringLiteral("2025-03-26"));
    const QJsonArray batch{
        request(20, QStringLiteral("ping")),
        QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                    {QStringLiteral("method"), QStringLiteral("notifications/initialized")}},
        request(21, QStringLiteral("tools/list"))};
    auto r = rpc(batch, old);
    QCOMPARE(r.status, 200);
    const QJsonArray responses = QJsonDocument::fromJson(r.body).array();
    QCOMPARE(responses.size(), 2);
    QCOMPARE(responses.at(0).toObject().value(QStringLiteral("id")).toInt(), 20);
    QCOMPARE(responses.at(1).toObject().value(QStringLiteral("id")).toInt(), 21);

    const QString current = initialize(QStringLiteral("2025-06-18"));
    r = rpc(batch, current);
    QCOMPARE(r.status, 400);
    QCOMPARE(
        r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
        -32600);

    r = rpc(
        QJsonArray{request(22, QStringLiteral("initialize"),
                           {{QStringLiteral("protocolVersion"), QStringLiteral("2025-03-26")}})});
    QCOMPARE(r.status, 400);
    r = rpc(QJsonArray(), old);
    QCOMPARE(r.status, 400);
}

void tst_McpServer::refusesBadTransportRequests()
{
    const QString session = initialize();
    HttpClient c(m_ph->base());
    c.setBearer(m_ph->ownerKey());
    auto r = c.send("POST", kPath, "{not json", {{"Mcp-Session-Id", session.toLatin1()}});
    QCOMPARE(r.status, 400);
    QCOMPARE(
        r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
        -32700);
    r = c.send("POST", kPath, QJsonDocument(request(1, QStringLiteral("ping"))).toJson(),
               {{"Content-Type", "text/plain"}, {"Mcp-Session-Id", session.toLatin1()}});
    QCOMPARE(r.status, 415);
    r = c.send("POST", kPath, QJsonDocument(request(1, QStringLiteral("ping"))).toJson(),
               {{"Accept", "text/html"}, {"Mcp-Session-Id", session.toLatin1()}});
    QCOMPARE(r.status, 406);
    r = c.get(kPath, {{"Accept", "text/event-stream"}});
    QCOMPARE(r.status, 405);
    QCOMPARE(r.header("allow"), QByteArray("POST, DELETE"));
    // Without credentials the transport is never reached.
    HttpClient anonymous(m_ph->base());
    QCOMPARE(
        anonymous.send("POST", kPath, QJsonDocument(request(1, QStringLiteral("ping"))).toJson())
            .status,
        401);
}

void tst_McpServer::checksArgumentsAgainstTheSchema_data()
{
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<bool>("ok");
    QTest::newRow("accepts a complete object")
        << QJsonValue(
               QJsonObject{{QStringLiteral("a"), QStringLiteral("x")}, {QStringLiteral("n"), 3}})
        << true;
    QTest::newRow("refuses a missing required property")
        << QJsonValue(QJsonObject{{QStringLiteral("n"), 3}}) << false;
    QTest::newRow("refuses an unknown property")
        << QJsonValue(
               QJsonObject{{QStringLiteral("a"), QStringLiteral("x")}, {QStringLiteral("z"), 1}})
        << false;
    QTest::newRow("refuses a fractional integer")
        << QJsonValue(
               QJsonObject{{QStringLiteral("a"), QStringLiteral("x")}, {QStringLiteral("n"), 1.5}})
        << false;
    QTest::newRow("refuses a number above the maximum")
        << QJsonValue(
               QJsonObject{{QStringLiteral("a"), QStringLiteral("x")}, {QStringLiteral("n"), 11}})
        << false;
    QTest::newRow("refuses a value outside the enum")
        << QJsonValue(QJsonObject{{QStringLiteral("a"), QStringLiteral("y")}}) << false;
    QTest::newRow("refuses a wrong array item")
        << QJsonValue(QJsonObject{{QStringLiteral("a"), QStringLiteral("x")},
                                  {QStringLiteral("list"), QJsonArray{1}}})
        << false;
}

void tst_McpServer::checksArgumentsAgainstTheSchema()
{
    QFETCH(QJsonValue, value);
    QFETCH(bool, ok);
    const QJsonObject schema{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("required"), QJsonArray{QStringLiteral("a")}},
        {QStringLiteral("additionalProperties"), false},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("a"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                          {QStringLiteral("enum"), QJsonArray{QStringLiteral("x")}}}},
             {QStringLiteral("n"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")},
                                               {QStringLiteral("maximum"), 10}}},
             {QStringLiteral("list"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                          {QStringLiteral("items"),
                           QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}}}};
    QCOMPARE(JsonSchema::check(schema, value).isEmpty(), ok);
}

TestService &tst_McpServer::limited()
{
    if (!m_limited)
        m_limited = std::make_unique<TestService>(
            QStringList{QStringLiteral("mcp.maxSessionsPerCredential=2"),
                        QStringLiteral("mcp.maxSessions=3"),
                        QStringLiteral("mcp.maxSessionBytes=1024"),
                        QStringLiteral("mcp.sessionIdleMs=60000")},
            QString(), &m_clock);
    return *m_limited;
}

HttpResponse tst_McpServer::limitedRpc(const QString &path, const QString &key,
                                       const QJsonObject &message, const QString &session)
{
    HttpClient c(limited().base());
    c.setBearer(key);
    HttpClient::Headers headers{{"Accept", "application/json, text/event-stream"}};
    if (!session.isEmpty())
        headers.append({"Mcp-Session-Id", session.toLatin1()});
    m_clock.advance(10); // every request a little later than the one before
    return c.send("POST", path, QJsonDocument(message).toJson(QJsonDocument::Compact), headers);
}

QString tst_McpServer::openLimited(const QString &path, const QString &key,
                                   const QJsonObject &clientInfo)
{
    const auto r =
        limitedRpc(path, key,
                   request(1, QStringLiteral("initialize"),
                           {{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")},
                            {QStringLiteral("capabilities"), QJsonObject()},
                            {QStringLiteral("clientInfo"),
                             clientInfo.isEmpty()
                                 ? QJsonObject{{QStringLiteral("name"), QStringLiteral("qt-test")},
                                               {QStringLiteral("version"), QStringLiteral("1")}}
                                 : clientInfo}}));
    return r.status == 200 ? QString::fromLatin1(r.header("mcp-session-id")) : QString();
}

void tst_McpServer::evictsACredentialsLeastRecentlyUsedSession_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("on the configuration MCP") << kPath;
    QTest::newRow("on the browser bridge's /mcp") << QStringLiteral("/mcp");
}

void tst_McpServer::evictsACredentialsLeastRecentlyUsedSession()
{
    QFETCH(QString, path);
    QVERIFY2(limited().ok(), qPrintable(limited().error()));
    const QString key = limited().ownerKey();
    const QString first = openLimited(path, key);
    const QString second = openLimited(path, key);
    QVERIFY(!first.isEmpty() && !second.isEmpty());
    // The first is used again: the second is now the least recently used.
    QCOMPARE(limitedRpc(path, key, request(2, QStringLiteral("ping")), first).status, 200);
    const QString third = openLimited(path, key); // over mcp.maxSessionsPerCredential=2
    QVERIFY(!third.isEmpty());
    // The evicted session's client gets 404 and must initialize again (MCP transport).
    const auto gone = limitedRpc(path, key, request(3, QStringLiteral("ping")), second);
    QCOMPARE(gone.status, 404);
    QCOMPARE(
        gone.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
        -32001);
    QCOMPARE(limitedRpc(path, key, request(4, QStringLiteral("ping")), first).status, 200);
    QCOMPARE(limitedRpc(path, key, request(5, QStringLiteral("ping")), third).status, 200);
    // Leave nothing behind for the next test.
    HttpClient c(limited().base());
    c.setBearer(key);
    for (const QString &s : {first, third})
        QCOMPARE(c.send("DELETE", path, {}, {{"Mcp-Session-Id", s.toLatin1()}}).status, 204);
}

void tst_McpServer::evictsTheLeastRecentlyUsedSessionOverTheEndpointsCap()
{
    QVERIFY(limited().ok());
    const QString path = QStringLiteral("/mcp");
    const QString owner = limited().ownerKey();
    const QString user = limited().mintKey(10);
    const QString a = openLimited(path, owner);
    const QString b = openLimited(path, owner);
    const QString c = openLimited(path, user);
    const QString d = openLimited(path, user); // a 4th over mcp.maxSessions=3: `a` goes
    QVERIFY(!a.isEmpty() && !b.isEmpty() && !c.isEmpty() && !d.isEmpty());
    QCOMPARE(limitedRpc(path, owner, request(6, QStringLiteral("ping")), a).status, 404);
    QCOMPARE(limitedRpc(path, owner, request(7, QStringLiteral("ping")), b).status, 200);
    QCOMPARE(limitedRpc(path, user, request(8, QStringLiteral("ping")), c).status, 200);
    QCOMPARE(limitedRpc(path, user, request(9, QStringLiteral("ping")), d).status, 200);
}

void tst_McpServer::refusesASessionOverMcpMaxSessionBytes()
{
    QVERIFY(limited().ok());
    const auto r =
        limitedRpc(kPath, limited().ownerKey(),
                   request(1, QStringLiteral("initialize"),
                           {{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")},
                            {QStringLiteral("capabilities"), QJsonObject()},
                            {QStringLiteral("clientInfo"),
                             QJsonObject{{QStringLiteral("name"), QString(2000, QLatin1Char('x'))},
                                         {QStringLiteral("version"), QStringLiteral("1")}}}}));
    QCOMPARE(r.status, 400);
    QVERIFY(r.header("mcp-session-id").isEmpty());
    const QJsonObject error = r.json().value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("code")).toInt(), -32602);
    QVERIFY2(
        error.value(QStringLiteral("message")).toString().contains(QLatin1String("clientInfo")),
        r.body.constData());
    QVERIFY(error.value(QStringLiteral("message"))
                .toString()
                .contains(QLatin1String("mcp.maxSessionBytes")));
}

void tst_McpServer::endsASessionIdleForMcpSessionIdleMs()
{
    QVERIFY(limited().ok());
    const QString key = limited().ownerKey();
    const QString session = openLimited(kPath, key);
    QVERIFY(!session.isEmpty());
    m_clock.advance(59'000); // within mcp.sessionIdleMs=60000: still there, and renewed
    QCOMPARE(limitedRpc(kPath, key, request(2, QStringLiteral("ping")), session).status, 200);
    m_clock.advance(61'000);
    QCOMPARE(limitedRpc(kPath, key, request(3, QStringLiteral("ping")), session).status, 404);
}

PH_WEBENGINE_TEST_MAIN(tst_McpServer)
#include "tst_mcpserver.moc"
