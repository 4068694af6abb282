// pdf_filling: a hand-built AcroForm PDF (tests/support/PdfForms.h) served from a loopback
// fixture server or uploaded to POST /storage, filled by the tool through the egress
// policy, and the filled file opened again with poppler-qt6 to read what its fields hold.
// End to end: POST /agent through the rule planner (values written in the task, one form
// per CSV row) and through the LLM planner against a scripted model.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "ModelStub.h"
#include "PdfForms.h"
#include "TestMain.h"
#include "TestService.h"
#include "ToolHarness.h"

#include "data/Sheet.h"

#include <QFile>
#include <QJsonArray>

#include <poppler-form.h>
#include <poppler-qt6.h>

using namespace ph;
using namespace ph::test;

namespace {

// What each field of a PDF's form holds, read with poppler: text, "on"/"off" for
// buttons, the chosen options' names for choices.
QMap<QString, QString> formValues(const QByteArray &pdf)
{
    QMap<QString, QString> out;
    const std::unique_ptr<Poppler::Document> doc = Poppler::Document::loadFromData(pdf);
    if (!doc)
        return out;
    for (int p = 0; p < doc->numPages(); ++p) {
        for (const auto &f : doc->page(p)->formFields()) {
            switch (f->type()) {
            case Poppler::FormField::FormText:
                out.insert(f->name(), static_cast<Poppler::FormFieldText *>(f.get())->text());
                break;
            case Poppler::FormField::FormButton:
                out.insert(f->name(), static_cast<Poppler::FormFieldButton *>(f.get())->state()
                                          ? QStringLiteral("on")
                                          : QStringLiteral("off"));
                break;
            case Poppler::FormField::FormChoice: {
                auto *c = static_cast<Poppler::FormFieldChoice *>(f.get());
                QStringList chosen;
                for (const int i : c->currentChoices())
                    chosen << c->choices().value(i);
                out.insert(f->name(), chosen.join(u','));
                break;
            }
            default:
                break;
            }
        }
    }
    return out;
}

QString fieldsText(const QMap<QString, QString> &values)
{
    QStringList parts;
    for (auto it = values.begin(); it != values.end(); ++it)
        parts << it.key() + QLatin1Char('=') + it.value();
    return parts.join(QStringLiteral("; "));
}

} // namespace

class tst_PdfFilling : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void fillsTheFormAtAUrl();
    void namesFieldsByNameLabelOrWord_data();
    void namesFieldsByNameLabelOrWord();
    void warnsAboutFieldsItCannotFill();
    void failsWhenNothingCouldBeFilled();
    void fillsAnUploadOfTheKey();
    void fillsOneFormPerRow();
    void listsTheFields();
    void refusesWhatIsNoFormToFill_data();
    void refusesWhatIsNoFormToFill();
    void fillsAFormAskedForInTheTask();
    void fillsAFormPerCsvRowThroughTheRulePlanner();
    void fillsAFormThroughTheLlmPlanner();
    void shipsTheFixtureAsTheReadmesExample();

private:
    QString formUrl() const { return m_site.url(QStringLiteral("/forms/application.pdf")); }
    QByteArray download(const QJsonObject &response, int index = 0);

    FixtureServer m_site;
    ModelScript m_model;
    std::unique_ptr<TestService> m_ph;
};

