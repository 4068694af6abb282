// The rule planner's strategies, each against a fake tab (tests/support/FakeTab.h): no
// browser, no service, milliseconds per row. The end-to-end runs through the real
// browser are in tst_agent.
#include "FakeTab.h"

#include "engine/planners/RulePlanner.h"

#include <QtTest>

using namespace ph;
using namespace ph::engine;
using namespace ph::test;

namespace {

const QString kHome = QStringLiteral("https://shop.example/");
const QString kList = QStringLiteral("https://shop.example/list");
const QString kList2 = QStringLiteral("https://shop.example/list?page=2");
const QString kList3 = QStringLiteral("https://shop.example/list?page=3");
const QString kLogin = QStringLiteral("https://shop.example/login");
const QString kOrders = QStringLiteral("https://shop.example/orders");

QJsonObject jsonSchema(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

const char *kProducts = R"({"type":"array","items":{"type":"object",
    "properties":{"name":{"type":"string"},"price":{"type":"number"}}}})";

QJsonObject product(const QString &name, double price)
{
    return {{QStringLiteral("name"), name}, {QStringLiteral("price"), price}};
}

QJsonArray loginFields()
{
    return {QJsonObject{{QStringLiteral("key"), QStringLiteral("email")},
                        {QStringLiteral("label"), QStringLiteral("Email")},
                        {QStringLiteral("id"), QStringLiteral("e2")}},
            QJsonObject{{QStringLiteral("key"), QStringLiteral("password")},
                        {QStringLiteral("label"), QStringLiteral("Password")},
                        {QStringLiteral("id"), QStringLiteral("e3")},
                        {QStringLiteral("secret"), true}}};
}

// A small shop: a home page with a search box and links, a paged list of products, a
// sign-in page that leads to the orders.
FakeTab shop()
{
    FakeTab tab;
    FakePage home;
    home.title = QStringLiteral("Shop");
    home.markdown = QStringLiteral("# Shop\n\nEverything for a small boat.");
    home.search = QStringLiteral("https://shop.example/search");
    home.links.insert(QStringLiteral("Products"), kList);
    home.links.insert(QStringLiteral("Sign in"), kLogin);
    tab.pages.insert(kHome, home);
    FakePage list;
    list.items = {product(QStringLiteral("Rope"), 12.5), product(QStringLiteral("Fender"), 24)};
    list.next = kList2;
    tab.pages.insert(kList, list);
    FakePage list2;
    list2.items = {product(QStringLiteral("Anchor"), 80)};
    list2.next = kList3;
    tab.pages.insert(kList2, list2);
    FakePage list3;
    list3.items = {product(QStringLiteral("Cleat"), 6)};
    tab.pages.insert(kList3, list3);
    FakePage results;
    results.items = {product(QStringLiteral("Rope"), 12.5)};
    tab.pages.insert(QStringLiteral("https://shop.example/search?q=rope"), results);
    FakePage login;
    login.fields = loginFields();
    login.submit = QStringLiteral("Sign in");
    login.credentials = {{QStringLiteral("email"), QStringLiteral("ann@example.org")},
                         {QStringLiteral("password"), QStringLiteral("s3cret")}};
    login.afterLogin = kOrders;
    tab.pages.insert(kLogin, login);
    FakePage orders;
    orders.markdown = QStringLiteral("# Your orders\n\nOrder 17: Rope");
    orders.items = {product(QStringLiteral("Order 17"), 12.5)};
    tab.pages.insert(kOrders, orders);
    return tab;
}

struct Run
{
    FakeContext ctx;
    FakeTab tab = shop();
    std::unique_ptr<RulePlanner> planner;

    Run(const QString &task, const QStringList &urls, const QJsonObject &schema = {},
        const QStringList &tools = {})
    {
        ctx.m_request.input = task;
        ctx.m_request.urls = urls;
        ctx.m_request.schema = schema;
        ctx.m_request.additionalTools = tools;
        TaskContext tc;
        tc.urls = urls;
        tc.hasSchema = !schema.isEmpty();
        tc.additionalTools = tools;
        planner = std::make_unique<RulePlanner>(task, tc, schema);
    }
    PlannerOutcome go(const QJsonObject &answers = {})
    {
        return drive(*planner, ctx, tab, answers);
    }
};

