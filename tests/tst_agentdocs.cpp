// POST /agent runs that write the spec's named files (docs_access, slides_access,
// pdf_generator): the real service, a real QtWebEngine page on a fixture shop, the rule
// planner reading the task's words, and the LLM planner against an OpenAI-compatible
// stub. Each file is downloaded by its signed URL over HTTP, without the API key, and
// opened by the tests' own readers (tests/support/OfficeReader.h, poppler-qt6).
#include "FixtureServer.h"
#include "HttpClient.h"
#include "ModelStub.h"
#include "OfficeReader.h"
#include "TestMain.h"
#include "TestService.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <poppler-qt6.h>

using namespace ph;
using namespace ph::test;

namespace {

QJsonObject productsSchema()
{
    return QJsonDocument::fromJson(
               R"json({"type":"object","properties":{"products":{"type":"array","items":{
        "type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}},"required":["name","price"]}}}})json")
        .object();
}

QStringList names(const QJsonArray &list, const QString &key)
{
    QStringList out;
    for (const QJsonValue &v : list)
        out << v.toObject().value(key).toString();
    return out;
}

// The text of each <a:p> of a slide part.
QStringList slideTexts(const Package &p, int n)
{
    return texts(p.parts.value(QStringLiteral("ppt/slides/slide%1.xml").arg(n)),
                 QStringLiteral("a:p"), {QStringLiteral("a:t")});
}

} // namespace

class tst_AgentDocs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void writesTheFileTheTaskAsksFor_data();
    void writesTheFileTheTaskAsksFor();
    void endsErrorWhenTheModelsFileWasNeverWritten();
    void writesTheFileTheModelAsksForAfterABadArgument();

private:
    QJsonObject agent(const QJsonObject &body, TestService *service = nullptr);
    // The run's one generated file, downloaded by its signed URL without the API key.
    QByteArray download(const QJsonObject &response, const QString &tool, QString *contentType);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    ModelScript m_model;
};

