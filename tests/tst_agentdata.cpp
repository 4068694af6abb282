// POST /agent with data: dataInputs in every format from inline, url and storageRef,
// file_urls (CSV, PDF, text), sheets_workflow over a CSV of URLs, the sheet tools
// through the LLM planner, generate_sheets, and the typed errors of bad inputs. The real
// service and QtWebEngine pages; fixture files and the model stub are served by the test.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "ModelStub.h"
#include "TestMain.h"
#include "TestService.h"
#include "ZipBuilder.h"

#include "core/Settings.h"
#include "data/Reader.h"

#include "DataFixtures.h"

#include <QFile>
#include <QJsonArray>

using namespace ph;
using namespace ph::test;

namespace {

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

QJsonObject result(const QJsonObject &response)
{
    return response.value(QStringLiteral("result")).toObject();
}

QJsonArray warnings(const QJsonObject &response)
{
    return response.value(QStringLiteral("warnings")).toArray();
}

QByteArray productPage(const QString &name, const QString &price)
{
    return QStringLiteral(
               "<!doctype html><html><head><meta charset=\"utf-8\"><title>%1</title>"
               "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\","
               "\"@type\":\"Product\",\"name\":\"%1\",\"offers\":{\"@type\":\"Offer\","
               "\"price\":\"%2\",\"priceCurrency\":\"EUR\"}}</script></head>"
               "<body><h1>%1</h1><p>Price: %2 EUR</p></body></html>")
        .arg(name, price)
        .toUtf8();
}

// The same small table in each text format: name Rope/Fender, price 12.5/24.
const QByteArray kCsv = "name,price\nRope,12.5\nFender,24\n";
const QByteArray kTsv = "name\tprice\nRope\t12.5\nFender\t24\n";
const QByteArray kJson = R"([{"name":"Rope","price":12.5},{"name":"Fender","price":24}])";
const QByteArray kMarkdown = "| name | price |\n|---|---|\n| Rope | 12.5 |\n| Fender | 24 |\n";
const QByteArray kText = "Rope\n\nFender\n";

// Rows are answered as JSON when the schema asks for an array of objects.
const char *kRowsSchema = R"({"type":"array","items":{"type":"object"}})";

} // namespace

class tst_AgentData : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void readsEveryFormat_data();
    void readsEveryFormat();
    void readsAStorageUpload();
    void shapesASheetIntoTheSchema_data();
    void shapesASheetIntoTheSchema();
    void readsFileUrls();
    void visitsOneUrlPerRow();
    void reportsRowsThatFail();
    void refusesBadInputs_data();
    void refusesBadInputs();
    void keepsUploadsToTheirKey();
    void usesTheSheetToolsThroughTheLlmPlanner();
    void refusesMoreInputsThanTheCaps_data();
    void refusesMoreInputsThanTheCaps();
    void holdsEveryInputOfARequestToOneBudget_data();
    void holdsEveryInputOfARequestToOneBudget();
    void refusesUploadHeadersThatWouldSplitTheDownload_data();
    void refusesUploadHeadersThatWouldSplitTheDownload();

private:
    QJsonObject agent(const QJsonObject &body, int expectedStatus = 200,
                      TestService *service = nullptr);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<TestService> m_capped; // agent.max… caps of 2
    ModelScript m_model;
};