QStringList names(const std::optional<QJsonValue> &json)
{
    QStringList out;
    for (const QJsonValue &v : json.value_or(QJsonValue()).toArray())
        out << v.toObject().value(QStringLiteral("name")).toString();
    return out;
}

} // namespace

class tst_RulePlanner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsThePageAsText();
    void extractsItemsShapedByTheSchema();
    void followsNextPagesWhenAsked_data();
    void followsNextPagesWhenAsked();
    void actsOnThePageInTheOrderWritten();
    void searchesTheSiteThenExtracts();
    void signsInWithCredentialsFromTheTask();
    void asksForCredentialsTheTaskDoesNotGive();
    void continuesWithTheAnswersGiven();
    void reportsAFailedSignIn();
    void looksForASignInFormWhenNothingWasFound();
    void reportsAFailedStep();
    void asksForAPageWhenTheTaskNamesNone();
    void refusesAPagelessTaskWithoutAskQuestions();
    void readsTheSheetsWhenThereIsNoPage();
    void resumesFromSavedState();
    void signsInStepByStep_data();
    void signsInStepByStep();
    void endsErrorWhenNoDataCameBack();
    void keepsPartialDataWithTypedWarnings();
    void doesEveryActionKindInOrder();
    void worksThroughEachRowOfTheSheet();
    void writesTheResultIntoAGeneratedFile();
    void writesTheFilesTheTaskAsksFor_data();
    void writesTheFilesTheTaskAsksFor();
    void endsErrorWhenTheFileCouldNotBeWritten();
    void writesTheFileAfterAskingForThePage();
    void fillsAFormWithoutOpeningAPage();
    void reportsAMissingSearchBox();
    void endsErrorOnWhatItHasNoStepFor();
};

void tst_RulePlanner::readsThePageAsText()
{
    Run run(QStringLiteral("Read the page"), {kHome});
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QVERIFY2(out.text.contains(QStringLiteral("Everything for a small boat")),
             qPrintable(out.text));
    QCOMPARE(out.calls, (QStringList{"act_on_tab:navigate", "crawl_and_extract_from_tab"}));
}

void tst_RulePlanner::extractsItemsShapedByTheSchema()
{
    Run run(QStringLiteral("List the products"), {kList}, jsonSchema(kProducts));
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(names(out.json), (QStringList{"Rope", "Fender"}));
    QVERIFY2(out.text.contains(QStringLiteral("2 items")), qPrintable(out.text));
}

void tst_RulePlanner::followsNextPagesWhenAsked_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("reads only the first page when pages are not mentioned")
        << "List the products" << QStringList{"Rope", "Fender"};
    QTest::newRow("follows every page")
        << "List the products on every page" << QStringList{"Rope", "Fender", "Anchor", "Cleat"};
    QTest::newRow("stops at the number of pages asked for")
        << "List the products on the first 2 pages" << QStringList{"Rope", "Fender", "Anchor"};
}

void tst_RulePlanner::followsNextPagesWhenAsked()
{
    QFETCH(QString, task);
    QFETCH(QStringList, expected);
    Run run(task, {kList}, jsonSchema(kProducts));
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(names(out.json), expected);
}

void tst_RulePlanner::actsOnThePageInTheOrderWritten()
{
    Run run(QStringLiteral("Type \"rope\" into \"e9\", click \"Products\" and list the products"),
            {kHome}, jsonSchema(kProducts));
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(run.tab.log.mid(0, 3),
             (QStringList{"navigate https://shop.example/", "type e9", "click Products"}));
    QCOMPARE(run.tab.typed.value(QStringLiteral("e9")).toString(), QStringLiteral("rope"));
    QCOMPARE(names(out.json), (QStringList{"Rope", "Fender"}));
}

