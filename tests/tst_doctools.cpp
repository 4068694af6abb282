// The spec's document tools (docs_access, slides_access, pdf_generator) called the way a
// run calls them, on a real RunContext of the real service (object store on SQLite, the
// browser pool for PDFs). What they write is opened by readers of the test's own: the
// zip with minizip's unzip, every XML part with QXmlStreamReader, the PDF with
// poppler-qt6. The end-to-end runs are in tst_agentdocs.
#include "OfficeReader.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/ObjectStore.h"
#include "core/Store.h"
#include "engine/RunContext.h"
#include "engine/Tool.h"
#include "engine/tools/BuiltinTools.h"
#include "engine/tools/DocumentTools.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>

#include <poppler-qt6.h>

using namespace ph;
using namespace ph::engine;
using namespace ph::test;

namespace {

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

} // namespace

class tst_DocTools : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void writesAWordDocumentFromMarkdown();
    void writesAWordTableFromDataRows();
    void writesSectionsAsHeadingsParagraphsBulletsAndTables();
    void writesAnOpenDocumentText();
    void appendsToADocumentItCreated_data();
    void appendsToADocumentItCreated();
    void listsAndReadsTheRunsDocuments();
    void refusesBadArguments_data();
    void refusesBadArguments();
    void writesADeckWithATitleSlideBulletsAndNotes();
    void splitsMarkdownIntoSlidesAtHeadings();
    void makesASlidePerDataRow();
    void continuesALongSlideOnTheNext();
    void writesAnOpenDocumentPresentation();
    void listsAndReadsTheRunsDecks();
    void printsAPdfOfMarkdown();
    void printsAPdfOfDataRows();

private:
    ToolResult call(const QString &tool, const QJsonObject &args);
    QByteArray bytesOf(const ToolResult &r);

    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<ToolRegistry> m_tools;
    std::unique_ptr<EngineServices> m_services;
    ExecuteRequest m_request;
    std::unique_ptr<RunContext> m_ctx;
};

void tst_DocTools::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_network = std::make_unique<QNetworkAccessManager>();
    m_tools = builtinTools();
    Service &s = m_ph->service();
    m_services = std::make_unique<EngineServices>(EngineServices{
        s.store(), s.settings(), s.pool(), s.policy(), *m_network, *m_tools, s.trajectories()});
}

void tst_DocTools::init()
{
    m_request = ExecuteRequest();
    m_request.input = QStringLiteral("make documents");
    m_ctx = std::make_unique<RunContext>(*m_services, m_request, QStringLiteral("traj_doctools"), 1,
                                         QStringLiteral("key_doctools"),
                                         QStringLiteral("req_doctools"));
}

void tst_DocTools::cleanup()
{
    m_ctx.reset();
}

ToolResult tst_DocTools::call(const QString &name, const QJsonObject &args)
{
    Tool *tool = m_tools->find(name);
    if (!tool)
        return ToolResult::failure(QStringLiteral("no tool ") + name);
    std::optional<ToolResult> result;
    tool->run(*m_ctx, args, [&result](ToolResult r) { result = std::move(r); });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 60000))
        return ToolResult::failure(QStringLiteral("the tool did not answer"));
    return *result;
}

QByteArray tst_DocTools::bytesOf(const ToolResult &r)
{
    return m_ph->service().store().objects().data(
        r.output.toObject().value(QStringLiteral("objectId")).toString());
}

