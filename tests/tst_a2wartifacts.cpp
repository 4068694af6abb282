// The table files of an A2W run: which rows an answer holds (JSON array, an object
// holding one, the first markdown table of the text) and their CSV and JSON.
#include "a2w/A2wArtifacts.h"

#include <QJsonDocument>
#include <QtTest>

using namespace ph::a2w;

class tst_A2wArtifacts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void findsTheRows_data();
    void findsTheRows();
    void writesCsvAsRfc4180();
    void writesTheRowsAsJson();
};

void tst_A2wArtifacts::findsTheRows_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("rows");
    QTest::addColumn<QString>("firstName");
    QTest::newRow("takes a JSON array of objects")
        << QByteArray(R"([{"name":"Sextant"},{"name":"Chart"}])") << QString() << 2 << "Sextant";
    QTest::newRow("takes the array an object holds")
        << QByteArray(R"({"products":[{"name":"Rope"}],"count":1})") << QString() << 1 << "Rope";
    QTest::newRow("reads the first markdown table of the text")
        << QByteArray("null")
        << QStringLiteral("Found:\n\n| name | price |\n|---|---:|\n| Sextant | 310 |\n| Chart | 25 "
                          "|\n\nDone.")
        << 2 << "Sextant";
    QTest::newRow("finds no table in plain text")
        << QByteArray("null") << QStringLiteral("No products | here") << 0 << QString();
    QTest::newRow("finds no table in an array of scalars")
        << QByteArray("[1,2,3]") << QString() << 0 << QString();
}

void tst_A2wArtifacts::findsTheRows()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, text);
    QFETCH(int, rows);
    QFETCH(QString, firstName);
    const QJsonValue value = QJsonDocument::fromJson("[" + json + "]").array().at(0);
    const QJsonArray found = TableFiles::rowsOf(value, text);
    QCOMPARE(found.size(), rows);
    if (rows > 0)
        QCOMPARE(found.at(0).toObject().value(QStringLiteral("name")).toString(), firstName);
}

void tst_A2wArtifacts::writesCsvAsRfc4180()
{
    const QJsonArray rows =
        QJsonDocument::fromJson(
            R"([{"name":"Rope, 10 m","price":12.5},{"name":"Say \"ahoy\"","tags":["a"]}])")
            .array();
    QCOMPARE(TableFiles::csv(rows),
             QByteArray("name,price,tags\r\n\"Rope, 10 m\",12.5,\r\n\"Say \"\"ahoy\"\"\",,"
                        "\"[\"\"a\"\"]\"\r\n"));
}

void tst_A2wArtifacts::writesTheRowsAsJson()
{
    const QJsonArray rows = QJsonDocument::fromJson(R"([{"name":"Chart"}])").array();
    QCOMPARE(QJsonDocument::fromJson(TableFiles::json(rows)).array(), rows);
}

QTEST_GUILESS_MAIN(tst_A2wArtifacts)
#include "tst_a2wartifacts.moc"
