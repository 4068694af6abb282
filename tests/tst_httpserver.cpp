// The HTTP layer on its own: a real HttpServer on loopback with a test controller,
// talking HTTP to it. Auth, every error status with its body, X-Request-Id, the body
// limit, keep-alive, the streaming pieces (SSE, NDJSON, long-poll, disconnects), the
// connection caps and read timeouts, the caps on open streams, the client behind a
// trusted proxy, and the refusal to write a header that would split
// the response.
#include "HttpClient.h"

#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/Store.h"
#include "http/Authenticator.h"
#include "http/ConnectionLimits.h"
#include "http/EventStream.h"
#include "http/Exchange.h"
#include "http/HttpServer.h"
#include "http/LongPoll.h"

#include <QPointer>
#include <QSet>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>
#include <QWebSocket>
#include <QtTest>

using namespace ph;
using namespace ph::http;
using ph::test::HttpClient;
using ph::test::HttpResponse;

class TestController : public QObject, public Controller
{
    Q_OBJECT
public:
    int disconnects = 0;
    bool ready = false;
    bool pollAnsweredAtOnce = false; // the last /wait was answered before its handler returned

    QList<Route> routes() override
    {
        using C = TestController;
        return {
            Route::to("GET", QStringLiteral("/echo"), AuthPolicy::ApiKey, this, &C::echo),
            Route::to("POST", QStringLiteral("/json"), AuthPolicy::ApiKey, this, &C::json),
            Route::to("GET", QStringLiteral("/owner"), AuthPolicy::Owner, this, &C::echo),
            Route::to("GET", QStringLiteral("/public"), AuthPolicy::Public, this, &C::echo),
            Route::to("GET", QStringLiteral("/busy"), AuthPolicy::ApiKey, this, &C::busy),
            Route::to("GET", QStringLiteral("/broke"), AuthPolicy::ApiKey, this, &C::broke),
            Route::to("GET", QStringLiteral("/credits"), AuthPolicy::ApiKey, this, &C::credits),
            Route::to("GET", QStringLiteral("/stream"), AuthPolicy::ApiKey, this, &C::stream),
            Route::to("GET", QStringLiteral("/wait"), AuthPolicy::ApiKey, this, &C::wait),
            Route::to("POST", QStringLiteral("/wake"), AuthPolicy::ApiKey, this, &C::wake),
            Route::to("GET", QStringLiteral("/hold"), AuthPolicy::ApiKey, this, &C::hold),
            Route::to("GET", QStringLiteral("/held"), AuthPolicy::ApiKey, this, &C::held),
            Route::to("GET", QStringLiteral("/whoami"), AuthPolicy::Public, this, &C::whoami),
            Route::to("GET", QStringLiteral("/slowstream"), AuthPolicy::Public, this,
                      &C::slowStream),
            Route::to("GET", QStringLiteral("/header"), AuthPolicy::Public, this, &C::header),
        };
    }

Q_SIGNALS:
    void woken();

private:
    void echo(Exchange &ex)
    {
        ex.respondJson(200, {{QStringLiteral("key"), ex.request().principal.keyId},
                             {QStringLiteral("owner"), ex.request().principal.owner}});
    }
    void json(Exchange &ex)
    {
        const JsonFields body(ex.request().jsonObject());
        const QString name = body.requiredString(QStringLiteral("name"));
        const auto count = body.optionalInt(QStringLiteral("count"), 0, 10);
        if (const auto inner = body.optionalObject(QStringLiteral("inner")))
            inner->stringArray(QStringLiteral("list"), true);
        ex.respondJson(
            200, {{QStringLiteral("name"), name}, {QStringLiteral("count"), count.value_or(-1)}});
    }
    void busy(Exchange &) { throw DomainError::busy(QStringLiteral("full"), 7); }
    void broke(Exchange &) { throw std::runtime_error("secret internal detail"); }
    void credits(Exchange &) { throw DomainError::creditsExhausted(); }
    void stream(Exchange &ex)
    {
        EventStream::Framing framing;
        if (!EventStream::framingFromAccept(ex.request().header("accept"), &framing))
            throw DomainError(DomainError::Kind::NotAcceptable, QStringLiteral("NOT_ACCEPTABLE"),
                              QStringLiteral("no stream type"));
        auto *s = new EventStream(ex, framing, 0, this);
        int n = 0;
        auto *timer = new QTimer(s);
        connect(timer, &QTimer::timeout, s, [s, timer, n]() mutable {
            ++n;
            s->send(QStringLiteral("tick"), {{QStringLiteral("n"), n}}, n);
            if (n == 3) {
                timer->stop();
                s->close();
                s->deleteLater();
            }
        });
        timer->start(20);
    }
    void wait(Exchange &ex)
    {
        ready = false;
        const int seconds = ex.request().preferWait(5).value_or(0);
        auto *poll = LongPoll::hold(
            ex, seconds * 1000, [this] { return ready; },
            [this](Exchange &e) {
                e.respondJson(200, {{QStringLiteral("ready"), ready}});
            });
        connect(this, &TestController::woken, poll, &LongPoll::wake);
        pollAnsweredAtOnce = ex.isAnswered();
    }
    void wake(Exchange &ex)
    {
        ready = true;
        Q_EMIT woken();
        ex.respondJson(200, {});
    }
    void hold(Exchange &ex)
    {
        connect(&ex, &Exchange::clientDisconnected, this, [this] { ++disconnects; });
    }
    void whoami(Exchange &ex)
    {
        ex.respondJson(200, {{QStringLiteral("client"), ex.request().remoteAddress.toString()},
                             {QStringLiteral("peer"), ex.request().peerAddress.toString()},
                             {QStringLiteral("origin"), ex.request().origin()}});
    }
    // A stream held open until the client leaves, of the site named by ?site=.
    void held(Exchange &ex)
    {
        ex.setSite(ex.request().queryValue(QStringLiteral("site")));
        new EventStream(ex, EventStream::Framing::Ndjson, 0, &ex);
    }
    // Four ticks 250 ms apart: a stream that outlives short read timeouts.
    void slowStream(Exchange &ex)
    {
        auto *s = new EventStream(ex, EventStream::Framing::Ndjson, 0, this);
        auto *timer = new QTimer(s);
        connect(timer, &QTimer::timeout, s, [s, timer, n = 0]() mutable {
            s->send(QStringLiteral("tick"), {{QStringLiteral("n"), ++n}});
            if (n == 4) {
                timer->stop();
                s->close();
                s->deleteLater();
            }
        });
        timer->start(250);
    }
    // Echoes ?v= into a response header, as a handler with a bug would.
    void header(Exchange &ex)
    {
        ex.respond(200, "ok", "text/plain",
                   {{"X-Echo", ex.request().queryValue(QStringLiteral("v")).toUtf8()}});
    }
};