void tst_PdfFilling::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.route("/forms/application.pdf", [](const FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "application/pdf"}};
        r.body = applicationFormPdf();
        return r;
    });
    m_site.route("/forms/plain.pdf", [](const FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "application/pdf"}};
        r.body = pdfWithoutForm();
        return r;
    });
    m_site.page("/forms/page.html", htmlPage(QStringLiteral("Form"), QStringLiteral("<form>")));
    m_model.serveOn(m_site);
    m_ph = std::make_unique<TestService>(QStringList{QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    // The fixture itself, as poppler reads it.
    QCOMPARE(formValues(applicationFormPdf()).value(QStringLiteral("reference")),
             QStringLiteral("REF-1"));
}

void tst_PdfFilling::cleanupTestCase()
{
    m_ph.reset();
}

QByteArray tst_PdfFilling::download(const QJsonObject &response, int index)
{
    const QJsonArray files =
        response[QStringLiteral("metadata")][QStringLiteral("generatedFiles")].toArray();
    const auto r = HttpClient().get(
        files.at(index).toObject().value(QStringLiteral("downloadUrl")).toString());
    return r.status == 200 ? r.body : QByteArray();
}

void tst_PdfFilling::fillsTheFormAtAUrl()
{
    ToolHarness h(*m_ph);
    const int hits = m_site.hits("/forms/application.pdf");
    const engine::ToolResult r =
        h.run(QStringLiteral("pdf_filling"),
              {{QStringLiteral("url"), formUrl()},
               {QStringLiteral("values"),
                QJsonObject{{QStringLiteral("full_name"), QStringLiteral("Ada Lovelace")},
                            {QStringLiteral("Email address"), QStringLiteral("ada@example.org")},
                            {QStringLiteral("subscribe"), true},
                            {QStringLiteral("country"), QStringLiteral("united kingdom")}}}});
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.generatedContent);
    QCOMPARE(r.usage.pages, 0);
    QCOMPARE(m_site.hits("/forms/application.pdf"), hits + 1);
    const QJsonObject filled = r.output.toObject().value(QStringLiteral("filled")).toObject();
    QCOMPARE(filled.value(QStringLiteral("full_name")).toString(), QStringLiteral("Ada Lovelace"));
    QCOMPARE(filled.value(QStringLiteral("email")).toString(), QStringLiteral("ada@example.org"));
    QCOMPARE(filled.value(QStringLiteral("subscribe")).toString(), QStringLiteral("yes"));
    QCOMPARE(filled.value(QStringLiteral("country")).toString(), QStringLiteral("United Kingdom"));
    QVERIFY(h.context().warnings().isEmpty());

    QCOMPARE(h.context().files().size(), 1);
    const engine::GeneratedFile f = h.context().files().first();
    QCOMPARE(f.tool, QStringLiteral("pdf_filling"));
    QCOMPARE(f.name, QStringLiteral("application-filled.pdf"));
    QCOMPARE(f.contentType, QStringLiteral("application/pdf"));
    const auto got = HttpClient().get(h.downloadUrl(f));
    QCOMPARE(got.status, 200);
    QCOMPARE(got.header("content-type"), QByteArray("application/pdf"));
    QVERIFY(got.body.startsWith("%PDF-"));
    const QMap<QString, QString> values = formValues(got.body);
    QCOMPARE(values.value(QStringLiteral("full_name")), QStringLiteral("Ada Lovelace"));
    QCOMPARE(values.value(QStringLiteral("email")), QStringLiteral("ada@example.org"));
    QCOMPARE(values.value(QStringLiteral("subscribe")), QStringLiteral("on"));
    QCOMPARE(values.value(QStringLiteral("country")), QStringLiteral("United Kingdom"));
    QCOMPARE(values.value(QStringLiteral("city")), QString());
    QCOMPARE(values.value(QStringLiteral("reference")), QStringLiteral("REF-1"));
    // poppler's writer keeps the original and appends the changes (an incremental update).
    QVERIFY(got.body.startsWith(applicationFormPdf()));
}

void tst_PdfFilling::namesFieldsByNameLabelOrWord_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("field");
    QTest::newRow("by its name") << "email"
                                 << "email";
    QTest::newRow("by its name in another case and spelling") << "Full Name"
                                                              << "full_name";
    QTest::newRow("by its label") << "Email address"
                                  << "email";
    QTest::newRow("by a word of its label") << "newsletter"
                                            << "subscribe";
    QTest::newRow("by the words of its name in camel case") << "fullName"
                                                            << "full_name";
}