void tst_RulePlanner::searchesTheSiteThenExtracts()
{
    Run run(QStringLiteral("Search for \"rope\" and list the results"), {kHome},
            jsonSchema(kProducts));
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QVERIFY(run.tab.log.contains(QStringLiteral("search rope")));
    QCOMPARE(names(out.json), QStringList{"Rope"});
}

void tst_RulePlanner::signsInWithCredentialsFromTheTask()
{
    Run run(QStringLiteral("Sign in with email \"ann@example.org\" and password \"s3cret\", then "
                           "read my orders"),
            {kLogin});
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QVERIFY(run.tab.signedIn);
    QVERIFY2(out.text.contains(QStringLiteral("Order 17")), qPrintable(out.text));
    QVERIFY(out.asked.isEmpty());
}

void tst_RulePlanner::asksForCredentialsTheTaskDoesNotGive()
{
    Run run(QStringLiteral("Sign in and read my orders"), {kLogin});
    const PlannerOutcome out = run.go();
    QVERIFY(out.waitingForInput);
    QCOMPARE(out.asked.size(), 1);
    const QJsonObject asked = out.asked.first();
    QCOMPARE(asked.keys(), (QStringList{"email", "password"}));
    QVERIFY(asked.value(QStringLiteral("password"))
                .toObject()
                .value(QStringLiteral("secret"))
                .toBool());
    QVERIFY(!run.tab.signedIn);
}

void tst_RulePlanner::continuesWithTheAnswersGiven()
{
    Run run(QStringLiteral("Sign in and read my orders"), {kLogin});
    const PlannerOutcome out = run.go({{QStringLiteral("email"), QStringLiteral("ann@example.org")},
                                       {QStringLiteral("password"), QStringLiteral("s3cret")}});
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QVERIFY(run.tab.signedIn);
    QVERIFY2(out.text.contains(QStringLiteral("Order 17")), qPrintable(out.text));
}

void tst_RulePlanner::reportsAFailedSignIn()
{
    Run run(QStringLiteral("Sign in with email \"ann@example.org\" and password \"wrong\", then "
                           "read my orders"),
            {kLogin});
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Fail));
    QVERIFY2(out.error.contains(QStringLiteral("signing in did not succeed")),
             qPrintable(out.error));
}

void tst_RulePlanner::looksForASignInFormWhenNothingWasFound()
{
    // The orders page shows a sign-in form and nothing else until one signs in: the
    // first extraction finds nothing, the planner looks for a form, signs in with the
    // answers, and extracts again.
    Run run(QStringLiteral("List my orders"), {kLogin}, jsonSchema(kProducts));
    const PlannerOutcome out = run.go({{QStringLiteral("email"), QStringLiteral("ann@example.org")},
                                       {QStringLiteral("password"), QStringLiteral("s3cret")}});
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QVERIFY(out.calls.contains(QStringLiteral("act_on_tab:login_form")));
    QVERIFY(run.tab.signedIn);
    QCOMPARE(names(out.json), QStringList{"Order 17"});
}

void tst_RulePlanner::reportsAFailedStep()
{
    Run run(QStringLiteral("Open https://shop.example/missing and read it"), {});
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Fail));
    QVERIFY2(out.error.contains(QStringLiteral("404")), qPrintable(out.error));
}

void tst_RulePlanner::asksForAPageWhenTheTaskNamesNone()
{
    Run run(QStringLiteral("What do the products cost?"), {}, jsonSchema(kProducts),
            {QStringLiteral("ask_questions")});
    PlannerOutcome out = run.go();
    QVERIFY(out.waitingForInput);
    QVERIFY(out.asked.first().contains(QStringLiteral("url")));
    Run again(QStringLiteral("What do the products cost?"), {}, jsonSchema(kProducts),
              {QStringLiteral("ask_questions")});
    out = again.go({{QStringLiteral("url"), kList}});
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(names(out.json), (QStringList{"Rope", "Fender"}));
}

