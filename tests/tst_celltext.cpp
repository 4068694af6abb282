// data::cellText: the one text of a JSON value in a cell, whether the cell is in a sheet,
// a generated markdown table or an office document's table.
#include "data/CellText.h"
#include "data/OfficeDocument.h"
#include "engine/tools/GeneratorTools.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace ph;
using data::BoolText;

namespace {
QJsonValue jsonValue(const char *text)
{
    return QJsonDocument::fromJson(QByteArray("[") + text + "]").array().at(0);
}
} // namespace

class tst_CellText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void printsAValue_data();
    void printsAValue();
    void printsTheSameInEveryKindOfTable_data();
    void printsTheSameInEveryKindOfTable();
};

void tst_CellText::printsAValue_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("booleans");
    QTest::addColumn<QString>("expected");
    const int tf = int(BoolText::TrueFalse);
    const int yn = int(BoolText::YesNo);
    QTest::newRow("a large number prints exactly") << QByteArray("1234567") << tf << "1234567";
    QTest::newRow("a whole number up to 2^53 prints every digit")
        << QByteArray("9007199254740992") << tf << "9007199254740992";
    QTest::newRow("a negative whole number prints exactly") << QByteArray("-42") << tf << "-42";
    QTest::newRow("a fraction prints in its shortest form") << QByteArray("0.1") << tf << "0.1";
    QTest::newRow("a fraction with many digits keeps them all")
        << QByteArray("1234567.891") << tf << "1234567.891";
    QTest::newRow("a number beyond 2^53 prints in the shortest form that reads back")
        << QByteArray("1e20") << tf << "1e+20";
    QTest::newRow("a boolean in a sheet reads true") << QByteArray("true") << tf << "true";
    QTest::newRow("a boolean in a document reads no") << QByteArray("false") << yn << "no";
    QTest::newRow("a string is kept as it is") << QByteArray("\"a | b\"") << tf << "a | b";
    QTest::newRow("null is an empty cell") << QByteArray("null") << tf << "";
    QTest::newRow("an array is compact JSON") << QByteArray("[1, \"x\"]") << tf << "[1,\"x\"]";
    QTest::newRow("an object is compact JSON") << QByteArray("{\"a\": 1}") << yn << "{\"a\":1}";
}

void tst_CellText::printsAValue()
{
    QFETCH(QByteArray, json);
    QFETCH(int, booleans);
    QFETCH(QString, expected);
    QCOMPARE(data::cellText(jsonValue(json.constData()), BoolText(booleans)), expected);
}

void tst_CellText::printsTheSameInEveryKindOfTable_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("a large number prints exactly in a markdown table")
        << QByteArray("1234567") << "1234567";
    QTest::newRow("a fraction prints in its shortest form in a markdown table")
        << QByteArray("3.25") << "3.25";
    QTest::newRow("a boolean says yes in a markdown table") << QByteArray("true") << "yes";
}

void tst_CellText::printsTheSameInEveryKindOfTable()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    const QJsonValue value = jsonValue(json.constData());
    const QJsonArray rows{QJsonObject{{QStringLiteral("v"), value}}};

    // A generated markdown table (docs_access, pdf_generator from `data`).
    const QString markdown = engine::contentMarkdown(QJsonObject{{QStringLiteral("data"), rows}});
    QVERIFY2(markdown.contains(QStringLiteral("| %1 |").arg(expected)), qPrintable(markdown));

    // An office document's table.
    const QList<data::DocBlock> blocks = data::blocksFromData(rows);
    QCOMPARE(blocks.size(), 1);
    QCOMPARE(blocks.first().rows.size(), 2); // the header and the one row
    QCOMPARE(data::plainText(blocks.first().rows.at(1).at(0)), expected);
}

QTEST_GUILESS_MAIN(tst_CellText)
#include "tst_celltext.moc"
