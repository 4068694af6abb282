// MCP's two transport generations on one endpoint (server/mcp): the 2026-07-28 stateless
// transport (no initialize, server/discover, Mcp-Method / Mcp-Name / MCP-Protocol-Version
// checked against the body, subscriptions/listen) beside the 2025 session transport, over
// the configuration MCP's tools. The header checks (mcp/McpStateless.h) are also driven
// directly, row by row.
#include "HttpClient.h"
#include "SseStream.h"
#include "TestMain.h"
#include "TestService.h"

#include "Service.h"
#include "mcp/McpServer.h"
#include "mcp/McpStateless.h"
#include "sites/SitesArea.h"

#include <QJsonArray>

using namespace ph;
using namespace ph::test;

class tst_McpStateless : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void checksHeadersAgainstTheBody_data();
    void checksHeadersAgainstTheBody();
    void decodesHeaderValues_data();
    void decodesHeaderValues();
    void picksTheTransportFromTheRequest_data();
    void picksTheTransportFromTheRequest();
    void aStatelessCallWithoutInitializeWorks();
    void discoversTheServer();
    void listsTheSameToolsOnBothGenerations();
    void refusesHeadersThatDisagreeWithTheBody_data();
    void refusesHeadersThatDisagreeWithTheBody();
    void aSessionClientStillGetsASessionId();
    void answersUnknownAndRemovedMethodsWith404();
    void listensWithAnAcknowledgedStream();

private:
    // One stateless request: `headers` default to those the body implies.
    HttpResponse call(const QJsonObject &message, const HttpClient::Headers &headers);
    HttpResponse call(const QJsonObject &message);
    static QJsonObject request(const QJsonValue &id, const QString &method, QJsonObject params = {},
                               const QString &version = QStringLiteral("2026-07-28"));
    static HttpClient::Headers headersFor(const QJsonObject &message);

    std::unique_ptr<TestService> m_ph;
    QString m_siteId;
    QString m_connectKey;
};

namespace {
const QString kPath = QStringLiteral("/config/mcp");
const QString kModern = QStringLiteral("2026-07-28");
} // namespace

void tst_McpStateless::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    const auto site = m_ph->client().post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Stateless site")},
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

void tst_McpStateless::cleanupTestCase()
{
    m_ph.reset();
}

QJsonObject tst_McpStateless::request(const QJsonValue &id, const QString &method,
                                      QJsonObject params, const QString &version)
{
    params.insert(QStringLiteral("_meta"),
                  QJsonObject{{mcp::stateless::kVersionKey, version},
                              {mcp::stateless::kCapabilitiesKey, QJsonObject()},
                              {mcp::stateless::kClientInfoKey,
                               QJsonObject{{QStringLiteral("name"), QStringLiteral("qt-test")},
                                           {QStringLiteral("version"), QStringLiteral("1")}}}});
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("method"), method},
            {QStringLiteral("params"), params}};
}

HttpClient::Headers tst_McpStateless::headersFor(const QJsonObject &message)
{
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    HttpClient::Headers h{
        {"MCP-Protocol-Version", params.value(QStringLiteral("_meta"))
                                     .toObject()
                                     .value(mcp::stateless::kVersionKey)
                                     .toString()
                                     .toLatin1()},
        {"Mcp-Method", message.value(QStringLiteral("method")).toString().toLatin1()}};
    if (params.contains(QStringLiteral("name")))
        h.append({"Mcp-Name", params.value(QStringLiteral("name")).toString().toLatin1()});
    return h;
}

HttpResponse tst_McpStateless::call(const QJsonObject &message, const HttpClient::Headers &headers)
{
    HttpClient c(m_ph->base());
    c.setBearer(m_connectKey);
    HttpClient::Headers all{{"Accept", "application/json, text/event-stream"}};
    all.append(headers);
    return c.send("POST", kPath, QJsonDocument(message).toJson(QJsonDocument::Compact), all);
}

HttpResponse tst_McpStateless::call(const QJsonObject &message)
{
    return call(message, headersFor(message));
}