void tst_PdfFilling::namesFieldsByNameLabelOrWord()
{
    QFETCH(QString, key);
    QFETCH(QString, field);
    ToolHarness h(*m_ph);
    const QString value =
        field == QLatin1String("subscribe") ? QStringLiteral("yes") : QStringLiteral("Grace");
    const engine::ToolResult r = h.run(QStringLiteral("pdf_filling"),
                                       {{QStringLiteral("url"), formUrl()},
                                        {QStringLiteral("values"), QJsonObject{{key, value}}}});
    QVERIFY2(r.ok, qPrintable(r.error));
    const QJsonObject filled = r.output.toObject().value(QStringLiteral("filled")).toObject();
    QCOMPARE(filled.keys(), QStringList{field});
}

void tst_PdfFilling::warnsAboutFieldsItCannotFill()
{
    ToolHarness h(*m_ph);
    const engine::ToolResult r =
        h.run(QStringLiteral("pdf_filling"),
              {{QStringLiteral("url"), formUrl()},
               {QStringLiteral("values"),
                QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                            {QStringLiteral("phone"), QStringLiteral("+44 20 7946 0000")},
                            {QStringLiteral("reference"), QStringLiteral("REF-2")},
                            {QStringLiteral("country"), QStringLiteral("Atlantis")},
                            {QStringLiteral("subscribe"), QStringLiteral("maybe")}}}});
    QVERIFY2(r.ok, qPrintable(r.error));
    const QString warnings = h.context().warnings().join(u'\n');
    QVERIFY2(warnings.contains(QLatin1String("the form has no field phone (its fields: full_name, "
                                             "email, city, reference, subscribe, country)")),
             qPrintable(warnings));
    QVERIFY2(warnings.contains(QLatin1String("reference: the field is read-only")),
             qPrintable(warnings));
    QVERIFY2(warnings.contains(QLatin1String(
                 "country: \"Atlantis\" is not one of France, Germany, United Kingdom")),
             qPrintable(warnings));
    QVERIFY2(warnings.contains(QLatin1String("subscribe: a checkbox takes yes or no")),
             qPrintable(warnings));
    const QJsonObject out = r.output.toObject();
    QCOMPARE(out.value(QStringLiteral("filled")).toObject().keys(),
             QStringList{QStringLiteral("email")});
    QCOMPARE(out.value(QStringLiteral("unknown")).toArray(), QJsonArray{QStringLiteral("phone")});
    const auto got = HttpClient().get(h.downloadUrl(h.context().files().first()));
    const QMap<QString, QString> values = formValues(got.body);
    QCOMPARE(values.value(QStringLiteral("email")), QStringLiteral("ada@example.org"));
    QCOMPARE(values.value(QStringLiteral("reference")), QStringLiteral("REF-1"));
    QCOMPARE(values.value(QStringLiteral("subscribe")), QStringLiteral("off"));
}

void tst_PdfFilling::failsWhenNothingCouldBeFilled()
{
    ToolHarness h(*m_ph);
    const engine::ToolResult r =
        h.run(QStringLiteral("pdf_filling"),
              {{QStringLiteral("url"), formUrl()},
               {QStringLiteral("values"),
                QJsonObject{{QStringLiteral("phone"), QStringLiteral("1")},
                            {QStringLiteral("reference"), QStringLiteral("REF-2")}}}});
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("no field could be filled (no field named phone; "
                                            "reference: the field is read-only)")),
             qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("full_name, email, city")), qPrintable(r.error));
    QVERIFY(h.context().files().isEmpty());

    const engine::ToolResult none =
        h.run(QStringLiteral("pdf_filling"), {{QStringLiteral("url"), formUrl()}});
    QVERIFY(!none.ok);
    QVERIFY2(none.error.contains(QLatin1String("needs values")), qPrintable(none.error));
}