void tst_RulePlanner::refusesAPagelessTaskWithoutAskQuestions()
{
    Run run(QStringLiteral("What do the products cost?"), {});
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Fail));
    QVERIFY2(out.error.contains(QStringLiteral("names no page")), qPrintable(out.error));
}

// "Fill in the form and send it" with nothing to put in it, or "book a table" with no
// step: an error that says what is missing, before any page is opened — never the page
// read back as a success.
void tst_RulePlanner::endsErrorOnWhatItHasNoStepFor()
{
    QVERIFY(!RulePlanner::understood(QStringLiteral("Fill in the form and send it"), {}, false));
    Run run(QStringLiteral("Fill in the form and send it"), {kLogin});
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Fail));
    QVERIFY2(out.error.contains(QStringLiteral("cannot fill in the form")), qPrintable(out.error));
    QVERIFY2(out.error.contains(QStringLiteral("type \"Ada\" into")), qPrintable(out.error));
    QVERIFY(out.calls.isEmpty());
    // A transaction it has no step for says so the same way.
    Run booking(QStringLiteral("Book a table for two"), {kList});
    const PlannerOutcome booked = booking.go();
    QCOMPARE(int(booked.kind), int(Decision::Kind::Fail));
    QVERIFY2(booked.error.contains(QStringLiteral("cannot book a table for two: it has no step")),
             qPrintable(booked.error));
    QVERIFY(booked.calls.isEmpty());
}

void tst_RulePlanner::readsTheSheetsWhenThereIsNoPage()
{
    FakeContext ctx;
    ctx.m_request.input = QStringLiteral("Summarise the data");
    ctx.m_sheets.append(data::Sheet::fromStrings(QStringLiteral("Boats"), {"name", "length"},
                                                 {{"Ada", "7"}, {"Bea", "9"}}));
    TaskContext tc;
    tc.hasData = true;
    RulePlanner planner(ctx.m_request.input, tc, {});
    FakeTab tab;
    const PlannerOutcome out = drive(planner, ctx, tab);
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(out.calls, QStringList{"sheets_access:list"});
    QVERIFY2(out.text.contains(QStringLiteral("Bea")), qPrintable(out.text));
}

void tst_RulePlanner::resumesFromSavedState()
{
    // A run that waits for input is stored; a new planner restored from that state
    // carries on where the first stopped.
    Run first(QStringLiteral("Sign in and read my orders"), {kLogin});
    QVERIFY(first.go().waitingForInput);
    const QJsonObject state = first.planner->saveState();
    Run second(QStringLiteral("Sign in and read my orders"), {kLogin});
    second.planner->restoreState(state);
    second.tab.url = kLogin; // the page as the replay leaves it
    second.ctx.answers() = {{QStringLiteral("email"), QStringLiteral("ann@example.org")},
                            {QStringLiteral("password"), QStringLiteral("s3cret")}};
    second.planner->resumeWithAnswers(second.ctx);
    const PlannerOutcome out = drive(*second.planner, second.ctx, second.tab);
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QVERIFY(second.tab.signedIn);
    QVERIFY2(out.text.contains(QStringLiteral("Order 17")), qPrintable(out.text));
}

void tst_RulePlanner::signsInStepByStep_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QJsonObject>("answers");
    QTest::addColumn<bool>("signedIn");
    QTest::addColumn<QStringList>("asked");
    QTest::newRow("a password, then a one-time code asked for on its own")
        << "otp"
        << QJsonObject{{"email", "ann@example.org"}, {"password", "s3cret"}, {"code", "123456"}}
        << true << QStringList{"email,password", "code"};
    QTest::newRow("a wrong one-time code is reported, not retried")
        << "otp"
        << QJsonObject{{"email", "ann@example.org"}, {"password", "s3cret"}, {"code", "000000"}}
        << false << QStringList{"email,password", "code"};
    QTest::newRow("an emailed sign-in link is asked for as a secret and opened")
        << "magic_link"
        << QJsonObject{{"email", "ann@example.org"},
                       {"password", "s3cret"},
                       {"magic_link", "https://shop.example/orders"}}
        << true << QStringList{"email,password", "magic_link"};
}

