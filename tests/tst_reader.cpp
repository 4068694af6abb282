// Reader: the text formats (csv, tsv, json, text, markdown), text decoding and the
// limits. Xlsx, parquet and PDF have their own tests.
#include "SheetText.h"
#include "data/Reader.h"

#include <QtTest>

using namespace ph::data;
using ph::test::columnsText;
using ph::test::compactJson;
using ph::test::rowsText;

class tst_Reader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsCsv_data();
    void readsCsv();
    void rejectsBadCsv_data();
    void rejectsBadCsv();
    void readsTsv_data();
    void readsTsv();
    void readsJson_data();
    void readsJson();
    void rejectsBadJson_data();
    void rejectsBadJson();
    void readsText_data();
    void readsText();
    void readsMarkdown_data();
    void readsMarkdown();
    void decodesUtf16WithByteOrderMark_data();
    void decodesUtf16WithByteOrderMark();
    void enforcesLimits_data();
    void enforcesLimits();
    void titlesTheSheet();
    void parseAllGivesOneSheetForTextFormats();
    void readsALargeCsv();

private:
    void checkSheet(Format format);
    void checkError(Format format);
    static void addSheetColumns();
    static void addErrorColumns();
};

void tst_Reader::addSheetColumns()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("columns");
    QTest::addColumn<QString>("rows");
}

void tst_Reader::addErrorColumns()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("message");
}

void tst_Reader::checkSheet(Format format)
{
    QFETCH(QByteArray, input);
    QFETCH(QString, columns);
    QFETCH(QString, rows);
    const auto sheet = Reader().parse(input, format, QStringLiteral("t"));
    QVERIFY2(sheet.ok(), qPrintable(sheet.ok() ? QString() : sheet.error().message));
    QCOMPARE(columnsText(*sheet), columns);
    QCOMPARE(rowsText(*sheet), rows);
}

void tst_Reader::checkError(Format format)
{
    QFETCH(QByteArray, input);
    QFETCH(int, kind);
    QFETCH(QString, message);
    const auto sheet = Reader().parse(input, format, QStringLiteral("t"));
    QVERIFY2(!sheet.ok(), qPrintable(sheet.ok() ? rowsText(*sheet) : QString()));
    QCOMPARE(int(sheet.error().kind), kind);
    QVERIFY2(sheet.error().message.contains(message), qPrintable(sheet.error().message));
}