void tst_DocTools::writesAWordDocumentFromMarkdown()
{
    const ToolResult r = call(
        QStringLiteral("docs_access"),
        {{QStringLiteral("action"), QStringLiteral("create")},
         {QStringLiteral("title"), QStringLiteral("Harbour report")},
         {QStringLiteral("markdown"),
          QStringLiteral("# Products\n\nWe sell **rope** and [fenders](https://shop.example/f).\n\n"
                         "- Rope\n  - ten metres\n- Fender\n\n1. Order\n2. Pay\n\n"
                         "## Prices\n\n| Product | Price |\n| --- | --- |\n| Rope, 10 m | 12.5 |\n"
                         "| Fender | 24 |\n\n```\nsku-1 < sku-2 & \"ok\"\n```\n")}});
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.generatedContent);
    QCOMPARE(r.output.toObject().value(QStringLiteral("contentType")).toString(),
             DocumentTypes::docx);
    QCOMPARE(r.output.toObject().value(QStringLiteral("document")).toString(),
             QStringLiteral("harbour-report.docx"));
    QCOMPARE(m_ctx->files().size(), 1);
    QCOMPARE(m_ctx->files().first().tool, QStringLiteral("docs_access"));

    const Package p = unzipAll(bytesOf(r));
    QVERIFY2(p.order.contains(QStringLiteral("word/document.xml")), qPrintable(p.order.join(u' ')));
    const QString bad = malformedPart(p);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    const QString opc = checkOpc(p);
    QVERIFY2(opc.isEmpty(), qPrintable(opc));
    const QStringList overrides =
        attributes(p.parts.value(QStringLiteral("[Content_Types].xml")), QStringLiteral("Override"),
                   QStringLiteral("PartName"));
    for (const char *part :
         {"/word/document.xml", "/word/styles.xml", "/word/numbering.xml", "/docProps/core.xml"})
        QVERIFY2(overrides.contains(QLatin1String(part)), part);
    // The package's main part is the document.
    const auto rootRels = relationshipsOf(p.parts.value(QStringLiteral("_rels/.rels")));
    QVERIFY(std::any_of(rootRels.begin(), rootRels.end(), [](const Relationship &rel) {
        return rel.type.endsWith(QLatin1String("/officeDocument")) &&
               rel.target == QLatin1String("word/document.xml");
    }));

    const QByteArray document = p.parts.value(QStringLiteral("word/document.xml"));
    const auto paragraphs = wordParagraphs(document);
    QVERIFY(paragraphs.contains({QStringLiteral("Title"), QStringLiteral("Harbour report")}));
    QVERIFY(paragraphs.contains({QStringLiteral("Heading1"), QStringLiteral("Products")}));
    QVERIFY(paragraphs.contains({QStringLiteral("Heading2"), QStringLiteral("Prices")}));
    QVERIFY(paragraphs.contains({QString(), QStringLiteral("We sell rope and fenders.")}));
    QVERIFY(paragraphs.contains({QStringLiteral("ListParagraph"), QStringLiteral("ten metres")}));
    QVERIFY(
        paragraphs.contains({QStringLiteral("Code"), QStringLiteral("sku-1 < sku-2 & \"ok\"")}));
    // The table's cells, header first.
    const QStringList cells = texts(document, QStringLiteral("w:tc"), {QStringLiteral("w:t")});
    QCOMPARE(cells, (QStringList{"Product", "Price", "Rope, 10 m", "12.5", "Fender", "24"}));
    // Bold is bold; the link is an external relationship to its address.
    QVERIFY(document.contains("<w:b/></w:rPr><w:t>rope</w:t>"));
    const QStringList linkIds =
        attributes(document, QStringLiteral("w:hyperlink"), QStringLiteral("r:id"));
    QCOMPARE(linkIds.size(), 1);
    const auto docRels =
        relationshipsOf(p.parts.value(QStringLiteral("word/_rels/document.xml.rels")));
    const auto link = std::find_if(docRels.begin(), docRels.end(), [&](const Relationship &rel) {
        return rel.id == linkIds.first();
    });
    QVERIFY(link != docRels.end());
    QVERIFY(link->external);
    QCOMPARE(link->target, QStringLiteral("https://shop.example/f"));
    // Every list paragraph's numbering exists; the numbered list has its own.
    const QStringList used =
        attributes(document, QStringLiteral("w:numId"), QStringLiteral("w:val"));
    const QStringList defined = attributes(p.parts.value(QStringLiteral("word/numbering.xml")),
                                           QStringLiteral("w:num"), QStringLiteral("w:numId"));
    QCOMPARE(used.size(), 5);
    for (const QString &id : used)
        QVERIFY2(defined.contains(id), qPrintable(id));
    QCOMPARE(QSet<QString>(used.begin(), used.end()).size(), 2);
    // The Heading styles the body uses are defined.
    const QStringList styles = attributes(p.parts.value(QStringLiteral("word/styles.xml")),
                                          QStringLiteral("w:style"), QStringLiteral("w:styleId"));
    for (const auto &[style, text] : paragraphs)
        QVERIFY2(style.isEmpty() || styles.contains(style), qPrintable(style));
    QCOMPARE(
        texts(p.parts.value(QStringLiteral("docProps/core.xml")), QStringLiteral("dc:title"), {}),
        QStringList{QStringLiteral("Harbour report")});
}

void tst_DocTools::writesAWordTableFromDataRows()
{
    const ToolResult r =
        call(QStringLiteral("docs_access"), parse(R"({"action":"create","title":"Stock",
                  "data":[{"name":"Rope","qty":3,"inStock":true},{"name":"Fender","qty":0.5}]})"));
    QVERIFY2(r.ok, qPrintable(r.error));
    const Package p = unzipAll(bytesOf(r));
    QVERIFY(checkOpc(p).isEmpty());
    const QByteArray document = p.parts.value(QStringLiteral("word/document.xml"));
    // The columns in the order JSON objects keep their keys here (by name).
    QCOMPARE(texts(document, QStringLiteral("w:tc"), {QStringLiteral("w:t")}),
             (QStringList{"inStock", "name", "qty", "yes", "Rope", "3", "", "Fender", "0.5"}));
    // The header row repeats on each page; its cells are bold.
    QCOMPARE(document.count("<w:tblHeader/>"), 1);
    QCOMPARE(attributes(document, QStringLiteral("w:gridCol"), QStringLiteral("w:w")).size(), 3);
}