void tst_AgentData::initTestCase()
{
    QVERIFY(m_site.start());
    const QList<QPair<QString, QString>> products{
        {QStringLiteral("Compass"), QStringLiteral("49.90")},
        {QStringLiteral("Lantern"), QStringLiteral("19.50")},
        {QStringLiteral("Whistle"), QStringLiteral("4.25")}};
    for (int i = 0; i < products.size(); ++i)
        m_site.page(QStringLiteral("/p/%1").arg(i + 1).toUtf8(),
                    productPage(products[i].first, products[i].second));
    // Files served as application/octet-stream: the format comes from the extension.
    const QList<QPair<QByteArray, QByteArray>> files{
        {"/data/table.csv", kCsv},
        {"/data/table.tsv", kTsv},
        {"/data/table.json", kJson},
        {"/data/table.md", kMarkdown},
        {"/data/table.txt", kText},
        {"/data/book.xlsx", fixture("handmade.xlsx")},
        {"/data/table.parquet", fixture("table_v1_snappy.parquet")},
        {"/files/two_pages.pdf", fixture("two_pages.pdf")},
        {"/files/notes", "Deliveries arrive on Tuesdays.\nThe dock closes at 18:00.\n"},
        {"/data/broken.xlsx", "PK\x03\x04 this is not a workbook"},
    };
    for (const auto &[path, body] : files) {
        const QByteArray bytes = body;
        m_site.route(path, [bytes](const FixtureRequest &) {
            FixtureResponse r;
            r.headers = {{"Content-Type", "application/octet-stream"}};
            r.body = bytes;
            return r;
        });
    }
    m_site.route("/data/gone.csv", [](const FixtureRequest &) {
        FixtureResponse r;
        r.status = 404;
        r.body = "not here";
        return r;
    });
    m_model.serveOn(m_site);
    m_ph = std::make_unique<TestService>(QStringList{QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_AgentData::cleanupTestCase()
{
    m_capped.reset();
    m_ph.reset();
}

QJsonObject tst_AgentData::agent(const QJsonObject &body, int expectedStatus, TestService *service)
{
    HttpClient c = (service ? service : m_ph.get())->client();
    const auto r = c.post(QStringLiteral("/agent"), body);
    return r.expectStatus({expectedStatus}, __FILE__, __LINE__) ? r.json() : QJsonObject();
}

void tst_AgentData::readsEveryFormat_data()
{
    QTest::addColumn<QJsonObject>("input");
    QTest::addColumn<int>("rows");
    QTest::addColumn<QString>("column");
    QTest::addColumn<QJsonValue>("first");
    QTest::addColumn<QString>("title");

    const auto inlineInput = [](const char *format, const QByteArray &content) {
        return QJsonObject{{QStringLiteral("description"), QStringLiteral("Stock")},
                           {QStringLiteral("format"), QLatin1String(format)},
                           {QStringLiteral("inline"), QString::fromUtf8(content)}};
    };
    const auto urlInput = [this](const char *path) {
        return QJsonObject{{QStringLiteral("url"), m_site.url(QLatin1String(path))}};
    };
    const QString name = QStringLiteral("name");
    const QJsonValue rope(QStringLiteral("Rope"));
    QTest::newRow("reads inline csv") << inlineInput("csv", kCsv) << 2 << name << rope << "Stock";
    QTest::newRow("reads inline tsv") << inlineInput("tsv", kTsv) << 2 << name << rope << "Stock";
    QTest::newRow("reads inline json")
        << inlineInput("json", kJson) << 2 << name << rope << "Stock";
    QTest::newRow("reads inline markdown")
        << inlineInput("markdown", kMarkdown) << 2 << name << rope << "Stock";
    QTest::newRow("reads inline text, one row per line")
        << inlineInput("text", kText) << 2 << "text" << rope << "Stock";
    QTest::newRow("infers csv from inline content")
        << QJsonObject{{QStringLiteral("inline"), QString::fromUtf8(kCsv)}} << 2 << name << rope
        << "Input 1";
    QTest::newRow("reads inline xlsx as base64")
        << inlineInput("xlsx", fixture("handmade.xlsx").toBase64()) << 4 << "Label"
        << QJsonValue(QStringLiteral("Tokyo 東京")) << "Stock — Hand made";
    QTest::newRow("reads inline parquet as base64")
        << inlineInput("parquet", fixture("table_v1_snappy.parquet").toBase64()) << 6 << name
        << QJsonValue(QStringLiteral("Ada")) << "Stock";
    QTest::newRow("reads csv from a url")
        << urlInput("/data/table.csv") << 2 << name << rope << "table";
    QTest::newRow("reads tsv from a url")
        << urlInput("/data/table.tsv") << 2 << name << rope << "table";
    QTest::newRow("reads json from a url")
        << urlInput("/data/table.json") << 2 << name << rope << "table";
    QTest::newRow("reads markdown from a url")
        << urlInput("/data/table.md") << 2 << name << rope << "table";
    QTest::newRow("reads text from a url")
        << urlInput("/data/table.txt") << 2 << "text" << rope << "table";
    QTest::newRow("reads xlsx from a url")
        << urlInput("/data/book.xlsx") << 4 << "Label" << QJsonValue(QStringLiteral("Tokyo 東京"))
        << "book — Hand made";
    QTest::newRow("reads parquet from a url")
        << urlInput("/data/table.parquet") << 6 << "id" << QJsonValue(1) << "table";
}

void tst_AgentData::readsEveryFormat()
{
    QFETCH(QJsonObject, input);
    QFETCH(int, rows);
    QFETCH(QString, column);
    QFETCH(QJsonValue, first);
    QFETCH(QString, title);
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("What is in this data?")},
               {QStringLiteral("dataInputs"), QJsonArray{input}},
               {QStringLiteral("schema"), QJsonDocument::fromJson(kRowsSchema).object()}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonArray json = result(r).value(QStringLiteral("json")).toArray();
    QCOMPARE(json.size(), rows);
    QCOMPARE(json[0].toObject().value(column), first);
    // The text answer is the sheet as markdown under its title.
    const QString text = result(r).value(QStringLiteral("text")).toString();
    QVERIFY2(text.startsWith(QStringLiteral("## %1\n").arg(title)), qPrintable(text.left(200)));
    QVERIFY(r.value(QStringLiteral("metadata"))
                .toObject()
                .value(QStringLiteral("toolsUsed"))
                .toArray()
                .contains(QStringLiteral("sheets_access")));
}

void tst_AgentData::shapesASheetIntoTheSchema_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("one array of names is the column that names them, not the rows")
        << QByteArray(R"({"type":"object","properties":{"names":{"type":"array",
            "items":{"type":"string"}}},"required":["names"]})")
        << QByteArray(R"({"names":["Ada","Grace"]})");
    QTest::newRow("a top-level array of strings is the column its title names")
        << QByteArray(R"({"type":"array","title":"city","items":{"type":"string"}})")
        << QByteArray(R"(["Lisbon","Porto"])");
    QTest::newRow("rows keep the schema's properties, matched to the headers, numbers read")
        << QByteArray(R"({"type":"object","properties":{"customers":{"type":"array","items":{
            "type":"object","properties":{"name":{"type":"string"},"revenue":{"type":"integer"}},
            "required":["name","revenue"]}}}})")
        << QByteArray(
               R"({"customers":[{"name":"Ada","revenue":1200},{"name":"Grace","revenue":800}]})");
    QTest::newRow("an array of objects by synonym: town for city")
        << QByteArray(R"({"type":"array","items":{"type":"object","properties":{
            "town":{"type":"string"}}}})")
        << QByteArray(R"([{"town":"Lisbon"},{"town":"Porto"}])");
}