void tst_McpStateless::checksHeadersAgainstTheBody_data()
{
    QTest::addColumn<QJsonObject>("message");
    QTest::addColumn<QByteArray>("versionHeader");
    QTest::addColumn<QByteArray>("methodHeader");
    QTest::addColumn<QByteArray>("nameHeader");
    QTest::addColumn<int>("code"); // 0: passes

    const QJsonObject callTool = request(1, QStringLiteral("tools/call"),
                                         {{QStringLiteral("name"), QStringLiteral("list_sites")}});
    const QJsonObject list = request(2, QStringLiteral("tools/list"));
    QTest::newRow("a request whose headers match its body passes")
        << callTool << QByteArray("2026-07-28") << QByteArray("tools/call")
        << QByteArray("list_sites") << 0;
    QTest::newRow("a tools/list needs no Mcp-Name")
        << list << QByteArray("2026-07-28") << QByteArray("tools/list") << QByteArray() << 0;
    QTest::newRow("a missing MCP-Protocol-Version header is a header mismatch")
        << list << QByteArray() << QByteArray("tools/list") << QByteArray() << -32020;
    QTest::newRow("an MCP-Protocol-Version header unlike _meta is a header mismatch")
        << list << QByteArray("2026-07-29") << QByteArray("tools/list") << QByteArray() << -32020;
    QTest::newRow("a version this server does not speak is UnsupportedProtocolVersion")
        << request(3, QStringLiteral("tools/list"), {}, QStringLiteral("2099-01-01"))
        << QByteArray("2099-01-01") << QByteArray("tools/list") << QByteArray() << -32022;
    QTest::newRow("a session version in _meta is UnsupportedProtocolVersion")
        << request(3, QStringLiteral("tools/list"), {}, QStringLiteral("2025-06-18"))
        << QByteArray("2025-06-18") << QByteArray("tools/list") << QByteArray() << -32022;
    QTest::newRow("a missing Mcp-Method header is a header mismatch")
        << list << QByteArray("2026-07-28") << QByteArray() << QByteArray() << -32020;
    QTest::newRow("an Mcp-Method naming another method is a header mismatch")
        << callTool << QByteArray("2026-07-28") << QByteArray("tools/list")
        << QByteArray("list_sites") << -32020;
    QTest::newRow("an Mcp-Method differing only in case is a header mismatch")
        << list << QByteArray("2026-07-28") << QByteArray("Tools/List") << QByteArray() << -32020;
    QTest::newRow("a tools/call without Mcp-Name is a header mismatch")
        << callTool << QByteArray("2026-07-28") << QByteArray("tools/call") << QByteArray()
        << -32020;
    QTest::newRow("an Mcp-Name naming another tool is a header mismatch")
        << callTool << QByteArray("2026-07-28") << QByteArray("tools/call")
        << QByteArray("delete_site") << -32020;
    QTest::newRow("a Base64 sentinel Mcp-Name that decodes to the tool passes")
        << callTool << QByteArray("2026-07-28") << QByteArray("tools/call")
        << QByteArray("=?base64?") + QByteArray("list_sites").toBase64() + "?=" << 0;
    QTest::newRow("a Base64 sentinel that is not Base64 is a header mismatch")
        << callTool << QByteArray("2026-07-28") << QByteArray("tools/call")
        << QByteArray("=?base64?@@@?=") << -32020;
    QTest::newRow("an Mcp-Name with a control character is a header mismatch")
        << callTool << QByteArray("2026-07-28") << QByteArray("tools/call")
        << QByteArray("list_sites\x01") << -32020;
    QJsonObject noVersion = list;
    noVersion.insert(QStringLiteral("params"), QJsonObject());
    QTest::newRow("a request without a _meta version is invalid params")
        << noVersion << QByteArray("2026-07-28") << QByteArray("tools/list") << QByteArray()
        << -32602;
    QJsonObject noCapabilities = list;
    QJsonObject params = list.value(QStringLiteral("params")).toObject();
    QJsonObject meta = params.value(QStringLiteral("_meta")).toObject();
    meta.remove(mcp::stateless::kCapabilitiesKey);
    params.insert(QStringLiteral("_meta"), meta);
    noCapabilities.insert(QStringLiteral("params"), params);
    QTest::newRow("a request without client capabilities is invalid params")
        << noCapabilities << QByteArray("2026-07-28") << QByteArray("tools/list") << QByteArray()
        << -32602;
    QJsonObject noId = list;
    noId.remove(QStringLiteral("id"));
    QTest::newRow("a message without an id is an invalid request")
        << noId << QByteArray("2026-07-28") << QByteArray("tools/list") << QByteArray() << -32600;
}