void tst_AgentDocs::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page(
        "/shop",
        htmlPage(QStringLiteral("Shop"),
                 QStringLiteral("<h1>Harbour Supplies</h1><table><thead><tr><th>Product</th>"
                                "<th>Price</th></tr></thead><tbody><tr><td>Rope, 10 m</td>"
                                "<td>$12.50</td></tr><tr><td>Fender</td><td>$24.00</td></tr>"
                                "<tr><td>Anchor</td><td>$1,299.00</td></tr></tbody></table>")));
    m_model.serveOn(m_site);
    m_ph = std::make_unique<TestService>(QStringList{QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_AgentDocs::cleanupTestCase()
{
    m_ph.reset();
}

QJsonObject tst_AgentDocs::agent(const QJsonObject &body, TestService *service)
{
    HttpClient c = (service ? service : m_ph.get())->client();
    const auto r = c.post(QStringLiteral("/agent"), body);
    r.expectStatus({200}, __FILE__, __LINE__);
    return r.json();
}

QByteArray tst_AgentDocs::download(const QJsonObject &response, const QString &tool,
                                   QString *contentType)
{
    const QJsonArray files = response.value(QStringLiteral("metadata"))
                                 .toObject()
                                 .value(QStringLiteral("generatedFiles"))
                                 .toArray();
    if (files.size() != 1)
        return {};
    const QJsonObject file = files.first().toObject();
    if (file.value(QStringLiteral("tool")).toString() != tool)
        return {};
    HttpClient anonymous;
    const auto got = anonymous.get(file.value(QStringLiteral("downloadUrl")).toString());
    if (got.status != 200 || got.body.size() != file.value(QStringLiteral("sizeBytes")).toInt())
        return {};
    *contentType = QString::fromLatin1(got.header("content-type"));
    if (*contentType != file.value(QStringLiteral("contentType")).toString())
        return {};
    return got.body;
}

void tst_AgentDocs::writesTheFileTheTaskAsksFor_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<bool>("schema");
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("type");
    QTest::newRow("makes slides of the products extracted")
        << "Read the products on %1 and make slides of them" << true << "slides_access"
        << "application/vnd.openxmlformats-officedocument.presentationml.presentation";
    QTest::newRow("makes slides of the page's text")
        << "Read the products on %1 and make slides of them" << false << "slides_access"
        << "application/vnd.openxmlformats-officedocument.presentationml.presentation";
    QTest::newRow("makes an OpenDocument presentation when it is named")
        << "List the products on %1 as an odp presentation" << true << "slides_access"
        << "application/vnd.oasis.opendocument.presentation";
    QTest::newRow("makes a Word document of the page")
        << "Read the products on %1 and make a Word document of it" << false << "docs_access"
        << "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    QTest::newRow("writes an OpenDocument text when it is named")
        << "List the products on %1 and write them as an odt" << true << "docs_access"
        << "application/vnd.oasis.opendocument.text";
    QTest::newRow("makes a PDF of the products")
        << "List the products on %1 as a PDF" << true << "pdf_generator"
        << "application/pdf";
}

void tst_AgentDocs::writesTheFileTheTaskAsksFor()
{
    QFETCH(QString, task);
    QFETCH(bool, schema);
    QFETCH(QString, tool);
    QFETCH(QString, type);
    QJsonObject body{{QStringLiteral("input"), task.arg(m_site.url(QStringLiteral("/shop")))},
                     {QStringLiteral("response"),
                      QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}}}};
    if (schema)
        body.insert(QStringLiteral("schema"), productsSchema());
    const QJsonObject r = agent(body);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonObject metadata = r.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(metadata.value(QStringLiteral("planner")).toString(), QStringLiteral("rule"));
    // A core tool: no tools.enableAdditionalTools needed, and it is named as the spec does.
    QVERIFY2(metadata.value(QStringLiteral("toolsUsed")).toArray().contains(tool),
             QJsonDocument(metadata).toJson().constData());
    const QJsonArray steps = r.value(QStringLiteral("steps")).toArray();
    QCOMPARE(steps.last().toObject().value(QStringLiteral("toolName")).toString(), tool);
    for (const QJsonValue &s : steps) {
        const QJsonObject step = s.toObject();
        // Only the step that wrote the file generated content; writing it costs nothing
        // beyond what the page cost (as generate_* tools: docs/api/credits.md).
        QCOMPARE(step.value(QStringLiteral("hasGeneratedContent")).toBool(),
                 step.value(QStringLiteral("toolName")).toString() == tool);
        if (step.value(QStringLiteral("toolName")).toString() == tool)
            QCOMPARE(step.value(QStringLiteral("creditsUsed")).toDouble(), 0.0);
    }
    QVERIFY(r.value(QStringLiteral("usage"))
                .toObject()
                .value(QStringLiteral("creditsUsed"))
                .toDouble() >= 1.0);
    // The answer says what was written.
    QVERIFY2(r.value(QStringLiteral("result"))
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString()
                 .contains(QLatin1String("generated ")),
             QJsonDocument(r).toJson().constData());

    // The file is named by the task, without the page's address.
    const QString name = metadata.value(QStringLiteral("generatedFiles"))
                             .toArray()
                             .first()
                             .toObject()
                             .value(QStringLiteral("name"))
                             .toString();
    QVERIFY2(name.startsWith(QLatin1String("read-the-products-and-make-")) ||
                 name.startsWith(QLatin1String("list-the-products-as-")) ||
                 name.startsWith(QLatin1String("list-the-products-and-write-")),
             qPrintable(name));
    QVERIFY2(!name.contains(QLatin1String("127")), qPrintable(name));
    QString contentType;
    const QByteArray file = download(r, tool, &contentType);
    QVERIFY2(!file.isEmpty(), QJsonDocument(metadata).toJson().constData());
    QCOMPARE(contentType, type);
    if (tool == QLatin1String("pdf_generator")) {
        std::unique_ptr<Poppler::Document> doc = Poppler::Document::loadFromData(file);
        QVERIFY(doc && doc->numPages() >= 1);
        const QString text = doc->page(0)->text(QRectF());
        for (const char *want : {"Rope, 10 m", "Fender", "1299"})
            QVERIFY2(text.contains(QLatin1String(want)), qPrintable(text));
        return;
    }
    const Package p = unzipAll(file);
    const QString bad = malformedPart(p);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    if (type.contains(QLatin1String("opendocument"))) {
        const QString odf = checkOdf(p, type.toUtf8());
        QVERIFY2(odf.isEmpty(), qPrintable(odf));
    } else {
        const QString opc = checkOpc(p);
        QVERIFY2(opc.isEmpty(), qPrintable(opc));
    }
    const QByteArray content = p.parts.value(QStringLiteral("content.xml"));
    if (type.endsWith(QLatin1String("presentationml.presentation"))) {
        // Slide 1 is the title slide; then the products.
        if (schema) {
            QCOMPARE(slideTexts(p, 2), (QStringList{"Rope, 10 m", "price: 12.5"}));
            QCOMPARE(slideTexts(p, 3), (QStringList{"Fender", "price: 24"}));
            QCOMPARE(slideTexts(p, 4), (QStringList{"Anchor", "price: 1299"}));
            QVERIFY(!p.parts.contains(QStringLiteral("ppt/slides/slide5.xml")));
        } else {
            const QStringList second = slideTexts(p, 2);
            QCOMPARE(second.value(0), QStringLiteral("Harbour Supplies"));
            QVERIFY2(second.join(u'|').contains(QStringLiteral("Rope, 10 m \u2014 $12.50")),
                     qPrintable(second.join(u'|')));
        }
    } else if (type.endsWith(QLatin1String("opendocument.presentation"))) {
        const QStringList pages =
            texts(content, QStringLiteral("draw:page"), {QStringLiteral("text:p")});
        QCOMPARE(pages.size(), 4);
        QCOMPARE(pages.at(1), QStringLiteral("Rope, 10 mprice: 12.5"));
    } else if (type.endsWith(QLatin1String("wordprocessingml.document"))) {
        const QByteArray document = p.parts.value(QStringLiteral("word/document.xml"));
        const auto paragraphs = wordParagraphs(document);
        QVERIFY(
            paragraphs.contains({QStringLiteral("Heading1"), QStringLiteral("Harbour Supplies")}));
        const QStringList cells = texts(document, QStringLiteral("w:tc"), {QStringLiteral("w:t")});
        QCOMPARE(cells.mid(0, 4), (QStringList{"Product", "Price", "Rope, 10 m", "$12.50"}));
    } else {
        const QStringList cells = texts(content, QStringLiteral("table:table-cell"), {});
        QCOMPARE(cells, (QStringList{"name", "price", "Rope, 10 m", "12.5", "Fender", "24",
                                     "Anchor", "1299"}));
    }
}