void tst_AgentData::shapesASheetIntoTheSchema()
{
    QFETCH(QByteArray, schema);
    QFETCH(QByteArray, expected);
    const QByteArray csv = "Customer Name,City,Revenue\nAda,Lisbon,\"1,200\"\nGrace,Porto,800\n";
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("Read the customers")},
               {QStringLiteral("dataInputs"),
                QJsonArray{QJsonObject{{QStringLiteral("format"), QStringLiteral("csv")},
                                       {QStringLiteral("name"), QStringLiteral("customers")},
                                       {QStringLiteral("inline"), QString::fromUtf8(csv)}}}},
               {QStringLiteral("schema"), QJsonDocument::fromJson(schema).object()}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonValue json = result(r).value(QStringLiteral("json"));
    const QJsonDocument want = QJsonDocument::fromJson(expected);
    const QJsonValue wanted = want.isArray() ? QJsonValue(want.array()) : QJsonValue(want.object());
    QVERIFY2(json == wanted,
             qPrintable(QString::fromUtf8(
                 (json.isArray() ? QJsonDocument(json.toArray()) : QJsonDocument(json.toObject()))
                     .toJson(QJsonDocument::Compact))));
}

void tst_AgentData::readsAStorageUpload()
{
    HttpClient c = m_ph->client();
    const auto up = c.send("POST", QStringLiteral("/storage?name=stock.tsv"), kTsv,
                           {{"Content-Type", "text/tab-separated-values"}});
    QCOMPARE(up.status, 201);
    const QJsonObject ref = up.json().value(QStringLiteral("storageRef")).toObject();
    QVERIFY(ref.value(QStringLiteral("id")).toString().size() > 8);
    QCOMPARE(ref.value(QStringLiteral("sizeBytes")).toInt(), kTsv.size());
    // By id, and by the signed downloadUrl alone.
    const QList<QJsonObject> refs{
        {{QStringLiteral("id"), ref.value(QStringLiteral("id"))}},
        {{QStringLiteral("downloadUrl"), ref.value(QStringLiteral("downloadUrl"))}}};
    for (const QJsonObject &storageRef : refs) {
        const QJsonObject r =
            agent({{QStringLiteral("input"), QStringLiteral("Read it")},
                   {QStringLiteral("dataInputs"),
                    QJsonArray{QJsonObject{{QStringLiteral("storageRef"), storageRef}}}},
                   {QStringLiteral("schema"), QJsonDocument::fromJson(kRowsSchema).object()}});
        QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
        const QJsonArray json = result(r).value(QStringLiteral("json")).toArray();
        QCOMPARE(json.size(), 2);
        QCOMPARE(json[1].toObject().value(QStringLiteral("price")).toDouble(), 24.0);
        QVERIFY(result(r).value(QStringLiteral("text")).toString().startsWith(u"## stock\n"));
    }
}

