// The webhook queue's HTTP/1.x reply reader: framing by Content-Length, chunked encoding
// and the end of the connection; interim replies; keep-alive; bytes after the reply;
// malformed replies fail with a reason; the body snippet is capped.
#include "webhooks/HttpReplyParser.h"

#include <QTest>

using ph::webhooks::HttpReplyParser;

class tst_HttpReplyParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void contentLengthByteByByte();
    void chunkedWithExtensionsAndTrailers();
    void skipsInterimReplies();
    void http10ReadsUntilTheClose();
    void connectionClose();
    void noBodyStatuses();
    void capsTheSnippet();
    void keepsTheAnswersHeaders_data();
    void keepsTheAnswersHeaders();
    void malformed_data();
    void malformed();
    void closedBeforeTheStatus();
};

namespace {
// Feeds `bytes` one at a time, as a slow peer would send them.
HttpReplyParser::Result trickle(HttpReplyParser &p, const QByteArray &bytes, QByteArray &in)
{
    HttpReplyParser::Result r = HttpReplyParser::NeedMore;
    for (char c : bytes) {
        in.append(c);
        r = p.feed(in);
        if (r != HttpReplyParser::NeedMore)
            break;
    }
    return r;
}
} // namespace

void tst_HttpReplyParser::contentLengthByteByByte()
{
    HttpReplyParser p(512);
    QByteArray in;
    QCOMPARE(trickle(p,
                     "HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n"
                     "hello",
                     in),
             HttpReplyParser::Complete);
    QCOMPARE(p.status(), 201);
    QCOMPARE(p.snippet(), QByteArray("hello"));
    QVERIFY(p.keepAlive());
    QVERIFY(in.isEmpty());

    // Bytes after the reply stay for the next one.
    HttpReplyParser q(512);
    in = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 500";
    QCOMPARE(q.feed(in), HttpReplyParser::Complete);
    QCOMPARE(q.snippet(), QByteArray("ok"));
    QCOMPARE(in, QByteArray("HTTP/1.1 500"));
}

void tst_HttpReplyParser::chunkedWithExtensionsAndTrailers()
{
    HttpReplyParser p(512);
    QByteArray in;
    QCOMPARE(trickle(p,
                     "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                     "4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Trailer: yes\r\n\r\n",
                     in),
             HttpReplyParser::Complete);
    QCOMPARE(p.status(), 200);
    QCOMPARE(p.snippet(), QByteArray("Wikipedia"));
    QVERIFY(p.keepAlive());
}

void tst_HttpReplyParser::skipsInterimReplies()
{
    HttpReplyParser p(512);
    QByteArray in = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                    "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";
    QCOMPARE(p.feed(in), HttpReplyParser::Complete);
    QCOMPARE(p.status(), 202);
}

void tst_HttpReplyParser::http10ReadsUntilTheClose()
{
    HttpReplyParser p(512);
    QByteArray in = "HTTP/1.0 200 OK\r\n\r\nall of it";
    QCOMPARE(p.feed(in), HttpReplyParser::NeedMore);
    QCOMPARE(p.status(), 200);
    QCOMPARE(p.peerClosed(), HttpReplyParser::Complete);
    QCOMPARE(p.snippet(), QByteArray("all of it"));
    QVERIFY(!p.keepAlive());

    // HTTP/1.0 with keep-alive and a length can be reused.
    HttpReplyParser q(512);
    in = "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\nx";
    QCOMPARE(q.feed(in), HttpReplyParser::Complete);
    QVERIFY(q.keepAlive());
}

void tst_HttpReplyParser::connectionClose()
{
    HttpReplyParser p(512);
    QByteArray in = "HTTP/1.1 200 OK\r\nConnection: foo, close\r\nContent-Length: 1\r\n\r\nx";
    QCOMPARE(p.feed(in), HttpReplyParser::Complete);
    QVERIFY(!p.keepAlive());
}