void tst_PdfFilling::fillsAnUploadOfTheKey()
{
    HttpClient c = m_ph->client();
    const auto up = c.send("POST", QStringLiteral("/storage?name=application.pdf"),
                           applicationFormPdf(), {{"Content-Type", "application/pdf"}});
    QCOMPARE(up.status, 201);
    const QJsonObject ref = up.json().value(QStringLiteral("storageRef")).toObject();
    const QJsonObject values{{QStringLiteral("city"), QStringLiteral("London")}};

    ToolHarness byId(*m_ph);
    engine::ToolResult r =
        byId.run(QStringLiteral("pdf_filling"),
                 {{QStringLiteral("storageRef"),
                   QJsonObject{{QStringLiteral("id"), ref.value(QStringLiteral("id"))}}},
                  {QStringLiteral("values"), values}});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(formValues(HttpClient().get(byId.downloadUrl(byId.context().files().first())).body)
                 .value(QStringLiteral("city")),
             QStringLiteral("London"));

    // Its download link read as the stored object (not fetched over the network).
    ToolHarness byLink(*m_ph);
    r = byLink.run(QStringLiteral("pdf_filling"),
                   {{QStringLiteral("url"), ref.value(QStringLiteral("downloadUrl"))},
                    {QStringLiteral("values"), values}});
    QVERIFY2(r.ok, qPrintable(r.error));

    // Another key's upload is not found for this key.
    ToolHarness other(*m_ph, {}, m_ph->mintKey(100));
    r = other.run(QStringLiteral("pdf_filling"),
                  {{QStringLiteral("storageRef"),
                    QJsonObject{{QStringLiteral("id"), ref.value(QStringLiteral("id"))}}},
                   {QStringLiteral("values"), values}});
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("no stored object")), qPrintable(r.error));
}

void tst_PdfFilling::fillsOneFormPerRow()
{
    ToolHarness h(*m_ph);
    h.context().addSheet(data::Sheet::fromObjects(
        QStringLiteral("Applicants"),
        QJsonDocument::fromJson(R"([
            {"full_name": "Ada Lovelace", "email": "ada@example.org", "subscribe": "yes"},
            {"full_name": "Grace Hopper", "email": "grace@example.org", "subscribe": "no"},
            {"full_name": "", "email": "", "subscribe": ""}])")
            .array(),
        {QStringLiteral("full_name"), QStringLiteral("email"), QStringLiteral("subscribe")}));
    const engine::ToolResult r =
        h.run(QStringLiteral("pdf_filling"),
              {{QStringLiteral("url"), formUrl()},
               {QStringLiteral("rows"), QStringLiteral("applicants")},
               {QStringLiteral("values"),
                QJsonObject{{QStringLiteral("country"), QStringLiteral("France")}}}});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(h.context().files().size(), 3); // the empty row still gets the country
    QCOMPARE(r.output.toObject().value(QStringLiteral("files")).toArray().size(), 3);
    const QStringList names{QStringLiteral("Ada Lovelace"), QStringLiteral("Grace Hopper"),
                            QString()};
    for (int i = 0; i < 3; ++i) {
        const engine::GeneratedFile f = h.context().files().at(i);
        QCOMPARE(f.name, QStringLiteral("application-filled-%1.pdf").arg(i + 1));
        const QMap<QString, QString> values = formValues(HttpClient().get(h.downloadUrl(f)).body);
        QCOMPARE(values.value(QStringLiteral("full_name")), names[i]);
        QCOMPARE(values.value(QStringLiteral("country")), QStringLiteral("France"));
        QCOMPARE(values.value(QStringLiteral("subscribe")),
                 i == 0 ? QStringLiteral("on") : QStringLiteral("off"));
    }
}