namespace {

// Opens a raw connection, sends `head` at once and then `trickle` one byte every
// `everyMs`; returns what came back by the time the server closed the connection (or
// `timeoutMs` passed; `closed` tells which).
QByteArray trickle(quint16 port, const QByteArray &head, const QByteArray &trickle, int everyMs,
                   int timeoutMs, bool *closed)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    QByteArray reply;
    *closed = false;
    if (!socket.waitForConnected(3000))
        return reply;
    if (!head.isEmpty())
        socket.write(head);
    QEventLoop loop;
    QTimer drip;
    qsizetype next = 0;
    QObject::connect(&drip, &QTimer::timeout, &socket, [&] {
        if (next < trickle.size() && socket.state() == QAbstractSocket::ConnectedState)
            socket.write(trickle.mid(next++, 1));
    });
    QObject::connect(&socket, &QTcpSocket::readyRead, &socket, [&] { reply += socket.readAll(); });
    QObject::connect(&socket, &QTcpSocket::disconnected, &loop, [&] {
        reply += socket.readAll();
        *closed = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    drip.start(everyMs);
    loop.exec();
    return reply;
}

// Sends `request` on a new connection and reads until the answer's head has come (and,
// for an answer that is not a stream, its JSON body); the connection stays open.
std::unique_ptr<QTcpSocket> openStream(quint16 port, const QByteArray &request, QByteArray *reply)
{
    auto socket = std::make_unique<QTcpSocket>();
    socket->connectToHost(QHostAddress::LocalHost, port);
    socket->write(request);
    auto complete = [reply] {
        return reply->contains("\r\n\r\n") &&
               (reply->startsWith("HTTP/1.1 200") || reply->endsWith("}"));
    };
    (void)QTest::qWaitFor(
        [&] {
            *reply += socket->readAll();
            return complete();
        },
        5000);
    return socket;
}

QJsonObject bodyOf(const QByteArray &reply)
{
    return QJsonDocument::fromJson(reply.mid(reply.indexOf("\r\n\r\n") + 4)).object();
}

// `n` connections, opened without blocking the event loop (the server under test runs on
// it), once every one of them is connected.
std::vector<std::unique_ptr<QTcpSocket>> openConnections(quint16 port, int n)
{
    std::vector<std::unique_ptr<QTcpSocket>> out;
    for (int i = 0; i < n; ++i) {
        out.push_back(std::make_unique<QTcpSocket>());
        out.back()->connectToHost(QHostAddress::LocalHost, port);
    }
    auto connected = [&out] {
        return std::all_of(out.begin(), out.end(), [](const auto &s) {
            return s->state() == QAbstractSocket::ConnectedState;
        });
    };
    (void)QTest::qWaitFor(connected, 5000);
    return out;
}

} // namespace

class tst_HttpServer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void testHelpersFailOnAnUnexpectedStatus();
    void acceptsTheKeyInEveryForm_data();
    void acceptsTheKeyInEveryForm();
    void refusesBadCredentials_data();
    void refusesBadCredentials();
    void refusesAUserKeyOnAnOwnerRoute();
    void letsAPublicRouteThroughWithoutAKey();
    void answersEveryErrorWithItsStatusAndBody_data();
    void answersEveryErrorWithItsStatusAndBody();
    void namesTheAllowedMethodsOn405();
    void refusesADeclaredBodyOverTheLimitBeforeItArrives();
    void refusesASentBodyOverTheLimit();
    void answersExpectContinue();
    void givesEveryResponseItsOwnRequestId();
    void servesSeveralRequestsOnOneConnection();
    void streamsServerSentEvents();
    void streamsNdjson();
    void holdsALongPollUntilWoken();
    void answersALongPollWhenTheWaitRunsOut();
    void noticesAClientThatLeaves();
    void cutsOffASlowClient_data();
    void cutsOffASlowClient();
    void keepsALongPollPastTheReadTimeouts();
    void keepsAStreamPastTheReadTimeouts();
    void refusesThe65thConnectionFromOneAddress();
    void handsUpgradedWebSocketsToItsHandler_data();
    void handsUpgradedWebSocketsToItsHandler();
    void refusesAConnectionOverTheGlobalCap();
    void capsTheStreamsOfOneClient();
    void capsTheStreamsOfOneSite();
    void tellsTheClientBehindATrustedProxy_data();
    void tellsTheClientBehindATrustedProxy();
    void countsAProxyConnectionForTheClientOfEachRequest();
    void refusesToWriteAHeaderThatWouldSplitTheResponse_data();
    void refusesToWriteAHeaderThatWouldSplitTheResponse();
    void decodesTheQueryAsFormsEncodeIt_data();
    void decodesTheQueryAsFormsEncodeIt();
    void cleanup();

private:
    QTemporaryDir m_dir;
    SystemClock m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<ApiKeyAuthenticator> m_auth;
    std::unique_ptr<HttpServer> m_server;
    TestController m_controller;
    QString m_owner, m_user, m_revoked;
    QString base() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()); }
};

void tst_HttpServer::initTestCase()
{
    m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("h.db")), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_owner = m_store->apiKeys()
                  .mint(QStringLiteral("owner"), QStringLiteral("owner"), std::nullopt)
                  .secret;
    m_user = m_store->apiKeys().mint(QStringLiteral("user"), QStringLiteral("user"), 1000).secret;
    const auto revoked =
        m_store->apiKeys().mint(QStringLiteral("old"), QStringLiteral("user"), 1000);
    m_store->apiKeys().revoke(revoked.key.id);
    m_revoked = revoked.secret;
    m_auth = std::make_unique<ApiKeyAuthenticator>(*m_store);
    m_server = std::make_unique<HttpServer>(*m_auth, m_clock);
    m_server->addController(m_controller);
    QVERIFY(m_server->listenOn(QHostAddress::LocalHost, 0, &error));
}