void tst_AgentData::readsFileUrls()
{
    const QJsonObject r = agent({{QStringLiteral("input"), QStringLiteral("Read these files")},
                                 {QStringLiteral("file_urls"),
                                  QJsonArray{m_site.url(QStringLiteral("/files/two_pages.pdf")),
                                             m_site.url(QStringLiteral("/files/notes")),
                                             m_site.url(QStringLiteral("/data/table.csv"))}}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QString text = result(r).value(QStringLiteral("text")).toString();
    // The PDF's text through poppler, the text file as it is, the CSV as a sheet.
    QVERIFY2(text.contains(QLatin1String("## two_pages.pdf")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("Rope, 10 m: 12.50")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("The dock closes at 18:00.")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("## table\n")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("| Fender | 24 |")), qPrintable(text));
}

void tst_AgentData::visitsOneUrlPerRow()
{
    QString csv = QStringLiteral("sku,link\n");
    for (int i = 1; i <= 3; ++i)
        csv += QStringLiteral("SKU-%1,%2\n").arg(i).arg(m_site.url(QStringLiteral("/p/%1").arg(i)));
    const int before = m_site.hits("/p/1") + m_site.hits("/p/2") + m_site.hits("/p/3");
    const QJsonObject r =
        agent({{QStringLiteral("input"),
                QStringLiteral("For each row, open the link and get the product's name and price")},
               {QStringLiteral("dataInputs"),
                QJsonArray{QJsonObject{{QStringLiteral("description"), QStringLiteral("Catalogue")},
                                       {QStringLiteral("format"), QStringLiteral("csv")},
                                       {QStringLiteral("inline"), csv}}}},
               {QStringLiteral("schema"), parse(R"({"type":"array","items":{"type":"object",
            "properties":{"sku":{"type":"string"},"name":{"type":"string"},
            "price":{"type":"number"}},"required":["sku","name","price"]}})")},
               {QStringLiteral("response"),
                QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}}}});
    QVERIFY2(r.value(QStringLiteral("status")).toString() == QLatin1String("success"),
             QJsonDocument(r).toJson().constData());
    QCOMPARE(m_site.hits("/p/1") + m_site.hits("/p/2") + m_site.hits("/p/3") - before, 3);
    const QJsonArray rows = result(r).value(QStringLiteral("json")).toArray();
    QCOMPARE(rows.size(), 3);
    const QStringList names{QStringLiteral("Compass"), QStringLiteral("Lantern"),
                            QStringLiteral("Whistle")};
    const QList<double> prices{49.90, 19.50, 4.25};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject row = rows[i].toObject();
        QCOMPARE(row.value(QStringLiteral("sku")).toString(), QStringLiteral("SKU-%1").arg(i + 1));
        QCOMPARE(row.value(QStringLiteral("name")).toString(), names[i]);
        QCOMPARE(row.value(QStringLiteral("price")).toDouble(), prices[i]);
    }
    QVERIFY2(warnings(r).isEmpty(), qPrintable(QJsonDocument(warnings(r)).toJson()));
    const QJsonArray tools =
        r.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("toolsUsed")).toArray();
    QVERIFY(tools.contains(QStringLiteral("sheets_workflow")));
}

void tst_AgentData::reportsRowsThatFail()
{
    // The second row points at a port nothing listens on: its row carries the error,
    // the others their data, and a warning names the row.
    const QString csv =
        QStringLiteral("url\n%1\nhttp://127.0.0.1:1/nothing\n%2\n")
            .arg(m_site.url(QStringLiteral("/p/1")), m_site.url(QStringLiteral("/p/3")));
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("Visit every url and read the product")},
               {QStringLiteral("dataInputs"),
                QJsonArray{QJsonObject{{QStringLiteral("format"), QStringLiteral("csv")},
                                       {QStringLiteral("inline"), csv}}}},
               {QStringLiteral("schema"), parse(R"({"type":"object","properties":{"products":{
            "type":"array","items":{"type":"object","properties":{"name":{"type":"string"},
            "price":{"type":"number"}}}}}})")}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonArray rows = result(r)
                                .value(QStringLiteral("json"))
                                .toObject()
                                .value(QStringLiteral("products"))
                                .toArray();
    QCOMPARE(rows.size(), 3);
    QCOMPARE(rows[0].toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("Compass"));
    QVERIFY(!rows[1].toObject().value(QStringLiteral("_error")).toString().isEmpty());
    QCOMPARE(rows[2].toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("Whistle"));
    const QString w = QJsonDocument(warnings(r)).toJson();
    QVERIFY2(w.contains(QLatin1String("1 of 3 rows failed")), qPrintable(w));
}

