// The xlsx reader against workbooks from other writers (ExcelJS, a hand-made
// workbook: fixtures/data/generate.mjs), hand-built edge cases and damaged archives.
#include "SheetText.h"
#include "ZipBuilder.h"
#include "data/Reader.h"
#include "data/internal/XlsxReader.h"

#include "DataFixtures.h"

#include <QFile>
#include <QRandomGenerator>
#include <QtTest>

using namespace ph::data;
using ph::test::columnsText;
using ph::test::compactJson;
using ph::test::fixture;
using ph::test::makeZip;
using ph::test::minimalWorkbook;
using ph::test::rowsText;

namespace {

QString errorOf(const Result<QList<Sheet>> &r)
{
    return r.ok() ? QString() : r.error().message;
}

// A minimal workbook whose package relationships name `workbookTarget` as the office
// document and whose workbook relationships name `sheetTarget` as its sheet.
QList<QPair<QString, QByteArray>>
climbingWorkbook(const QString &workbookTarget,
                 const QString &sheetTarget = QStringLiteral("worksheets/sheet1.xml"))
{
    auto parts = minimalWorkbook("<worksheet><sheetData><row r=\"1\"><c r=\"A1\"><v>1</v>"
                                 "</c></row></sheetData></worksheet>");
    for (auto &[name, data] : parts) {
        if (name == QLatin1String("xl/_rels/workbook.xml.rels"))
            data.replace("worksheets/sheet1.xml", sheetTarget.toUtf8());
    }
    parts.append({QStringLiteral("_rels/.rels"),
                  "<Relationships><Relationship Id=\"rId1\" Type=\"http://schemas."
                  "openxmlformats.org/officeDocument/2006/relationships/officeDocument\" "
                  "Target=\"" +
                      workbookTarget.toUtf8() + "\"/></Relationships>"});
    return parts;
}

} // namespace

class tst_XlsxReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsAnExcelJsWorkbook();
    void readsEveryWorksheet();
    void readsAHandMadeWorkbook();
    void readsThe1904DateSystem();
    void readsSparseCellsAndEdgeValues_data();
    void readsSparseCellsAndEdgeValues();
    void recognisesDateFormats_data();
    void recognisesDateFormats();
    void rejectsWhatIsNotAWorkbook_data();
    void rejectsWhatIsNotAWorkbook();
    void enforcesLimits();
    void survivesGarbledWorkbooks();
};

void tst_XlsxReader::readsAnExcelJsWorkbook()
{
    const auto sheet = Reader().parse(fixture("exceljs.xlsx"), Format::Xlsx, QString());
    QVERIFY2(sheet.ok(), qPrintable(sheet.ok() ? QString() : sheet.error().message));
    QCOMPARE(sheet->title, QStringLiteral("People"));
    QCOMPARE(columnsText(*sheet),
             QStringLiteral("Name:string,Age:integer,Score:number,Active:boolean,Joined:date,"
                            "Seen:datetime,Total:string,Note:string,Site:string"));
    QCOMPARE(rowsText(*sheet), compactJson(R"([
        ["Ada",36,9.5,true,"2024-03-01","2024-03-01T09:30:00",72,"Hello World","https://example.org/ada"],
        ["Grace",45,7.25,false,"1999-12-31","2000-01-01T00:00:00","#DIV/0!","Grüße, 東京 🚢","https://example.org/grace"],
        ["Linus",null,8,true,"2000-02-29","2024-12-31T23:59:59","x",null,"https://example.org/linus"]])"));
    QCOMPARE(sheet->urlColumn(), sheet->column(QStringLiteral("site")));
    // The description given to parse() titles the sheet.
    QCOMPARE(Reader().parse(fixture("exceljs.xlsx"), Format::Xlsx, QStringLiteral("Leads"))->title,
             QStringLiteral("Leads"));
}

void tst_XlsxReader::readsEveryWorksheet()
{
    const auto sheets = Reader().parseAll(fixture("exceljs.xlsx"), Format::Xlsx, QString());
    QVERIFY2(sheets.ok(), qPrintable(errorOf(sheets)));
    QCOMPARE(sheets->size(), 2);
    QCOMPARE(sheets->at(0).title, QStringLiteral("People"));
    QCOMPARE(sheets->at(1).title, QStringLiteral("Second sheet"));
    QCOMPARE(columnsText(sheets->at(1)), QStringLiteral("Key:string,Value:integer"));
    QCOMPARE(rowsText(sheets->at(1)), compactJson(R"([["a",1],["b",2]])"));
}