void tst_Reader::readsCsv_data()
{
    addSheetColumns();
    QTest::newRow("reads a header and typed rows")
        << QByteArray("name,age\nAda,36\nGrace,45\n") << "name:string,age:integer"
        << compactJson(R"([["Ada",36],["Grace",45]])");
    QTest::newRow("keeps commas, quotes and line breaks inside quoted fields")
        << QByteArray("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n\"multi\nline\",z\n")
        << "a:string,b:string" << compactJson(R"([["x, y","say \"hi\""],["multi\nline","z"]])");
    QTest::newRow("keeps CRLF inside a quoted field")
        << QByteArray("a\r\n\"one\r\ntwo\"\r\n") << "a:string"
        << compactJson(R"([["one\r\ntwo"]])");
    QTest::newRow("accepts CRLF line ends")
        << QByteArray("a,b\r\n1,2\r\n3,4\r\n") << "a:integer,b:integer"
        << compactJson("[[1,2],[3,4]]");
    QTest::newRow("accepts a lone CR as a line end")
        << QByteArray("a,b\r1,2\r") << "a:integer,b:integer" << compactJson("[[1,2]]");
    QTest::newRow("reads a last row without a trailing newline")
        << QByteArray("a,b\n1,2") << "a:integer,b:integer" << compactJson("[[1,2]]");
    QTest::newRow("drops a UTF-8 byte order mark")
        << QByteArray("\xEF\xBB\xBFid,name\n1,x\n") << "id:integer,name:string"
        << compactJson(R"([[1,"x"]])");
    QTest::newRow("names empty header cells column_N")
        << QByteArray(",b,\n1,2,3\n") << "column_1:integer,b:integer,column_3:integer"
        << compactJson("[[1,2,3]]");
    QTest::newRow("suffixes duplicate header names")
        << QByteArray("name,Name,name\na,b,c\n") << "name:string,Name_2:string,name_3:string"
        << compactJson(R"([["a","b","c"]])");
    QTest::newRow("trims header names")
        << QByteArray(" a , b\n1,2\n") << "a:integer,b:integer" << compactJson("[[1,2]]");
    QTest::newRow("turns empty cells into null")
        << QByteArray("a,b\n1,\n,2\n") << "a:integer,b:integer"
        << compactJson("[[1,null],[null,2]]");
    QTest::newRow("reads a trailing delimiter as an empty last field")
        << QByteArray("a,b,c\n1,2,\n") << "a:integer,b:integer,c:empty"
        << compactJson("[[1,2,null]]");
    QTest::newRow("keeps leading-zero identifiers as strings")
        << QByteArray("code\n007\n42\n") << "code:string" << compactJson(R"([["007"],["42"]])");
    QTest::newRow("types mixed integers and decimals as numbers")
        << QByteArray("x\n1\n2.5\n-3e2\n0.25\n") << "x:number"
        << compactJson("[[1],[2.5],[-300],[0.25]]");
    QTest::newRow("types negative integers")
        << QByteArray("x\n-1\n0\n") << "x:integer" << compactJson("[[-1],[0]]");
    QTest::newRow("keeps a column with one non-number as strings")
        << QByteArray("x\n1\nabc\n") << "x:string" << compactJson(R"([["1"],["abc"]])");
    QTest::newRow("keeps thousands separators as strings")
        << QByteArray("x\n\"1,234\"\n") << "x:string" << compactJson(R"([["1,234"]])");
    QTest::newRow("keeps integers beyond 2^53 as strings")
        << QByteArray("id\n12345678901234567890\n9007199254740993\n") << "id:string"
        << compactJson(R"([["12345678901234567890"],["9007199254740993"]])");
    QTest::newRow("types true and false as booleans")
        << QByteArray("flag\ntrue\nFALSE\n\n") << "flag:boolean" << compactJson("[[true],[false]]");
    QTest::newRow("keeps yes and no as strings")
        << QByteArray("flag\nyes\nno\n") << "flag:string" << compactJson(R"([["yes"],["no"]])");
    QTest::newRow("types ISO dates and datetimes")
        << QByteArray("d,t\n2024-03-01,2024-03-01T09:30:00Z\n2024-02-29,2024-03-01 10:00\n")
        << "d:date,t:datetime"
        << compactJson(
               R"([["2024-03-01","2024-03-01T09:30:00Z"],["2024-02-29","2024-03-01 10:00"]])");
    QTest::newRow("types a column of dates and datetimes as datetime")
        << QByteArray("t\n2024-03-01\n2024-03-01T09:30:00.5+01:00\n") << "t:datetime"
        << compactJson(R"([["2024-03-01"],["2024-03-01T09:30:00.5+01:00"]])");
    QTest::newRow("keeps impossible dates as strings")
        << QByteArray("d\n2023-02-29\n") << "d:string" << compactJson(R"([["2023-02-29"]])");
    QTest::newRow("skips blank lines") << QByteArray("a,b\n\n1,2\n\n\n3,4\n")
                                       << "a:integer,b:integer" << compactJson("[[1,2],[3,4]]");
    QTest::newRow("reads a header-only file as no rows")
        << QByteArray("a,b\n") << "a:empty,b:empty" << compactJson("[]");
    QTest::newRow("keeps a quoted empty field as a row")
        << QByteArray("a\n\"\"\nx\n") << "a:string" << compactJson(R"([[null],["x"]])");
    QTest::newRow("keeps spaces inside string cells")
        << QByteArray("a,b\n x ,y\n") << "a:string,b:string" << compactJson(R"([[" x ","y"]])");
    QTest::newRow("types numbers with surrounding spaces")
        << QByteArray("a\n 1\n2 \n") << "a:integer" << compactJson("[[1],[2]]");
    QTest::newRow("keeps a quote inside an unquoted field")
        << QByteArray("size\n5\" screen\n") << "size:string" << compactJson(R"([["5\" screen"]])");
    QTest::newRow("reads unicode") << QByteArray("city\nTōkyō 東京 🚢\n") << "city:string"
                                   << compactJson(R"([["Tōkyō 東京 🚢"]])");
}

void tst_Reader::readsCsv()
{
    checkSheet(Format::Csv);
}