void tst_McpStateless::checksHeadersAgainstTheBody()
{
    QFETCH(QJsonObject, message);
    QFETCH(QByteArray, versionHeader);
    QFETCH(QByteArray, methodHeader);
    QFETCH(QByteArray, nameHeader);
    QFETCH(int, code);
    QString version;
    const auto failure =
        mcp::stateless::check({versionHeader, methodHeader, nameHeader}, message, &version);
    QCOMPARE(failure ? failure->code : 0, code);
    if (failure) {
        QCOMPARE(failure->httpStatus, 400);
        if (code == -32022) {
            QVERIFY(failure->data.value(QStringLiteral("supported"))
                        .toArray()
                        .contains(QJsonValue(kModern)));
            QVERIFY(!failure->data.value(QStringLiteral("requested")).toString().isEmpty());
        }
    } else {
        QCOMPARE(version, kModern);
    }
}

void tst_McpStateless::decodesHeaderValues_data()
{
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("decoded");
    QTest::newRow("a plain ASCII value is itself")
        << QByteArray("get_weather") << true << QStringLiteral("get_weather");
    QTest::newRow("a sentinel decodes as UTF-8") << QByteArray("=?base64?SGVsbG8sIOS4lueVjA==?=")
                                                 << true << QStringLiteral("Hello, \u4e16\u754c");
    QTest::newRow("a sentinel of invalid UTF-8 is refused")
        << QByteArray("=?base64?") + QByteArray("\xff\xfe").toBase64() + "?=" << false << QString();
    QTest::newRow("a byte above 0x7E is refused")
        << QByteArray("caf\xc3\xa9") << false << QString();
    QTest::newRow("a tab is allowed") << QByteArray("a\tb") << true << QStringLiteral("a\tb");
    QTest::newRow("a bare prefix is a plain value")
        << QByteArray("=?base64?") << true << QStringLiteral("=?base64?");
}

void tst_McpStateless::decodesHeaderValues()
{
    QFETCH(QByteArray, raw);
    QFETCH(bool, valid);
    QFETCH(QString, decoded);
    const auto value = mcp::stateless::decodeHeaderValue(raw);
    QCOMPARE(value.has_value(), valid);
    if (valid)
        QCOMPARE(*value, decoded);
}

void tst_McpStateless::picksTheTransportFromTheRequest_data()
{
    QTest::addColumn<QByteArray>("versionHeader");
    QTest::addColumn<QJsonObject>("message");
    QTest::addColumn<bool>("stateless");
    const QJsonObject plain{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                            {QStringLiteral("id"), 1},
                            {QStringLiteral("method"), QStringLiteral("tools/list")}};
    QTest::newRow("a request with a _meta version is stateless")
        << QByteArray() << request(1, QStringLiteral("tools/list")) << true;
    QTest::newRow("a stateless version header alone is stateless")
        << QByteArray("2026-07-28") << plain << true;
    QTest::newRow("a later version header is stateless (then refused as unsupported)")
        << QByteArray("2027-01-01") << plain << true;
    QTest::newRow("a session version header is the session transport")
        << QByteArray("2025-06-18") << plain << false;
    QTest::newRow("no header and no _meta is the session transport")
        << QByteArray() << plain << false;
    QJsonObject init = request(1, QStringLiteral("initialize"));
    QTest::newRow("initialize is the session transport, whatever it carries")
        << QByteArray("2026-07-28") << init << false;
}

void tst_McpStateless::picksTheTransportFromTheRequest()
{
    QFETCH(QByteArray, versionHeader);
    QFETCH(QJsonObject, message);
    QFETCH(bool, stateless);
    QCOMPARE(mcp::stateless::isStatelessRequest(versionHeader, message), stateless);
}