void tst_XlsxReader::readsAHandMadeWorkbook()
{
    // Prefixed namespaces, a workbook outside xl/, inline strings, str/b/e/d cells,
    // cells without references, phonetic runs, _x000D_, built-in formats 14/20/22.
    const auto sheets = Reader().parseAll(fixture("handmade.xlsx"), Format::Xlsx, QString());
    QVERIFY2(sheets.ok(), qPrintable(errorOf(sheets)));
    QCOMPARE(sheets->size(), 2);
    const Sheet &sheet = sheets->first();
    QCOMPARE(sheet.title, QStringLiteral("Hand made"));
    QCOMPARE(
        columnsText(sheet),
        QStringLiteral("column_1:string,Label:string,Value:string,When:datetime,Flag:boolean"));
    QCOMPARE(rowsText(sheet), compactJson(R"([
        [null,"Tokyo 東京",1.5,"2024-03-01",true],
        [null,"line\rbreak",-2,"2024-03-01T12:00:00",false],
        ["from a formula","#N/A","18:00:00",null,null],
        [null,null,null,"2024-03-01T10:00:00",null]])"));
    QCOMPARE(sheets->at(1).title, QStringLiteral("Other"));
    QCOMPARE(rowsText(sheets->at(1)), compactJson("[[42]]"));
}

void tst_XlsxReader::readsThe1904DateSystem()
{
    const auto sheet = Reader().parse(fixture("date1904.xlsx"), Format::Xlsx, QString());
    QVERIFY2(sheet.ok(), qPrintable(sheet.ok() ? QString() : sheet.error().message));
    QCOMPARE(columnsText(*sheet), QStringLiteral("When:date"));
    QCOMPARE(rowsText(*sheet), compactJson(R"([["2024-03-01"]])"));
}

void tst_XlsxReader::readsSparseCellsAndEdgeValues_data()
{
    QTest::addColumn<QByteArray>("sheetXml");
    QTest::addColumn<QByteArray>("sharedStrings");
    QTest::addColumn<QString>("columns");
    QTest::addColumn<QString>("rows");
    QTest::newRow("places cells by their column letters and fills gaps with null")
        << QByteArray("<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>a</t>"
                      "</is></c><c r=\"C1\" t=\"inlineStr\"><is><t>c</t></is></c></row>"
                      "<row r=\"2\"><c r=\"C2\"><v>3</v></c></row><row r=\"3\"><c r=\"A3\"><v>1"
                      "</v></c></row></sheetData></worksheet>")
        << QByteArray() << "a:integer,column_2:empty,c:integer"
        << compactJson("[[null,null,3],[1,null,null]]");
    QTest::newRow("reads two-letter columns")
        << QByteArray("<worksheet><sheetData><row r=\"1\"><c r=\"AB1\" t=\"inlineStr\"><is><t>x"
                      "</t></is></c></row><row r=\"2\"><c r=\"AB2\"><v>7</v></c></row>"
                      "</sheetData></worksheet>")
        << QByteArray() << ""
        << "";
    QTest::newRow("takes the first non-empty row as the header and drops empty rows")
        << QByteArray("<worksheet><sheetData><row r=\"1\"/><row r=\"3\"><c r=\"A3\" t=\"s\"><v>0"
                      "</v></c></row><row r=\"4\"><c r=\"A4\" t=\"s\"/></row><row r=\"5\"><c "
                      "r=\"A5\" t=\"s\"><v>1</v></c></row></sheetData></worksheet>")
        << QByteArray("<sst><si><t>head</t></si><si><t>value</t></si></sst>") << "head:string"
        << compactJson(R"([["value"]])");
    QTest::newRow("reads numbers in the header as names")
        << QByteArray("<worksheet><sheetData><row r=\"1\"><c r=\"A1\"><v>2024</v></c><c r=\"B1\">"
                      "<v>2025</v></c></row><row r=\"2\"><c r=\"A2\"><v>1</v></c><c r=\"B2\"><v>"
                      "2.5</v></c></row></sheetData></worksheet>")
        << QByteArray() << "2024:integer,2025:number" << compactJson("[[1,2.5]]");
    QTest::newRow("keeps formula results and reads cells without a cached value as null")
        << QByteArray("<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>f"
                      "</t></is></c></row><row r=\"2\"><c r=\"A2\"><f>1+1</f><v>2</v></c></row>"
                      "<row r=\"3\"><c r=\"A3\"><f>NOW()</f></c></row></sheetData></worksheet>")
        << QByteArray() << "f:integer" << compactJson("[[2]]");
    QTest::newRow("reads an empty worksheet as an empty sheet")
        << QByteArray("<worksheet><sheetData/></worksheet>") << QByteArray() << ""
        << "[]";
    QTest::newRow("decodes entities and keeps spaces")
        << QByteArray("<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t "
                      "xml:space=\"preserve\"> a &amp; b </t></is></c></row><row r=\"2\"><c "
                      "r=\"A2\" t=\"b\"><v>0</v></c></row></sheetData></worksheet>")
        << QByteArray() << "a & b:boolean" << compactJson("[[false]]");
}