void tst_HttpServer::cleanupTestCase()
{
    m_server.reset();
    m_store.reset();
}

void tst_HttpServer::acceptsTheKeyInEveryForm_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("prefix");
    QTest::newRow("accepts Authorization: Bearer <key>")
        << QByteArray("Authorization") << QByteArray("Bearer ");
    QTest::newRow("accepts a lowercase bearer scheme")
        << QByteArray("Authorization") << QByteArray("bearer ");
    QTest::newRow("accepts the key without Bearer") << QByteArray("Authorization") << QByteArray();
    QTest::newRow("accepts x-api-key") << QByteArray("x-api-key") << QByteArray();
}

void tst_HttpServer::acceptsTheKeyInEveryForm()
{
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, prefix);
    HttpClient c(base());
    const auto r = c.get(QStringLiteral("/echo"), {{header, prefix + m_user.toUtf8()}});
    QCOMPARE(r.status, 200);
    QVERIFY(r.json().value(QStringLiteral("key")).toString().startsWith(QLatin1String("key_")));
    QCOMPARE(r.json().value(QStringLiteral("owner")).toBool(), false);
}

void tst_HttpServer::refusesBadCredentials_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("code");
    QTest::newRow("refuses a request without a key")
        << QByteArray() << QByteArray() << "MISSING_API_KEY";
    QTest::newRow("refuses an unknown key")
        << QByteArray("Authorization") << QByteArray("Bearer phk_nope") << "INVALID_API_KEY";
    QTest::newRow("refuses a revoked key")
        << QByteArray("x-api-key") << QByteArray("REVOKED") << "INVALID_API_KEY";
    QTest::newRow("refuses a Basic credential")
        << QByteArray("Authorization") << QByteArray("Basic dXNlcjpwYXNz") << "INVALID_API_KEY";
    QTest::newRow("refuses an empty bearer")
        << QByteArray("Authorization") << QByteArray("Bearer ") << "MISSING_API_KEY";
}

void tst_HttpServer::refusesBadCredentials()
{
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, value);
    QFETCH(QString, code);
    if (value == "REVOKED")
        value = m_revoked.toUtf8();
    HttpClient c(base());
    HttpClient::Headers headers;
    if (!header.isEmpty())
        headers.append({header, value});
    const auto r = c.get(QStringLiteral("/echo"), headers);
    QCOMPARE(r.status, 401);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QCOMPARE(r.json().value(QStringLiteral("success")).toBool(true), false);
    QCOMPARE(r.header("www-authenticate"), QByteArray("Bearer"));
    QVERIFY(!r.header("x-request-id").isEmpty());
}

void tst_HttpServer::refusesAUserKeyOnAnOwnerRoute()
{
    HttpClient c(base());
    c.setBearer(m_user);
    const auto r = c.get(QStringLiteral("/owner"));
    QCOMPARE(r.status, 403);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("FORBIDDEN"));
    c.setBearer(m_owner);
    QCOMPARE(c.get(QStringLiteral("/owner")).status, 200);
}

void tst_HttpServer::letsAPublicRouteThroughWithoutAKey()
{
    HttpClient c(base());
    QCOMPARE(c.get(QStringLiteral("/public")).status, 200);
    // A wrong key on a public route is still a wrong key.
    QCOMPARE(c.get(QStringLiteral("/public"), {{"x-api-key", "phk_wrong"}}).status, 401);
}

void tst_HttpServer::answersEveryErrorWithItsStatusAndBody_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("400 for malformed JSON")
        << QByteArray("POST") << "/json" << QByteArray("{\"name\":") << 400 << "INVALID_JSON"
        << "body";
    QTest::newRow("400 for a body that is not an object")
        << QByteArray("POST") << "/json" << QByteArray("[1,2]") << 400 << "INVALID_JSON"
        << "body";
    QTest::newRow("400 naming a missing field")
        << QByteArray("POST") << "/json" << QByteArray("{}") << 400 << "MISSING_FIELD"
        << "name";
    QTest::newRow("400 naming a field of the wrong type")
        << QByteArray("POST") << "/json" << QByteArray("{\"name\":5}") << 400 << "INVALID_FIELD"
        << "name";
    QTest::newRow("400 naming a number out of range")
        << QByteArray("POST") << "/json" << QByteArray("{\"name\":\"a\",\"count\":11}") << 400
        << "INVALID_FIELD"
        << "count";
    QTest::newRow("400 naming a nested array item")
        << QByteArray("POST") << "/json"
        << QByteArray("{\"name\":\"a\",\"inner\":{\"list\":[\"x\",2]}}") << 400 << "INVALID_FIELD"
        << "inner.list[1]";
    QTest::newRow("402 when credits are exhausted")
        << QByteArray("GET") << "/credits" << QByteArray() << 402 << "CREDITS_EXHAUSTED"
        << "";
    QTest::newRow("404 for an unknown path")
        << QByteArray("GET") << "/no/such/thing" << QByteArray() << 404 << "NOT_FOUND"
        << "";
    QTest::newRow("405 for a wrong method")
        << QByteArray("DELETE") << "/json" << QByteArray() << 405 << "METHOD_NOT_ALLOWED"
        << "";
    QTest::newRow("429 when busy") << QByteArray("GET") << "/busy" << QByteArray() << 429 << "BUSY"
                                   << "";
    QTest::newRow("500 for an unexpected failure, without its detail")
        << QByteArray("GET") << "/broke" << QByteArray() << 500 << "INTERNAL"
        << "";
}

void tst_HttpServer::answersEveryErrorWithItsStatusAndBody()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, path);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, field);
    HttpClient c(base());
    c.setBearer(m_user);
    const auto r = c.send(method, path, body);
    QCOMPARE(r.status, status);
    QCOMPARE(r.header("content-type"), QByteArray("application/json"));
    const QJsonObject json = r.json();
    QCOMPARE(json.value(QStringLiteral("success")).toBool(true), false);
    QCOMPARE(json.value(QStringLiteral("code")).toString(), code);
    QVERIFY(!json.value(QStringLiteral("error")).toString().isEmpty());
    QCOMPARE(json.value(QStringLiteral("requestId")).toString(),
             QString::fromLatin1(r.header("x-request-id")));
    if (!field.isEmpty())
        QCOMPARE(json.value(QStringLiteral("field")).toString(), field);
    if (status == 429) {
        QCOMPARE(r.header("retry-after"), QByteArray("7"));
        QCOMPARE(json.value(QStringLiteral("retryAfter")).toInt(), 7);
    }
    if (status == 500)
        QVERIFY(!r.body.contains("secret internal detail"));
}