void tst_DocTools::writesSectionsAsHeadingsParagraphsBulletsAndTables()
{
    const ToolResult r = call(QStringLiteral("docs_access"), parse(R"({"action":"create",
        "title":"Weekly","sections":[
          {"heading":"Summary","text":"Sales rose.\n\nReturns fell."},
          {"heading":"Details","level":2,"bullets":["one","two"],
           "rows":[{"a":1,"b":"x"}]}]})"));
    QVERIFY2(r.ok, qPrintable(r.error));
    const Package p = unzipAll(bytesOf(r));
    const QByteArray document = p.parts.value(QStringLiteral("word/document.xml"));
    const auto paragraphs = wordParagraphs(document);
    QStringList seen;
    for (const auto &[style, text] : paragraphs)
        seen << QStringLiteral("%1:%2").arg(style, text);
    QCOMPARE(seen.mid(0, 7),
             (QStringList{"Title:Weekly", "Heading1:Summary", ":Sales rose.", ":Returns fell.",
                          "Heading2:Details", "ListParagraph:one", "ListParagraph:two"}));
    QCOMPARE(texts(document, QStringLiteral("w:tc"), {QStringLiteral("w:t")}),
             (QStringList{"a", "b", "1", "x"}));
}

void tst_DocTools::writesAnOpenDocumentText()
{
    const ToolResult r = call(
        QStringLiteral("docs_access"),
        {{QStringLiteral("action"), QStringLiteral("create")},
         {QStringLiteral("title"), QStringLiteral("Harbour report")},
         {QStringLiteral("format"), QStringLiteral("odt")},
         {QStringLiteral("markdown"),
          QStringLiteral("# Products\n\nTwo  spaces kept.\n\n- Rope\n  - ten metres\n- Fender\n\n"
                         "| Product | Price |\n| --- | --- |\n| Rope | 12.5 |\n")}});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.output.toObject().value(QStringLiteral("contentType")).toString(),
             DocumentTypes::odt);
    QVERIFY(r.output.toObject().value(QStringLiteral("file")).toString().endsWith(u".odt"));
    const Package p = unzipAll(bytesOf(r));
    const QString odf = checkOdf(p, "application/vnd.oasis.opendocument.text");
    QVERIFY2(odf.isEmpty(), qPrintable(odf));
    const QString bad = malformedPart(p);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    const QByteArray content = p.parts.value(QStringLiteral("content.xml"));
    QCOMPARE(texts(content, QStringLiteral("text:h"), {}), QStringList{QStringLiteral("Products")});
    QCOMPARE(attributes(content, QStringLiteral("text:h"), QStringLiteral("text:outline-level")),
             QStringList{QStringLiteral("1")});
    const QStringList paragraphs = texts(content, QStringLiteral("text:p"), {});
    QVERIFY2(paragraphs.contains(QStringLiteral("Harbour report")),
             qPrintable(paragraphs.join(u'|')));
    // The second space is <text:s/>: the text reads "Two spaces" with one of them.
    QVERIFY(content.contains("Two <text:s/>spaces kept."));
    // The nested list: "ten metres" is an item of a list inside the item "Rope".
    QVERIFY(content.contains("<text:p text:style-name=\"List\">Rope</text:p><text:list"));
    QCOMPARE(texts(content, QStringLiteral("table:table-cell"), {}),
             (QStringList{"Product", "Price", "Rope", "12.5"}));
    // The styles the content names exist.
    const QByteArray styles = p.parts.value(QStringLiteral("styles.xml"));
    for (const QString &style :
         attributes(content, QStringLiteral("text:p"), QStringLiteral("text:style-name")))
        QVERIFY2(styles.contains(QStringLiteral("style:name=\"%1\"").arg(style).toUtf8()),
                 qPrintable(style));
}

void tst_DocTools::appendsToADocumentItCreated_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("appends to a docx") << QStringLiteral("docx");
    QTest::newRow("appends to an odt") << QStringLiteral("odt");
}