void tst_XlsxReader::readsSparseCellsAndEdgeValues()
{
    QFETCH(QByteArray, sheetXml);
    QFETCH(QByteArray, sharedStrings);
    QFETCH(QString, columns);
    QFETCH(QString, rows);
    const auto sheet =
        Reader().parse(makeZip(minimalWorkbook(sheetXml, sharedStrings)), Format::Xlsx, QString());
    QVERIFY2(sheet.ok(), qPrintable(sheet.ok() ? QString() : sheet.error().message));
    if (columns.isEmpty() && rows.isEmpty()) { // the two-letter row: check by position
        QCOMPARE(sheet->columnCount(), 28);
        QCOMPARE(sheet->columns[27].name, QStringLiteral("x"));
        QCOMPARE(sheet->value(0, 27).toInteger(), 7);
        return;
    }
    QCOMPARE(columnsText(*sheet), columns);
    QCOMPARE(rowsText(*sheet), rows);
}

void tst_XlsxReader::recognisesDateFormats_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<bool>("date");
    QTest::newRow("yyyy-mm-dd is a date") << "yyyy-mm-dd" << true;
    QTest::newRow("d/m/yy h:mm AM/PM is a date") << "d/m/yy h:mm AM/PM" << true;
    QTest::newRow("[h]:mm:ss is a time") << "[h]:mm:ss" << true;
    QTest::newRow("mmm is a month") << "mmm" << true;
    QTest::newRow("[$-409]dddd, mmmm d is a date") << "[$-409]dddd, mmmm d" << true;
    QTest::newRow("General is no date") << "General" << false;
    QTest::newRow("0.00 is no date") << "0.00" << false;
    QTest::newRow("a colour tag is no date") << "[Red]0.00;[Blue]-0.00" << false;
    QTest::newRow("quoted text is no date") << "0 \"days\"" << false;
    QTest::newRow("escaped letters are no date") << "0\\d" << false;
    QTest::newRow("scientific notation is no date") << "0.00E+00" << false;
    QTest::newRow("#,##0 is no date") << "#,##0" << false;
}

void tst_XlsxReader::recognisesDateFormats()
{
    QFETCH(QString, code);
    QFETCH(bool, date);
    QCOMPARE(internal::isDateFormatCode(code), date);
}

void tst_XlsxReader::rejectsWhatIsNotAWorkbook_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("message");
    const int malformed = int(DataError::Kind::Malformed);
    const QByteArray good = fixture("exceljs.xlsx");
    QTest::newRow("rejects text") << QByteArray("a,b\n1,2\n") << malformed
                                  << "not an xlsx workbook: not a zip archive";
    QTest::newRow("rejects a truncated archive")
        << good.left(good.size() / 3) << malformed << "not an xlsx workbook: the zip archive";
    QTest::newRow("rejects a zip without a workbook")
        << makeZip({{QStringLiteral("hello.txt"), QByteArray("hi")}}) << malformed
        << "not an xlsx workbook: it has no workbook part (xl/workbook.xml)";
    QByteArray ole("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8);
    ole.append(QByteArray(512, '\0'));
    QTest::newRow("rejects a legacy xls file")
        << ole << int(DataError::Kind::Unsupported) << "legacy .xls";
    QByteArray encrypted = ole;
    encrypted.append(QByteArray("E\0n\0c\0r\0y\0p\0t\0e\0d\0P\0a\0c\0k\0a\0g\0e\0", 32));
    QTest::newRow("rejects a password-protected workbook")
        << encrypted << int(DataError::Kind::Encrypted) << "password-protected";
    QTest::newRow("rejects a shared string index past the table")
        << makeZip(minimalWorkbook("<worksheet><sheetData><row r=\"2\"><c r=\"B2\" t=\"s\"><v>9"
                                   "</v></c></row></sheetData></worksheet>",
                                   "<sst><si><t>only</t></si></sst>"))
        << malformed << "cell B2 refers to shared string 9 of 1";
    QTest::newRow("rejects a worksheet that is not well-formed XML")
        << makeZip(minimalWorkbook("<worksheet><sheetData><row></sheetData></worksheet>"))
        << malformed << "xl/worksheets/sheet1.xml is not well-formed XML";
    auto parts = minimalWorkbook("<worksheet/>");
    parts.removeLast();
    QTest::newRow("rejects a workbook whose sheet part is missing")
        << makeZip(parts) << malformed << "sheet 'S' has no part in the archive";
    // Once a segfault: resolving ".." above the root took the last of no path parts.
    QTest::newRow("rejects relationships that climb above the archive root")
        << makeZip(climbingWorkbook("../../x/workbook.xml")) << malformed
        << "_rels/.rels points outside the archive (../../x/workbook.xml)";
    // Once undefined behaviour: the row after row 2^63 - 1 overflowed its number.
    QTest::newRow("rejects a row numbered past the largest row")
        << makeZip(minimalWorkbook("<worksheet><sheetData><row r=\"9223372036854775807\"><c>"
                                   "<v>1</v></c></row><row><c><v>2</v></c></row></sheetData>"
                                   "</worksheet>"))
        << malformed << "sheet 'S' has a row numbered past 2147483647";
    QTest::newRow("rejects a sheet relationship that climbs above the archive root")
        << makeZip(climbingWorkbook("xl/workbook.xml", "../../../sheet1.xml")) << malformed
        << "xl/_rels/workbook.xml.rels points outside the archive (../../../sheet1.xml)";
}