void tst_McpStateless::aStatelessCallWithoutInitializeWorks()
{
    // An unknown session id is ignored by the stateless transport, not a 404.
    HttpClient::Headers headers = headersFor(request(
        7, QStringLiteral("tools/call"), {{QStringLiteral("name"), QStringLiteral("list_sites")}}));
    headers.append(qMakePair(QByteArray("Mcp-Session-Id"), QByteArray("mcp_nosuchsession")));
    const auto r = call(request(7, QStringLiteral("tools/call"),
                                {{QStringLiteral("name"), QStringLiteral("list_sites")}}),
                        headers);
    QCOMPARE(r.status, 200);
    QVERIFY(r.header("mcp-session-id").isEmpty());
    QCOMPARE(r.json().value(QStringLiteral("id")).toInt(), 7);
    const QJsonObject result = r.json().value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("resultType")).toString(), QStringLiteral("complete"));
    QCOMPARE(result.value(QStringLiteral("isError")).toBool(), false);
    const QJsonArray sites = result.value(QStringLiteral("structuredContent"))
                                 .toObject()
                                 .value(QStringLiteral("sites"))
                                 .toArray();
    QCOMPARE(sites.size(), 1);
    QCOMPARE(sites.at(0).toObject().value(QStringLiteral("siteId")).toString(), m_siteId);
    QCOMPARE(result.value(QStringLiteral("_meta"))
                 .toObject()
                 .value(mcp::stateless::kServerInfoKey)
                 .toObject()
                 .value(QStringLiteral("name"))
                 .toString()
                 .isEmpty(),
             false);
    // Nothing was kept: no session exists for the call.
    QCOMPARE(m_ph->service().sites().mcp().sessionCount(), 0);
}

void tst_McpStateless::discoversTheServer()
{
    const auto r = call(request(QStringLiteral("d1"), QStringLiteral("server/discover")));
    QCOMPARE(r.status, 200);
    const QJsonObject result = r.json().value(QStringLiteral("result")).toObject();
    QCOMPARE(r.json().value(QStringLiteral("id")).toString(), QStringLiteral("d1"));
    QCOMPARE(result.value(QStringLiteral("resultType")).toString(), QStringLiteral("complete"));
    const QJsonArray versions = result.value(QStringLiteral("supportedVersions")).toArray();
    QCOMPARE(versions.first().toString(), kModern);
    QVERIFY(versions.contains(QJsonValue(QStringLiteral("2025-06-18"))));
    QVERIFY(
        result.value(QStringLiteral("capabilities")).toObject().contains(QStringLiteral("tools")));
    QCOMPARE(result.value(QStringLiteral("cacheScope")).toString(), QStringLiteral("private"));
    QVERIFY(result.value(QStringLiteral("ttlMs")).toInteger() > 0);
}

void tst_McpStateless::listsTheSameToolsOnBothGenerations()
{
    auto names = [](const QJsonObject &answer) {
        QStringList out;
        for (const QJsonValue &t : answer.value(QStringLiteral("result"))
                                       .toObject()
                                       .value(QStringLiteral("tools"))
                                       .toArray())
            out << t.toObject().value(QStringLiteral("name")).toString();
        return out;
    };
    const auto stateless = call(request(2, QStringLiteral("tools/list")));
    QCOMPARE(stateless.status, 200);
    const QJsonObject result = stateless.json().value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("cacheScope")).toString(), QStringLiteral("private"));
    QCOMPARE(result.value(QStringLiteral("ttlMs")).toInteger(), mcp::McpServer::kListTtlMs);

    HttpClient c(m_ph->base());
    c.setBearer(m_connectKey);
    const HttpClient::Headers accept{{"Accept", "application/json, text/event-stream"}};
    const auto init = c.send(
        "POST", kPath,
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})",
        accept);
    QCOMPARE(init.status, 200);
    HttpClient::Headers session = accept;
    session.append({"Mcp-Session-Id", init.header("mcp-session-id")});
    const auto legacy =
        c.send("POST", kPath, R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", session);
    QCOMPARE(legacy.status, 200);
    QVERIFY(!names(legacy.json()).isEmpty());
    QCOMPARE(names(stateless.json()), names(legacy.json()));
}

void tst_McpStateless::refusesHeadersThatDisagreeWithTheBody_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("value");
    QTest::newRow("an Mcp-Method mismatch is refused")
        << QByteArray("Mcp-Method") << QByteArray("tools/list");
    QTest::newRow("an Mcp-Name mismatch is refused")
        << QByteArray("Mcp-Name") << QByteArray("other_tool");
    QTest::newRow("an MCP-Protocol-Version mismatch is refused")
        << QByteArray("MCP-Protocol-Version") << QByteArray("2026-07-29");
}

void tst_McpStateless::refusesHeadersThatDisagreeWithTheBody()
{
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, value);
    const QJsonObject message = request(11, QStringLiteral("tools/call"),
                                        {{QStringLiteral("name"), QStringLiteral("list_sites")}});
    HttpClient::Headers headers;
    for (const auto &h : headersFor(message))
        headers.append(h.first.compare(header, Qt::CaseInsensitive) == 0 ? qMakePair(h.first, value)
                                                                         : h);
    const auto r = call(message, headers);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("id")).toInt(), 11);
    const QJsonObject error = r.json().value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("code")).toInt(), -32020);
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QString::fromLatin1(value)),
             qPrintable(error.value(QStringLiteral("message")).toString()));
}