void tst_RulePlanner::signsInStepByStep()
{
    QFETCH(QString, kind);
    QFETCH(QJsonObject, answers);
    QFETCH(bool, signedIn);
    QFETCH(QStringList, asked);
    Run run(QStringLiteral("Sign in and read my orders"), {kLogin});
    // After the password, the site asks for its second step.
    const QString second = QStringLiteral("https://shop.example/login/second");
    run.tab.pages[kLogin].afterLogin = second;
    FakePage step;
    step.loginKind = kind;
    if (kind == QLatin1String("otp")) {
        step.fields = {QJsonObject{{"key", "code"}, {"label", "Code"}, {"id", "e7"}}};
        step.submit = QStringLiteral("Verify");
        step.credentials = {{"code", "123456"}};
        step.afterLogin = kOrders;
    }
    run.tab.pages.insert(second, step);
    const PlannerOutcome out = run.go(answers);
    QStringList askedKeys;
    for (const QJsonObject &q : out.asked)
        askedKeys << q.keys().join(QLatin1Char(','));
    QCOMPARE(askedKeys, asked);
    QCOMPARE(run.tab.url == kOrders, signedIn);
    if (signedIn) {
        QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
        QVERIFY2(out.text.contains(QStringLiteral("Order 17")), qPrintable(out.text));
    } else {
        QCOMPARE(int(out.kind), int(Decision::Kind::Fail));
        QVERIFY2(out.error.contains(QStringLiteral("signing in did not succeed")),
                 qPrintable(out.error));
    }
    // The emailed link is a secret: it signs in.
    if (kind == QLatin1String("magic_link"))
        QVERIFY(out.asked.last()
                    .value(QStringLiteral("magic_link"))
                    .toObject()
                    .value(QStringLiteral("secret"))
                    .toBool());
}

void tst_RulePlanner::endsErrorWhenNoDataCameBack()
{
    // The schema asks for products; the page has none (and no sign-in form to try): the
    // run did not do what was asked, so it fails saying so, never a plain success.
    Run run(QStringLiteral("List the products"), {kHome}, jsonSchema(kProducts));
    run.tab.pages[kHome].missing = {QStringLiteral("name: no element matched")};
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Fail));
    QVERIFY2(out.error.contains(QStringLiteral("none of the data the schema asks for")),
             qPrintable(out.error));
    QVERIFY2(out.error.contains(QStringLiteral("name: no element matched")), qPrintable(out.error));
    QVERIFY(out.calls.contains(QStringLiteral("act_on_tab:login_form")));
}

void tst_RulePlanner::keepsPartialDataWithTypedWarnings()
{
    // Some data, some of it lacking: success with the data, and each gap and each value
    // that did not fit its field as a typed warning.
    Run run(QStringLiteral("List the products"), {kList}, jsonSchema(kProducts));
    run.tab.pages[kList].missing = {QStringLiteral("price: required, missing in item 2")};
    run.tab.pages[kList].warnings = {QStringLiteral("price: \"call us\" is not a number")};
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(names(out.json), (QStringList{"Rope", "Fender"}));
    QCOMPARE(run.ctx.m_warnings, (QStringList{"schema: price: required, missing in item 2",
                                              "value: price: \"call us\" is not a number"}));
}

void tst_RulePlanner::doesEveryActionKindInOrder()
{
    Run run(QStringLiteral("Select \"Large\" in \"Size\", check \"Gift wrap\", press Enter, wait "
                           "2 seconds, scroll down, then click \"Products\""),
            {kHome});
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(run.tab.log.mid(0, 7),
             (QStringList{"navigate https://shop.example/", "select Size", "check Gift wrap",
                          "press enter", "wait ", "scroll ", "click Products"}));
}