void tst_PdfFilling::listsTheFields()
{
    ToolHarness h(*m_ph);
    const engine::ToolResult r = h.run(QStringLiteral("pdf_filling"),
                                       {{QStringLiteral("action"), QStringLiteral("list_fields")},
                                        {QStringLiteral("url"), formUrl()}});
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(!r.generatedContent);
    QVERIFY(h.context().files().isEmpty());
    const QJsonArray fields = r.output.toObject().value(QStringLiteral("fields")).toArray();
    QCOMPARE(fields.size(), 6);
    QCOMPARE(fields[0].toObject(),
             QJsonObject({{QStringLiteral("name"), QStringLiteral("full_name")},
                          {QStringLiteral("label"), QStringLiteral("Full name")},
                          {QStringLiteral("type"), QStringLiteral("text")},
                          {QStringLiteral("value"), QString()},
                          {QStringLiteral("page"), 1}}));
    QCOMPARE(fields[3].toObject().value(QStringLiteral("readOnly")).toBool(), true);
    QCOMPARE(fields[4].toObject().value(QStringLiteral("type")).toString(),
             QStringLiteral("checkbox"));
    QCOMPARE(fields[5].toObject().value(QStringLiteral("options")).toArray().size(), 3);
}

void tst_PdfFilling::refusesWhatIsNoFormToFill_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("privateTargets");
    QTest::addColumn<QString>("error");
    QTest::newRow("a PDF without a form")
        << "/forms/plain.pdf" << true << "the PDF has no form fields (AcroForm)";
    QTest::newRow("an HTML page") << "/forms/page.html" << true
                                  << "not a PDF: it does not start with %PDF-";
    QTest::newRow("a URL that answers 404")
        << "/forms/missing.pdf" << true << "could not be fetched: the server answered HTTP 404";
    QTest::newRow("a loopback URL for a key the network policy keeps off it")
        << "/forms/application.pdf" << false << "could not be fetched: the URL";
}

void tst_PdfFilling::refusesWhatIsNoFormToFill()
{
    QFETCH(QString, path);
    QFETCH(bool, privateTargets);
    QFETCH(QString, error);
    ToolHarness h(*m_ph, {}, m_ph->mintKey(100, privateTargets));
    const int hits = m_site.hits(path.toUtf8());
    const engine::ToolResult r = h.run(
        QStringLiteral("pdf_filling"),
        {{QStringLiteral("url"), m_site.url(path)},
         {QStringLiteral("values"), QJsonObject{{QStringLiteral("email"), QStringLiteral("x")}}}});
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(error), qPrintable(r.error));
    QVERIFY(h.context().files().isEmpty());
    if (!privateTargets)
        QCOMPARE(m_site.hits(path.toUtf8()), hits); // never reached
}