void tst_Reader::rejectsBadCsv_data()
{
    addErrorColumns();
    const int malformed = int(DataError::Kind::Malformed);
    QTest::newRow("names the row of a ragged record")
        << QByteArray("a,b\n1,2\n3,4\n5,6,7\n") << malformed
        << "row 4 has 3 fields but the header has 2";
    QTest::newRow("names a short row")
        << QByteArray("a,b,c\n1,2\n") << malformed << "row 2 has 2 fields but the header has 3";
    QTest::newRow("counts records, not lines, after an embedded line break")
        << QByteArray("a,b\n\"x\ny\",1\n1\n") << malformed
        << "row 3 has 1 field but the header has 2";
    QTest::newRow("rejects a quote that is never closed")
        << QByteArray("a,b\n1,2\n\"open,1\n") << malformed
        << "row 3 has a quoted field, opened on line 3, that is never closed";
    QTest::newRow("rejects text after a closing quote")
        << QByteArray("a\n\"x\"y\n") << malformed
        << "row 2 has text after the closing quote of field 1";
    QTest::newRow("rejects empty input") << QByteArray("") << malformed << "the input is empty";
    QTest::newRow("rejects blank input") << QByteArray("\n\n") << malformed << "the input is empty";
    QTest::newRow("rejects invalid UTF-8 naming the offset")
        << QByteArray("a\n\xFF\n") << malformed << "not valid UTF-8 (byte 0xff at offset 2)";
    QTest::newRow("rejects overlong UTF-8")
        << QByteArray("a\n\xC0\xAF\n") << malformed << "not valid UTF-8 (byte 0xc0 at offset 2)";
    QTest::newRow("rejects a UTF-8 sequence cut at the end")
        << QByteArray("a\n\xE6\x9D") << malformed << "not valid UTF-8 (byte 0xe6 at offset 2)";
}

void tst_Reader::rejectsBadCsv()
{
    checkError(Format::Csv);
}

void tst_Reader::readsTsv_data()
{
    addSheetColumns();
    QTest::newRow("reads tab-separated values with commas in cells")
        << QByteArray("name\tprice\nRope, 10 m\t12.50\nFender\t24.00\n")
        << "name:string,price:number" << compactJson(R"([["Rope, 10 m",12.5],["Fender",24]])");
    QTest::newRow("reads quoted TSV fields with tabs inside")
        << QByteArray("a\tb\n\"x\ty\"\t1\n") << "a:string,b:integer"
        << compactJson(R"([["x\ty",1]])");
    QTest::newRow("reads empty TSV cells as null")
        << QByteArray("a\tb\tc\n1\t\t3\n") << "a:integer,b:empty,c:integer"
        << compactJson("[[1,null,3]]");
}

void tst_Reader::readsTsv()
{
    checkSheet(Format::Tsv);
    // A ragged TSV row is named like a CSV one.
    const auto bad = Reader().parse("a\tb\n1\n", Format::Tsv, QString());
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().message, QStringLiteral("row 2 has 1 field but the header has 2"));
}