void tst_HttpServer::namesTheAllowedMethodsOn405()
{
    HttpClient c(base());
    c.setBearer(m_user);
    const auto r = c.send("PUT", QStringLiteral("/echo"));
    QCOMPARE(r.status, 405);
    QCOMPARE(r.header("allow"), QByteArray("GET"));
}

void tst_HttpServer::refusesADeclaredBodyOverTheLimitBeforeItArrives()
{
    // Only the head is sent: the 413 must come without waiting for 11 MiB.
    const QByteArray head =
        "POST /json HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_user.toUtf8() +
        "\r\nContent-Length: " + QByteArray::number(11 * 1024 * 1024) + "\r\n\r\n";
    // The body never comes: a server that waited for it would not answer at all.
    const QByteArray reply = HttpClient::raw(m_server->port(), head, 5000, "}");
    QVERIFY2(reply.startsWith("HTTP/1.1 413"), reply.constData());
    QVERIFY(reply.contains("X-Request-Id: req_"));
    QVERIFY(reply.contains("\"code\":\"PAYLOAD_TOO_LARGE\""));
    QVERIFY(reply.contains("\"field\":\"body\""));
    QVERIFY(reply.contains("\"limitBytes\":10485760"));
}

void tst_HttpServer::refusesASentBodyOverTheLimit()
{
    m_server->setMaxBodyBytes(64 * 1024);
    HttpClient c(base());
    c.setBearer(m_user);
    const QByteArray big = "{\"name\":\"" + QByteArray(200 * 1024, 'a') + "\"}";
    const auto r = c.postRaw(QStringLiteral("/json"), big);
    m_server->setMaxBodyBytes(10 * 1024 * 1024);
    QCOMPARE(r.status, 413);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("PAYLOAD_TOO_LARGE"));
    // Under the limit again, the same body goes through.
    QCOMPARE(c.postRaw(QStringLiteral("/json"), big).status, 200);
}

void tst_HttpServer::answersExpectContinue()
{
    const QByteArray body = "{\"name\":\"x\"}";
    const QByteArray head =
        "POST /json HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_user.toUtf8() +
        "\r\nExpect: 100-continue\r\nContent-Length: " + QByteArray::number(body.size()) +
        "\r\n\r\n";
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, m_server->port());
    QVERIFY(s.waitForConnected(3000));
    s.write(head);
    QTRY_VERIFY_WITH_TIMEOUT(s.bytesAvailable() > 0 || s.waitForReadyRead(10), 3000);
    QVERIFY(s.readAll().startsWith("HTTP/1.1 100 Continue"));
    s.write(body);
    QByteArray reply;
    QTRY_VERIFY_WITH_TIMEOUT((reply += s.readAll()).contains("\"name\":\"x\""), 3000);
    QVERIFY(reply.startsWith("HTTP/1.1 200"));
}

void tst_HttpServer::givesEveryResponseItsOwnRequestId()
{
    HttpClient c(base());
    c.setBearer(m_user);
    QSet<QByteArray> ids;
    for (const QString &path : {QStringLiteral("/echo"), QStringLiteral("/echo"),
                                QStringLiteral("/nope"), QStringLiteral("/busy")}) {
        const auto r = c.get(path);
        const QByteArray id = r.header("x-request-id");
        QVERIFY2(id.startsWith("req_"), id.constData());
        QVERIFY(!ids.contains(id));
        ids.insert(id);
    }
}

void tst_HttpServer::servesSeveralRequestsOnOneConnection()
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, m_server->port());
    QVERIFY(s.waitForConnected(3000));
    const QByteArray request =
        "GET /echo HTTP/1.1\r\nHost: x\r\nx-api-key: " + m_user.toUtf8() + "\r\n\r\n";
    for (int i = 0; i < 3; ++i) {
        s.write(request);
        QByteArray reply;
        QTRY_VERIFY_WITH_TIMEOUT((reply += s.readAll()).contains("}"), 3000);
        QVERIFY(reply.startsWith("HTTP/1.1 200"));
    }
    QCOMPARE(s.state(), QAbstractSocket::ConnectedState);
    // Connection: close ends it after the answer.
    s.write("GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-api-key: " + m_user.toUtf8() +
            "\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(s.state(), QAbstractSocket::UnconnectedState, 3000);
}

void tst_HttpServer::streamsServerSentEvents()
{
    const QByteArray reply = HttpClient::raw(
        m_server->port(),
        "GET /stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nx-api-key: " +
            m_user.toUtf8() + "\r\n\r\n",
        5000, "\r\n0\r\n\r\n");
    QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
    QVERIFY(reply.contains("Content-Type: text/event-stream"));
    QVERIFY(reply.contains("Transfer-Encoding: chunked"));
    for (int n = 1; n <= 3; ++n) {
        const QByteArray frame = "id: " + QByteArray::number(n) +
                                 "\nevent: tick\ndata: {\"n\":" + QByteArray::number(n) + "}\n\n";
        QVERIFY2(reply.contains(frame), reply.constData());
    }
    QVERIFY(reply.endsWith("0\r\n\r\n"));
}