void tst_PdfFilling::fillsAFormAskedForInTheTask()
{
    HttpClient c = m_ph->client();
    const auto response = c.post(
        QStringLiteral("/agent"),
        {{QStringLiteral("input"),
          QStringLiteral("Fill the form at %1 with full name \"Ada Lovelace\" and email "
                         "\"ada@example.org\", select \"Germany\" from \"Country\" and check "
                         "\"Subscribe\"")
              .arg(formUrl())},
         {QStringLiteral("tools"), QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                                QJsonArray{QStringLiteral("pdf_filling")}}}},
         {QStringLiteral("response"),
          QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}}}});
    QCOMPARE(response.status, 200);
    const QJsonObject r = response.json();
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY2(!r.contains(QStringLiteral("warnings")),
             QJsonDocument(r.value(QStringLiteral("warnings")).toArray()).toJson().constData());
    QCOMPARE(r[QStringLiteral("metadata")][QStringLiteral("toolsUsed")].toArray(),
             QJsonArray{QStringLiteral("pdf_filling")});
    QCOMPARE(r[QStringLiteral("metadata")][QStringLiteral("planner")].toString(),
             QStringLiteral("rule"));
    const QJsonArray steps = r.value(QStringLiteral("steps")).toArray();
    QCOMPARE(steps.size(), 1);
    QCOMPARE(steps[0][QStringLiteral("toolName")].toString(), QStringLiteral("pdf_filling"));
    QVERIFY(steps[0][QStringLiteral("hasGeneratedContent")].toBool());
    // No page was opened: nothing to bill.
    QCOMPARE(r[QStringLiteral("usage")][QStringLiteral("creditsUsed")].toDouble(), 0.0);
    QVERIFY2(r[QStringLiteral("result")][QStringLiteral("text")].toString().contains(
                 QLatin1String("filled 4 fields of the form: application-filled.pdf")),
             qPrintable(r[QStringLiteral("result")][QStringLiteral("text")].toString()));
    const QMap<QString, QString> values = formValues(download(r));
    QCOMPARE(values.value(QStringLiteral("full_name")), QStringLiteral("Ada Lovelace"));
    QCOMPARE(values.value(QStringLiteral("email")), QStringLiteral("ada@example.org"));
    QCOMPARE(values.value(QStringLiteral("country")), QStringLiteral("Germany"));
    QCOMPARE(values.value(QStringLiteral("subscribe")), QStringLiteral("on"));

    // A field the form does not have: a warning, still success for what was filled.
    const auto partly = c.post(
        QStringLiteral("/agent"),
        {{QStringLiteral("input"),
          QStringLiteral("Fill out the PDF form at %1 with email \"ada@example.org\" and fax "
                         "\"none\"")
              .arg(formUrl())},
         {QStringLiteral("tools"), QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                                QJsonArray{QStringLiteral("pdf_filling")}}}}});
    QCOMPARE(partly.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY2(partly.json()
                 .value(QStringLiteral("warnings"))
                 .toArray()
                 .first()
                 .toString()
                 .contains(QLatin1String("no field fax")),
             partly.body.constData());

    // Nothing the form has: the run ends in error, not success.
    const auto nothing = c.post(
        QStringLiteral("/agent"),
        {{QStringLiteral("input"),
          QStringLiteral("Fill the form at %1 with fax \"none\"").arg(formUrl())},
         {QStringLiteral("tools"), QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                                QJsonArray{QStringLiteral("pdf_filling")}}}}});
    QCOMPARE(nothing.json().value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    QVERIFY2(nothing.json()
                 .value(QStringLiteral("error"))
                 .toString()
                 .contains(QLatin1String("no field could be filled")),
             nothing.body.constData());
    QVERIFY(!nothing.json()[QStringLiteral("metadata")].toObject().contains(
        QStringLiteral("generatedFiles")));
}

void tst_PdfFilling::fillsAFormPerCsvRowThroughTheRulePlanner()
{
    HttpClient c = m_ph->client();
    const auto response = c.post(
        QStringLiteral("/agent"),
        {{QStringLiteral("input"),
          QStringLiteral("Fill the form at %1 for each row, with country \"France\"")
              .arg(formUrl())},
         {QStringLiteral("dataInputs"),
          QJsonArray{QJsonObject{{QStringLiteral("inline"),
                                  QStringLiteral("Full name,Email\nAda Lovelace,ada@example.org\n"
                                                 "Grace Hopper,grace@example.org\n")},
                                 {QStringLiteral("format"), QStringLiteral("csv")},
                                 {QStringLiteral("description"), QStringLiteral("Applicants")}}}},
         {QStringLiteral("tools"), QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                                QJsonArray{QStringLiteral("pdf_filling")}}}},
         {QStringLiteral("response"),
          QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}}}});
    QCOMPARE(response.status, 200);
    const QJsonObject r = response.json();
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(r[QStringLiteral("metadata")][QStringLiteral("toolsUsed")].toArray(),
             QJsonArray{QStringLiteral("pdf_filling")});
    QVERIFY(r[QStringLiteral("steps")][0][QStringLiteral("hasGeneratedContent")].toBool());
    QCOMPARE(r[QStringLiteral("metadata")][QStringLiteral("generatedFiles")].toArray().size(), 2);
    const QMap<QString, QString> first = formValues(download(r, 0));
    const QMap<QString, QString> second = formValues(download(r, 1));
    QCOMPARE(first.value(QStringLiteral("full_name")), QStringLiteral("Ada Lovelace"));
    QCOMPARE(second.value(QStringLiteral("full_name")), QStringLiteral("Grace Hopper"));
    QCOMPARE(second.value(QStringLiteral("email")), QStringLiteral("grace@example.org"));
    QCOMPARE(second.value(QStringLiteral("country")), QStringLiteral("France"));
    QVERIFY2(fieldsText(second).contains(QLatin1String("city=;")), qPrintable(fieldsText(second)));
}

