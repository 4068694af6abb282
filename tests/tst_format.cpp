// Format names and inference: extension, then content type, then the content.
#include "data/Format.h"

#include <QtTest>

using namespace ph::data;

Q_DECLARE_METATYPE(std::optional<ph::data::Format>)

class tst_Format : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesFormats_data();
    void namesFormats();
    void readsExtensions_data();
    void readsExtensions();
    void readsContentTypes_data();
    void readsContentTypes();
    void sniffsContent_data();
    void sniffsContent();
    void infersInOrder_data();
    void infersInOrder();
};

void tst_Format::namesFormats_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<std::optional<Format>>("format");
    QTest::newRow("knows text") << "text" << std::optional(Format::Text);
    QTest::newRow("knows markdown") << "markdown" << std::optional(Format::Markdown);
    QTest::newRow("knows csv") << "csv" << std::optional(Format::Csv);
    QTest::newRow("knows tsv") << "tsv" << std::optional(Format::Tsv);
    QTest::newRow("knows json") << "json" << std::optional(Format::Json);
    QTest::newRow("knows xlsx") << "xlsx" << std::optional(Format::Xlsx);
    QTest::newRow("knows parquet") << "parquet" << std::optional(Format::Parquet);
    QTest::newRow("ignores case and spaces") << " CSV " << std::optional(Format::Csv);
    QTest::newRow("accepts md") << "md" << std::optional(Format::Markdown);
    QTest::newRow("accepts txt") << "txt" << std::optional(Format::Text);
    QTest::newRow("refuses xls") << "xls" << std::optional<Format>();
    QTest::newRow("refuses an empty name") << "" << std::optional<Format>();
}

void tst_Format::namesFormats()
{
    QFETCH(QString, name);
    QFETCH(std::optional<Format>, format);
    QCOMPARE(formatFromName(name), format);
    if (format && name == name.trimmed().toLower() && name.size() > 3)
        QCOMPARE(formatName(*format), name);
}

void tst_Format::readsExtensions_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<std::optional<Format>>("format");
    QTest::newRow("reads .csv in any case") << "Export.CSV" << std::optional(Format::Csv);
    QTest::newRow("ignores a URL's query and fragment")
        << "https://data.example/export.tsv?download=1#top" << std::optional(Format::Tsv);
    QTest::newRow("reads .tab as tsv") << "/tmp/a.tab" << std::optional(Format::Tsv);
    QTest::newRow("reads .json") << "rows.json" << std::optional(Format::Json);
    QTest::newRow("reads .xlsx") << "https://x.example/files/book.xlsx"
                                 << std::optional(Format::Xlsx);
    QTest::newRow("reads .parquet") << "part-0001.parquet" << std::optional(Format::Parquet);
    QTest::newRow("reads .md") << "notes.md" << std::optional(Format::Markdown);
    QTest::newRow("reads .txt") << "urls.txt" << std::optional(Format::Text);
    QTest::newRow("says nothing without an extension") << "README" << std::optional<Format>();
    QTest::newRow("says nothing for a URL without a file")
        << "https://data.example/" << std::optional<Format>();
    QTest::newRow("does not take a host name for an extension")
        << "https://data.example.csv/download" << std::optional<Format>();
    QTest::newRow("says nothing for .pdf") << "report.pdf" << std::optional<Format>();
}

void tst_Format::readsExtensions()
{
    QFETCH(QString, name);
    QFETCH(std::optional<Format>, format);
    QCOMPARE(formatFromExtension(name), format);
}