void tst_McpStateless::aSessionClientStillGetsASessionId()
{
    HttpClient c(m_ph->base());
    c.setBearer(m_connectKey);
    const HttpClient::Headers accept{{"Accept", "application/json, text/event-stream"}};
    const int before = m_ph->service().sites().mcp().sessionCount();
    const auto init = c.send(
        "POST", kPath,
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})",
        accept);
    QCOMPARE(init.status, 200);
    const QByteArray session = init.header("mcp-session-id");
    QVERIFY(session.startsWith("mcp_"));
    QCOMPARE(m_ph->service().sites().mcp().sessionCount(), before + 1);
    HttpClient::Headers headers = accept;
    headers.append({"Mcp-Session-Id", session});
    headers.append(qMakePair(QByteArray("MCP-Protocol-Version"), QByteArray("2025-06-18")));
    const auto r =
        c.send("POST", kPath,
               R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_sites"}})",
               headers);
    QCOMPARE(r.status, 200);
    const QJsonObject result = r.json().value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("isError")).toBool(), false);
    // The session generation's results are as they were: no resultType.
    QVERIFY(!result.contains(QStringLiteral("resultType")));
    // And the session transport still refuses a request without its session.
    const auto lost =
        c.send("POST", kPath, R"({"jsonrpc":"2.0","id":4,"method":"tools/list"})", accept);
    QCOMPARE(lost.status, 400);
}

void tst_McpStateless::answersUnknownAndRemovedMethodsWith404()
{
    for (const QString &method : {QStringLiteral("ping"), QStringLiteral("resources/list"),
                                  QStringLiteral("logging/setLevel")}) {
        const auto r = call(request(5, method));
        QCOMPARE(r.status, 404);
        QCOMPARE(r.json()
                     .value(QStringLiteral("error"))
                     .toObject()
                     .value(QStringLiteral("code"))
                     .toInt(),
                 -32601);
    }
    // A batch on the stateless transport is refused, not read as a session request.
    HttpClient c(m_ph->base());
    c.setBearer(m_connectKey);
    const QJsonArray batch{request(1, QStringLiteral("tools/list"))};
    const auto r = c.send("POST", kPath, QJsonDocument(batch).toJson(QJsonDocument::Compact),
                          {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/list"}});
    QCOMPARE(r.status, 400);
    QCOMPARE(
        r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
        -32600);
}

void tst_McpStateless::listensWithAnAcknowledgedStream()
{
    const QJsonObject message =
        request(QStringLiteral("listen:1"), QStringLiteral("subscriptions/listen"),
                {{QStringLiteral("notifications"),
                  QJsonObject{{QStringLiteral("toolsListChanged"), true}}}});
    SseStream stream;
    QVERIFY(stream.post(m_ph->port(), kPath,
                        {"Authorization: Bearer " + m_connectKey.toLatin1(),
                         "Accept: application/json, text/event-stream",
                         "MCP-Protocol-Version: 2026-07-28", "Mcp-Method: subscriptions/listen"},
                        QJsonDocument(message).toJson(QJsonDocument::Compact)));
    QCOMPARE(stream.status(), 200);
    QVERIFY(stream.headers().toLower().contains("content-type: text/event-stream"));
    const auto ack = stream.next("message");
    QVERIFY(ack);
    QCOMPARE(ack->data.value(QStringLiteral("method")).toString(),
             QStringLiteral("notifications/subscriptions/acknowledged"));
    const QJsonObject params = ack->data.value(QStringLiteral("params")).toObject();
    QCOMPARE(params.value(QStringLiteral("_meta"))
                 .toObject()
                 .value(mcp::stateless::kSubscriptionKey)
                 .toString(),
             QStringLiteral("listen:1"));
    // No change notifications are sent, so none is acknowledged.
    QCOMPARE(params.value(QStringLiteral("notifications")).toObject(), QJsonObject());
    // The stream stays open after the acknowledgment.
    QVERIFY(!stream.closed());
}

PH_WEBENGINE_TEST_MAIN(tst_McpStateless)
#include "tst_mcpstateless.moc"