void tst_AgentData::refusesBadInputs_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("says");

    const QJsonObject good{{QStringLiteral("format"), QStringLiteral("csv")},
                           {QStringLiteral("inline"), QString::fromUtf8(kCsv)}};
    const auto second = [&](const QJsonObject &bad) {
        return QJsonObject{{QStringLiteral("input"), QStringLiteral("Read")},
                           {QStringLiteral("dataInputs"), QJsonArray{good, bad}}};
    };
    QTest::newRow("names the ragged csv row")
        << second({{QStringLiteral("format"), QStringLiteral("csv")},
                   {QStringLiteral("inline"), QStringLiteral("a,b\n1,2\n3\n")}})
        << "INVALID_DATA_INPUT"
        << "dataInputs[1]"
        << "row 3";
    QTest::newRow("names invalid json")
        << second({{QStringLiteral("format"), QStringLiteral("json")},
                   {QStringLiteral("inline"), QStringLiteral("[{\"a\":1},")}})
        << "INVALID_DATA_INPUT"
        << "dataInputs[1]"
        << "dataInputs[1]: ";
    QTest::newRow("names an unreadable xlsx")
        << second({{QStringLiteral("url"), m_site.url(QStringLiteral("/data/broken.xlsx"))}})
        << "INVALID_DATA_INPUT"
        << "dataInputs[1]"
        << "dataInputs[1]: ";
    QTest::newRow("names inline xlsx that is not base64")
        << second({{QStringLiteral("format"), QStringLiteral("xlsx")},
                   {QStringLiteral("inline"), QStringLiteral("a,b\n1,2")}})
        << "INVALID_DATA_INPUT"
        << "dataInputs[1].inline"
        << "base64";
    // Once a segfault of the whole service: the package relationships name a workbook
    // above the archive's root. The GET of the refused run below is the next request.
    auto climbing = minimalWorkbook("<worksheet/>");
    climbing.append({QStringLiteral("_rels/.rels"),
                     "<Relationships><Relationship Id=\"rId1\" Type=\"http://schemas."
                     "openxmlformats.org/officeDocument/2006/relationships/officeDocument\" "
                     "Target=\"../../x/workbook.xml\"/></Relationships>"});
    QTest::newRow("names an inline xlsx whose relationships climb above the archive")
        << QJsonObject{{QStringLiteral("input"), QStringLiteral("Read")},
                       {QStringLiteral("dataInputs"),
                        QJsonArray{
                            QJsonObject{{QStringLiteral("format"), QStringLiteral("xlsx")},
                                        {QStringLiteral("inline"),
                                         QString::fromLatin1(makeZip(climbing).toBase64())}}}}}
        << "INVALID_DATA_INPUT"
        << "dataInputs[0]"
        << "points outside the archive";
    QTest::newRow("names a url that answers 404")
        << second({{QStringLiteral("url"), m_site.url(QStringLiteral("/data/gone.csv"))}})
        << "INPUT_FETCH_FAILED"
        << "dataInputs[1]"
        << "404";
    QTest::newRow("names a file url that answers 404")
        << QJsonObject{{QStringLiteral("input"), QStringLiteral("Read")},
                       {QStringLiteral("file_urls"),
                        QJsonArray{m_site.url(QStringLiteral("/files/notes")),
                                   m_site.url(QStringLiteral("/data/gone.csv"))}}}
        << "INPUT_FETCH_FAILED"
        << "file_urls[1]"
        << "404";
    QTest::newRow("names an image that is not one")
        << QJsonObject{{QStringLiteral("input"), QStringLiteral("Look")},
                       {QStringLiteral("image_urls"),
                        QJsonArray{m_site.url(QStringLiteral("/data/table.csv"))}}}
        << "INVALID_IMAGE_INPUT"
        << "image_urls[0]"
        << "image";
}

void tst_AgentData::refusesBadInputs()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, code);
    QFETCH(QString, field);
    QFETCH(QString, says);
    HttpClient c = m_ph->client();
    const auto r = c.post(QStringLiteral("/agent"), body);
    QCOMPARE(r.status, 400);
    const QJsonObject e = r.json();
    QCOMPARE(e.value(QStringLiteral("code")).toString(), code);
    QCOMPARE(e.value(QStringLiteral("field")).toString(), field);
    const QString message = e.value(QStringLiteral("error")).toString();
    QVERIFY2(message.contains(says), qPrintable(message));
    // The trajectory that was refused is named, and it ended in error.
    const QString trajectory = e.value(QStringLiteral("details"))
                                   .toObject()
                                   .value(QStringLiteral("trajectoryId"))
                                   .toString();
    QVERIFY(!trajectory.isEmpty());
    const auto latest = c.get(QStringLiteral("/agent/%1").arg(trajectory));
    QCOMPARE(latest.status, 200);
    QCOMPARE(latest.json().value(QStringLiteral("status")).toString(), QStringLiteral("error"));
}