void tst_DocTools::appendsToADocumentItCreated()
{
    QFETCH(QString, format);
    const ToolResult created =
        call(QStringLiteral("docs_access"),
             {{QStringLiteral("action"), QStringLiteral("create")},
              {QStringLiteral("title"), QStringLiteral("Log")},
              {QStringLiteral("format"), format},
              {QStringLiteral("markdown"),
               QStringLiteral("First part.\n\n1. one\n\n| a |\n|---|\n| 1 |\n")}});
    QVERIFY2(created.ok, qPrintable(created.error));
    const QString document = created.output.toObject().value(QStringLiteral("document")).toString();
    const ToolResult appended =
        call(QStringLiteral("docs_access"),
             {{QStringLiteral("action"), QStringLiteral("append")},
              {QStringLiteral("document"), document},
              {QStringLiteral("markdown"),
               QStringLiteral(
                   "## Later\n\nSecond part with a [link](https://example.org/x).\n\n1. again\n\n"
                   "| b |\n|---|\n| 2 |\n")}});
    QVERIFY2(appended.ok, qPrintable(appended.error));
    QVERIFY(appended.generatedContent);
    // One file, its latest version.
    QCOMPARE(m_ctx->files().size(), 1);
    QCOMPARE(m_ctx->files().first().name, document);
    QVERIFY(m_ctx->files().first().objectId !=
            created.output.toObject().value(QStringLiteral("objectId")).toString());
    const Package p = unzipAll(bytesOf(appended));
    const QString bad = malformedPart(p);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    if (format == QLatin1String("docx")) {
        QVERIFY(checkOpc(p).isEmpty());
        const QByteArray body = p.parts.value(QStringLiteral("word/document.xml"));
        const auto paragraphs = wordParagraphs(body);
        QStringList seen;
        for (const auto &[style, text] : paragraphs)
            seen << text;
        QVERIFY2(seen.indexOf(QStringLiteral("First part.")) <
                     seen.indexOf(QStringLiteral("Later")),
                 qPrintable(seen.join(u'|')));
        QVERIFY(seen.contains(QStringLiteral("Second part with a link.")));
        // The body still ends with its section properties.
        QVERIFY(body.indexOf("Later") < body.indexOf("<w:sectPr"));
        // The second numbered list has a numbering of its own (it starts at 1 again), and
        // the link's relationship is there.
        const QStringList used =
            attributes(body, QStringLiteral("w:numId"), QStringLiteral("w:val"));
        QCOMPARE(used.size(), 2);
        QVERIFY(used.at(0) != used.at(1));
        const QStringList defined = attributes(p.parts.value(QStringLiteral("word/numbering.xml")),
                                               QStringLiteral("w:num"), QStringLiteral("w:numId"));
        for (const QString &id : used)
            QVERIFY(defined.contains(id));
        QVERIFY(p.parts.value(QStringLiteral("word/_rels/document.xml.rels"))
                    .contains("https://example.org/x"));
        QCOMPARE(texts(body, QStringLiteral("w:tc"), {QStringLiteral("w:t")}),
                 (QStringList{"a", "1", "b", "2"}));
    } else {
        QVERIFY(checkOdf(p, "application/vnd.oasis.opendocument.text").isEmpty());
        const QByteArray content = p.parts.value(QStringLiteral("content.xml"));
        QVERIFY(content.indexOf("First part.") < content.indexOf("Later"));
        // Table names stay unique.
        QCOMPARE(attributes(content, QStringLiteral("table:table"), QStringLiteral("table:name")),
                 (QStringList{"Table1", "Table2"}));
    }
}