void tst_HttpServer::streamsNdjson()
{
    HttpClient c(base());
    c.setBearer(m_user);
    const auto r = c.get(QStringLiteral("/stream"), {{"Accept", "application/x-ndjson"}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.header("content-type"), QByteArray("application/x-ndjson"));
    const QList<QByteArray> lines = r.body.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    for (int i = 0; i < 3; ++i) {
        const QJsonObject o = QJsonDocument::fromJson(lines[i]).object();
        QCOMPARE(o.value(QStringLiteral("type")).toString(), QStringLiteral("tick"));
        QCOMPARE(o.value(QStringLiteral("data")).toObject().value(QStringLiteral("n")).toInt(),
                 i + 1);
    }
    QCOMPARE(c.get(QStringLiteral("/stream"), {{"Accept", "text/html"}}).status, 406);
}

void tst_HttpServer::holdsALongPollUntilWoken()
{
    HttpClient waiter(base());
    waiter.setBearer(m_user);
    HttpClient waker(base());
    waker.setBearer(m_user);
    QTimer::singleShot(300, this, [&] { waker.post(QStringLiteral("/wake"), {}); });
    QElapsedTimer t;
    t.start();
    const auto r = waiter.get(QStringLiteral("/wait"), {{"Prefer", "wait=5"}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("ready")).toBool(), true); // woken, not timed out
    QVERIFY(t.elapsed() >= 250); // held until the wake (a lower bound: load cannot break it)
}

void tst_HttpServer::answersALongPollWhenTheWaitRunsOut()
{
    HttpClient c(base());
    c.setBearer(m_user);
    QElapsedTimer t;
    t.start();
    const auto r = c.get(QStringLiteral("/wait"), {{"Prefer", "execution=cloud, wait=1"}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("ready")).toBool(), false);
    QVERIFY(t.elapsed() >= 900);
}

void tst_HttpServer::noticesAClientThatLeaves()
{
    const int before = m_controller.disconnects;
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, m_server->port());
    QVERIFY(s.waitForConnected(3000));
    s.write("GET /hold HTTP/1.1\r\nHost: x\r\nx-api-key: " + m_user.toUtf8() + "\r\n\r\n");
    s.flush();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->inFlight(), 1, 3000);
    s.abort();
    QTRY_COMPARE_WITH_TIMEOUT(m_controller.disconnects, before + 1, 3000);
    QTRY_COMPARE_WITH_TIMEOUT(m_server->inFlight(), 0, 3000);
}

void tst_HttpServer::cleanup()
{
    // Every test starts from the default limits, trusting no proxy.
    m_server->setConnectionLimits(ConnectionLimits{});
    m_server->setTrustedProxies(TrustedProxies());
}

void tst_HttpServer::cutsOffASlowClient_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<QByteArray>("trickle");
    QTest::addColumn<int>("status"); // 0: closed without an answer
    const QByteArray key = "x-api-key: " + m_user.toUtf8() + "\r\n";
    QTest::newRow("cuts off a client that sends its headers a byte at a time")
        << QByteArray() << QByteArray("GET /echo HTTP/1.1\r\nHost: x\r\n" + key + "\r\n") << 408;
    QTest::newRow("cuts off a client that sends its body a byte at a time")
        << QByteArray("POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + key +
                      "Content-Length: 40\r\n\r\n")
        << QByteArray("{\"name\":\"a very slow body, byte by byte\"}") << 408;
    QTest::newRow("closes a connection that sends nothing") << QByteArray() << QByteArray() << 0;
}

void tst_HttpServer::cutsOffASlowClient()
{
    QFETCH(QByteArray, head);
    QFETCH(QByteArray, trickle);
    QFETCH(int, status);
    ConnectionLimits limits;
    limits.headerTimeoutMs = 600;
    limits.bodyTimeoutMs = 600;
    m_server->setConnectionLimits(limits);
    bool closed = false;
    // One byte every 150 ms: the whole request would take seconds. Closed by the server
    // (not by trickle's own 6 s limit) with a 408, or with nothing for a silent client:
    // had the server waited, the request would have arrived whole and been answered.
    const QByteArray reply = ::trickle(m_server->port(), head, trickle, 150, 6000, &closed);
    QVERIFY2(closed, reply.constData());
    if (status == 0) {
        QVERIFY2(reply.isEmpty(), reply.constData());
        return;
    }
    QVERIFY2(reply.startsWith("HTTP/1.1 408 Request Timeout"), reply.constData());
    QVERIFY(reply.contains("\"code\":\"REQUEST_TIMEOUT\""));
    QVERIFY(reply.contains("\"timeoutMs\":600"));
    QVERIFY(reply.contains("Connection: close"));
}

void tst_HttpServer::keepsALongPollPastTheReadTimeouts()
{
    // The timeouts are about the request arriving, not about the answer.
    ConnectionLimits limits;
    limits.headerTimeoutMs = 300;
    limits.bodyTimeoutMs = 300;
    m_server->setConnectionLimits(limits);
    HttpClient c(base());
    c.setBearer(m_user);
    QElapsedTimer t;
    t.start();
    const auto r = c.get(QStringLiteral("/wait"), {{"Prefer", "wait=1"}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("ready")).toBool(), false);
    QVERIFY(t.elapsed() >= 900);
    // The same connection serves the next request.
    QCOMPARE(c.get(QStringLiteral("/echo")).status, 200);
}

void tst_HttpServer::keepsAStreamPastTheReadTimeouts()
{
    ConnectionLimits limits;
    limits.headerTimeoutMs = 300;
    limits.bodyTimeoutMs = 300;
    m_server->setConnectionLimits(limits);
    const QByteArray reply = HttpClient::raw(
        m_server->port(), "GET /slowstream HTTP/1.1\r\nHost: x\r\n\r\n", 5000, "\r\n0\r\n\r\n");
    QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
    QVERIFY2(reply.contains("{\"data\":{\"n\":4},\"type\":\"tick\"}"), reply.constData());
    QVERIFY(reply.endsWith("0\r\n\r\n"));
}

void tst_HttpServer::handsUpgradedWebSocketsToItsHandler_data()
{
    QTest::addColumn<bool>("handler");
    QTest::newRow("an upgraded connection goes to the handler, counted until it closes") << true;
    QTest::newRow("with no handler an upgrade is closed as a policy violation") << false;
}