void tst_RulePlanner::worksThroughEachRowOfTheSheet()
{
    FakeContext ctx;
    ctx.m_request.input = QStringLiteral("For each row, open the url and read the title");
    ctx.m_sheets.append(
        data::Sheet::fromStrings(QStringLiteral("Sites"), {"url", "title"},
                                 {{"https://a.example/", "A"}, {"https://b.example/", "B"}}));
    TaskContext tc;
    tc.hasData = true;
    const QJsonObject schema = jsonSchema(R"({"type":"object","properties":{"sites":{"type":"array",
        "items":{"type":"object","properties":{"url":{"type":"string"},"title":{"type":"string"}}}}}})");
    tc.hasSchema = true;
    RulePlanner planner(ctx.m_request.input, tc, schema);
    FakeTab tab;
    const PlannerOutcome out = drive(planner, ctx, tab);
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(out.calls, QStringList{"sheets_workflow"});
    // The rows under the schema's one array property.
    const QJsonArray sites = out.json->toObject().value(QStringLiteral("sites")).toArray();
    QCOMPARE(sites.size(), 2);
    QCOMPARE(sites.at(1).toObject().value(QStringLiteral("title")).toString(), QStringLiteral("B"));
    QVERIFY2(out.text.contains(QStringLiteral("Worked through Sites")), qPrintable(out.text));
}

void tst_RulePlanner::writesTheResultIntoAGeneratedFile()
{
    Run run(QStringLiteral("List the products"), {kList}, jsonSchema(kProducts),
            {QStringLiteral("generate_sheets")});
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(out.calls.last(), QStringLiteral("generate_sheets"));
    // The file is written from the data extracted, and the answer says so.
    QCOMPARE(run.tab.log.last(), QStringLiteral("generate_sheets data"));
    QVERIFY2(out.text.contains(QStringLiteral("Wrote result with generate_sheets")),
             qPrintable(out.text));
}

void tst_RulePlanner::writesTheFilesTheTaskAsksFor_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<bool>("schema");
    QTest::addColumn<QStringList>("calls");
    QTest::addColumn<QStringList>("written");
    QTest::newRow("writes a Word document of the page's text")
        << "Read the products and make a Word document of it" << false
        << QStringList{"act_on_tab:navigate", "crawl_and_extract_from_tab", "docs_access:create"}
        << QStringList{"docs_access markdown docx"};
    QTest::newRow("writes slides of the products extracted")
        << "Read the products and make slides of them" << true
        << QStringList{"act_on_tab:navigate", "crawl_and_extract_from_tab", "slides_access:create"}
        << QStringList{"slides_access data pptx"};
    QTest::newRow("writes an OpenDocument presentation when it is named")
        << "List the products as an odp presentation" << true
        << QStringList{"act_on_tab:navigate", "crawl_and_extract_from_tab", "slides_access:create"}
        << QStringList{"slides_access data odp"};
    QTest::newRow("prints a PDF when asked as a PDF")
        << "List the products as a PDF" << true
        << QStringList{"act_on_tab:navigate", "crawl_and_extract_from_tab", "pdf_generator"}
        << QStringList{"pdf_generator data"};
    QTest::newRow("writes every file asked for, in order")
        << "List the products, write a .docx report, make slides and export them as a PDF" << true
        << QStringList{"act_on_tab:navigate", "crawl_and_extract_from_tab", "docs_access:create",
                       "slides_access:create", "pdf_generator"}
        << QStringList{"docs_access data docx", "slides_access data pptx", "pdf_generator data"};
}

void tst_RulePlanner::writesTheFilesTheTaskAsksFor()
{
    QFETCH(QString, task);
    QFETCH(bool, schema);
    QFETCH(QStringList, calls);
    QFETCH(QStringList, written);
    Run run(task, {kList}, schema ? jsonSchema(kProducts) : QJsonObject());
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(out.calls, calls);
    QCOMPARE(run.tab.log.mid(run.tab.log.size() - written.size()), written);
    // The answer says what was written.
    QVERIFY2(out.text.contains(
                 QStringLiteral("Wrote result with %1").arg(written.last().section(u' ', 0, 0))),
             qPrintable(out.text));
}