void tst_Reader::readsJson_data()
{
    addSheetColumns();
    QTest::newRow("reads an array of objects with keys in first-seen order")
        << QByteArray(R"([{"b":1,"a":"x"},{"c":true,"a":"y"}])") << "b:integer,a:string,c:boolean"
        << compactJson(R"([[1,"x",null],[null,"y",true]])");
    QTest::newRow("keeps nested values as JSON")
        << QByteArray(R"([{"a":{"x":1},"b":[1,2]},{"a":null,"b":[]}])") << "a:json,b:json"
        << compactJson(R"([[{"x":1},[1,2]],[null,[]]])");
    QTest::newRow("reads an array of scalars as one column named value")
        << QByteArray("[1, 2, 3]") << "value:integer" << compactJson("[[1],[2],[3]]");
    QTest::newRow("reads an array of strings as one column named value")
        << QByteArray(R"(["https://a.example/", "https://b.example/"])") << "value:string"
        << compactJson(R"([["https://a.example/"],["https://b.example/"]])");
    QTest::newRow("reads the one array property of an object")
        << QByteArray(R"({"count":2,"items":[{"z":1,"a":2},{"z":3}]})") << "z:integer,a:integer"
        << compactJson("[[1,2],[3,null]]");
    QTest::newRow("reads an object without arrays as one row")
        << QByteArray(R"({"z":1,"a":"x"})") << "z:integer,a:string" << compactJson(R"([[1,"x"]])");
    QTest::newRow("reads an array of arrays whose first row is the header")
        << QByteArray(R"([["name","age"],["Ada",36],["Grace",null]])") << "name:string,age:integer"
        << compactJson(R"([["Ada",36],["Grace",null]])");
    QTest::newRow("names columns of arrays without a header row")
        << QByteArray("[[1,2],[3,4]]") << "column_1:integer,column_2:integer"
        << compactJson("[[1,2],[3,4]]");
    QTest::newRow("reads null items as rows of nulls")
        << QByteArray(R"([{"a":1},null])") << "a:integer" << compactJson("[[1],[null]]");
    QTest::newRow("types integral and fractional numbers together as number")
        << QByteArray(R"([{"n":1},{"n":1.5}])") << "n:number" << compactJson("[[1],[1.5]]");
    QTest::newRow("recognises ISO date strings")
        << QByteArray(R"([{"d":"2024-03-01","t":"2024-03-01T09:00:00Z"}])") << "d:date,t:datetime"
        << compactJson(R"([["2024-03-01","2024-03-01T09:00:00Z"]])");
    QTest::newRow("keeps the values of a mixed column as they are")
        << QByteArray(R"([{"a":1},{"a":"x"}])") << "a:string" << compactJson(R"([[1],["x"]])");
    QTest::newRow("decodes escaped keys") << QByteArray(R"([{"caf\u00e9":1,"a\"b":2}])")
                                          << "café:integer,a\"b:integer" << compactJson("[[1,2]]");
    QTest::newRow("reads an empty array as no rows") << QByteArray("[]") << "" << compactJson("[]");
    QTest::newRow("accepts a byte order mark")
        << QByteArray("\xEF\xBB\xBF[{\"a\":1}]") << "a:integer" << compactJson("[[1]]");
}

void tst_Reader::readsJson()
{
    checkSheet(Format::Json);
}

void tst_Reader::rejectsBadJson_data()
{
    addErrorColumns();
    const int malformed = int(DataError::Kind::Malformed);
    QTest::newRow("names the offset, line and column of invalid JSON")
        << QByteArray("[\n  {\"a\": 1,}\n]") << malformed
        << "invalid JSON at offset 13 (line 2, column 12): object is missing after a comma";
    QTest::newRow("rejects unterminated JSON")
        << QByteArray(R"([{"a": "x)") << malformed << "invalid JSON at offset";
    QTest::newRow("rejects an object with several arrays")
        << QByteArray(R"({"a":[],"b":[1]})") << malformed
        << "the JSON object has 2 array properties (a, b)";
    QTest::newRow("rejects a mix of objects and scalars")
        << QByteArray(R"([{"a":1},2])") << malformed
        << "item 2 is a number but item 1 is an object";
    QTest::newRow("rejects a mix of arrays and objects")
        << QByteArray(R"([["a"],{"a":1}])") << malformed
        << "item 2 is an object but item 1 is an array";
    QTest::newRow("rejects a ragged array of arrays")
        << QByteArray(R"([["a","b"],[1]])") << malformed
        << "item 2 has 1 values but the header (item 1) has 2";
    QTest::newRow("rejects invalid UTF-8 in JSON")
        << QByteArray("[\"\xFF\"]") << malformed << "not valid UTF-8 (byte 0xff at offset 2)";
}

void tst_Reader::rejectsBadJson()
{
    checkError(Format::Json);
}

void tst_Reader::readsText_data()
{
    addSheetColumns();
    QTest::newRow("reads one trimmed item per line and drops blank lines")
        << QByteArray("one\n\n  two  \r\nthree\n   \n") << "text:string"
        << compactJson(R"([["one"],["two"],["three"]])");
    QTest::newRow("keeps commas and numbers as text")
        << QByteArray("1,2\n42\n") << "text:string" << compactJson(R"([["1,2"],["42"]])");
    QTest::newRow("reads empty text as no rows") << QByteArray("") << "text:empty"
                                                 << "[]";
}

void tst_Reader::readsText()
{
    checkSheet(Format::Text);
}

