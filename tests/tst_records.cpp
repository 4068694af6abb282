// Records from layouts the rule planner was not written against (issue 33): POST /agent
// with the rule planner (no model) on fixture pages written for this test, one row per
// structure family and per failure class. Each row is a task as a person writes it, its
// schema, and the JSON answer it must give (or the status a dishonest success must not).
#include "FixtureServer.h"
#include "HttpClient.h"
#include "ModelStub.h"
#include "TestMain.h"
#include "TestService.h"

#include <QJsonArray>
#include <QUrlQuery>

using namespace ph;
using namespace ph::test;

namespace {

QByteArray page(const QString &lang, const QString &body)
{
    return QStringLiteral("<!doctype html><html lang=\"%1\"><head><meta charset=\"utf-8\">"
                          "<title>Fixture</title></head><body><header><nav><ul><li><a "
                          "href=\"/\">Home</a></li><li><a href=\"/shop\">Shop</a></li><li><a "
                          "href=\"/about\">About</a></li></ul></nav></header>%2<footer><ul>"
                          "<li>Imprint</li><li>Privacy</li></ul></footer></body></html>")
        .arg(lang, body)
        .toUtf8();
}

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(text).object();
}

QString compact(const QJsonValue &v)
{
    return QString::fromUtf8(v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                             : v.isObject()
                                 ? QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)
                                 : QByteArray("null"));
}

const char *kProducts = R"({"type":"object","properties":{"products":{"type":"array","items":{
    "type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}},
    "required":["name","price"]}}}})";
const char *kBooks = R"({"type":"object","properties":{"books":{"type":"array","items":{
    "type":"object","properties":{"title":{"type":"string"},"author":{"type":"string"},
    "year":{"type":"integer"}},"required":["title","author","year"]}}}})";
const char *kPeople = R"({"type":"array","items":{"type":"object","properties":{
    "name":{"type":"string"},"email":{"type":"string"}},"required":["name","email"]}})";

} // namespace

class tst_Records : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void readsRecordsFromEveryStructureFamily_data();
    void readsRecordsFromEveryStructureFamily();
    void neverEndsInSuccessWithoutDoingWhatWasAsked_data();
    void neverEndsInSuccessWithoutDoingWhatWasAsked();
    void offersTheLlmPlannerTheStructuresFound();

private:
    FixtureServer m_site;
    ModelScript m_model;
    std::unique_ptr<TestService> m_ph;
};