void tst_AgentData::keepsUploadsToTheirKey()
{
    HttpClient other(m_ph->base());
    other.setBearer(m_ph->mintKey(100));
    const auto up = other.send("POST", QStringLiteral("/storage?name=secret.csv"), kCsv,
                               {{"Content-Type", "text/csv"}});
    QCOMPARE(up.status, 201);
    const QString id = up.json()
                           .value(QStringLiteral("storageRef"))
                           .toObject()
                           .value(QStringLiteral("id"))
                           .toString();
    HttpClient owner = m_ph->client();
    const auto r =
        owner.post(QStringLiteral("/agent"),
                   {{QStringLiteral("input"), QStringLiteral("Read")},
                    {QStringLiteral("dataInputs"),
                     QJsonArray{QJsonObject{{QStringLiteral("storageRef"),
                                             QJsonObject{{QStringLiteral("id"), id}}}}}}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("INPUT_NOT_FOUND"));
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("dataInputs[0].storageRef"));
    // Its content is never echoed into the error.
    QVERIFY(!r.body.contains("Fender"));
}

void tst_AgentData::usesTheSheetToolsThroughTheLlmPlanner()
{
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site.url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub"), QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY(llm.ok());
    m_model.reset();
    // Turn 1: find Fender; turn 2: a sheet of its own; turn 3: write both as xlsx; done.
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("sheets_access"),
                  {{QStringLiteral("action"), QStringLiteral("find")},
                   {QStringLiteral("sheet"), QStringLiteral("Stock")},
                   {QStringLiteral("query"), QStringLiteral("fender")}})},
        500);
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c2"), QStringLiteral("create_sheet_from_data"),
                  parse(R"({"title":"Picks","rows":[{"name":"Fender","qty":2},
                               {"name":"Rope","qty":1}]})"))},
        500);
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c3"), QStringLiteral("generate_sheets"),
                  parse(R"({"title":"Order","sheets":["Stock","Picks"]})"))},
        500);
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c4"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("Order written.")}})},
        500);
    const QJsonObject r = agent(
        {{QStringLiteral("input"), QStringLiteral("Make an order sheet with two fenders")},
         {QStringLiteral("dataInputs"),
          QJsonArray{
              QJsonObject{{QStringLiteral("description"), QStringLiteral("Stock")},
                          {QStringLiteral("url"), m_site.url(QStringLiteral("/data/table.csv"))}}}},
         {QStringLiteral("file_urls"),
          QJsonArray{m_site.url(QStringLiteral("/files/two_pages.pdf"))}},
         {QStringLiteral("tools"), QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                                QJsonArray{QStringLiteral("generate_sheets")}}}},
         {QStringLiteral("settings"),
          QJsonObject{{QStringLiteral("planner"), QStringLiteral("llm")}}}},
        200, &llm);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(m_model.requests.size(), 4);
    // The model was shown the sheet and the PDF's text in its first message.
    const QString first = QString::fromUtf8(QJsonDocument(m_model.requests[0]).toJson());
    QVERIFY2(first.contains(QLatin1String("Sheet \\\"Stock\\\" (2 rows")),
             qPrintable(first.left(3000)));
    QVERIFY(first.contains(QLatin1String("Rope, 10 m: 12.50")));
    QStringList offered;
    for (const auto &t : m_model.requests[0].value(QStringLiteral("tools")).toArray())
        offered << t.toObject()
                       .value(QStringLiteral("function"))
                       .toObject()
                       .value(QStringLiteral("name"))
                       .toString();
    for (const char *t :
         {"sheets_access", "sheets_workflow", "create_sheet_from_data", "generate_sheets"})
        QVERIFY2(offered.contains(QLatin1String(t)), t);
    // The find answered with the matching row.
    const QJsonArray second = m_model.requests[1].value(QStringLiteral("messages")).toArray();
    const QString found = second.last().toObject().value(QStringLiteral("content")).toString();
    QVERIFY2(found.contains(QLatin1String("\"totalMatches\":1")), qPrintable(found));
    QVERIFY2(found.contains(QLatin1String("Fender")), qPrintable(found));
    // The workbook is downloadable and holds both sheets.
    const QJsonArray files = r.value(QStringLiteral("metadata"))
                                 .toObject()
                                 .value(QStringLiteral("generatedFiles"))
                                 .toArray();
    QCOMPARE(files.size(), 1);
    const QString url = files[0].toObject().value(QStringLiteral("downloadUrl")).toString();
    HttpClient anyone;
    const auto download = anyone.get(url);
    QCOMPARE(download.status, 200);
    const auto sheets = data::Reader().parseAll(download.body, data::Format::Xlsx, QString());
    QVERIFY(sheets.ok());
    QCOMPARE(sheets->size(), 2);
    QCOMPARE(sheets->at(0).title, QStringLiteral("Stock"));
    QCOMPARE(sheets->at(1).title, QStringLiteral("Picks"));
    QCOMPARE(sheets->at(1).rowCount(), 2);
    QCOMPARE(sheets->at(1).value(0, 1).toInt(), 2);
}