void tst_HttpServer::handsUpgradedWebSocketsToItsHandler()
{
    QFETCH(bool, handler);
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionsFrom(QHostAddress::LocalHost), 0, 5000);
    ConnectionLimits limits;
    limits.headerTimeoutMs = 300; // an upgraded connection is not timed any more
    limits.bodyTimeoutMs = 300;
    m_server->setConnectionLimits(limits);
    std::unique_ptr<QWebSocket> taken;
    QString path;
    // The handler captures this function's locals: it goes with them, whatever happens.
    const std::shared_ptr<void> unset(nullptr, [this](void *) {
        m_server->setWebSocketHandler(nullptr);
        m_server->setConnectionLimits(ConnectionLimits());
    });
    if (handler)
        m_server->setWebSocketHandler([&](std::unique_ptr<QWebSocket> socket) {
            path = socket->requestUrl().path();
            connect(socket.get(), &QWebSocket::textMessageReceived, socket.get(),
                    [s = socket.get()](const QString &m) { s->sendTextMessage(m); });
            taken = std::move(socket);
        });
    QWebSocket client;
    QSignalSpy closed(&client, &QWebSocket::disconnected);
    QSignalSpy echoed(&client, &QWebSocket::textMessageReceived);
    client.open(
        QUrl(QStringLiteral("ws://127.0.0.1:%1/cdp/t/devtools/browser").arg(m_server->port())));
    if (!handler) {
        QVERIFY(closed.wait(5000));
        QCOMPARE(client.closeCode(), QWebSocketProtocol::CloseCodePolicyViolated);
        return;
    }
    QTRY_VERIFY(taken);
    QCOMPARE(path, QStringLiteral("/cdp/t/devtools/browser"));
    QCOMPARE(m_server->connectionsFrom(QHostAddress::LocalHost), 1);
    // Past the read timeouts, the connection still works: nothing cut it off. A plain
    // connection opened now with half a request shows when the timeouts have run out.
    QTcpSocket slow;
    QSignalSpy cut(&slow, &QTcpSocket::disconnected);
    slow.connectToHost(QHostAddress::LocalHost, m_server->port());
    QVERIFY(slow.waitForConnected(5000));
    slow.write("GET /echo HTTP/1.1\r\nHost: x\r\n");
    QVERIFY(cut.wait(5000));
    QCOMPARE(client.state(), QAbstractSocket::ConnectedState);
    client.sendTextMessage(QStringLiteral("ping"));
    QVERIFY(echoed.wait(5000));
    QCOMPARE(echoed.first().first().toString(), QStringLiteral("ping"));
    client.close();
    QTRY_COMPARE(client.state(), QAbstractSocket::UnconnectedState);
    taken.reset();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionsFrom(QHostAddress::LocalHost), 0, 5000);
}

void tst_HttpServer::refusesThe65thConnectionFromOneAddress()
{
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionsFrom(QHostAddress::LocalHost), 0, 5000);
    QCOMPARE(m_server->connectionLimits().maxConnectionsPerAddress, 64); // the default
    // Connected while the event loop runs, so the server accepts them as they come.
    std::vector<std::unique_ptr<QTcpSocket>> open = openConnections(m_server->port(), 64);
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionsFrom(QHostAddress::LocalHost), 64, 5000);
    const QByteArray refused = HttpClient::raw(
        m_server->port(),
        "GET /echo HTTP/1.1\r\nHost: x\r\nx-api-key: " + m_user.toUtf8() + "\r\n\r\n", 5000);
    QVERIFY2(refused.startsWith("HTTP/1.1 429 Too Many Requests"), refused.constData());
    QVERIFY(refused.contains("Retry-After: 1"));
    QVERIFY(refused.contains("\"code\":\"TOO_MANY_CONNECTIONS\""));
    QCOMPARE(m_server->connectionsFrom(QHostAddress::LocalHost), 64);
    // One of the 64 still works, and once one closes, a new connection is served.
    open.front()->write("GET /echo HTTP/1.1\r\nHost: x\r\nx-api-key: " + m_user.toUtf8() +
                        "\r\n\r\n");
    QByteArray reply;
    QTRY_VERIFY_WITH_TIMEOUT((reply += open.front()->readAll()).contains("}"), 3000);
    QVERIFY(reply.startsWith("HTTP/1.1 200"));
    open.pop_back();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionsFrom(QHostAddress::LocalHost), 63, 5000);
    HttpClient c(base());
    c.setBearer(m_user);
    QCOMPARE(c.get(QStringLiteral("/echo")).status, 200);
}

void tst_HttpServer::refusesAConnectionOverTheGlobalCap()
{
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionsFrom(QHostAddress::LocalHost), 0, 5000);
    ConnectionLimits limits;
    limits.maxConnections = 3;
    m_server->setConnectionLimits(limits);
    std::vector<std::unique_ptr<QTcpSocket>> open = openConnections(m_server->port(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionsFrom(QHostAddress::LocalHost), 3, 5000);
    const QByteArray refused =
        HttpClient::raw(m_server->port(), "GET /public HTTP/1.1\r\nHost: x\r\n\r\n", 5000);
    QVERIFY2(refused.startsWith("HTTP/1.1 503 Service Unavailable"), refused.constData());
    QVERIFY(refused.contains("\"code\":\"SERVER_BUSY\""));
    QVERIFY(refused.contains("Retry-After: 1"));
}