void tst_HttpReplyParser::noBodyStatuses()
{
    for (const QByteArray &status :
         {QByteArray("204 No Content"), QByteArray("304 Not Modified")}) {
        HttpReplyParser p(512);
        QByteArray in = "HTTP/1.1 " + status + "\r\nContent-Length: 10\r\n\r\n";
        QCOMPARE(p.feed(in), HttpReplyParser::Complete);
        QVERIFY(p.snippet().isEmpty());
        QVERIFY(p.keepAlive());
    }
}

void tst_HttpReplyParser::capsTheSnippet()
{
    HttpReplyParser p(4);
    QByteArray in = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789";
    QCOMPARE(p.feed(in), HttpReplyParser::Complete);
    QCOMPARE(p.snippet(), QByteArray("0123"));
}

void tst_HttpReplyParser::keepsTheAnswersHeaders_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<QByteArray>("headers");
    QTest::newRow("the final reply's header lines are kept as they came")
        << QByteArray("HTTP/1.1 200 OK\r\nX-Receiver: harbour-1\r\nContent-Length: 2\r\n\r\nok")
        << QByteArray("X-Receiver: harbour-1\nContent-Length: 2\n");
    QTest::newRow("an interim reply's headers are not the answer's")
        << QByteArray("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                      "HTTP/1.1 204 No Content\r\nX-Id: 7\r\n\r\n")
        << QByteArray("X-Id: 7\n");
    const QByteArray big(3000, 'v');
    QTest::newRow("lines beyond the kept 4 KiB are left out")
        << QByteArray("HTTP/1.1 204 No Content\r\nA: " + big + "\r\nB: " + big + "\r\nC: 1\r\n\r\n")
        << QByteArray("A: " + big + "\nC: 1\n");
}

void tst_HttpReplyParser::keepsTheAnswersHeaders()
{
    QFETCH(QByteArray, reply);
    QFETCH(QByteArray, headers);
    HttpReplyParser p(512);
    QCOMPARE(p.feed(reply), HttpReplyParser::Complete);
    QCOMPARE(p.headers(), headers);
    QVERIFY(p.headers().size() <= HttpReplyParser::kKeptHead);
}

void tst_HttpReplyParser::malformed_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<QString>("reason");
    QTest::newRow("not http") << QByteArray("SSH-2.0-OpenSSH\r\n") << "not HTTP/1.x";
    QTest::newRow("http/2 preface") << QByteArray("HTTP/2 200\r\n") << "not HTTP/1.x";
    QTest::newRow("two lengths") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n"
                                               "Content-Length: 2\r\n\r\n")
                                 << "invalid Content-Length";
    QTest::newRow("bad header") << QByteArray("HTTP/1.1 200 OK\r\nno colon\r\n\r\n")
                                << "malformed header";
    QTest::newRow("bad chunk") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
                                             "\r\nzz\r\n")
                               << "malformed chunk size";
    // Found by fuzz_httpreply: "000" was a complete reply with status 0.
    QTest::newRow("status below 100")
        << QByteArray("HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n") << "invalid status 000";
    QTest::newRow("status above 599")
        << QByteArray("HTTP/1.1 600 Odd\r\nContent-Length: 0\r\n\r\n") << "invalid status 600";
    QTest::newRow("long line") << QByteArray("HTTP/1.1 200 OK\r\nX: ") + QByteArray(17000, 'a')
                               << "longer than";
}

void tst_HttpReplyParser::malformed()
{
    QFETCH(QByteArray, reply);
    QFETCH(QString, reason);
    HttpReplyParser p(512);
    QCOMPARE(p.feed(reply), HttpReplyParser::Failed);
    QVERIFY2(p.error().contains(reason), qPrintable(p.error()));
    QVERIFY(!p.keepAlive());
}

void tst_HttpReplyParser::closedBeforeTheStatus()
{
    HttpReplyParser p(512);
    QByteArray in = "HTTP/1.1 20";
    QCOMPARE(p.feed(in), HttpReplyParser::NeedMore);
    QCOMPARE(p.peerClosed(), HttpReplyParser::Failed);
    QVERIFY(p.error().contains(QLatin1String("closed before the reply")));
}

QTEST_GUILESS_MAIN(tst_HttpReplyParser)
#include "tst_httpreplyparser.moc"