void tst_AgentData::refusesMoreInputsThanTheCaps_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("code");
    QTest::newRow("refuses more urls than agent.maxUrls") << "urls"
                                                          << "TOO_MANY_URLS";
    QTest::newRow("refuses more file_urls than agent.maxFileUrls") << "file_urls"
                                                                   << "TOO_MANY_URLS";
    QTest::newRow("refuses more image_urls than agent.maxImageUrls") << "image_urls"
                                                                     << "TOO_MANY_URLS";
    QTest::newRow("refuses more dataInputs than agent.maxDataInputs") << "dataInputs"
                                                                      << "TOO_MANY_DATA_INPUTS";
}

void tst_AgentData::refusesMoreInputsThanTheCaps()
{
    QFETCH(QString, field);
    QFETCH(QString, code);
    if (!m_capped) {
        m_capped = std::make_unique<TestService>(QStringList{
            QStringLiteral("agent.maxUrls=2"), QStringLiteral("agent.maxFileUrls=2"),
            QStringLiteral("agent.maxImageUrls=2"), QStringLiteral("agent.maxDataInputs=2")});
    }
    TestService *capped = m_capped.get();
    QVERIFY2(capped->ok(), qPrintable(capped->error()));
    QJsonArray three;
    for (int i = 0; i < 3; ++i) {
        if (field == QLatin1String("dataInputs"))
            three.append(QJsonObject{{QStringLiteral("format"), QStringLiteral("csv")},
                                     {QStringLiteral("inline"), QString::fromUtf8(kCsv)}});
        else
            three.append(m_site.url(QStringLiteral("/data/table.csv?%1").arg(i)));
    }
    HttpClient c = capped->client();
    const auto r = c.post(QStringLiteral("/agent"),
                          {{QStringLiteral("input"), QStringLiteral("Read")}, {field, three}});
    QCOMPARE(r.status, 400);
    const QJsonObject e = r.json();
    QCOMPARE(e.value(QStringLiteral("code")).toString(), code);
    QCOMPARE(e.value(QStringLiteral("field")).toString(), field);
    const QJsonObject details = e.value(QStringLiteral("details")).toObject();
    QCOMPARE(details.value(QStringLiteral("limit")).toInt(), 2);
    QCOMPARE(details.value(QStringLiteral("received")).toInt(), 3);
    // Refused before any work: no trajectory was made.
    QVERIFY(!details.contains(QStringLiteral("trajectoryId")));
    // Two are fine.
    three.removeLast();
    if (field == QLatin1String("image_urls"))
        return; // a CSV is no image; the count is what this row is about
    const auto ok = c.post(QStringLiteral("/agent"),
                           {{QStringLiteral("input"), QStringLiteral("Read")}, {field, three}});
    QVERIFY2(ok.status != 400 || ok.json().value(QStringLiteral("code")).toString() != code,
             ok.body.constData());
}

void tst_AgentData::holdsEveryInputOfARequestToOneBudget_data()
{
    QTest::addColumn<QJsonArray>("inputs");
    QTest::addColumn<qint64>("budget");
    QTest::addColumn<QString>("field");

    // Three CSV inputs of 500 bytes each: each fits, the third crosses 1,024 bytes.
    QByteArray csv = "name,note\n";
    while (csv.size() < 490)
        csv += "Rope,a long note about rope\n";
    csv = csv.left(csv.lastIndexOf('\n', 499) + 1);
    QJsonArray csvs;
    for (int i = 0; i < 3; ++i)
        csvs.append(QJsonObject{{QStringLiteral("format"), QStringLiteral("csv")},
                                {QStringLiteral("inline"), QString::fromUtf8(csv)}});
    QTest::newRow("fails the csv input that crosses agent.maxInputBytes")
        << csvs << qint64(1024) << "dataInputs[2]";

    // The same workbook twice: its bytes fit twice, what it decompresses only once.
    const QByteArray xlsx = fixture("handmade.xlsx");
    std::atomic<qint64> expanded{0};
    data::Limits limits;
    limits.expandedMeter = &expanded;
    QVERIFY(data::Reader(limits).parseAll(xlsx, data::Format::Xlsx, QString()).ok());
    QVERIFY(expanded > 1024);
    const QJsonObject book{{QStringLiteral("format"), QStringLiteral("xlsx")},
                           {QStringLiteral("inline"), QString::fromLatin1(xlsx.toBase64())}};
    QTest::newRow("counts what a workbook decompresses against agent.maxInputBytes")
        << QJsonArray{book, book} << qint64(2 * xlsx.size() + expanded + expanded / 2)
        << "dataInputs[1]";
}