void tst_Reader::readsMarkdown_data()
{
    addSheetColumns();
    QTest::newRow("reads the first pipe table")
        << QByteArray("# Shop\n\nIntro text.\n\n| Name | Price |\n|:---|---:|\n| Rope | 12.50 |\n"
                      "| Fender | 24 |\n\nAfter.\n\n| x |\n|---|\n| y |\n")
        << "Name:string,Price:number" << compactJson(R"([["Rope",12.5],["Fender",24]])");
    QTest::newRow("reads a table without outer pipes")
        << QByteArray("a | b\n--- | ---\n1 | 2\n") << "a:integer,b:integer"
        << compactJson("[[1,2]]");
    QTest::newRow("unescapes pipes in cells")
        << QByteArray("| a |\n|---|\n| x \\| y |\n") << "a:string" << compactJson(R"([["x | y"]])");
    QTest::newRow("pads short rows and drops extra cells")
        << QByteArray("| a | b |\n|---|---|\n| 1 |\n| 1 | 2 | 3 |\n") << "a:integer,b:integer"
        << compactJson("[[1,null],[1,2]]");
    QTest::newRow("ends the table at the first line without a pipe")
        << QByteArray("| a |\n|---|\n| 1 |\ntext\n| 2 |\n") << "a:integer" << compactJson("[[1]]");
    QTest::newRow("reads list items and lines when there is no table")
        << QByteArray("- apples\n* pears\n+ figs\n1. plums\n2) kiwis\n\nplain line\n")
        << "text:string"
        << compactJson(R"([["apples"],["pears"],["figs"],["plums"],["kiwis"],["plain line"]])");
    QTest::newRow("does not take a lone pipe line for a table")
        << QByteArray("a | b\nnot a delimiter\n") << "text:string"
        << compactJson(R"([["a | b"],["not a delimiter"]])");
}

void tst_Reader::readsMarkdown()
{
    checkSheet(Format::Markdown);
}

void tst_Reader::decodesUtf16WithByteOrderMark_data()
{
    QTest::addColumn<QByteArray>("input");
    const QString text = QStringLiteral("name,city\nAda,東京\n");
    QByteArray le("\xFF\xFE");
    QByteArray be("\xFE\xFF");
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        le.append(char(u & 0xFF)).append(char(u >> 8));
        be.append(char(u >> 8)).append(char(u & 0xFF));
    }
    QTest::newRow("decodes UTF-16 little-endian") << le;
    QTest::newRow("decodes UTF-16 big-endian") << be;
}

void tst_Reader::decodesUtf16WithByteOrderMark()
{
    QFETCH(QByteArray, input);
    const auto sheet = Reader().parse(input, Format::Csv, QString());
    QVERIFY2(sheet.ok(), qPrintable(sheet.ok() ? QString() : sheet.error().message));
    QCOMPARE(columnsText(*sheet), QStringLiteral("name:string,city:string"));
    QCOMPARE(sheet->value(0, 1).toString(), QStringLiteral("東京"));
    const auto json = Reader().parse(
        input.left(2) + QByteArray(input.startsWith("\xFF") ? "[\0]\0" : "\0[\0]", 4), Format::Json,
        QString());
    QVERIFY2(json.ok(), qPrintable(json.ok() ? QString() : json.error().message));
}