void tst_DocTools::listsAndReadsTheRunsDocuments()
{
    m_ctx->documents().append({QStringLiteral("brief.pdf"), QStringLiteral("The brief's text.")});
    QVERIFY(
        call(
            QStringLiteral("docs_access"),
            parse(
                R"({"action":"create","title":"Notes","markdown":"# Notes\n\n| k | v |\n|---|---|\n| a | 1 |"})"))
            .ok);
    const ToolResult list = call(QStringLiteral("docs_access"), parse(R"({"action":"list"})"));
    QVERIFY2(list.ok, qPrintable(list.error));
    QVERIFY(!list.generatedContent);
    const QJsonArray docs = list.output.toObject().value(QStringLiteral("documents")).toArray();
    QCOMPARE(docs.size(), 2);
    QCOMPARE(docs.at(0).toObject().value(QStringLiteral("source")).toString(),
             QStringLiteral("input"));
    QCOMPARE(docs.at(1).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("notes.docx"));

    const ToolResult input =
        call(QStringLiteral("docs_access"), parse(R"({"action":"read","document":0})"));
    QCOMPARE(input.output.toObject().value(QStringLiteral("text")).toString(),
             QStringLiteral("The brief's text."));
    const ToolResult made =
        call(QStringLiteral("docs_access"), parse(R"({"action":"read","document":"notes.docx"})"));
    QVERIFY2(made.ok, qPrintable(made.error));
    QCOMPARE(made.output.toObject().value(QStringLiteral("text")).toString(),
             QStringLiteral("# Notes\n| k | v |\n| a | 1 |"));
    const ToolResult window = call(QStringLiteral("docs_access"),
                                   parse(R"({"action":"read","document":1,"offset":2,"limit":5})"));
    QCOMPARE(window.output.toObject().value(QStringLiteral("text")).toString(),
             QStringLiteral("Notes"));
    QVERIFY(window.output.toObject().value(QStringLiteral("more")).toBool());
}

void tst_DocTools::refusesBadArguments_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QByteArray>("args");
    QTest::addColumn<QString>("error");
    QTest::newRow("names a missing action")
        << "docs_access" << QByteArray(R"({"title":"x"})")
        << "docs_access: action must be one of list, read, create, append (it is missing)";
    QTest::newRow("names an unknown action")
        << "docs_access" << QByteArray(R"({"action":"delete"})")
        << "docs_access: action must be one of list, read, create, append, not \"delete\"";
    QTest::newRow("names a format it does not write")
        << "docs_access" << QByteArray(R"({"action":"create","markdown":"x","format":"pdf"})")
        << "docs_access: format must be docx or odt, not \"pdf\"";
    QTest::newRow("names markdown that is not text")
        << "docs_access" << QByteArray(R"({"action":"create","markdown":42})")
        << "docs_access: markdown must be a string, not a number";
    QTest::newRow("names a section's bullets that are not a list")
        << "docs_access"
        << QByteArray(R"({"action":"create","sections":[{"heading":"a"},{"bullets":"x"}]})")
        << "docs_access: sections[1].bullets must be an array of strings, not a string";
    QTest::newRow("names a bullet that is not text")
        << "docs_access" << QByteArray(R"({"action":"create","sections":[{"bullets":["a",{}]}]})")
        << "docs_access: sections[0].bullets[1] must be a string, not an object";
    QTest::newRow("names a heading level out of range")
        << "docs_access"
        << QByteArray(R"({"action":"create","sections":[{"heading":"a","level":9}]})")
        << "docs_access: sections[0].level must be an integer from 1 to 6";
    QTest::newRow("refuses a document without content")
        << "docs_access" << QByteArray(R"({"action":"create","title":"Empty","markdown":"  "})")
        << "docs_access: create needs content: markdown, text, sections or data (all were empty)";
    QTest::newRow("names the document it cannot find")
        << "docs_access" << QByteArray(R"({"action":"read","document":"nope.docx"})")
        << "docs_access: document: no document \"nope.docx\"; there are none";
    QTest::newRow("appends only to documents the run created")
        << "docs_access" << QByteArray(R"({"action":"append","markdown":"x"})")
        << "docs_access: document must name the document created in this run (.docx or .odt) "
           "(its name or index); there are none";
    QTest::newRow("names slides that are not a list")
        << "slides_access" << QByteArray(R"({"action":"create","slides":{"title":"a"}})")
        << "slides_access: slides must be an array of {title, bullets, notes}, not an object";
    QTest::newRow("names a bullet of a slide that is not text")
        << "slides_access"
        << QByteArray(R"({"action":"create","slides":[{"title":"a","bullets":["x",3]}]})")
        << "slides_access: slides[0].bullets[1] must be a string (or an array of strings: "
           "sub-bullets), not a number";
    QTest::newRow("names a slide with nothing on it")
        << "slides_access"
        << QByteArray(R"({"action":"create","slides":[{"title":"a"},{"notes":"n"}]})")
        << "slides_access: slides[1] needs a title or bullets";
    QTest::newRow("names a deck format it does not write")
        << "slides_access" << QByteArray(R"({"action":"create","markdown":"# a","format":"key"})")
        << "slides_access: format must be pptx or odp, not \"key\"";
    QTest::newRow("names titleSlide that is not a boolean")
        << "slides_access"
        << QByteArray(R"({"action":"create","markdown":"# a","titleSlide":"no"})")
        << "slides_access: titleSlide must be true or false, not a string";
    QTest::newRow("refuses a deck without slides")
        << "slides_access" << QByteArray(R"({"action":"create","title":"x"})")
        << "slides_access: create needs slides, markdown or data (all were empty)";
    QTest::newRow("names html that is not text")
        << "pdf_generator" << QByteArray(R"({"title":"x","html":["<p>"]})")
        << "pdf_generator: html must be a string, not an array";
    QTest::newRow("refuses a PDF without content")
        << "pdf_generator" << QByteArray(R"({"title":"x"})")
        << "pdf_generator: needs content: markdown, html or data (all were empty)";
}

void tst_DocTools::refusesBadArguments()
{
    QFETCH(QString, tool);
    QFETCH(QByteArray, args);
    QFETCH(QString, error);
    const ToolResult r = call(tool, QJsonDocument::fromJson(args).object());
    QVERIFY(!r.ok);
    QVERIFY(!r.generatedContent);
    QCOMPARE(r.error, error);
    QVERIFY(m_ctx->files().isEmpty());
}

void tst_DocTools::writesADeckWithATitleSlideBulletsAndNotes()
{
    const ToolResult r = call(QStringLiteral("slides_access"), parse(R"({"action":"create",
        "title":"Harbour Supplies","subtitle":"Spring range",
        "slides":[{"title":"Rope","bullets":["10 m","$12.50",["braided","blue"]],"notes":"Best seller"},
                  {"title":"Fender","bullets":["$24.00"]}]})"));
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.generatedContent);
    QCOMPARE(r.output.toObject().value(QStringLiteral("contentType")).toString(),
             DocumentTypes::pptx);
    QCOMPARE(r.output.toObject().value(QStringLiteral("slides")).toInt(), 3);
    const Package p = unzipAll(bytesOf(r));
    const QString bad = malformedPart(p);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    const QString opc = checkOpc(p);
    QVERIFY2(opc.isEmpty(), qPrintable(opc));
    const QStringList overrides =
        attributes(p.parts.value(QStringLiteral("[Content_Types].xml")), QStringLiteral("Override"),
                   QStringLiteral("PartName"));
    for (const char *part :
         {"/ppt/presentation.xml", "/ppt/slideMasters/slideMaster1.xml",
          "/ppt/slideLayouts/slideLayout1.xml", "/ppt/slideLayouts/slideLayout2.xml",
          "/ppt/theme/theme1.xml", "/ppt/slides/slide1.xml", "/ppt/slides/slide2.xml",
          "/ppt/slides/slide3.xml", "/ppt/notesMasters/notesMaster1.xml",
          "/ppt/notesSlides/notesSlide2.xml"})
        QVERIFY2(overrides.contains(QLatin1String(part)), part);

    // The slides in presentation.xml's order, through its relationships.
    const QByteArray presentation = p.parts.value(QStringLiteral("ppt/presentation.xml"));
    const QStringList ids =
        attributes(presentation, QStringLiteral("p:sldId"), QStringLiteral("r:id"));
    const auto rels =
        relationshipsOf(p.parts.value(QStringLiteral("ppt/_rels/presentation.xml.rels")));
    QStringList slides;
    for (const QString &id : ids)
        for (const Relationship &rel : rels)
            if (rel.id == id)
                slides << resolveTarget(QStringLiteral("ppt/presentation.xml"), rel.target);
    QCOMPARE(slides, (QStringList{"ppt/slides/slide1.xml", "ppt/slides/slide2.xml",
                                  "ppt/slides/slide3.xml"}));
    // The slide master and its layouts hang together, and the master's layout ids are unique.
    QCOMPARE(attributes(presentation, QStringLiteral("p:sldMasterId"), QStringLiteral("id")),
             QStringList{QStringLiteral("2147483648")});
    QCOMPARE(attributes(p.parts.value(QStringLiteral("ppt/slideMasters/slideMaster1.xml")),
                        QStringLiteral("p:sldLayoutId"), QStringLiteral("id")),
             (QStringList{"2147483649", "2147483650"}));

    // Each slide's title and bullets, in its own part.
    auto slideTexts = [&](int n) {
        return texts(p.parts.value(QStringLiteral("ppt/slides/slide%1.xml").arg(n)),
                     QStringLiteral("a:p"), {QStringLiteral("a:t")});
    };
    QCOMPARE(slideTexts(1), (QStringList{"Harbour Supplies", "Spring range"}));
    QCOMPARE(slideTexts(2), (QStringList{"Rope", "10 m", "$12.50", "braided", "blue"}));
    QCOMPARE(slideTexts(3), (QStringList{"Fender", "$24.00"}));
    const QByteArray slide2 = p.parts.value(QStringLiteral("ppt/slides/slide2.xml"));
    QCOMPARE(attributes(slide2, QStringLiteral("p:ph"), QStringLiteral("type")),
             (QStringList{"title", ""}));
    QCOMPARE(attributes(slide2, QStringLiteral("a:pPr"), QStringLiteral("lvl")),
             (QStringList{"1", "1"}));
    QCOMPARE(attributes(p.parts.value(QStringLiteral("ppt/slides/slide1.xml")),
                        QStringLiteral("p:ph"), QStringLiteral("type")),
             (QStringList{"ctrTitle", "subTitle"}));
    // The title slide uses the Title Slide layout, the others Title and Content.
    auto layoutOf = [&](int n) {
        for (const Relationship &rel : relationshipsOf(
                 p.parts.value(QStringLiteral("ppt/slides/_rels/slide%1.xml.rels").arg(n))))
            if (rel.type.endsWith(QLatin1String("/slideLayout")))
                return rel.target;
        return QString();
    };
    QCOMPARE(layoutOf(1), QStringLiteral("../slideLayouts/slideLayout1.xml"));
    QCOMPARE(layoutOf(2), QStringLiteral("../slideLayouts/slideLayout2.xml"));
    // The notes, on the notes slide of slide 2 only.
    QVERIFY(!p.parts.contains(QStringLiteral("ppt/notesSlides/notesSlide1.xml")));
    QVERIFY(texts(p.parts.value(QStringLiteral("ppt/notesSlides/notesSlide2.xml")),
                  QStringLiteral("a:p"), {QStringLiteral("a:t")})
                .contains(QStringLiteral("Best seller")));
}

void tst_DocTools::splitsMarkdownIntoSlidesAtHeadings()
{
    const ToolResult r = call(QStringLiteral("slides_access"), parse(R"({"action":"create",
        "title":"Report","markdown":"# Spring range\n\n## Rope\n\n- 10 m\n- $12.50\n\n## Fender\n\nRound and **tough**.\n\n| Size | Price |\n|---|---|\n| S | 20 |\n"})"));
    QVERIFY2(r.ok, qPrintable(r.error));
    const Package p = unzipAll(bytesOf(r));
    QVERIFY(checkOpc(p).isEmpty());
    auto slideTexts = [&](int n) {
        return texts(p.parts.value(QStringLiteral("ppt/slides/slide%1.xml").arg(n)),
                     QStringLiteral("a:p"), {QStringLiteral("a:t")});
    };
    // The lone level-1 heading is the title slide's subtitle; each level-2 heading a slide.
    QCOMPARE(slideTexts(1), (QStringList{"Report", "Spring range"}));
    QCOMPARE(slideTexts(2), (QStringList{"Rope", "10 m", "$12.50"}));
    QCOMPARE(slideTexts(3),
             (QStringList{"Fender", "Round and tough.", QStringLiteral("S \u2014 20")}));
    QVERIFY(!p.parts.contains(QStringLiteral("ppt/slides/slide4.xml")));
}

void tst_DocTools::makesASlidePerDataRow()
{
    const ToolResult r = call(QStringLiteral("slides_access"), parse(R"({"action":"create",
        "title":"Products","titleSlide":false,
        "data":{"products":[{"price":12.5,"name":"Rope, 10 m"},{"name":"Fender","price":24}]}})"));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.output.toObject().value(QStringLiteral("slides")).toInt(), 2);
    const Package p = unzipAll(bytesOf(r));
    QVERIFY(checkOpc(p).isEmpty());
    QCOMPARE(texts(p.parts.value(QStringLiteral("ppt/slides/slide1.xml")), QStringLiteral("a:p"),
                   {QStringLiteral("a:t")}),
             (QStringList{"Rope, 10 m", "price: 12.5"}));
    QCOMPARE(texts(p.parts.value(QStringLiteral("ppt/slides/slide2.xml")), QStringLiteral("a:p"),
                   {QStringLiteral("a:t")}),
             (QStringList{"Fender", "price: 24"}));
    // No notes: no notes master either.
    QVERIFY(!p.parts.contains(QStringLiteral("ppt/notesMasters/notesMaster1.xml")));
}

void tst_DocTools::continuesALongSlideOnTheNext()
{
    QJsonArray bullets;
    for (int i = 1; i <= 11; ++i)
        bullets.append(QStringLiteral("point %1").arg(i));
    const ToolResult r =
        call(QStringLiteral("slides_access"),
             {{QStringLiteral("action"), QStringLiteral("create")},
              {QStringLiteral("titleSlide"), false},
              {QStringLiteral("slides"),
               QJsonArray{QJsonObject{{QStringLiteral("title"), QStringLiteral("Many")},
                                      {QStringLiteral("bullets"), bullets}}}}});
    QVERIFY2(r.ok, qPrintable(r.error));
    const Package p = unzipAll(bytesOf(r));
    const QStringList second = texts(p.parts.value(QStringLiteral("ppt/slides/slide2.xml")),
                                     QStringLiteral("a:p"), {QStringLiteral("a:t")});
    QCOMPARE(second, (QStringList{"Many (cont.)", "point 9", "point 10", "point 11"}));
}

void tst_DocTools::writesAnOpenDocumentPresentation()
{
    const ToolResult r = call(QStringLiteral("slides_access"), parse(R"({"action":"create",
        "title":"Harbour Supplies","format":"odp",
        "slides":[{"title":"Rope","bullets":["10 m",["braided"]],"notes":"Best seller"},
                  {"title":"Fender","bullets":["$24.00"]}]})"));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.output.toObject().value(QStringLiteral("contentType")).toString(),
             DocumentTypes::odp);
    const Package p = unzipAll(bytesOf(r));
    const QString odf = checkOdf(p, "application/vnd.oasis.opendocument.presentation");
    QVERIFY2(odf.isEmpty(), qPrintable(odf));
    const QString bad = malformedPart(p);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    const QByteArray content = p.parts.value(QStringLiteral("content.xml"));
    QCOMPARE(attributes(content, QStringLiteral("draw:page"), QStringLiteral("draw:name")),
             (QStringList{"page1", "page2", "page3"}));
    // Every page names the master page styles.xml defines.
    QVERIFY(p.parts.value(QStringLiteral("styles.xml"))
                .contains("style:master-page style:name=\"Default\""));
    const QStringList pages =
        texts(content, QStringLiteral("draw:page"), {QStringLiteral("text:p")});
    QCOMPARE(pages,
             (QStringList{"Harbour Supplies", "Rope10 mbraidedBest seller", "Fender$24.00"}));
    QCOMPARE(
        attributes(content, QStringLiteral("draw:frame"), QStringLiteral("presentation:class")),
        (QStringList{"title", "title", "outline", "notes", "title", "outline"}));
}

void tst_DocTools::listsAndReadsTheRunsDecks()
{
    QVERIFY(
        call(
            QStringLiteral("slides_access"),
            parse(
                R"({"action":"create","title":"Deck","slides":[{"title":"One","bullets":["a"],"notes":"say a"}]})"))
            .ok);
    QVERIFY(
        call(
            QStringLiteral("slides_access"),
            parse(
                R"({"action":"create","title":"Deck","format":"odp","slides":[{"title":"Two","bullets":["b"]}]})"))
            .ok);
    const ToolResult list = call(QStringLiteral("slides_access"), parse(R"({"action":"list"})"));
    const QJsonArray decks = list.output.toObject().value(QStringLiteral("decks")).toArray();
    QCOMPARE(decks.size(), 2);
    QCOMPARE(decks.at(0).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("deck.pptx"));
    // A second file of the same title gets a name of its own.
    QCOMPARE(decks.at(1).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("deck.odp"));
    for (const QString &deck : {QStringLiteral("deck.pptx"), QStringLiteral("deck.odp")}) {
        const ToolResult read = call(
            QStringLiteral("slides_access"),
            {{QStringLiteral("action"), QStringLiteral("read")}, {QStringLiteral("deck"), deck}});
        QVERIFY2(read.ok, qPrintable(read.error));
        const QJsonArray slides = read.output.toObject().value(QStringLiteral("slides")).toArray();
        QCOMPARE(slides.size(), 2);
        QCOMPARE(slides.at(0).toObject().value(QStringLiteral("title")).toString(),
                 QStringLiteral("Deck"));
    }
    const ToolResult read =
        call(QStringLiteral("slides_access"), parse(R"({"action":"read","deck":0})"));
    const QJsonObject one =
        read.output.toObject().value(QStringLiteral("slides")).toArray().at(1).toObject();
    QCOMPARE(one.value(QStringLiteral("title")).toString(), QStringLiteral("One"));
    QCOMPARE(one.value(QStringLiteral("bullets")).toArray(), QJsonArray{QStringLiteral("a")});
    QCOMPARE(one.value(QStringLiteral("notes")).toString(), QStringLiteral("say a"));
    // The docs_access list does not show decks.
    QCOMPARE(call(QStringLiteral("docs_access"), parse(R"({"action":"list"})"))
                 .output.toObject()
                 .value(QStringLiteral("documents"))
                 .toArray()
                 .size(),
             0);
}

void tst_DocTools::printsAPdfOfMarkdown()
{
    const ToolResult r = call(
        QStringLiteral("pdf_generator"),
        parse(R"({"title":"Harbour report","markdown":"## Rope\n\nTen metres of **rope**."})"));
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.generatedContent);
    QCOMPARE(r.output.toObject().value(QStringLiteral("file")).toString(),
             QStringLiteral("harbour-report.pdf"));
    QCOMPARE(m_ctx->files().first().tool, QStringLiteral("pdf_generator"));
    const QByteArray pdf = bytesOf(r);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::loadFromData(pdf);
    QVERIFY(doc && !doc->isLocked());
    QCOMPARE(doc->numPages(), 1);
    const QString text = doc->page(0)->text(QRectF());
    for (const char *want : {"Harbour report", "Rope", "Ten metres of rope."})
        QVERIFY2(text.contains(QLatin1String(want)), qPrintable(text));
}

void tst_DocTools::printsAPdfOfDataRows()
{
    const ToolResult r = call(
        QStringLiteral("pdf_generator"),
        parse(R"({"title":"Stock","data":[{"name":"Rope","qty":3},{"name":"Anchor","qty":1}]})"));
    QVERIFY2(r.ok, qPrintable(r.error));
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::loadFromData(bytesOf(r));
    QVERIFY(doc);
    const QString text = doc->page(0)->text(QRectF());
    for (const char *want : {"Stock", "name", "qty", "Rope", "Anchor"})
        QVERIFY2(text.contains(QLatin1String(want)), qPrintable(text));
}

PH_WEBENGINE_TEST_MAIN(tst_DocTools)
#include "tst_doctools.moc"