void tst_RulePlanner::endsErrorWhenTheFileCouldNotBeWritten()
{
    // The document tool refuses (as it does content it cannot write), and the run does not
    // end as if the document were there.
    FakeContext ctx;
    ctx.m_request.input = QStringLiteral("Click \"Products\" and make a Word document of it");
    ctx.m_request.urls = {kHome};
    TaskContext tc;
    tc.urls = ctx.m_request.urls;
    RulePlanner planner(ctx.m_request.input, tc, {});
    FakeTab tab = shop();
    // This fake writes nothing: the tool's answer is a failure naming the argument.
    struct Refusing
    {
        static engine::ToolResult run(FakeTab &t, const QString &tool, const QJsonObject &args)
        {
            if (tool == QLatin1String("docs_access"))
                return ToolResult::failure(
                    QStringLiteral("docs_access: create needs content: markdown, text, sections or "
                                   "data (all were empty)"));
            return t.run(tool, args);
        }
    };
    std::optional<ToolResult> last;
    QStringList calls;
    for (int step = 0; step < 20; ++step) {
        std::optional<Decision> d;
        planner.next(ctx, last ? &*last : nullptr, [&d](Decision x) { d = std::move(x); });
        QVERIFY(d);
        if (d->kind != Decision::Kind::Call) {
            QCOMPARE(int(d->kind), int(Decision::Kind::Fail));
            QVERIFY2(d->error.startsWith(
                         QStringLiteral("docs_access failed: docs_access: create needs content")),
                     qPrintable(d->error));
            QCOMPARE(calls.last(), QStringLiteral("docs_access"));
            return;
        }
        calls << d->tool;
        last = Refusing::run(tab, d->tool, d->args);
    }
    QFAIL("the planner did not end");
}

void tst_RulePlanner::writesTheFileAfterAskingForThePage()
{
    Run run(QStringLiteral("Make slides about the shop"), {}, {},
            {QStringLiteral("ask_questions")});
    const PlannerOutcome out = run.go({{QStringLiteral("url"), kList}});
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    // The page asked for is opened and read before the deck is written from it.
    QCOMPARE(out.calls, (QStringList{"ask_user", "act_on_tab:navigate",
                                     "crawl_and_extract_from_tab", "slides_access:create"}));
}

void tst_RulePlanner::fillsAFormWithoutOpeningAPage()
{
    // The form and its values go to pdf_filling alone: no page, no other generator.
    Run run(QStringLiteral("Fill the form at https://forms.example/a.pdf with city \"London\" "
                           "and check \"Subscribe\""),
            {}, {}, {QStringLiteral("pdf_filling"), QStringLiteral("generate_sheets")});
    QVERIFY(RulePlanner::understood(
        run.ctx.m_request.input,
        TaskContext{{}, false, false, {QStringLiteral("pdf_filling")}, false}, false));
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Finish));
    QCOMPARE(out.calls, QStringList{QStringLiteral("pdf_filling")});
    QCOMPARE(run.tab.log,
             QStringList{QStringLiteral(
                 "pdf_filling {\"url\":\"https://forms.example/a.pdf\",\"values\":{\"Subscribe\":"
                 "true,\"city\":\"London\"}}")});
    QCOMPARE(out.text, QStringLiteral("filled the form: a-filled.pdf"));
    QVERIFY(!out.json);
}

void tst_RulePlanner::reportsAMissingSearchBox()
{
    Run run(QStringLiteral("Search for \"rope\" and list the results"), {kList},
            jsonSchema(kProducts));
    const PlannerOutcome out = run.go();
    QCOMPARE(int(out.kind), int(Decision::Kind::Fail));
    QVERIFY2(out.error.contains(QStringLiteral("no search box")), qPrintable(out.error));
}

QTEST_GUILESS_MAIN(tst_RulePlanner)
#include "tst_ruleplanner.moc"