void tst_HttpServer::capsTheStreamsOfOneClient()
{
    ConnectionLimits limits;
    limits.maxStreamsPerClient = 2;
    m_server->setConnectionLimits(limits);
    const QByteArray user = "x-api-key: " + m_user.toUtf8() + "\r\n";
    const QByteArray held = "GET /held HTTP/1.1\r\nHost: x\r\n" + user + "\r\n";
    std::vector<std::unique_ptr<QTcpSocket>> open;
    for (int i = 0; i < 2; ++i) {
        QByteArray reply;
        open.push_back(openStream(m_server->port(), held, &reply));
        QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
    }
    QCOMPARE(m_server->openStreamsOf(QHostAddress::LocalHost), 2);
    QByteArray refused;
    auto extra = openStream(m_server->port(), held, &refused);
    QVERIFY2(refused.startsWith("HTTP/1.1 429 Too Many Requests"), refused.constData());
    QVERIFY(refused.contains("Retry-After: 5"));
    const QJsonObject body = bodyOf(refused);
    QCOMPARE(body.value(QStringLiteral("code")).toString(), QStringLiteral("TOO_MANY_STREAMS"));
    const QJsonObject details = body.value(QStringLiteral("details")).toObject();
    QCOMPARE(details.value(QStringLiteral("scope")).toString(), QStringLiteral("client"));
    QCOMPARE(details.value(QStringLiteral("setting")).toString(),
             QStringLiteral("http.maxStreamsPerClient"));
    QCOMPARE(details.value(QStringLiteral("limit")).toInt(), 2);
    // A long-poll over the cap is not refused: it is answered without waiting.
    HttpClient c(base());
    c.setBearer(m_user);
    m_controller.pollAnsweredAtOnce = false;
    const auto polled = c.get(QStringLiteral("/wait"), {{"Prefer", "wait=5"}});
    QCOMPARE(polled.status, 200);
    QVERIFY(m_controller.pollAnsweredAtOnce);
    // The owner's streams are not counted.
    QByteArray owner;
    open.push_back(openStream(
        m_server->port(),
        "GET /held HTTP/1.1\r\nHost: x\r\nx-api-key: " + m_owner.toUtf8() + "\r\n\r\n", &owner));
    QVERIFY2(owner.startsWith("HTTP/1.1 200"), owner.constData());
    QCOMPARE(m_server->openStreamsOf(QHostAddress::LocalHost), 2);
    // A stream that ends makes room.
    open.front()->abort();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openStreamsOf(QHostAddress::LocalHost), 1, 3000);
    QByteArray again;
    open.push_back(openStream(m_server->port(), held, &again));
    QVERIFY2(again.startsWith("HTTP/1.1 200"), again.constData());
    open.clear();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openStreamsOf(QHostAddress::LocalHost), 0, 3000);
}

void tst_HttpServer::capsTheStreamsOfOneSite()
{
    ConnectionLimits limits;
    limits.maxStreamsPerSite = 1;
    m_server->setConnectionLimits(limits);
    const QByteArray user = "x-api-key: " + m_user.toUtf8() + "\r\n\r\n";
    QByteArray first;
    auto s1 =
        openStream(m_server->port(), "GET /held?site=s1 HTTP/1.1\r\nHost: x\r\n" + user, &first);
    QVERIFY2(first.startsWith("HTTP/1.1 200"), first.constData());
    QCOMPARE(m_server->openStreamsOfSite(QStringLiteral("s1")), 1);
    QByteArray refused;
    auto again =
        openStream(m_server->port(), "GET /held?site=s1 HTTP/1.1\r\nHost: x\r\n" + user, &refused);
    QVERIFY2(refused.startsWith("HTTP/1.1 429"), refused.constData());
    const QJsonObject details = bodyOf(refused).value(QStringLiteral("details")).toObject();
    QCOMPARE(details.value(QStringLiteral("scope")).toString(), QStringLiteral("site"));
    QCOMPARE(details.value(QStringLiteral("setting")).toString(),
             QStringLiteral("http.maxStreamsPerSite"));
    // Another site, and a stream of no site, are not held back by it.
    QByteArray other;
    auto s2 =
        openStream(m_server->port(), "GET /held?site=s2 HTTP/1.1\r\nHost: x\r\n" + user, &other);
    QVERIFY2(other.startsWith("HTTP/1.1 200"), other.constData());
    QByteArray none;
    auto s3 = openStream(m_server->port(), "GET /held HTTP/1.1\r\nHost: x\r\n" + user, &none);
    QVERIFY2(none.startsWith("HTTP/1.1 200"), none.constData());
    s1.reset();
    s2.reset();
    s3.reset();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openStreamsOf(QHostAddress::LocalHost), 0, 3000);
    QCOMPARE(m_server->openStreamsOfSite(QStringLiteral("s1")), 0);
}

void tst_HttpServer::tellsTheClientBehindATrustedProxy_data()
{
    QTest::addColumn<QString>("trusted");
    QTest::addColumn<QByteArray>("headers");
    QTest::addColumn<QString>("client");
    QTest::addColumn<QString>("origin");
    QTest::newRow("ignores X-Forwarded-For while no proxy is trusted")
        << "" << QByteArray("X-Forwarded-For: 203.0.113.5\r\n") << "127.0.0.1"
        << "http://x";
    QTest::newRow("ignores X-Forwarded-For from a peer that is not a trusted proxy")
        << "192.0.2.1" << QByteArray("X-Forwarded-For: 203.0.113.5\r\n") << "127.0.0.1"
        << "http://x";
    QTest::newRow("believes X-Forwarded-For from a trusted proxy")
        << "127.0.0.1" << QByteArray("X-Forwarded-For: 203.0.113.5\r\n") << "203.0.113.5"
        << "http://x";
    QTest::newRow("reads the X-Forwarded-For lines in the order they came")
        << "127.0.0.0/8"
        << QByteArray("X-Forwarded-For: 198.51.100.66\r\nX-Forwarded-For: 203.0.113.5\r\n")
        << "203.0.113.5"
        << "http://x";
    QTest::newRow("believes Forwarded from a trusted proxy, its scheme too")
        << "127.0.0.1" << QByteArray("Forwarded: for=\"[2001:db8::1]:443\";proto=https\r\n")
        << "2001:db8::1"
        << "https://x";
    QTest::newRow("is the proxy itself when its header is malformed")
        << "127.0.0.1" << QByteArray("X-Forwarded-For: 203.0.113.5, nonsense\r\n") << "127.0.0.1"
        << "http://x";
    QTest::newRow("links back by the scheme and host a trusted proxy was reached at")
        << "127.0.0.1"
        << QByteArray("X-Forwarded-Proto: https\r\nX-Forwarded-Host: ph.example.org\r\n")
        << "127.0.0.1"
        << "https://ph.example.org";
    QTest::newRow("ignores a forwarded scheme and host from a peer that is not trusted")
        << "192.0.2.1"
        << QByteArray("X-Forwarded-Proto: https\r\nForwarded: proto=https;host=evil.test\r\n")
        << "127.0.0.1"
        << "http://x";
    QTest::newRow("never puts a forwarded host that is not a host into a link")
        << "127.0.0.1" << QByteArray("Forwarded: proto=https;host=\"a/b@evil.test\"\r\n")
        << "127.0.0.1"
        << "https://x";
}