void tst_Records::initTestCase()
{
    QVERIFY(m_site.start());
    // A plain <ul> of strings over three pages, "Next ›" links.
    m_site.route("/harbours", [](const FixtureRequest &r) {
        const int p = qMax(1, QUrlQuery(QUrl(QString::fromUtf8(r.path)).query())
                                  .queryItemValue(QStringLiteral("page"))
                                  .toInt());
        const QStringList names[] = {{QStringLiteral("Alcântara"), QStringLiteral("Leixões")},
                                     {QStringLiteral("Sines"), QStringLiteral("Setúbal")},
                                     {QStringLiteral("Aveiro")}};
        QString body = QStringLiteral("<h1>Harbours</h1><ul class=\"k3x\">");
        for (const QString &n : names[p - 1])
            body += QStringLiteral("<li>%1</li>").arg(n);
        body += QStringLiteral("</ul>");
        if (p < 3)
            body += QStringLiteral("<p><a class=\"q9\" href=\"/harbours?page=%1\">Next ›</a></p>")
                        .arg(p + 1);
        return FixtureResponse::html(page(QStringLiteral("en"), body));
    });
    // Spans inside list items, after a search.
    m_site.route("/library", [](const FixtureRequest &r) {
        const QString q = QUrlQuery(QUrl(QString::fromUtf8(r.path)).query())
                              .queryItemValue(QStringLiteral("q"), QUrl::FullyDecoded);
        QString body = QStringLiteral("<form action=\"/library\" role=\"search\"><input "
                                      "type=\"search\" name=\"q\" aria-label=\"Search\">"
                                      "<button>Search</button></form>");
        if (!q.isEmpty())
            body += QStringLiteral(
                "<h2>Results</h2><ul class=\"r7\"><li><span class=\"title\">Slaughterhouse-Five"
                "</span> by <span class=\"author\">Kurt Vonnegut</span> (1969)</li>"
                "<li><span class=\"title\">The Left Hand of Darkness</span> by <span "
                "class=\"author\">Ursula K. Le Guin</span> (1969)</li></ul>");
        return FixtureResponse::html(page(QStringLiteral("en"), body));
    });
    m_site.page("/preise",
                page(QStringLiteral("de"),
                     QStringLiteral("<table><thead><tr><th>Artikel</th><th>Preis</th></tr></thead>"
                                    "<tbody><tr><td>Kompass</td><td>1.234,56 €</td></tr>"
                                    "<tr><td>Laterne</td><td>12,50 €</td></tr></tbody></table>")));
    m_site.page("/team",
                page(QStringLiteral("fr"),
                     QStringLiteral("<div class=\"z1\"><div class=\"a8\"><h3>Ada Lovelace</h3><p>"
                                    "Courriel : <a href=\"mailto:ada@example.org\">ada@example.org"
                                    "</a></p></div><div class=\"a8\"><h3>Grace Hopper</h3><p>"
                                    "Courriel : <a href=\"mailto:grace@example.org\">"
                                    "grace@example.org</a></p></div></div>")));
    m_site.page("/random",
                page(QStringLiteral("en"),
                     QStringLiteral("<div class=\"q1\"><div class=\"x9\"><div class=\"p2\"><strong "
                                    "class=\"m4\">Sextant</strong><p class=\"t7\"><span>$1,299.00"
                                    "</span></p><button>Add</button></div></div><div class=\"x9\">"
                                    "<div class=\"p2\"><strong class=\"m4\">Chart</strong><p "
                                    "class=\"t7\"><span>$25.00</span></p><button>Add</button></div>"
                                    "</div></div><aside class=\"ad\"><h3>Sponsored</h3><p>Deluxe "
                                    "rope $9.99</p></aside>")));
    m_site.page("/column",
                page(QStringLiteral("es"),
                     QStringLiteral("<table><tr><th>Producto</th><td>Brújula</td><td>Farol</td>"
                                    "</tr><tr><th>Precio</th><td>1.050,00 €</td><td>8,75 €</td>"
                                    "</tr></table>")));
    m_site.page("/dl",
                page(QStringLiteral("fr"),
                     QStringLiteral("<div class=\"g\"><div class=\"e\"><dl><dt>Produit</dt><dd>"
                                    "Ancre</dd><dt>Prix</dt><dd>1 299,90 €</dd></dl></div><div "
                                    "class=\"e\"><dl><dt>Produit</dt><dd>Bouée</dd><dt>Prix</dt>"
                                    "<dd>45,00 €</dd></dl></div></div>")));
    m_site.page(
        "/microdata",
        page(QStringLiteral("de"),
             QStringLiteral("<div itemscope itemtype=\"https://schema.org/Product\"><span "
                            "itemprop=\"name\">Fender</span><span itemprop=\"price\" "
                            "content=\"24.00\">24,00 €</span></div><div itemscope "
                            "itemtype=\"https://schema.org/Product\"><span itemprop=\"name\""
                            ">Winch</span><span itemprop=\"price\" content=\"310.50\">"
                            "310,50 €</span></div>")));
    m_site.page(
        "/jsonld",
        page(QStringLiteral("en"),
             QStringLiteral(
                 "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\","
                 "\"@type\":\"ItemList\",\"itemListElement\":[{\"@type\":\"ListItem\",\"item\":{"
                 "\"@type\":\"Book\",\"name\":\"Solaris\",\"author\":{\"@type\":\"Person\","
                 "\"name\":\"Stanisław Lem\"},\"datePublished\":\"1961\"}},{\"@type\":\"ListItem\","
                 "\"item\":{\"@type\":\"Book\",\"name\":\"Ubik\",\"author\":{\"@type\":\"Person\","
                 "\"name\":\"Philip K. Dick\"},\"datePublished\":\"1969\"}}]}</script><p>Two "
                 "books.</p>")));
    // The failure classes: a basket whose order is never placed, a 404 page.
    m_site.page("/basket", page(QStringLiteral("en"),
                                QStringLiteral("<h1>Your basket</h1><table><thead><tr><th>Name</th>"
                                               "<th>Price</th></tr></thead><tbody><tr><td>Compass"
                                               "</td><td>$12.00</td></tr></tbody></table><form "
                                               "method=\"post\" action=\"/order\"><button>Place "
                                               "order</button></form>")));
    m_site.respond("/gone", 404,
                   page(QStringLiteral("en"), QStringLiteral("<h1>Not found</h1><ul><li>Try the "
                                                             "shop</li><li>Try the search</li>"
                                                             "</ul>")));
    m_model.serveOn(m_site);
    m_ph = std::make_unique<TestService>(QStringList{QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_Records::cleanupTestCase()
{
    m_ph.reset();
}

void tst_Records::readsRecordsFromEveryStructureFamily_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("task");
    QTest::addColumn<QJsonObject>("schema");
    QTest::addColumn<QString>("expected");

    QTest::newRow("a list of strings from a plain ul across pages")
        << QStringLiteral("/harbours") << QStringLiteral("List all harbours on every page")
        << json(
               R"({"type":"object","properties":{"harbours":{"type":"array","items":{"type":"string"}}}})")
        << QStringLiteral(R"({"harbours":["Alcântara","Leixões","Sines","Setúbal","Aveiro"]})");
    QTest::newRow("title by author (year) spans in list items after a search")
        << QStringLiteral("/library") << QStringLiteral("Search for 1969 and list the books")
        << json(kBooks)
        << QStringLiteral(
               R"({"books":[{"author":"Kurt Vonnegut","title":"Slaughterhouse-Five","year":1969},)"
               R"({"author":"Ursula K. Le Guin","title":"The Left Hand of Darkness","year":1969}]})");
    QTest::newRow("a German price table whose name column is Artikel")
        << QStringLiteral("/preise") << QStringLiteral("Liste die Produkte mit Preisen")
        << json(kProducts)
        << QStringLiteral(
               R"({"products":[{"name":"Kompass","price":1234.56},{"name":"Laterne","price":12.5}]})");
    QTest::newRow("names paired with their emails on French cards")
        << QStringLiteral("/team") << QStringLiteral("Pair each name with its email")
        << json(kPeople)
        << QStringLiteral(R"([{"email":"ada@example.org","name":"Ada Lovelace"},)"
                          R"({"email":"grace@example.org","name":"Grace Hopper"}])");
    QTest::newRow("nested divs with random classes and an ad beside them")
        << QStringLiteral("/random") << QStringLiteral("Extract every product and its price")
        << json(kProducts)
        << QStringLiteral(
               R"({"products":[{"name":"Sextant","price":1299},{"name":"Chart","price":25}]})");
    QTest::newRow("filtering cards by a price the task names")
        << QStringLiteral("/random") << QStringLiteral("List the products under $100")
        << json(kProducts) << QStringLiteral(R"({"products":[{"name":"Chart","price":25}]})");
    QTest::newRow("a Spanish table whose header is its first column")
        << QStringLiteral("/column") << QStringLiteral("List the products with their prices")
        << json(kProducts)
        << QStringLiteral(
               R"({"products":[{"name":"Brújula","price":1050},{"name":"Farol","price":8.75}]})");
    QTest::newRow("a French definition list per record")
        << QStringLiteral("/dl") << QStringLiteral("Collect all products and prices")
        << json(kProducts)
        << QStringLiteral(
               R"({"products":[{"name":"Ancre","price":1299.9},{"name":"Bouée","price":45}]})");
    QTest::newRow("microdata products on a German page")
        << QStringLiteral("/microdata") << QStringLiteral("List the products") << json(kProducts)
        << QStringLiteral(
               R"({"products":[{"name":"Fender","price":24},{"name":"Winch","price":310.5}]})");
    QTest::newRow("JSON-LD books with their authors and years")
        << QStringLiteral("/jsonld") << QStringLiteral("Extract every book: title, author, year")
        << json(kBooks)
        << QStringLiteral(R"({"books":[{"author":"Stanisław Lem","title":"Solaris","year":1961},)"
                          R"({"author":"Philip K. Dick","title":"Ubik","year":1969}]})");
}

void tst_Records::readsRecordsFromEveryStructureFamily()
{
    QFETCH(QString, path);
    QFETCH(QString, task);
    QFETCH(QJsonObject, schema);
    QFETCH(QString, expected);
    const auto r =
        m_ph->client().post(QStringLiteral("/agent"),
                            QJsonObject{{QStringLiteral("input"), task},
                                        {QStringLiteral("urls"), QJsonArray{m_site.url(path)}},
                                        {QStringLiteral("schema"), schema}});
    r.expectStatus({200}, __FILE__, __LINE__);
    const QJsonObject out = r.json();
    QCOMPARE(out.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonValue answer =
        out.value(QStringLiteral("result")).toObject().value(QStringLiteral("json"));
    QCOMPARE(compact(answer), expected);
}

void tst_Records::neverEndsInSuccessWithoutDoingWhatWasAsked_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("reason");
    QTest::newRow("placing the order after only reading the basket ends in error")
        << QStringLiteral("/basket") << QStringLiteral("Place the order")
        << QStringLiteral("place the order");
    QTest::newRow("listing every product on a 404 page without a schema ends in error")
        << QStringLiteral("/gone") << QStringLiteral("List every product")
        << QStringLiteral("HTTP 404");
}

void tst_Records::neverEndsInSuccessWithoutDoingWhatWasAsked()
{
    QFETCH(QString, path);
    QFETCH(QString, task);
    QFETCH(QString, reason);
    const auto r =
        m_ph->client().post(QStringLiteral("/agent"),
                            QJsonObject{{QStringLiteral("input"), task},
                                        {QStringLiteral("urls"), QJsonArray{m_site.url(path)}}});
    r.expectStatus({200}, __FILE__, __LINE__);
    const QJsonObject out = r.json();
    QCOMPARE(out.value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    const QString error = out.value(QStringLiteral("error")).toString();
    QVERIFY2(error.contains(reason), qPrintable(error));
    QCOMPARE(m_site.hits("/order"), 0);
}

// The LLM planner reads the page as the rule planner does: the first message it gets
// names the page's repeated structures (their kind, size, fields and first record), and
// leaves out the navigation and footer lists.
void tst_Records::offersTheLlmPlannerTheStructuresFound()
{
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site.url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub-model")});
    QVERIFY(llm.ok());
    m_model.reset();
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("Two products.")}})},
        100);
    const auto r = llm.client().post(
        QStringLiteral("/agent"),
        QJsonObject{{QStringLiteral("input"), QStringLiteral("What do the products cost?")},
                    {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/random"))}},
                    {QStringLiteral("settings"),
                     QJsonObject{{QStringLiteral("planner"), QStringLiteral("llm")}}}});
    r.expectStatus({200}, __FILE__, __LINE__);
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY(!m_model.requests.isEmpty());
    const QJsonArray messages =
        m_model.requests.first().value(QStringLiteral("messages")).toArray();
    const QString first = messages.at(1).toObject().value(QStringLiteral("content")).toString();
    const qsizetype at = first.indexOf(QStringLiteral("Repeated structures on the page"));
    QVERIFY2(at >= 0, qPrintable(first));
    const QString found = first.mid(at);
    QVERIFY2(found.contains(QStringLiteral("(2): ")) && found.contains(QStringLiteral("Sextant")) &&
                 found.contains(QStringLiteral("$1,299.00")),
             qPrintable(found));
    // The page's navigation and footer lists are in its aria snapshot, not among its records.
    QVERIFY2(!found.contains(QStringLiteral("Imprint")), qPrintable(found));
}

PH_WEBENGINE_TEST_MAIN(tst_Records)
#include "tst_records.moc"
