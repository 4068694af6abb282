// Sheet: the in-memory table and its helpers.
#include "SheetText.h"
#include "data/Sheet.h"

#include <QtTest>

using namespace ph::data;
using ph::test::columnsText;
using ph::test::compactJson;
using ph::test::rowsText;

namespace {

Sheet products()
{
    return Sheet::fromStrings(
        QStringLiteral("Products"),
        {QStringLiteral("Name"), QStringLiteral("Price"), QStringLiteral("Link")},
        {{QStringLiteral("Rope, 10 m"), QStringLiteral("12.50"),
          QStringLiteral("https://shop.example/rope")},
         {QStringLiteral("Fender \"XL\""), QStringLiteral("24"),
          QStringLiteral("https://shop.example/fender")},
         {QStringLiteral("Hook|line"), QString(), QStringLiteral("https://shop.example/hook")}});
}

} // namespace

class tst_Sheet : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesColumnTypes_data();
    void namesColumnTypes();
    void findsColumnsByName();
    void readsCellsSafely();
    void convertsToObjects();
    void buildsFromObjects();
    void buildsFromStrings();
    void reinfersTypesAfterEdits();
    void describesItself();
    void writesCsv();
    void writesMarkdown();
    void findsUrlColumns_data();
    void findsUrlColumns();
};

void tst_Sheet::namesColumnTypes_data()
{
    QTest::addColumn<ColumnType>("type");
    QTest::addColumn<QString>("name");
    QTest::newRow("names empty") << ColumnType::Empty << "empty";
    QTest::newRow("names string") << ColumnType::String << "string";
    QTest::newRow("names integer") << ColumnType::Integer << "integer";
    QTest::newRow("names number") << ColumnType::Number << "number";
    QTest::newRow("names boolean") << ColumnType::Boolean << "boolean";
    QTest::newRow("names date") << ColumnType::Date << "date";
    QTest::newRow("names datetime") << ColumnType::DateTime << "datetime";
    QTest::newRow("names json") << ColumnType::Json << "json";
}

void tst_Sheet::namesColumnTypes()
{
    QFETCH(ColumnType, type);
    QFETCH(QString, name);
    QCOMPARE(columnTypeName(type), name);
    QCOMPARE(columnTypeFromName(name.toUpper()), std::optional(type));
    QCOMPARE(columnTypeFromName(QStringLiteral("decimal")), std::optional<ColumnType>());
}

void tst_Sheet::findsColumnsByName()
{
    Sheet s;
    s.columns = {{QStringLiteral("url"), ColumnType::String},
                 {QStringLiteral("URL"), ColumnType::String},
                 {QStringLiteral("Name"), ColumnType::String}};
    QCOMPARE(s.column(QStringLiteral("URL")), 1); // the exact match wins
    QCOMPARE(s.column(QStringLiteral("name")), 2);
    QCOMPARE(s.column(QStringLiteral(" NAME ")), 2);
    QCOMPARE(s.column(QStringLiteral("price")), -1);
    QCOMPARE(s.columnNames(),
             (QStringList{QStringLiteral("url"), QStringLiteral("URL"), QStringLiteral("Name")}));
}

void tst_Sheet::readsCellsSafely()
{
    Sheet s;
    s.columns = {{QStringLiteral("a"), ColumnType::Integer},
                 {QStringLiteral("b"), ColumnType::Integer}};
    s.rows = {QJsonArray{1}}; // a short row
    QCOMPARE(s.value(0, 0).toInteger(), 1);
    QVERIFY(s.value(0, 1).isNull());
    QVERIFY(s.value(5, 0).isNull());
    QVERIFY(s.value(0, -1).isNull());
    QVERIFY(s.value(0, QStringLiteral("missing")).isNull());
    QCOMPARE(s.value(0, QStringLiteral("A")).toInteger(), 1);
}

void tst_Sheet::convertsToObjects()
{
    const QJsonArray objects = products().toObjects();
    QCOMPARE(objects.size(), 3);
    QCOMPARE(objects[0].toObject().value(QStringLiteral("Price")).toDouble(), 12.5);
    QVERIFY(objects[2].toObject().value(QStringLiteral("Price")).isNull());
    QVERIFY(objects[2].toObject().contains(QStringLiteral("Price")));
}