void tst_PdfFilling::fillsAFormThroughTheLlmPlanner()
{
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site.url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub-model")});
    QVERIFY(llm.ok());
    m_model.reset();
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("pdf_filling"),
                  {{QStringLiteral("action"), QStringLiteral("list_fields")},
                   {QStringLiteral("url"), formUrl()}})},
        300);
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c2"), QStringLiteral("pdf_filling"),
                  {{QStringLiteral("url"), formUrl()},
                   {QStringLiteral("values"),
                    QJsonObject{{QStringLiteral("full_name"), QStringLiteral("Ada Lovelace")},
                                {QStringLiteral("city"), QStringLiteral("London")}}}})},
        300);
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("done"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("The form is filled.")}})},
        200);
    HttpClient c = llm.client();
    const auto response =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"),
                 QStringLiteral("Ada Lovelace of London wants to apply: prepare her form %1")
                     .arg(formUrl())},
                {QStringLiteral("settings"),
                 QJsonObject{{QStringLiteral("planner"), QStringLiteral("llm")}}},
                {QStringLiteral("tools"), QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                                       QJsonArray{QStringLiteral("pdf_filling")}}}},
                {QStringLiteral("response"),
                 QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}}}});
    QCOMPARE(response.status, 200);
    const QJsonObject r = response.json();
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(r[QStringLiteral("metadata")][QStringLiteral("planner")].toString(),
             QStringLiteral("llm"));
    QCOMPARE(r[QStringLiteral("metadata")][QStringLiteral("toolsUsed")].toArray(),
             QJsonArray{QStringLiteral("pdf_filling")});
    const QJsonArray steps = r.value(QStringLiteral("steps")).toArray();
    QCOMPARE(steps.size(), 2);
    QVERIFY(!steps[0][QStringLiteral("hasGeneratedContent")].toBool()); // the listing
    QVERIFY(steps[1][QStringLiteral("hasGeneratedContent")].toBool());
    // The model was offered the tool with its parameters, and shown the fields it listed.
    const QJsonArray tools = m_model.requests[0].value(QStringLiteral("tools")).toArray();
    const auto offered = std::find_if(tools.begin(), tools.end(), [](const QJsonValue &t) {
        return t[QStringLiteral("function")][QStringLiteral("name")].toString() ==
               QLatin1String("pdf_filling");
    });
    QVERIFY(offered != tools.end());
    QVERIFY((*offered)[QStringLiteral("function")][QStringLiteral("parameters")]
                      [QStringLiteral("properties")]
                          .toObject()
                          .contains(QStringLiteral("values")));
    QVERIFY(QJsonDocument(m_model.requests[1]).toJson().contains("Email address"));
    const QMap<QString, QString> values = formValues(download(r));
    QCOMPARE(values.value(QStringLiteral("full_name")), QStringLiteral("Ada Lovelace"));
    QCOMPARE(values.value(QStringLiteral("city")), QStringLiteral("London"));
    // Model tokens are the run's only usage: 800 tokens, 0.8 credits.
    QCOMPARE(r[QStringLiteral("usage")][QStringLiteral("creditsUsed")].toDouble(), 0.8);
}

void tst_PdfFilling::shipsTheFixtureAsTheReadmesExample()
{
    QFile example(QStringLiteral(SOURCE_DIR "/docs/examples/application.pdf"));
    QVERIFY(example.open(QIODevice::ReadOnly));
    QCOMPARE(example.readAll(), applicationFormPdf());
}

PH_WEBENGINE_TEST_MAIN(tst_PdfFilling)
#include "tst_pdffilling.moc"