void tst_Reader::enforcesLimits_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("format");
    QTest::addColumn<qint64>("maxBytes");
    QTest::addColumn<qint64>("maxRows");
    QTest::addColumn<int>("maxColumns");
    QTest::addColumn<qint64>("maxCells");
    QTest::addColumn<QString>("message");
    QTest::newRow("refuses input over maxBytes")
        << QByteArray(2048, 'a') << int(Format::Text) << qint64(1024) << qint64(100) << 10
        << qint64(1000) << "the input is 2.0 KiB, over the limit of 1.0 KiB";
    QTest::newRow("refuses a CSV with more rows than maxRows")
        << QByteArray("a\n1\n2\n3\n4\n") << int(Format::Csv) << qint64(1024) << qint64(3) << 10
        << qint64(1000) << "more than 3 rows";
    QTest::newRow("refuses a CSV with more columns than maxColumns")
        << QByteArray("a,b,c\n1,2,3\n") << int(Format::Csv) << qint64(1024) << qint64(3) << 2
        << qint64(1000) << "the header has 3 columns, over the limit of 2";
    QTest::newRow("refuses JSON with more rows than maxRows")
        << QByteArray("[1,2,3,4]") << int(Format::Json) << qint64(1024) << qint64(3) << 10
        << qint64(1000) << "the input has 4 rows, over the limit of 3";
    QTest::newRow("refuses JSON objects with more keys than maxColumns")
        << QByteArray(R"([{"a":1},{"b":2,"c":3}])") << int(Format::Json) << qint64(1024)
        << qint64(3) << 2 << qint64(1000) << "3 different keys, over the column limit of 2";
    QTest::newRow("refuses text with more lines than maxRows")
        << QByteArray("a\nb\nc\nd\n") << int(Format::Text) << qint64(1024) << qint64(3) << 10
        << qint64(1000) << "more than 3 rows";
    QTest::newRow("refuses a markdown table with more rows than maxRows")
        << QByteArray("|a|\n|-|\n|1|\n|2|\n|3|\n|4|\n") << int(Format::Markdown) << qint64(1024)
        << qint64(3) << 10 << qint64(1000) << "more than 3 rows";
    QTest::newRow("refuses a CSV with more cells than maxCells")
        << QByteArray("a,b,c\n1,2,3\n4,5,6\n") << int(Format::Csv) << qint64(1024) << qint64(10)
        << 10 << qint64(5) << "the input has 2 rows × 3 columns, over the limit of 5 cells";
    QTest::newRow("refuses JSON with more cells than maxCells")
        << QByteArray(R"([{"a":1,"b":2},{"a":3,"b":4},{"a":5}])") << int(Format::Json)
        << qint64(1024) << qint64(10) << 10 << qint64(5)
        << "the input has 3 rows × 2 columns, over the limit of 5 cells";
}

void tst_Reader::enforcesLimits()
{
    QFETCH(QByteArray, input);
    QFETCH(int, format);
    QFETCH(qint64, maxBytes);
    QFETCH(qint64, maxRows);
    QFETCH(int, maxColumns);
    QFETCH(qint64, maxCells);
    QFETCH(QString, message);
    Limits limits;
    limits.maxBytes = maxBytes;
    limits.maxRows = maxRows;
    limits.maxColumns = maxColumns;
    limits.maxCells = maxCells;
    const Reader reader(limits);
    QCOMPARE(reader.limits().maxRows, maxRows);
    const auto sheet = reader.parse(input, Format(format), QString());
    QVERIFY(!sheet.ok());
    QCOMPARE(sheet.error().kind, DataError::Kind::TooLarge);
    QCOMPARE(sheet.error().kindName(), QStringLiteral("too_large"));
    QVERIFY2(sheet.error().message.contains(message), qPrintable(sheet.error().message));
    // One row fewer than the limit passes.
    if (format != int(Format::Text) || maxBytes >= input.size()) {
        limits.maxRows = 1000;
        limits.maxColumns = 1000;
        limits.maxCells = 1000;
        QVERIFY(Reader(limits).parse(input, Format(format), QString()).ok());
    }
}

void tst_Reader::titlesTheSheet()
{
    const auto sheet = Reader().parse("a\n1\n", Format::Csv, QStringLiteral("Customers"));
    QVERIFY(sheet.ok());
    QCOMPARE(sheet->title, QStringLiteral("Customers"));
}

void tst_Reader::parseAllGivesOneSheetForTextFormats()
{
    const auto sheets = Reader().parseAll("a\n1\n", Format::Csv, QStringLiteral("One"));
    QVERIFY(sheets.ok());
    QCOMPARE(sheets->size(), 1);
    QCOMPARE(sheets->first().title, QStringLiteral("One"));
    QVERIFY(!Reader().parseAll("a,b\n1\n", Format::Csv, QString()).ok());
}

// How quickly: bench/timing (a test that times itself fails on a busy machine).
void tst_Reader::readsALargeCsv()
{
    QByteArray csv("id,name,price,url\n");
    for (int i = 0; i < 100000; ++i)
        csv += QByteArray::number(i) + ",item " + QByteArray::number(i) + "," +
               QByteArray::number(i * 0.25) + ",https://shop.example/p/" + QByteArray::number(i) +
               "\n";
    const auto sheet = Reader().parse(csv, Format::Csv, QString());
    QVERIFY(sheet.ok());
    QCOMPARE(sheet->rowCount(), 100000);
    QCOMPARE(columnsText(*sheet), QStringLiteral("id:integer,name:string,price:number,url:string"));
}

QTEST_GUILESS_MAIN(tst_Reader)
#include "tst_reader.moc"
