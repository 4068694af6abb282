// The Parquet reader against files from three other writers (hyparquet-writer,
// @dsnp/parquetjs, Arrow's Rust writer through parquet-wasm), see
// fixtures/data/generate.mjs, plus damaged files that must fail cleanly.
#include "SheetText.h"
#include "data/Reader.h"
#include "data/internal/ParquetReader.h"

#include "DataFixtures.h"

#include <QFile>
#include <QRandomGenerator>
#include <QtTest>

using namespace ph::data;
using ph::test::columnsText;
using ph::test::compactJson;
using ph::test::crasher;
using ph::test::fixture;
using ph::test::rowsText;

namespace {

const char *const kTableFiles[] = {
    "table_v1_uncompressed.parquet",
    "table_v1_gzip.parquet",
    "table_v1_snappy.parquet",
    "table_v1_zstd.parquet",
    "table_v2_zstd.parquet",
    "table_v2_snappy_dictionary.parquet",
    "table_v2_plain_uncompressed.parquet",
    "table_v2_gzip_delta.parquet",
    "table_v2_delta_length.parquet",
};

QString errorOf(const Result<Sheet> &r)
{
    return r.ok() ? QString() : r.error().message;
}

} // namespace

class tst_ParquetReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsTheSameTableFromEveryWriter_data();
    void readsTheSameTableFromEveryWriter();
    void readsLogicalTypes();
    void readsLegacyTypes();
    void refusesNestedColumns_data();
    void refusesNestedColumns();
    void rejectsDamagedFiles_data();
    void rejectsDamagedFiles();
    void survivesGarbledFiles_data();
    void survivesGarbledFiles();
    void enforcesLimits_data();
    void enforcesLimits();
    void readerParsesParquetWithItsTitle();
};

void tst_ParquetReader::readsTheSameTableFromEveryWriter_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("reads data page v1, PLAIN, uncompressed (parquetjs)")
        << fixture("table_v1_uncompressed.parquet");
    QTest::newRow("reads data page v1 with GZIP (parquetjs)") << fixture("table_v1_gzip.parquet");
    QTest::newRow("reads data page v1 with SNAPPY (parquetjs)")
        << fixture("table_v1_snappy.parquet");
    QTest::newRow("reads dictionary pages, ZSTD and two row groups (Arrow, v1 writer)")
        << fixture("table_v1_zstd.parquet");
    QTest::newRow("reads ZSTD data page v2 with two row groups (Arrow, v2 writer)")
        << fixture("table_v2_zstd.parquet");
    QTest::newRow("reads dictionary pages and SNAPPY data page v2 (hyparquet-writer)")
        << fixture("table_v2_snappy_dictionary.parquet");
    QTest::newRow("reads PLAIN uncompressed data page v2 in two row groups (hyparquet-writer)")
        << fixture("table_v2_plain_uncompressed.parquet");
    QTest::newRow("reads GZIP with DELTA, BYTE_STREAM_SPLIT and RLE encodings (hyparquet-writer)")
        << fixture("table_v2_gzip_delta.parquet");
    QTest::newRow("reads DELTA_LENGTH_BYTE_ARRAY strings (hyparquet-writer)")
        << fixture("table_v2_delta_length.parquet");
}

void tst_ParquetReader::readsTheSameTableFromEveryWriter()
{
    QFETCH(QByteArray, bytes);
    const auto sheet = internal::readParquet(bytes, QStringLiteral("t"), Limits());
    QVERIFY2(sheet.ok(), qPrintable(errorOf(sheet)));
    QCOMPARE(columnsText(*sheet), QStringLiteral("id:integer,name:string,qty:integer,price:number,"
                                                 "ratio:number,ok:boolean,day:date,at:datetime"));
    QCOMPARE(rowsText(*sheet), compactJson(R"([
        [1,"Ada",10,12.5,0.5,true,"2024-03-01","2024-03-01T09:30:00.123Z"],
        [2,"Grace",null,0.1,1.5,false,"1969-12-31","1969-12-31T23:59:59.999Z"],
        [3,null,-3,null,-2.25,null,null,null],
        [4,"Ada",9007199254740993,-3.25,0,true,"2000-02-29","2000-02-29T12:00:00Z"],
        [5,"Linus",0,10000000000,8,false,"1970-01-01","1970-01-01T00:00:00Z"],
        [6,"Zoë 🚢",7,2.75,0.125,true,"2038-01-19","2038-01-19T03:14:07Z"]])"));
    // The integer beyond 2^53 is exact, not rounded through a double.
    QCOMPARE(sheet->value(3, 2).toInteger(), 9007199254740993ll);
}