void tst_AgentData::holdsEveryInputOfARequestToOneBudget()
{
    QFETCH(QJsonArray, inputs);
    QFETCH(qint64, budget);
    QFETCH(QString, field);
    Settings &settings = m_ph->service().settings();
    QVERIFY(settings.setOverride(QStringLiteral("agent.maxInputBytes=%1").arg(budget)).isEmpty());
    HttpClient c = m_ph->client();
    const auto r =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read")},
                {QStringLiteral("dataInputs"), inputs},
                {QStringLiteral("schema"), QJsonDocument::fromJson(kRowsSchema).object()}});
    // Every input but the last alone is fine.
    QJsonArray fewer = inputs;
    fewer.removeLast();
    const auto ok =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read")},
                {QStringLiteral("dataInputs"), fewer},
                {QStringLiteral("schema"), QJsonDocument::fromJson(kRowsSchema).object()}});
    QVERIFY(settings
                .setOverride(QStringLiteral("agent.maxInputBytes=%1")
                                 .arg(Settings::definition(QStringLiteral("agent.maxInputBytes"))
                                          ->defaultValue.toInteger()))
                .isEmpty());
    QCOMPARE(r.status, 400);
    const QJsonObject e = r.json();
    QCOMPARE(e.value(QStringLiteral("code")).toString(), QStringLiteral("INPUT_TOO_LARGE"));
    QCOMPARE(e.value(QStringLiteral("field")).toString(), field);
    QVERIFY2(
        e.value(QStringLiteral("error")).toString().contains(QLatin1String("agent.maxInputBytes")),
        r.body.constData());
    QCOMPARE(e.value(QStringLiteral("details"))
                 .toObject()
                 .value(QStringLiteral("limitBytes"))
                 .toDouble(),
             double(budget));
    QCOMPARE(ok.status, 200);
    QCOMPARE(ok.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
}

void tst_AgentData::refusesUploadHeadersThatWouldSplitTheDownload_data()
{
    // What POST /storage keeps comes back in the download's Content-Disposition and
    // Content-Type: a line break in either would split that response.
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<QByteArray>("headers");
    QTest::addColumn<QString>("field");
    QTest::newRow("refuses a ?name= with CR LF")
        << QByteArray("/storage?name=a.csv%0D%0ASet-Cookie:%20x=1")
        << QByteArray("Content-Type: text/csv\r\n") << "name";
    QTest::newRow("refuses a ?name= with a lone LF")
        << QByteArray("/storage?name=a.csv%0ALocation:%20/evil")
        << QByteArray("Content-Type: text/csv\r\n") << "name";
    QTest::newRow("refuses an X-Filename with a control character")
        << QByteArray("/storage") << QByteArray("Content-Type: text/csv\r\nX-Filename: a\x01b\r\n")
        << "X-Filename";
    QTest::newRow("refuses a Content-Type with a control character")
        << QByteArray("/storage?name=a.csv") << QByteArray("Content-Type: text/\x01csv\r\n")
        << "Content-Type";
}

void tst_AgentData::refusesUploadHeadersThatWouldSplitTheDownload()
{
    QFETCH(QByteArray, target);
    QFETCH(QByteArray, headers);
    QFETCH(QString, field);
    const QByteArray body = kCsv;
    const QByteArray reply =
        HttpClient::raw(m_ph->port(),
                        "POST " + target + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                            m_ph->ownerKey().toUtf8() + "\r\n" + headers + "Content-Length: " +
                            QByteArray::number(body.size()) + "\r\n\r\n" + body,
                        10000, "}");
    QVERIFY2(reply.startsWith("HTTP/1.1 400"), reply.constData());
    const QJsonObject e =
        QJsonDocument::fromJson(reply.mid(reply.indexOf("\r\n\r\n") + 4)).object();
    QCOMPARE(e.value(QStringLiteral("code")).toString(), QStringLiteral("INVALID_FIELD"));
    QCOMPARE(e.value(QStringLiteral("field")).toString(), field);
    QVERIFY(!reply.contains("Set-Cookie"));
}

PH_WEBENGINE_TEST_MAIN(tst_AgentData)
#include "tst_agentdata.moc"