void tst_XlsxReader::rejectsWhatIsNotAWorkbook()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, kind);
    QFETCH(QString, message);
    const auto sheet = Reader().parse(bytes, Format::Xlsx, QString());
    QVERIFY(!sheet.ok());
    QCOMPARE(int(sheet.error().kind), kind);
    QVERIFY2(sheet.error().message.contains(message), qPrintable(sheet.error().message));
}

void tst_XlsxReader::enforcesLimits()
{
    Limits limits;
    limits.maxExpandedBytes = 10000;
    // 100 KB of zeros compress to almost nothing: a small zip bomb.
    const QByteArray bomb = makeZip(minimalWorkbook(
        "<worksheet><sheetData>" + QByteArray(100000, ' ') + "</sheetData></worksheet>"));
    QVERIFY(bomb.size() < 10000);
    auto sheet = Reader(limits).parse(bomb, Format::Xlsx, QString());
    QVERIFY(!sheet.ok());
    QCOMPARE(sheet.error().kind, DataError::Kind::TooLarge);
    QVERIFY2(sheet.error().message.contains(QLatin1String("past the limit of 10000 bytes")),
             qPrintable(sheet.error().message));

    limits = Limits();
    limits.maxRows = 2;
    sheet = Reader(limits).parse(fixture("exceljs.xlsx"), Format::Xlsx, QString());
    QVERIFY(!sheet.ok());
    QCOMPARE(sheet.error().message,
             QStringLiteral("sheet 'People' has more than 2 rows, the limit"));

    limits = Limits();
    limits.maxCells = 20;
    sheet = Reader(limits).parse(fixture("exceljs.xlsx"), Format::Xlsx, QString());
    QVERIFY(!sheet.ok());
    QCOMPARE(sheet.error().message,
             QStringLiteral("sheet 'People' has more than 20 cells, the limit"));
    // One cell far to the right counts the nulls before it.
    limits = Limits();
    limits.maxCells = 500; // ZZ is column 702
    sheet = Reader(limits).parse(
        makeZip(minimalWorkbook("<worksheet><sheetData><row r=\"1\"><c r=\"ZZ1\"><v>1</v></c>"
                                "</row></sheetData></worksheet>")),
        Format::Xlsx, QString());
    QVERIFY(!sheet.ok());
    QCOMPARE(sheet.error().kind, DataError::Kind::TooLarge);

    limits = Limits();
    limits.maxColumns = 5;
    sheet = Reader(limits).parse(fixture("exceljs.xlsx"), Format::Xlsx, QString());
    QVERIFY(!sheet.ok());
    QVERIFY2(sheet.error().message.contains(QLatin1String("over the limit of 5 columns")),
             qPrintable(sheet.error().message));
}

void tst_XlsxReader::survivesGarbledWorkbooks()
{
    // Damaged archives must give an error (or, rarely, a sheet), never a crash.
    QRandomGenerator random(1904);
    for (const char *name : {"exceljs.xlsx", "handmade.xlsx"}) {
        const QByteArray good = fixture(name);
        for (int round = 0; round < 150; ++round) {
            QByteArray bytes = good;
            if (round % 2)
                bytes = good.left(random.bounded(int(good.size())));
            else
                for (int k = 0; k < 1 + random.bounded(6); ++k)
                    bytes[random.bounded(int(bytes.size()))] = char(random.bounded(256));
            const auto sheets = Reader().parseAll(bytes, Format::Xlsx, QString());
            if (!sheets.ok())
                QVERIFY(!sheets.error().message.isEmpty());
        }
    }
}

QTEST_GUILESS_MAIN(tst_XlsxReader)
#include "tst_xlsxreader.moc"