void tst_ParquetReader::readsLogicalTypes()
{
    const auto sheet =
        internal::readParquet(fixture("logical_types.parquet"), QStringLiteral("t"), Limits());
    QVERIFY2(sheet.ok(), qPrintable(errorOf(sheet)));
    QCOMPARE(columnsText(*sheet),
             QStringLiteral("uuid:string,half:number,doc:json,amount:number,small:number,"
                            "micros:datetime,nanos:datetime,local:datetime,unsigned:integer,"
                            "blob:string"));
    QCOMPARE(rowsText(*sheet), compactJson(R"([
        ["00112233-4455-6677-8899-aabbccddeeff",1.5,{"a":1,"b":[true,null]},1234.56,12.5,
         "2024-03-01T09:30:00.123Z","2024-03-01T09:30:00.123Z","2024-03-01T09:30:00",4294967295,"/wBB"],
        [null,-0.25,null,-0.07,-3,null,null,null,0,"text"]])"));
}

void tst_ParquetReader::readsLegacyTypes()
{
    const auto sheet =
        internal::readParquet(fixture("legacy_types.parquet"), QStringLiteral("t"), Limits());
    QVERIFY2(sheet.ok(), qPrintable(errorOf(sheet)));
    // cents: DECIMAL(12, 2) in INT64; parquetjs scales the given 123456 to 12345600.
    QCOMPARE(columnsText(*sheet),
             QStringLiteral("legacy:datetime,clock:string,tiny:integer,byte:integer,cents:number"));
    QCOMPARE(rowsText(*sheet), compactJson(R"([
        ["2024-03-01T09:30:00.123456789Z","09:30:00.123",-128,255,123456],
        ["1970-01-01T00:00:00.000000001Z","00:00:00",127,0,-1]])"));
}

void tst_ParquetReader::refusesNestedColumns_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    QTest::newRow("refuses a repeated column")
        << fixture("repeated.parquet")
        << "parquet column 'tags' uses nested repetition, which is not supported";
    QTest::newRow("refuses a nested group")
        << fixture("nested.parquet")
        << "parquet column 'address' is a group of nested fields, which is not supported";
}

void tst_ParquetReader::refusesNestedColumns()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const auto sheet = internal::readParquet(bytes, QString(), Limits());
    QVERIFY(!sheet.ok());
    QCOMPARE(sheet.error().kind, DataError::Kind::Unsupported);
    QCOMPARE(sheet.error().message, message);
}

void tst_ParquetReader::rejectsDamagedFiles_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("message");
    const int malformed = int(DataError::Kind::Malformed);
    const QByteArray good = fixture("table_v1_snappy.parquet");
    QTest::newRow("rejects bytes that are not parquet")
        << QByteArray("id,name\n1,x\n") << malformed << "not a parquet file";
    QTest::newRow("rejects an empty file") << QByteArray() << malformed << "not a parquet file";
    QTest::newRow("rejects a file cut short")
        << good.left(good.size() - 1) << malformed << "does not end with PAR1 (truncated?)";
    QTest::newRow("rejects a file cut in half")
        << good.left(good.size() / 2) << malformed << "not a readable parquet file";
    QByteArray badLength = good;
    badLength[badLength.size() - 5] = char(0x7F);
    QTest::newRow("rejects a footer length past the file")
        << badLength << malformed << "the footer length";
    QByteArray zeroedFooter = good;
    const qint64 footer = quint8(good[good.size() - 8]) | quint8(good[good.size() - 7]) << 8;
    for (qint64 i = good.size() - 8 - footer; i < good.size() - 8; ++i)
        zeroedFooter[i] = char(0xFF);
    QTest::newRow("rejects a garbled footer")
        << zeroedFooter << malformed << "not a readable parquet file: the footer is malformed";
    QByteArray encrypted = good;
    encrypted.replace(encrypted.size() - 4, 4, "PARE");
    QTest::newRow("rejects an encrypted footer")
        << encrypted << int(DataError::Kind::Encrypted) << "encrypted";
    // Both were signed overflows (UBSan): lengths of 2^63 - 1 added before comparing.
    QTest::newRow("rejects v2 level lengths whose sum overflows")
        << crasher("parquet", "v2-level-lengths-overflow.parquet") << malformed
        << "column 'a' has a v2 page with bad level lengths";
    QTest::newRow("refuses a page that claims 2^63 bytes after another")
        << crasher("parquet", "expanded-bytes-overflow.parquet") << int(DataError::Kind::TooLarge)
        << "parquet column 'a' decompresses past the limit";
}

void tst_ParquetReader::rejectsDamagedFiles()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, kind);
    QFETCH(QString, message);
    const auto sheet = internal::readParquet(bytes, QString(), Limits());
    QVERIFY(!sheet.ok());
    QCOMPARE(int(sheet.error().kind), kind);
    QVERIFY2(sheet.error().message.contains(message), qPrintable(sheet.error().message));
}