void tst_AgentDocs::endsErrorWhenTheModelsFileWasNeverWritten()
{
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site.url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub"), QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY(llm.ok());
    m_model.reset();
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("slides_access"),
                  {{QStringLiteral("action"), QStringLiteral("create")},
                   {QStringLiteral("title"), QStringLiteral("Shop")},
                   {QStringLiteral("slides"), QStringLiteral("Rope and Fender")}})},
        300);
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c2"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("Here are your slides.")}})},
        300);
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("Make slides about rope")},
               {QStringLiteral("settings"),
                QJsonObject{{QStringLiteral("planner"), QStringLiteral("llm")}}}},
              &llm);
    // The model was offered the spec's tools without enabling any.
    QStringList offered;
    for (const auto &t : m_model.requests.value(0).value(QStringLiteral("tools")).toArray())
        offered << t.toObject()
                       .value(QStringLiteral("function"))
                       .toObject()
                       .value(QStringLiteral("name"))
                       .toString();
    for (const char *t : {"docs_access", "slides_access", "pdf_generator"})
        QVERIFY2(offered.contains(QLatin1String(t)), t);
    // The model was told which argument was wrong …
    const QJsonArray messages =
        m_model.requests.value(1).value(QStringLiteral("messages")).toArray();
    const QString told = messages.last().toObject().value(QStringLiteral("content")).toString();
    QVERIFY2(told.contains(
                 QLatin1String("slides must be an array of {title, bullets, notes}, not a string")),
             qPrintable(told));
    // … and the run, which wrote no deck, does not end as a success.
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    QVERIFY(!r.value(QStringLiteral("success")).toBool());
    QVERIFY2(
        r.value(QStringLiteral("error")).toString().contains(QLatin1String("slides_access failed")),
        qPrintable(r.value(QStringLiteral("error")).toString()));
    QVERIFY(r.value(QStringLiteral("metadata"))
                .toObject()
                .value(QStringLiteral("generatedFiles"))
                .isUndefined());
}