void tst_HttpServer::tellsTheClientBehindATrustedProxy()
{
    QFETCH(QString, trusted);
    QFETCH(QByteArray, headers);
    QFETCH(QString, client);
    QFETCH(QString, origin);
    m_server->setTrustedProxies(TrustedProxies::parse(trusted).value());
    const QByteArray reply = HttpClient::raw(
        m_server->port(), "GET /whoami HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n", 5000, "}");
    QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
    const QJsonObject who = bodyOf(reply);
    QCOMPARE(who.value(QStringLiteral("client")).toString(), client);
    QCOMPARE(who.value(QStringLiteral("peer")).toString(), QStringLiteral("127.0.0.1"));
    QCOMPARE(who.value(QStringLiteral("origin")).toString(), origin);
}

void tst_HttpServer::countsAProxyConnectionForTheClientOfEachRequest()
{
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionsFrom(QHostAddress::LocalHost), 0, 5000);
    ConnectionLimits limits;
    limits.maxConnectionsPerAddress = 1;
    m_server->setConnectionLimits(limits);
    m_server->setTrustedProxies(TrustedProxies::parse(QStringLiteral("127.0.0.1")).value());
    const QHostAddress a(QStringLiteral("203.0.113.1"));
    const QHostAddress b(QStringLiteral("203.0.113.2"));
    const QByteArray key = "x-api-key: " + m_user.toUtf8() + "\r\n";
    // Client A holds a stream on one proxy connection: that connection is A's.
    QByteArray head;
    auto stream = openStream(
        m_server->port(),
        "GET /held HTTP/1.1\r\nHost: x\r\n" + key + "X-Forwarded-For: 203.0.113.1\r\n\r\n", &head);
    QVERIFY2(head.startsWith("HTTP/1.1 200"), head.constData());
    QCOMPARE(m_server->connectionsFrom(a), 1);
    QCOMPARE(m_server->connectionsFrom(QHostAddress::LocalHost), 0); // not the proxy's
    // Another proxy connection, kept alive, serves B and then A: B is served; A, at its
    // cap, is refused on it.
    QByteArray reply;
    auto shared = openStream(m_server->port(),
                             "GET /whoami HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: "
                             "203.0.113.2\r\n\r\n",
                             &reply);
    QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
    QCOMPARE(bodyOf(reply).value(QStringLiteral("client")).toString(), b.toString());
    // Its answer is out: the idle connection counts for nobody.
    QCOMPARE(m_server->connectionsFrom(b), 0);
    reply.clear();
    shared->write("GET /whoami HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.1\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT((reply += shared->readAll()).endsWith("}"), 5000);
    QVERIFY2(reply.startsWith("HTTP/1.1 429"), reply.constData());
    QCOMPARE(bodyOf(reply).value(QStringLiteral("code")).toString(),
             QStringLiteral("TOO_MANY_CONNECTIONS"));
    QCOMPARE(m_server->connectionsFrom(a), 1);
    stream.reset();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionsFrom(a), 0, 5000);
}

void tst_HttpServer::refusesToWriteAHeaderThatWouldSplitTheResponse_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::newRow("answers 500 for a header value with CR LF")
        << QByteArray("a%0D%0AX-Injected:%20yes");
    QTest::newRow("answers 500 for a header value with a lone LF")
        << QByteArray("a%0AX-Injected:%20yes");
    QTest::newRow("answers 500 for a header value with a NUL") << QByteArray("a%00b");
}

void tst_HttpServer::refusesToWriteAHeaderThatWouldSplitTheResponse()
{
    QFETCH(QByteArray, value);
    const QByteArray reply = HttpClient::raw(
        m_server->port(), "GET /header?v=" + value + " HTTP/1.1\r\nHost: x\r\n\r\n", 5000, "}");
    QVERIFY2(reply.startsWith("HTTP/1.1 500"), reply.constData());
    QVERIFY2(!reply.contains("X-Injected"), reply.constData());
    QVERIFY(!reply.contains("X-Echo"));
    QVERIFY(reply.contains("\"code\":\"INTERNAL\""));
    // A clean value goes through.
    const QByteArray ok = HttpClient::raw(
        m_server->port(), "GET /header?v=fine%20value HTTP/1.1\r\nHost: x\r\n\r\n", 5000, "ok");
    QVERIFY2(ok.contains("X-Echo: fine value\r\n"), ok.constData());
}

void tst_HttpServer::decodesTheQueryAsFormsEncodeIt_data()
{
    QTest::addColumn<QByteArray>("query");
    QTest::addColumn<QByteArray>("decoded");
    QTest::newRow("reads a plus in the query as a space")
        << QByteArray("v=List+the+products") << QByteArray("List the products");
    QTest::newRow("reads %20 as a space") << QByteArray("v=List%20the") << QByteArray("List the");
    QTest::newRow("reads %2B as a plus") << QByteArray("v=1%2B1") << QByteArray("1+1");
    QTest::newRow("reads a plus in a later parameter as a space")
        << QByteArray("a=1&v=a+b%2Bc") << QByteArray("a b+c");
}

// Every route reads its query through Request::query, which the server decodes once.
void tst_HttpServer::decodesTheQueryAsFormsEncodeIt()
{
    QFETCH(QByteArray, query);
    QFETCH(QByteArray, decoded);
    const QByteArray reply = HttpClient::raw(
        m_server->port(), "GET /header?" + query + " HTTP/1.1\r\nHost: x\r\n\r\n", 5000, "ok");
    QVERIFY2(reply.contains("X-Echo: " + decoded + "\r\n"), reply.constData());
}

// The helpers that hand a body to a test (agent(body, status) …) go through
// HttpResponse::expectStatus: a wrong status fails the test, it does not just warn.
void tst_HttpServer::testHelpersFailOnAnUnexpectedStatus()
{
    HttpResponse ok;
    ok.status = 201;
    QVERIFY(ok.expectStatus({200, 201}, __FILE__, __LINE__));

    HttpResponse notFound;
    notFound.status = 404;
    notFound.body = R"({"code":"NOT_FOUND"})";
    // The helper must record the failure itself; were it only to warn, the expected
    // failure below would be left over and the QVERIFY would report XPASS.
    QEXPECT_FAIL("", "a 404 where 200 was expected fails the running test", Continue);
    const bool matched = notFound.expectStatus({200}, __FILE__, __LINE__);
    QVERIFY(!matched);
}

QTEST_GUILESS_MAIN(tst_HttpServer)
#include "tst_httpserver.moc"