void tst_ParquetReader::survivesGarbledFiles_data()
{
    QTest::addColumn<QByteArray>("bytes");
    for (const char *name : kTableFiles)
        QTest::newRow(
            qPrintable(QStringLiteral("never crashes on garbled %1").arg(QLatin1String(name))))
            << fixture(name);
    QTest::newRow("never crashes on garbled logical types") << fixture("logical_types.parquet");
    QTest::newRow("never crashes on garbled legacy types") << fixture("legacy_types.parquet");
}

void tst_ParquetReader::survivesGarbledFiles()
{
    QFETCH(QByteArray, bytes);
    QRandomGenerator random(20240301);
    Limits limits;
    limits.maxExpandedBytes = 64 * 1024 * 1024;
    int failures = 0;
    for (int round = 0; round < 400; ++round) {
        QByteArray mutated = bytes;
        switch (round % 4) {
        case 0: // truncate anywhere, keeping the magic at the end so the footer is read
            mutated = bytes.left(random.bounded(int(bytes.size())));
            break;
        case 1: // flip a few bytes anywhere
            for (int k = 0; k < 1 + random.bounded(8); ++k)
                mutated[random.bounded(int(mutated.size()))] = char(random.bounded(256));
            break;
        case 2: { // flip bytes inside the footer only: garbled metadata
            const qint64 footer = quint8(bytes[bytes.size() - 8]) | quint8(bytes[bytes.size() - 7])
                                                                        << 8;
            const qint64 start = bytes.size() - 8 - footer;
            for (int k = 0; k < 1 + random.bounded(4); ++k)
                mutated[start + random.bounded(int(footer))] = char(random.bounded(256));
            break;
        }
        case 3: { // overwrite a run inside the pages
            const int from = 4 + random.bounded(int(bytes.size() / 2));
            const int length = 1 + random.bounded(32);
            for (int k = from; k < std::min<qsizetype>(from + length, mutated.size() - 8); ++k)
                mutated[k] = char(random.bounded(256));
            break;
        }
        }
        const auto sheet = internal::readParquet(mutated, QString(), limits);
        if (!sheet.ok()) {
            ++failures;
            QVERIFY(!sheet.error().message.isEmpty());
        }
    }
    QVERIFY(failures > 0);
}

void tst_ParquetReader::enforcesLimits_data()
{
    QTest::addColumn<qint64>("maxRows");
    QTest::addColumn<int>("maxColumns");
    QTest::addColumn<qint64>("maxExpandedBytes");
    QTest::addColumn<QString>("message");
    QTest::newRow("refuses more rows than maxRows")
        << qint64(5) << 100 << qint64(1 << 20) << "the input has 6 rows, over the limit of 5";
    QTest::newRow("refuses more columns than maxColumns")
        << qint64(100) << 7 << qint64(1 << 20) << "the input has 8 columns, over the limit of 7";
    QTest::newRow("refuses pages that expand past maxExpandedBytes")
        << qint64(100) << 100 << qint64(40) << "decompresses past the limit of 40 bytes";
    QTest::newRow("refuses more cells than maxCells, before decoding any page")
        << qint64(100) << 100 << qint64(1 << 20)
        << "the input has 6 rows × 8 columns, over the limit of 47 cells";
}

void tst_ParquetReader::enforcesLimits()
{
    QFETCH(qint64, maxRows);
    QFETCH(int, maxColumns);
    QFETCH(qint64, maxExpandedBytes);
    QFETCH(QString, message);
    Limits limits;
    limits.maxRows = maxRows;
    limits.maxColumns = maxColumns;
    limits.maxExpandedBytes = maxExpandedBytes;
    limits.maxCells = 47;
    if (!message.contains(QLatin1String("cells")))
        limits.maxCells = 1000;
    const auto sheet = internal::readParquet(fixture("table_v1_gzip.parquet"), QString(), limits);
    QVERIFY(!sheet.ok());
    QCOMPARE(sheet.error().kind, DataError::Kind::TooLarge);
    QVERIFY2(sheet.error().message.contains(message), qPrintable(sheet.error().message));
}

void tst_ParquetReader::readerParsesParquetWithItsTitle()
{
    const auto sheet =
        Reader().parse(fixture("table_v1_zstd.parquet"), Format::Parquet, QStringLiteral("Orders"));
    QVERIFY2(sheet.ok(), qPrintable(errorOf(sheet)));
    QCOMPARE(sheet->title, QStringLiteral("Orders"));
    QCOMPARE(sheet->rowCount(), 6);
    Limits small;
    small.maxBytes = 100;
    QCOMPARE(Reader(small)
                 .parse(fixture("table_v1_zstd.parquet"), Format::Parquet, QString())
                 .error()
                 .kind,
             DataError::Kind::TooLarge);
}

QTEST_GUILESS_MAIN(tst_ParquetReader)
#include "tst_parquetreader.moc"