void tst_Sheet::buildsFromObjects()
{
    const QJsonArray objects = QJsonDocument::fromJson(R"([
        {"name":"Ada","tags":["x"],"born":"1815-12-10"},
        {"name":"Grace","extra":{"navy":true}},
        7])")
                                   .array();
    Sheet s = Sheet::fromObjects(QStringLiteral("P"), objects,
                                 {QStringLiteral("name"), QStringLiteral("tags"),
                                  QStringLiteral("born"), QStringLiteral("extra")});
    QCOMPARE(s.title, QStringLiteral("P"));
    QCOMPARE(columnsText(s),
             QStringLiteral("name:string,tags:json,born:date,extra:json,value:integer"));
    QCOMPARE(rowsText(s), compactJson(R"([
        ["Ada",["x"],"1815-12-10",null,null],
        ["Grace",null,null,{"navy":true},null],
        [null,null,null,null,7]])"));
    // Without a key order, keys within an object come alphabetically.
    s = Sheet::fromObjects(QString(), objects);
    QCOMPARE(s.columnNames().first(), QStringLiteral("born"));
}

void tst_Sheet::buildsFromStrings()
{
    const Sheet s =
        Sheet::fromStrings(QString(), {QStringLiteral("a"), QString(), QStringLiteral("a")},
                           {{QStringLiteral("1"), QStringLiteral("x")},
                            {QStringLiteral("2"), QStringLiteral("y"), QStringLiteral("true"),
                             QStringLiteral("extra")}});
    QCOMPARE(columnsText(s),
             QStringLiteral("a:integer,column_2:string,a_2:boolean,column_4:string"));
    QCOMPARE(rowsText(s), compactJson(R"([[1,"x",null,null],[2,"y",true,"extra"]])"));
    // Duplicates count on past names already given and past earlier duplicates.
    QCOMPARE(Sheet::fromStrings(QString(),
                                {QStringLiteral("A"), QStringLiteral("a"), QStringLiteral("a_2"),
                                 QStringLiteral("a"), QStringLiteral("A")},
                                {})
                 .columnNames(),
             QStringList({QStringLiteral("A"), QStringLiteral("a_3"), QStringLiteral("a_2"),
                          QStringLiteral("a_4"), QStringLiteral("A_5")}));
}

void tst_Sheet::reinfersTypesAfterEdits()
{
    Sheet s = products();
    QCOMPARE(s.columns[1].type, ColumnType::Number);
    for (QJsonArray &row : s.rows)
        row[1] = QStringLiteral("n/a");
    s.inferTypes();
    QCOMPARE(s.columns[1].type, ColumnType::String);
    for (QJsonArray &row : s.rows)
        row[1] = QJsonValue();
    s.inferTypes();
    QCOMPARE(s.columns[1].type, ColumnType::Empty);
}

void tst_Sheet::describesItself()
{
    const QJsonObject d = products().describe(2);
    QCOMPARE(d.value(QStringLiteral("title")).toString(), QStringLiteral("Products"));
    QCOMPARE(d.value(QStringLiteral("rowCount")).toInt(), 3);
    const QJsonArray columns = d.value(QStringLiteral("columns")).toArray();
    QCOMPARE(columns.size(), 3);
    QCOMPARE(columns[1].toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("Price"));
    QCOMPARE(columns[1].toObject().value(QStringLiteral("type")).toString(),
             QStringLiteral("number"));
    const QJsonArray sample = d.value(QStringLiteral("sample")).toArray();
    QCOMPARE(sample.size(), 2);
    QCOMPARE(sample[1].toObject().value(QStringLiteral("Name")).toString(),
             QStringLiteral("Fender \"XL\""));
}