void tst_Format::readsContentTypes_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<std::optional<Format>>("format");
    QTest::newRow("reads text/csv with a charset")
        << "text/csv; charset=utf-8" << std::optional(Format::Csv);
    QTest::newRow("reads text/tab-separated-values")
        << "text/tab-separated-values" << std::optional(Format::Tsv);
    QTest::newRow("reads application/json") << "Application/JSON" << std::optional(Format::Json);
    QTest::newRow("reads +json types") << "application/ld+json" << std::optional(Format::Json);
    QTest::newRow("reads the xlsx type")
        << "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        << std::optional(Format::Xlsx);
    QTest::newRow("reads the parquet type")
        << "application/vnd.apache.parquet" << std::optional(Format::Parquet);
    QTest::newRow("reads text/markdown") << "text/markdown" << std::optional(Format::Markdown);
    QTest::newRow("takes text/plain as saying nothing") << "text/plain" << std::optional<Format>();
    QTest::newRow("takes octet-stream as saying nothing")
        << "application/octet-stream" << std::optional<Format>();
}

void tst_Format::readsContentTypes()
{
    QFETCH(QString, type);
    QFETCH(std::optional<Format>, format);
    QCOMPARE(formatFromContentType(type), format);
}

void tst_Format::sniffsContent_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<Format>("format");
    QTest::newRow("takes PK zip magic for xlsx")
        << QByteArray("PK\x03\x04\x14\x00", 6) << Format::Xlsx;
    QTest::newRow("takes PAR1 for parquet") << QByteArray("PAR1\x15\x04") << Format::Parquet;
    QTest::newRow("takes a leading [ for json") << QByteArray("  \n[{\"a\":1}]") << Format::Json;
    QTest::newRow("takes a leading { after a BOM for json")
        << QByteArray("\xEF\xBB\xBF{\"rows\":[]}") << Format::Json;
    QTest::newRow("takes consistent tabs for tsv")
        << QByteArray("name\tprice\nRope, 10 m\t12.50\nFender\t24\n") << Format::Tsv;
    QTest::newRow("takes consistent commas for csv")
        << QByteArray("name,price\nRope,12.50\nFender,24\n") << Format::Csv;
    QTest::newRow("counts commas outside quotes only")
        << QByteArray("name,price\n\"Rope, 10 m\",12.50\n\"A, B, C\",1\n") << Format::Csv;
    QTest::newRow("takes a pipe table for markdown")
        << QByteArray("# Items\n\n| a | b |\n|---|---|\n| 1 | 2 |\n") << Format::Markdown;
    QTest::newRow("takes prose with commas for text")
        << QByteArray("Hello, world.\nThis line has none\nAnd this, one, two.\n") << Format::Text;
    QTest::newRow("takes one line for text") << QByteArray("a,b,c") << Format::Text;
    QTest::newRow("takes a list of URLs for text")
        << QByteArray("https://a.example/\nhttps://b.example/\n") << Format::Text;
    QTest::newRow("takes nothing for text") << QByteArray() << Format::Text;
    QByteArray utf16("\xFF\xFE");
    for (const char c : QByteArray("a,b\n1,2\n3,4\n"))
        utf16.append(c).append('\0');
    QTest::newRow("decodes UTF-16 before sniffing") << utf16 << Format::Csv;
}

void tst_Format::sniffsContent()
{
    QFETCH(QByteArray, bytes);
    QFETCH(Format, format);
    QCOMPARE(sniffFormat(bytes), format);
}

void tst_Format::infersInOrder_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("type");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<Format>("format");
    QTest::newRow("prefers the extension to the content type")
        << "rows.csv"
        << "application/json" << QByteArray("[1]") << Format::Csv;
    QTest::newRow("prefers the content type to the content")
        << "https://x.example/download"
        << "text/tab-separated-values" << QByteArray("[1]") << Format::Tsv;
    QTest::newRow("sniffs when the content type is generic")
        << "https://x.example/download"
        << "text/plain" << QByteArray("a,b\n1,2\n") << Format::Csv;
    QTest::newRow("sniffs when nothing else is known")
        << ""
        << "" << QByteArray("PAR1....") << Format::Parquet;
}

void tst_Format::infersInOrder()
{
    QFETCH(QString, name);
    QFETCH(QString, type);
    QFETCH(QByteArray, bytes);
    QFETCH(Format, format);
    QCOMPARE(inferFormat(name, type, bytes), format);
}

QTEST_GUILESS_MAIN(tst_Format)
#include "tst_format.moc"