void tst_AgentDocs::writesTheFileTheModelAsksForAfterABadArgument()
{
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site.url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub"), QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY(llm.ok());
    m_model.reset();
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("docs_access"),
                  {{QStringLiteral("action"), QStringLiteral("create")},
                   {QStringLiteral("format"), QStringLiteral("rtf")},
                   {QStringLiteral("markdown"), QStringLiteral("x")}})},
        300);
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c2"), QStringLiteral("docs_access"),
                  QJsonDocument::fromJson(R"({"action":"create","title":"Rope notes",
                      "sections":[{"heading":"Rope","text":"Ten metres.","bullets":["braided","blue"]}]})")
                      .object())},
        300);
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c3"), QStringLiteral("docs_access"),
                  {{QStringLiteral("action"), QStringLiteral("append")},
                   {QStringLiteral("document"), QStringLiteral("rope-notes.docx")},
                   {QStringLiteral("markdown"), QStringLiteral("## Fender\n\nRound.")}})},
        300);
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c4"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("Written.")}})},
        300);
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("Write notes on rope")},
               {QStringLiteral("response"),
                QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}}},
               {QStringLiteral("settings"),
                QJsonObject{{QStringLiteral("planner"), QStringLiteral("llm")}}}},
              &llm);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonArray steps = r.value(QStringLiteral("steps")).toArray();
    QCOMPARE(names(steps, QStringLiteral("status")), (QStringList{"error", "success", "success"}));
    QCOMPARE(steps.at(0).toObject().value(QStringLiteral("summary")).toString(),
             QStringLiteral("docs_access: format must be docx or odt, not \"rtf\""));
    QVERIFY(!steps.at(0).toObject().value(QStringLiteral("hasGeneratedContent")).toBool());
    QVERIFY(steps.at(1).toObject().value(QStringLiteral("hasGeneratedContent")).toBool());
    QVERIFY(steps.at(2).toObject().value(QStringLiteral("hasGeneratedContent")).toBool());
    QCOMPARE(
        r.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("toolsUsed")).toArray(),
        QJsonArray{QStringLiteral("docs_access")});
    // Three model turns' tokens are billed; the file's writing adds nothing.
    QCOMPARE(
        r.value(QStringLiteral("usage")).toObject().value(QStringLiteral("creditsUsed")).toDouble(),
        1.2);
    QString contentType;
    const QByteArray file = download(r, QStringLiteral("docs_access"), &contentType);
    QVERIFY(!file.isEmpty());
    const Package p = unzipAll(file);
    QVERIFY(checkOpc(p).isEmpty());
    QStringList seen;
    for (const auto &[style, text] :
         wordParagraphs(p.parts.value(QStringLiteral("word/document.xml"))))
        seen << QStringLiteral("%1:%2").arg(style, text);
    QCOMPARE(seen, (QStringList{"Title:Rope notes", "Heading1:Rope", ":Ten metres.",
                                "ListParagraph:braided", "ListParagraph:blue", "Heading2:Fender",
                                ":Round."}));
}

PH_WEBENGINE_TEST_MAIN(tst_AgentDocs)
#include "tst_agentdocs.moc"