void tst_Sheet::writesCsv()
{
    Sheet s = products();
    s.columns.append(Column{QStringLiteral("meta"), ColumnType::Json});
    s.columns.append(Column{QStringLiteral("ok"), ColumnType::Boolean});
    s.rows[0].append(QJsonObject{{QStringLiteral("a"), 1}});
    s.rows[0].append(true);
    s.rows[1].append(QJsonValue());
    s.rows[1].append(false);
    s.rows[2][1] = 1e-7;
    QCOMPARE(
        s.toCsv(),
        QStringLiteral("Name,Price,Link,meta,ok\r\n"
                       "\"Rope, 10 m\",12.5,https://shop.example/rope,\"{\"\"a\"\":1}\",true\r\n"
                       "\"Fender \"\"XL\"\"\",24,https://shop.example/fender,,false\r\n"
                       "Hook|line,1e-07,https://shop.example/hook,,\r\n"));
    // What toCsv writes, the CSV reader reads back.
    const Sheet multiline =
        Sheet::fromStrings(QString(), {QStringLiteral("a")}, {{QStringLiteral("one\ntwo")}});
    QCOMPARE(multiline.toCsv(), QStringLiteral("a\r\n\"one\ntwo\"\r\n"));
}

void tst_Sheet::writesMarkdown()
{
    Sheet s = products();
    s.rows[0][0] = QStringLiteral("two\nlines");
    QCOMPARE(s.toMarkdown(2),
             QStringLiteral("| Name | Price | Link |\n"
                            "| --- | --- | --- |\n"
                            "| two<br>lines | 12.5 | https://shop.example/rope |\n"
                            "| Fender \"XL\" | 24 | https://shop.example/fender |\n"
                            "\n… and 1 more rows\n"));
    QVERIFY(s.toMarkdown().contains(QLatin1String("| Hook\\|line |  |")));
    QCOMPARE(Sheet().toMarkdown(), QString());
}

void tst_Sheet::findsUrlColumns_data()
{
    QTest::addColumn<QStringList>("header");
    QTest::addColumn<QList<QStringList>>("rows");
    QTest::addColumn<QList<int>>("columns");
    QTest::newRow("finds a column named url")
        << QStringList{QStringLiteral("name"), QStringLiteral("URL")}
        << QList<QStringList>{{QStringLiteral("a"), QStringLiteral("https://a.example/")}}
        << QList<int>{1};
    QTest::newRow("finds words like link, website and page in longer names")
        << QStringList{QStringLiteral("product_link"), QStringLiteral("Company Website"),
                       QStringLiteral("pageUrl"), QStringLiteral("note")}
        << QList<QStringList>{{QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z"),
                               QStringLiteral("n")}}
        << QList<int>{0, 1, 2};
    QTest::newRow("finds a column of mostly http(s) URLs by its values")
        << QStringList{QStringLiteral("name"), QStringLiteral("where")}
        << QList<QStringList>{{QStringLiteral("a"), QStringLiteral("https://a.example/x")},
                              {QStringLiteral("b"), QStringLiteral("http://b.example")},
                              {QStringLiteral("c"), QStringLiteral("https://c.example/")},
                              {QStringLiteral("d"), QStringLiteral("https://d.example/")},
                              {QStringLiteral("e"), QStringLiteral("see above")}}
        << QList<int>{1};
    QTest::newRow("ranks a named column of URLs before a merely named one and content only")
        << QStringList{QStringLiteral("mirror"), QStringLiteral("link"), QStringLiteral("url")}
        << QList<QStringList>{{QStringLiteral("https://m.example/"), QStringLiteral("see"),
                               QStringLiteral("https://u.example/")}}
        << QList<int>{2, 1, 0};
    QTest::newRow("skips a column named page that holds numbers")
        << QStringList{QStringLiteral("page"), QStringLiteral("title")}
        << QList<QStringList>{{QStringLiteral("1"), QStringLiteral("x")}} << QList<int>{};
    QTest::newRow("skips text that only mentions http")
        << QStringList{QStringLiteral("note")}
        << QList<QStringList>{{QStringLiteral("use https://x.example/ later")},
                              {QStringLiteral("http://")}}
        << QList<int>{};
}

void tst_Sheet::findsUrlColumns()
{
    QFETCH(QStringList, header);
    QFETCH(QList<QStringList>, rows);
    QFETCH(QList<int>, columns);
    const Sheet s = Sheet::fromStrings(QString(), header, rows);
    QCOMPARE(s.urlColumns(), columns);
    QCOMPARE(s.urlColumn(), columns.isEmpty() ? -1 : columns.first());
}

QTEST_GUILESS_MAIN(tst_Sheet)
#include "tst_sheet.moc"
