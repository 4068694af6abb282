// Bounded snapshots (server/cloud/SnapshotBudget): page text cut to a budget by structure,
// headings and interactive elements first, and continued through a cursor until nothing
// is left; the bridge parameters read and refused.

#include "cloud/SnapshotBudget.h"
#include "core/DomainError.h"

#include <QJsonArray>
#include <QTest>

using namespace ph;
using namespace ph::cloud;
using Structure = SnapshotBudget::Structure;

class tst_SnapshotBudget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keepsHeadingsAndControlsFirst_data();
    void keepsHeadingsAndControlsFirst();
    void continuesUntilTheWholeTextIsDelivered_data();
    void continuesUntilTheWholeTextIsDelivered();
    void leavesAnAnswerThatFitsAlone();
    void cutsAScrapeAnswerAndContinuesIt();
    void readsTheBudgetParameters_data();
    void readsTheBudgetParameters();
};

namespace {

// An aria snapshot of `n` sections: a heading, a paragraph and a link each.
QString ariaPage(int n)
{
    QStringList lines;
    for (int i = 0; i < n; ++i) {
        lines << QStringLiteral("- heading \"Section %1\" [level=2]").arg(i)
              << QStringLiteral("- paragraph: %1").arg(QString(200, QLatin1Char('a' + i % 26)))
              << QStringLiteral("- link \"More %1\" [ref=e%1]").arg(i);
    }
    return lines.join(QLatin1Char('\n'));
}

QString markdownPage(int n)
{
    QStringList lines;
    for (int i = 0; i < n; ++i) {
        lines << QStringLiteral("## Part %1").arg(i) << QString(300, QLatin1Char('x'))
              << QStringLiteral("[Read part %1](https://example.org/%1)").arg(i);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

void tst_SnapshotBudget::keepsHeadingsAndControlsFirst_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("structure");
    QTest::addColumn<QString>("heading");
    QTest::addColumn<QString>("control");
    QTest::newRow("an aria snapshot keeps every heading and link before paragraphs")
        << ariaPage(40) << int(Structure::Aria) << QStringLiteral("- heading \"Section 39\"")
        << QStringLiteral("- link \"More 39\"");
    QTest::newRow("markdown keeps every heading and link before body text")
        << markdownPage(40) << int(Structure::Markdown) << QStringLiteral("## Part 39")
        << QStringLiteral("[Read part 39]");
}

void tst_SnapshotBudget::keepsHeadingsAndControlsFirst()
{
    QFETCH(QString, text);
    QFETCH(int, structure);
    QFETCH(QString, heading);
    QFETCH(QString, control);
    const auto w = SnapshotBudget::window(text, Structure(structure), 4000, 0);
    QVERIFY(w.text.size() <= 4000);
    QVERIFY(text.size() > 4000);
    QVERIFY2(w.text.contains(heading), qPrintable(w.text.left(200)));
    QVERIFY(w.text.contains(control));
    QVERIFY(w.nextOffset > 0);
    QCOMPARE(w.remainingHeadings, 0);
    QCOMPARE(w.remainingInteractive, 0);
    QVERIFY(w.remainingOther > 0);
}

void tst_SnapshotBudget::continuesUntilTheWholeTextIsDelivered_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("structure");
    QTest::addColumn<int>("maxChars");
    QTest::newRow("an aria snapshot comes whole in windows of 1000")
        << ariaPage(30) << int(Structure::Aria) << 1000;
    QTest::newRow("plain text with one very long line comes whole")
        << (QStringLiteral("start\n") + QString(5000, QLatin1Char('y')) + QStringLiteral("\nend"))
        << int(Structure::Plain) << 1200;
    QTest::newRow("markdown comes whole in windows of 2500")
        << markdownPage(25) << int(Structure::Markdown) << 2500;
}

void tst_SnapshotBudget::continuesUntilTheWholeTextIsDelivered()
{
    QFETCH(QString, text);
    QFETCH(int, structure);
    QFETCH(int, maxChars);
    qsizetype delivered = 0;
    int offset = 0;
    int windows = 0;
    QStringList lines;
    for (;;) {
        const auto w = SnapshotBudget::window(text, Structure(structure), maxChars, offset);
        QVERIFY(w.text.size() <= maxChars);
        delivered += w.text.size() + 1;
        lines << w.text.split(QLatin1Char('\n'));
        ++windows;
        QVERIFY(windows < 1000);
        if (w.nextOffset < 0)
            break;
        QVERIFY(w.nextOffset > offset);
        offset = w.nextOffset;
    }
    QVERIFY(windows > 1);
    // Every character arrives once (long lines in pieces, one newline per window).
    QCOMPARE(QString(lines.join(QString())).size(), QString(text).remove(QLatin1Char('\n')).size());
    QVERIFY(delivered >= text.size());
}

void tst_SnapshotBudget::leavesAnAnswerThatFitsAlone()
{
    const QJsonObject answer{
        {QStringLiteral("tool"), QStringLiteral("scrape")},
        {QStringLiteral("results"),
         QJsonArray{QJsonObject{{QStringLiteral("text"), QStringLiteral("short page")},
                                {QStringLiteral("links"), QJsonArray{QStringLiteral("a")}}}}}};
    QCOMPARE(SnapshotBudget::apply(answer, {}), answer);
}

void tst_SnapshotBudget::cutsAScrapeAnswerAndContinuesIt()
{
    const QString aria = ariaPage(200);
    const QJsonObject answer{
        {QStringLiteral("tool"), QStringLiteral("scrape")},
        {QStringLiteral("results"),
         QJsonArray{QJsonObject{{QStringLiteral("ariaSnapshot"), aria},
                                {QStringLiteral("accessibilityTree"), QJsonObject{}},
                                {QStringLiteral("title"), QStringLiteral("Big")}}}}};
    SnapshotBudget::Request request;
    request.maxChars = 5000;
    QString received;
    for (int call = 0; call < 100; ++call) {
        const QJsonObject out = SnapshotBudget::apply(answer, request);
        const QJsonObject first = out.value(QStringLiteral("results")).toArray().at(0).toObject();
        const QString part = first.value(QStringLiteral("ariaSnapshot")).toString();
        QVERIFY(part.size() <= 5000);
        QCOMPARE(first.value(QStringLiteral("title")).toString(), QStringLiteral("Big"));
        QVERIFY(!first.contains(QStringLiteral("accessibilityTree")));
        received += part + QLatin1Char('\n');
        const QJsonObject truncation = out.value(QStringLiteral("truncation")).toObject();
        QCOMPARE(truncation.value(QStringLiteral("dropped")).toArray(),
                 QJsonArray{QStringLiteral("results[0].accessibilityTree")});
        request.cursor = truncation.value(QStringLiteral("cursor")).toString();
        if (request.cursor.isEmpty())
            break;
    }
    QVERIFY(request.cursor.isEmpty());
    // The continuations brought every line of the snapshot.
    QStringList got = received.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QStringList want = aria.split(QLatin1Char('\n'));
    got.sort();
    want.sort();
    QCOMPARE(got, want);
}

void tst_SnapshotBudget::readsTheBudgetParameters_data()
{
    QTest::addColumn<QJsonObject>("params");
    QTest::addColumn<QString>("field"); // empty: accepted
    QTest::newRow("no budget parameters take the default") << QJsonObject() << QString();
    QTest::newRow("a maxChars in range is accepted")
        << QJsonObject{{QStringLiteral("maxChars"), 5000}} << QString();
    QTest::newRow("a maxChars under 1000 is refused naming params.maxChars")
        << QJsonObject{{QStringLiteral("maxChars"), 10}} << QStringLiteral("params.maxChars");
    QTest::newRow("a fractional maxChars is refused")
        << QJsonObject{{QStringLiteral("maxChars"), 1500.5}} << QStringLiteral("params.maxChars");
    QTest::newRow("a cursor this server did not give is refused naming params.cursor")
        << QJsonObject{{QStringLiteral("cursor"), QStringLiteral("page-2")}}
        << QStringLiteral("params.cursor");
    QTest::newRow("a cursor of bad Base64 is refused")
        << QJsonObject{{QStringLiteral("cursor"), QStringLiteral("c1.!!!")}}
        << QStringLiteral("params.cursor");
}

void tst_SnapshotBudget::readsTheBudgetParameters()
{
    QFETCH(QJsonObject, params);
    QFETCH(QString, field);
    try {
        const auto r = SnapshotBudget::read(params);
        QVERIFY2(field.isEmpty(), "accepted");
        QCOMPARE(r.maxChars,
                 params.value(QStringLiteral("maxChars")).toInt(SnapshotBudget::kDefaultMaxChars));
    } catch (const DomainError &e) {
        QCOMPARE(e.field(), field);
    }
}

QTEST_GUILESS_MAIN(tst_SnapshotBudget)
#include "tst_snapshotbudget.moc"
