// TaskParser: what the rule planner reads out of a task, without a browser. Each row
// is a task as a person writes it and the plan it must give, in a compact notation:
// the operations in order (open(url) click(target) type(text→target) …), then the
// plan's flags (+paginate, +max=N, +eachRow, +login, +direct, +steps, and +cannot(…) for
// a form the task asks to fill in or send without giving its values).
#include "engine/planners/TaskParser.h"

#include <QJsonDocument>
#include <QtTest>

using namespace ph::engine;

namespace {

QString describe(const TaskPlan &plan)
{
    QStringList parts;
    for (const TaskOp &op : plan.ops) {
        switch (op.kind) {
        case TaskOp::Kind::Open:
            parts << QStringLiteral("open(%1)").arg(op.a);
            break;
        case TaskOp::Kind::Click:
            parts << QStringLiteral("click(%1)").arg(op.a);
            break;
        case TaskOp::Kind::Type:
            parts << QStringLiteral("type(%1→%2)").arg(op.a, op.b);
            break;
        case TaskOp::Kind::Select:
            parts << QStringLiteral("select(%1→%2)").arg(op.a, op.b);
            break;
        case TaskOp::Kind::Check:
            parts << QStringLiteral("check(%1)").arg(op.a);
            break;
        case TaskOp::Kind::Uncheck:
            parts << QStringLiteral("uncheck(%1)").arg(op.a);
            break;
        case TaskOp::Kind::Press:
            parts << QStringLiteral("press(%1)").arg(op.a);
            break;
        case TaskOp::Kind::WaitText:
            parts << QStringLiteral("wait(%1)").arg(op.a);
            break;
        case TaskOp::Kind::WaitMs:
            parts << QStringLiteral("wait(%1ms)").arg(op.n);
            break;
        case TaskOp::Kind::Scroll:
            parts << QStringLiteral("scroll(%1)").arg(op.a);
            break;
        case TaskOp::Kind::Search:
            parts << QStringLiteral("search(%1)").arg(op.a);
            break;
        case TaskOp::Kind::Login:
            parts << QStringLiteral("login");
            break;
        case TaskOp::Kind::Extract:
            parts << (op.a.isEmpty() ? QStringLiteral("extract")
                                     : QStringLiteral("extract(%1)").arg(op.a));
            break;
        case TaskOp::Kind::SheetsWorkflow:
            parts << QStringLiteral("workflow");
            break;
        case TaskOp::Kind::Generate:
            if (!op.args.isEmpty())
                parts << QStringLiteral("generate(%1 %2)")
                             .arg(op.a, QString::fromUtf8(
                                            QJsonDocument(op.args).toJson(QJsonDocument::Compact)));
            else
                parts << (op.b.isEmpty() ? QStringLiteral("generate(%1)").arg(op.a)
                                         : QStringLiteral("generate(%1 %2)").arg(op.a, op.b));
            break;
        case TaskOp::Kind::Ask:
            parts << QStringLiteral("ask");
            break;
        case TaskOp::Kind::ReadSheets:
            parts << QStringLiteral("readSheets");
            break;
        }
    }
    if (plan.paginate)
        parts << QStringLiteral("+paginate");
    if (plan.maxPages > 0)
        parts << QStringLiteral("+max=%1").arg(plan.maxPages);
    if (plan.eachRow)
        parts << QStringLiteral("+eachRow");
    if (plan.loginIntent)
        parts << QStringLiteral("+login");
    if (plan.directExtraction)
        parts << QStringLiteral("+direct");
    if (plan.explicitSteps)
        parts << QStringLiteral("+steps");
    if (!plan.unfulfillable.isEmpty())
        parts << QStringLiteral("+cannot(%1)").arg(plan.unfulfillable);
    return parts.join(QLatin1Char(' '));
}

const QString kShop = QStringLiteral("https://shop.example/");

} // namespace

class tst_TaskParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsTasks_data();
    void readsTasks();
    void readsCredentialsWrittenInTheTask_data();
    void readsCredentialsWrittenInTheTask();
    void roundTripsOperationsThroughJson();
};

void tst_TaskParser::readsTasks_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QStringList>("urls");
    QTest::addColumn<bool>("hasSchema");
    QTest::addColumn<bool>("hasData");
    QTest::addColumn<QStringList>("tools");
    QTest::addColumn<QString>("plan");
    const QStringList shop{kShop};
    const QStringList none;

    QTest::newRow("reads a page when asked to read it")
        << "Read the page" << shop << false << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("extracts with a schema from a question")
        << "What do the products cost?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("lists the products directly")
        << "List the products" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("opens a URL written in the task")
        << "Open https://news.example/today and list the headlines" << none << false << false
        << none << "open(https://news.example/today) extract +direct";
    QTest::newRow("adds https to a bare host name")
        << "visit news.example then read it" << none << false << false << none
        << "open(https://news.example) extract +direct";
    QTest::newRow("does not take 'the link' for an address")
        << "Open the link" << shop << false << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("clicks a quoted button")
        << "Click \"Show details\"" << shop << false << false << none
        << "open(https://shop.example/) click(Show details) +steps";
    QTest::newRow("clicks then waits for a quoted text")
        << "Click \"Load\" then wait for \"Done\"" << shop << false << false << none
        << "open(https://shop.example/) click(Load) wait(Done) +steps";
    QTest::newRow("types into a field")
        << "Type \"rope\" into \"Search\" and press Enter" << shop << false << false << none
        << "open(https://shop.example/) type(rope→Search) press(enter) +steps";
    QTest::newRow("fills a field with a value")
        << "Fill in \"Email\" with \"a@b.example\"" << shop << false << false << none
        << "open(https://shop.example/) type(a@b.example→Email) +steps";
    QTest::newRow("selects an option")
        << "Select \"Blue\" in \"Colour\"" << shop << false << false << none
        << "open(https://shop.example/) select(Blue→Colour) +steps";
    QTest::newRow("ticks and unticks boxes")
        << "Tick \"Newsletter\"; untick \"Offers\"" << shop << false << false << none
        << "open(https://shop.example/) check(Newsletter) uncheck(Offers) +steps";
    QTest::newRow("presses a named key") << "press the escape key" << shop << false << false << none
                                         << "open(https://shop.example/) press(escape) +steps";
    QTest::newRow("waits a number of seconds") << "Wait 2 seconds" << shop << false << false << none
                                               << "open(https://shop.example/) wait(2000ms) +steps";
    QTest::newRow("waits milliseconds") << "wait for 250 ms" << shop << false << false << none
                                        << "open(https://shop.example/) wait(250ms) +steps";
    QTest::newRow("scrolls to the bottom")
        << "Scroll to the bottom" << shop << false << false << none
        << "open(https://shop.example/) scroll(bottom) +steps";
    QTest::newRow("searches for a quoted term")
        << "Search for \"fender\" and list the results" << shop << true << false << none
        << "open(https://shop.example/) search(fender) extract +direct";
    QTest::newRow("searches for an unquoted term")
        << "search rope" << shop << false << false << none
        << "open(https://shop.example/) search(rope) extract";
    QTest::newRow("follows every page")
        << "List all products on every page" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("follows the next links")
        << "Read every page, following the next links" << shop << false << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("caps the pages it follows")
        << "Get the first 3 pages of results" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=3 +direct";
    QTest::newRow("signs in when the task says so")
        << "Sign in and list my orders" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("reads 'log in to my account' as a sign-in")
        << "Log in to my account, then show the balance" << shop << false << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("works a sheet row by row")
        << "For each row, open the url and read the title" << none << false << true << none
        << "workflow +eachRow +direct";
    QTest::newRow("reads the sheets when there is no page")
        << "Summarise the data" << none << false << true << none << "readSheets +direct";
    QTest::newRow("asks for a page when there is none")
        << "What is the price?" << none << false << false << none << "ask";
    QTest::newRow("reads every URL given, the first in the tab")
        << "Read the pages" << QStringList{kShop, QStringLiteral("https://shop.example/about")}
        << false << false << none
        << "open(https://shop.example/) extract extract(https://shop.example/about) +direct";
    QTest::newRow("adds a generated sheet when the tool is on")
        << "List the products" << shop << true << false << QStringList{"generate_sheets"}
        << "open(https://shop.example/) extract generate(generate_sheets) +direct";
    // Files asked for in plain words: the spec's document tools, after the reading.
    QTest::newRow("makes a Word document when asked for one")
        << "Read the products and make a Word document of it" << shop << false << false << none
        << "open(https://shop.example/) extract generate(docs_access docx) +direct";
    QTest::newRow("writes a .docx report")
        << "Write a .docx report of the prices" << shop << false << false << none
        << "open(https://shop.example/) extract generate(docs_access docx)";
    QTest::newRow("writes an OpenDocument text when it is named")
        << "List the products as an OpenDocument text" << shop << false << false << none
        << "open(https://shop.example/) extract generate(docs_access odt) +direct";
    QTest::newRow("makes slides of what it read")
        << "Read the products and make slides of them" << shop << false << false << none
        << "open(https://shop.example/) extract generate(slides_access pptx) +direct";
    QTest::newRow("turns the page into a presentation")
        << "Turn the price list into a presentation" << shop << false << false << none
        << "open(https://shop.example/) extract generate(slides_access pptx)";
    QTest::newRow("makes a deck as .pptx")
        << "List the products as a .pptx" << shop << true << false << none
        << "open(https://shop.example/) extract generate(slides_access pptx) +direct";
    QTest::newRow("makes an OpenDocument deck when it is named")
        << "Make an ODP deck of the products" << shop << false << false << none
        << "open(https://shop.example/) extract generate(slides_access odp)";
    QTest::newRow("does not take slides on the page for a deck")
        << "List the water slides and their prices" << shop << false << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("makes a PDF when asked as a PDF")
        << "Export the products as a PDF" << shop << false << false << none
        << "open(https://shop.example/) extract generate(pdf_generator) +direct";
    QTest::newRow("makes a PDF when asked to make one")
        << "Collect the prices and make a PDF" << shop << false << false << none
        << "open(https://shop.example/) extract generate(pdf_generator) +direct";
    QTest::newRow("does not take a PDF to read for one to make")
        << "Summarise the PDF" << none << false << true << none << "readSheets +direct";
    QTest::newRow("makes each file asked for, in order")
        << "Make a Word document of the products, then turn it into slides and save it as a PDF"
        << shop << false << false << none
        << "open(https://shop.example/) extract generate(docs_access docx) "
           "generate(slides_access pptx) generate(pdf_generator) +direct";
    QTest::newRow("never reads a file to make inside quotes")
        << "Type \"make a pdf\" into \"Note\"" << shop << false << false << none
        << "open(https://shop.example/) type(make a pdf→Note) +steps";
    QTest::newRow("reads the page after explicit steps to write the file from it")
        << "Click \"Products\" and make a Word document of it" << shop << false << false << none
        << "open(https://shop.example/) click(Products) extract generate(docs_access docx) +steps";
    QTest::newRow("writes the file after the page it asks for")
        << "Make slides about the shop" << none << false << false << none
        << "ask generate(slides_access pptx)";
    QTest::newRow("adds a website when the tool is on")
        << "List the products" << shop << true << false << QStringList{"generate_websites"}
        << "open(https://shop.example/) extract generate(generate_websites) +direct";
    const QStringList pdf{QStringLiteral("pdf_filling")};
    QTest::newRow("fills a PDF form with the values written in the task")
        << "Fill the form at https://forms.example/apply.pdf with full name \"Ada Lovelace\" and "
           "email \"ada@example.org\""
        << none << false << false << pdf
        << "generate(pdf_filling {\"url\":\"https://forms.example/apply.pdf\",\"values\":{"
           "\"email\":\"ada@example.org\",\"full name\":\"Ada Lovelace\"}})";
    QTest::newRow("takes the steps a task names as the form's values")
        << "Fill out the PDF at https://forms.example/apply.pdf: type \"Ada\" into \"First "
           "name\", select \"Germany\" from \"Country\", check \"Subscribe\" and uncheck "
           "\"Marketing\""
        << none << false << false << pdf
        << "generate(pdf_filling {\"url\":\"https://forms.example/apply.pdf\",\"values\":{"
           "\"Country\":\"Germany\",\"First name\":\"Ada\",\"Marketing\":false,\"Subscribe\":"
           "true}})";
    QTest::newRow("fills the form given in urls with bare values")
        << "Complete the form with city: London, zip = SW1A 1AA"
        << QStringList{"https://forms.example/a.pdf"} << false << false << pdf
        << "generate(pdf_filling {\"url\":\"https://forms.example/a.pdf\",\"values\":{"
           "\"city\":\"London\",\"zip\":\"SW1A 1AA\"}})";
    QTest::newRow("fills one form per row of the data")
        << "Fill the form at https://forms.example/apply.pdf for each row" << none << false << true
        << pdf
        << "generate(pdf_filling {\"rows\":0,\"url\":\"https://forms.example/apply.pdf\"}) "
           "+eachRow";
    QTest::newRow("German: fülle das Formular aus")
        << "Fülle das Formular https://forms.example/antrag.pdf mit Name \"Ada\" und E-Mail "
           "\"ada@example.org\" aus"
        << none << false << false << pdf
        << "generate(pdf_filling {\"url\":\"https://forms.example/antrag.pdf\",\"values\":{"
           "\"E-Mail\":\"ada@example.org\",\"Name\":\"Ada\"}})";
    QTest::newRow("a form task with pdf_filling off is one it cannot do, not a page to read")
        << "Fill the form at https://forms.example/apply.pdf with name \"Ada\"" << none << false
        << false << none << "open(https://forms.example/apply.pdf) extract +cannot(Fill the form)";
    QTest::newRow("keeps filling a field on a page a browser step with pdf_filling on")
        << "Fill \"Email\" with \"ada@example.org\" and click \"Send\"" << shop << false << false
        << pdf << "open(https://shop.example/) type(ada@example.org→Email) click(Send) +steps";
    QTest::newRow("keeps semicolons inside quotes together")
        << "Type \"a; b\" into \"Note\"" << shop << false << false << none
        << "open(https://shop.example/) type(a; b→Note) +steps";
    // Search phrasings: the words naming the place are never part of the query.
    QTest::newRow("searches a place for a term without typing the place")
        << "Search the catalogue for brass sextants" << shop << false << false << none
        << "open(https://shop.example/) search(brass sextants) extract";
    QTest::newRow("searches in a place for a term and lists the results")
        << "search in the shop for rope and list the results" << shop << true << false << none
        << "open(https://shop.example/) search(rope) extract +direct";
    QTest::newRow("searches a site for a quoted term")
        << "Search shop.example for \"nautical charts\"" << shop << false << false << none
        << "open(https://shop.example/) search(nautical charts) extract";
    QTest::newRow("looks a term up in a place")
        << "Look up rope in the catalogue" << shop << false << false << none
        << "open(https://shop.example/) search(rope) extract";
    QTest::newRow("searches for a term on a place")
        << "Search for compasses on the shop, then list the results" << shop << false << false
        << none << "open(https://shop.example/) search(compasses) extract +direct";
    QTest::newRow("German: durchsuche den Katalog nach einem Begriff")
        << "Durchsuche den Katalog nach Sextant" << shop << false << false << none
        << "open(https://shop.example/) search(Sextant) extract";
    QTest::newRow("German: suche nach einem Begriff und liste die Ergebnisse")
        << "Suche nach \"Seil\" und liste die Ergebnisse" << shop << false << false << none
        << "open(https://shop.example/) search(Seil) extract +direct";
    QTest::newRow("German: suche einen Begriff auf der Seite")
        << "suche Kompass auf der Seite" << shop << false << false << none
        << "open(https://shop.example/) search(Kompass) extract";
    // Pagination phrasings.
    QTest::newRow("goes through every page of a listing")
        << "Go through every page of the listing and collect the names" << shop << true << false
        << none << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("reads until the last page")
        << "Read the listing until the last page" << shop << false << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("reads to the end")
        << "List the products, all the way to the end" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("pages through results")
        << "Page through the results and list every title" << shop << false << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("loads more until nothing is left")
        << "Keep loading more and list all products" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("reads the whole catalogue")
        << "Get the whole catalogue" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("German: alle Seiten")
        << "Liste alle Produkte auf allen Seiten" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("German: die ersten 2 Seiten")
        << "Hol die Produkte der ersten 2 Seiten" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=2 +direct";
    QTest::newRow("German: bis zum Ende")
        << "Sammle die Namen bis zum Ende der Liste" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("asks politely: please list")
        << "Please list the products" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("asks as a question: could you list")
        << "Could you list the products?" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("asks politely twice: can you please get me")
        << "Can you please get me the prices" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("asks kindly to extract")
        << "Kindly extract the product table" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("says what it needs") << "I need all the product names" << shop << true << false
                                        << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("says what it would like")
        << "I'd like the opening hours" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gives me every price")
        << "Give me every price on the page" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("shows me the headlines")
        << "Show me the headlines" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("scrapes the product list")
        << "Scrape the product list" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("fetches every title") << "Fetch every title" << shop << true << false << none
                                         << "open(https://shop.example/) extract +direct";
    QTest::newRow("returns the contact email")
        << "Return the contact email" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("summarizes the page without a schema")
        << "Summarize this page" << shop << false << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("collects email addresses")
        << "Collect the email addresses" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("finds all products under a price")
        << "Find all the products under 20 euros" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("a how-many question extracts")
        << "How many products are there?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("a which question extracts")
        << "Which items are on sale?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("a what-does-it-cost question extracts")
        << "What does the sextant cost?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("a yes-no question extracts") << "Is the rope in stock?" << shop << true << false
                                                << none << "open(https://shop.example/) extract";
    QTest::newRow("German: liste die Produkte")
        << "Liste die Produkte auf" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: zeige mir die Preise")
        << "Zeige mir die Preise" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: bitte hole alle Überschriften")
        << "Bitte hole alle Überschriften" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: sammle die Adressen")
        << "Sammle die E-Mail-Adressen" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: gib mir die Öffnungszeiten")
        << "Gib mir die Öffnungszeiten" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: welche Produkte gibt es")
        << "Welche Produkte gibt es?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("German: klicke auf einen Knopf")
        << "Klicke auf \"Anmelden\"" << shop << false << false << none
        << "open(https://shop.example/) click(Anmelden) +steps";
    QTest::newRow("clicks then lists")
        << "Click \"Sale\" and then list the products" << shop << true << false << none
        << "open(https://shop.example/) click(Sale) extract +direct +steps";
    QTest::newRow("types, presses Enter, then lists")
        << "Type \"rope\" into \"Search\", press Enter, then list the results" << shop << false
        << false << none
        << "open(https://shop.example/) type(rope→Search) press(enter) extract +direct +steps";
    QTest::newRow("selects a size and adds to the cart")
        << "Select \"Size M\" from \"Size\" and click \"Add to cart\"" << shop << false << false
        << none << "open(https://shop.example/) select(Size M→Size) click(Add to cart) +steps";
    QTest::newRow("signs in to download invoices")
        << "Log into my account and download my invoices" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("signs in with written credentials then lists")
        << "Sign in with email \"a@b.example\" and password \"pw\", then list my orders" << shop
        << true << false << none << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("German: melde mich an und zeige")
        << "Melde mich an und zeige meine Bestellungen" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("German: einloggen und Rechnungen")
        << "Einloggen und alle Rechnungen holen" << shop << true << false << none
        << "open(https://shop.example/) login extract +login";
    QTest::newRow("lists on all pages")
        << "List all products on all pages" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("caps at the first five pages")
        << "Get the first 5 pages of results" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=5 +direct";
    QTest::newRow("looks a quoted term up and lists")
        << "Look up \"brass compass\" and list the results" << shop << false << false << none
        << "open(https://shop.example/) search(brass compass) extract +direct";
    QTest::newRow("searches a term with no schema")
        << "Search for sextants" << shop << false << false << none
        << "open(https://shop.example/) search(sextants) extract";
    QTest::newRow("for every URL in the sheet, gets the title")
        << "For every URL in the sheet, get the title" << none << false << true << none
        << "workflow +eachRow +direct";
    QTest::newRow("opens each link and reads the title")
        << "Open each link and read the page title" << none << false << true << none
        << "workflow +eachRow +direct";
    QTest::newRow("German: für jede Zeile") << "Für jede Zeile die URL öffnen und den Titel lesen"
                                            << none << false << true << none << "workflow +eachRow";
    QTest::newRow("German: öffnet eine Adresse und liste")
        << "Öffne https://news.example und liste die Schlagzeilen" << none << false << false << none
        << "open(https://news.example) extract +direct";
    QTest::newRow("pulls names and prices")
        << "Pull all product names and prices from this page" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("grabs article titles")
        << "Grab the titles of every article" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("exports a table") << "Export the table to JSON" << shop << true << false << none
                                     << "open(https://shop.example/) extract +direct";
    QTest::newRow("copies contact details")
        << "Copy the contact details" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("captures job listings")
        << "Capture the job listings with salary and location" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gathers reviews")
        << "Gather all the reviews and their star ratings" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("retrieves events")
        << "Retrieve the list of upcoming events" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("saves headlines") << "Save every headline" << shop << true << false << none
                                     << "open(https://shop.example/) extract +direct";
    QTest::newRow("compiles vendors") << "Compile a list of all vendors" << shop << true << false
                                      << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("crawls for email addresses")
        << "Crawl the page for email addresses" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets me the cheapest price")
        << "Get me the price of the cheapest item" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("extracts fields for each product without data")
        << "Extract name, price and rating for each product" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("lists the top stories") << "List the top 10 stories" << shop << true << false
                                           << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("scrapes postings")
        << "Scrape the job title, company and location of each posting" << shop << true << false
        << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("returns the footer links")
        << "Return a JSON array of all links in the footer" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets an exchange rate")
        << "Get the current exchange rate" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("reads and summarises an article")
        << "Read the article and summarise it in three sentences" << shop << false << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("fetches a forecast")
        << "Fetch the weather forecast for tomorrow" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("shows comments") << "Show all comments under the post" << shop << true << false
                                    << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("downloads PDF links") << "Download the PDF links" << shop << true << false
                                         << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("a phone number question")
        << "What is the phone number of the store?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("an opening hours question")
        << "When does the shop open on Sunday?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("an author question") << "Who wrote this article?" << shop << true << false
                                        << none << "open(https://shop.example/) extract";
    QTest::newRow("a where question") << "Where is the nearest branch?" << shop << true << false
                                      << none << "open(https://shop.example/) extract";
    QTest::newRow("a shipping question") << "Does this product ship to Germany?" << shop << true
                                         << false << none << "open(https://shop.example/) extract";
    QTest::newRow("a discounts question") << "Are there any discounts right now?" << shop << true
                                          << false << none << "open(https://shop.example/) extract";
    QTest::newRow("a how-much question") << "How much is the shipping?" << shop << true << false
                                         << none << "open(https://shop.example/) extract";
    QTest::newRow("German: extrahiere") << "Extrahiere alle Produktnamen" << shop << true << false
                                        << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: hole mir") << "Hole mir die aktuellen Preise" << shop << true << false
                                      << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: lies und fasse zusammen")
        << "Lies den Artikel und fasse ihn zusammen" << shop << false << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: zeig mir") << "Zeig mir alle Bewertungen" << shop << true << false
                                      << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: sammle von der Seite")
        << "Sammle alle E-Mail-Adressen von der Seite" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: was kostet") << "Was kostet der Sextant?" << shop << true << false
                                        << none << "open(https://shop.example/) extract";
    QTest::newRow("German: wie viele") << "Wie viele Produkte gibt es?" << shop << true << false
                                       << none << "open(https://shop.example/) extract";
    QTest::newRow("logs in and exports")
        << "Log in and export my order history" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("signs into a dashboard")
        << "Sign into the dashboard and get the monthly revenue" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("logs in with written credentials")
        << "Login with user \"ada\" and password \"pw\" then show my balance" << shop << true
        << false << none << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("authenticates and lists")
        << "Authenticate and list the invoices" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("German: melde dich an")
        << "Melde dich an und lade die Rechnungen herunter" << shop << true << false << none
        << "open(https://shop.example/) login extract +login";
    QTest::newRow("my account page means signing in")
        << "Go to my account page and list the subscriptions" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("accepts cookies then lists")
        << "Click \"Accept cookies\" then list the products" << shop << true << false << none
        << "open(https://shop.example/) click(Accept cookies) extract +direct +steps";
    QTest::newRow("taps twice") << "Tap \"Menu\" and then tap \"Prices\"" << shop << false << false
                                << none
                                << "open(https://shop.example/) click(Menu) click(Prices) +steps";
    QTest::newRow("presses a quoted button")
        << "Press the \"Load\" button" << shop << false << false << none
        << "open(https://shop.example/) click(Load) +steps";
    QTest::newRow("fills and sends")
        << "Fill \"Name\" with \"Ada\" and click \"Send\"" << shop << false << false << none
        << "open(https://shop.example/) type(Ada→Name) click(Send) +steps";
    QTest::newRow("enters a postcode and presses Enter")
        << "Enter \"10115\" in \"Postcode\" and press Enter" << shop << false << false << none
        << "open(https://shop.example/) type(10115→Postcode) press(enter) +steps";
    QTest::newRow("chooses a currency then lists")
        << "Choose \"EUR\" from \"Currency\" then list the prices" << shop << true << false << none
        << "open(https://shop.example/) select(EUR→Currency) extract +direct +steps";
    QTest::newRow("agrees and continues")
        << "Check \"I agree\" and click \"Continue\"" << shop << false << false << none
        << "open(https://shop.example/) check(I agree) click(Continue) +steps";
    QTest::newRow("scrolls then lists")
        << "Scroll down and list the products" << shop << true << false << none
        << "open(https://shop.example/) scroll(down) extract +direct +steps";
    QTest::newRow("waits then reads")
        << "Wait 3 seconds, then read the page" << shop << false << false << none
        << "open(https://shop.example/) wait(3000ms) extract +direct +steps";
    QTest::newRow("waits for a text then lists")
        << "Wait for \"Results\" and list them" << shop << false << false << none
        << "open(https://shop.example/) wait(Results) extract +direct +steps";
    QTest::newRow("scrapes all pages of an archive")
        << "Scrape all pages of the blog archive" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("collects listings across all pages")
        << "Collect every listing across all pages" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("caps at ten pages")
        << "Get results from the first 10 pages" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=10 +direct";
    QTest::newRow("reads up to four pages")
        << "Read up to 4 pages of comments" << shop << false << false << none
        << "open(https://shop.example/) extract +paginate +max=4 +direct";
    QTest::newRow("follows the next page links")
        << "List products, following the next page links" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("extracts page by page")
        << "Extract everything, page by page" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("German: die ersten 3 Seiten")
        << "Die ersten 3 Seiten auslesen" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=3";
    QTest::newRow("German: alle Ergebnisseiten")
        << "Alle Ergebnisseiten durchgehen und die Titel sammeln" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate";
    QTest::newRow("searches a quoted phrase and extracts")
        << "Search for \"life jackets\" and extract the results" << shop << false << false << none
        << "open(https://shop.example/) search(life jackets) extract +direct";
    QTest::newRow("searches the site then collects")
        << "Search the site for rope, then collect names and prices" << shop << true << false
        << none << "open(https://shop.example/) search(rope) extract +direct";
    QTest::newRow("looks a quoted phrase up")
        << "Look up \"tide tables\"" << shop << false << false << none
        << "open(https://shop.example/) search(tide tables) extract";
    QTest::newRow("a bare search") << "Search anchors" << shop << false << false << none
                                   << "open(https://shop.example/) search(anchors) extract";
    QTest::newRow("German: such nach") << "Such nach Ankern" << shop << false << false << none
                                       << "open(https://shop.example/) search(Ankern) extract";
    QTest::newRow("visits each row's URL and gets the price")
        << "For each row, visit the URL and get the price" << none << false << true << none
        << "workflow +eachRow +direct";
    QTest::newRow("goes through every URL in the list")
        << "Go through every URL in the list and extract the title" << none << false << true << none
        << "workflow +eachRow +direct";
    QTest::newRow("German: für jeden Link")
        << "Für jeden Link den Titel holen" << none << false << true << none << "workflow +eachRow";
    QTest::newRow("summarises a spreadsheet with no page")
        << "Summarise the spreadsheet" << none << false << true << none << "readSheets +direct";
    QTest::newRow("a question about a spreadsheet with no page")
        << "What is the total of the revenue column?" << none << false << true << none
        << "readSheets";
    QTest::newRow("visits a bare host and summarises it")
        << "Visit example.org and summarize it" << none << false << false << none
        << "open(https://example.org) extract +direct";
    QTest::newRow("lists laptops under a price")
        << "List every laptop under 1000 euros" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets a phone's specs") << "Get the specs of this phone" << shop << true << false
                                          << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("extracts description and SKU")
        << "Extract the product description and SKU" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("finds all out-of-stock items")
        << "Find all items that are out of stock" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("collects prices for all sizes")
        << "Collect prices for all sizes" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("shows reviews sorted by date")
        << "Show the reviews sorted by date" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("returns shipping options")
        << "Return the shipping options and their costs" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets variants and availability")
        << "Get the variants and their availability" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("lists menu categories")
        << "List the categories in the menu" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("scrapes the bestsellers")
        << "Scrape the bestsellers" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("lists open positions")
        << "List all open positions with their location" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets salary ranges")
        << "Get the salary range for each job" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("collects job titles on all pages")
        << "Collect the job titles on all pages" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("extracts company names")
        << "Extract company names from the results" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("asks which jobs are remote") << "Which jobs are remote?" << shop << true << false
                                                << none << "open(https://shop.example/) extract";
    QTest::newRow("lists apartments")
        << "List the apartments with rent and size" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets listings across result pages")
        << "Get the listings across all result pages" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("asks how many rooms") << "How many rooms does the flat have?" << shop << true
                                         << false << none << "open(https://shop.example/) extract";
    QTest::newRow("gets today's headlines")
        << "Get today's headlines" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("reads the first article")
        << "Read the first article" << shop << false << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("summarizes the top story")
        << "Summarize the top story" << shop << false << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("lists authors of posts")
        << "List the authors of the latest posts" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("lists concerts")
        << "List upcoming concerts with dates and venues" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets ticket prices") << "Get the ticket prices" << shop << true << false << none
                                        << "open(https://shop.example/) extract +direct";
    QTest::newRow("finds cheap flights")
        << "Find all flights under 200 euros" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("shows hotel rates")
        << "Show the hotel rates for next weekend" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("extracts team contacts")
        << "Extract the names and emails of the team members" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("collects branch phone numbers")
        << "Collect the phone numbers of all branches" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("lists partners with websites")
        << "List every partner company with its website" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets an abstract and citations")
        << "Get the abstract and citation count" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("lists references") << "List the references" << shop << true << false << none
                                      << "open(https://shop.example/) extract +direct";
    QTest::newRow("gathers thread replies")
        << "Gather all replies in the thread" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets the top comments") << "Get the top 5 comments" << shop << true << false
                                           << none << "open(https://shop.example/) extract +direct";
    QTest::newRow("scrapes products from all 3 pages")
        << "Scrape products from all 3 pages" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=3 +direct";
    QTest::newRow("continues to the next page")
        << "Continue to the next page and list more items" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("keeps clicking next")
        << "Keep clicking next until there are no more pages" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate";
    QTest::newRow("goes through pages 1 to 5")
        << "Go through pages 1 to 5" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=5";
    QTest::newRow("a result count is not pagination")
        << "Get 50 results" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("types into the search box")
        << "Type \"rope\" into the search box and press Enter" << shop << true << false << none
        << "open(https://shop.example/) search(rope) press(enter) extract +steps";
    QTest::newRow("uses the search to find a term")
        << "Use the search to find \"anchor chain\"" << shop << false << false << none
        << "open(https://shop.example/) search(anchor chain) extract";
    QTest::newRow("finds a term using the search box")
        << "Find \"anchor chain\" using the search box" << shop << false << false << none
        << "open(https://shop.example/) search(anchor chain) extract";
    QTest::newRow("searches, then a semicolon and a list")
        << "search for fenders; list names and prices" << shop << true << false << none
        << "open(https://shop.example/) search(fenders) extract +direct";
    QTest::newRow("searches a quoted term on a site and returns")
        << "Search \"rope\" on shop.example and return the first result" << shop << true << false
        << none << "open(https://shop.example/) search(rope) extract +direct";
    QTest::newRow("uses written credentials")
        << "Use my credentials: email \"a@b.example\", password \"pw\", and list my orders" << shop
        << true << false << none << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("signs in as a user")
        << "Sign in as \"ada\" with \"s3cret\" and show my orders" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("logs me in") << "Log me in and get my points balance" << shop << true << false
                                << none
                                << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("opens my profile")
        << "Open my profile and read my address" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("tracks my orders") << "Track my orders" << shop << true << false << none
                                      << "open(https://shop.example/) login extract +login";
    QTest::newRow("German: öffne und klicke")
        << "Öffne die Seite und klicke auf \"Preise\"" << shop << false << false << none
        << "open(https://shop.example/) click(Preise) +steps";
    QTest::newRow("German: warte") << "Warte 2 Sekunden" << shop << false << false << none
                                   << "open(https://shop.example/) wait(2000ms) +steps";
    QTest::newRow("German: scrolle nach unten und liste")
        << "Scrolle nach unten und liste die Produkte" << shop << true << false << none
        << "open(https://shop.example/) scroll(down) extract +direct +steps";
    QTest::newRow("German: ganz nach unten")
        << "Scrolle ganz nach unten" << shop << false << false << none
        << "open(https://shop.example/) scroll(bottom) +steps";
    QTest::newRow("German: Zugangsdaten")
        << "Mit meinen Zugangsdaten anmelden und Rechnungen zeigen" << shop << true << false << none
        << "open(https://shop.example/) login extract +login";
    QTest::newRow("German: Preise vergleichen")
        << "Vergleiche die Preise aller Produkte" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("a task with a trailing please")
        << "List the products, please" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("shouting in capitals") << "LIST ALL PRODUCTS" << shop << true << false << none
                                          << "open(https://shop.example/) extract +direct";
    QTest::newRow("a task with no verb") << "products and prices" << shop << true << false << none
                                         << "open(https://shop.example/) extract";
    QTest::newRow("a one-word task")
        << "prices" << shop << true << false << none << "open(https://shop.example/) extract";
    QTest::newRow("an emoji does not confuse it")
        << "List the products 🙏" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("extra spaces do not confuse it")
        << "  list   the   products  " << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("lists the product names")
        << "List the product names" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("extracts the prices in the table")
        << "Extract the prices in the table" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets every blog post title")
        << "Get every blog post title" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("scrapes the store locations")
        << "Scrape the store locations" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("collects the FAQ questions and answers")
        << "Collect the FAQ questions and answers" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("lists the team members' roles")
        << "List the team members' roles" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("extracts the opening hours for each day")
        << "Extract the opening hours for each day" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets the menu items with prices")
        << "Get the menu items with prices" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("scrapes the course titles and durations")
        << "Scrape the course titles and durations" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("collects the release notes")
        << "Collect the release notes" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("lists the podcast episodes")
        << "List the podcast episodes" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("extracts the speakers and their talks")
        << "Extract the speakers and their talks" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("gets the property listings")
        << "Get the property listings" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("scrapes the car models with their mileage")
        << "Scrape the car models with their mileage" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("collects the recipes with cooking times")
        << "Collect the recipes with cooking times" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("polite: please could you list the products")
        << "Please could you list the products" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("polite: can you extract the prices please")
        << "Can you extract the prices please" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("polite: would you get me every title")
        << "Would you get me every title" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("polite: kindly scrape the table")
        << "Kindly scrape the table" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("polite: pls list the items")
        << "Pls list the items" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("polite: could you please return the contact details")
        << "Could you please return the contact details" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("polite: i would like a list of all events")
        << "I would like a list of all events" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("polite: i want the product names")
        << "I want the product names" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("polite: i need every link on this page")
        << "I need every link on this page" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("question: which products cost less than 20 euros")
        << "Which products cost less than 20 euros?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("question: what are the opening hours")
        << "What are the opening hours?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("question: how many reviews does it have")
        << "How many reviews does it have?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("question: who is the author") << "Who is the author?" << shop << true << false
                                                 << none << "open(https://shop.example/) extract";
    QTest::newRow("question: when is the next event")
        << "When is the next event?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("question: is there free shipping")
        << "Is there free shipping?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("question: what's the cheapest option")
        << "What's the cheapest option?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("question: which plan includes support")
        << "Which plan includes support?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("question: how long is the warranty")
        << "How long is the warranty?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("question: where can i pick it up")
        << "Where can I pick it up?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("German: liste alle termine auf")
        << "Liste alle Termine auf" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: zeige alle angebote")
        << "Zeige alle Angebote" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: hole die kontaktdaten")
        << "Hole die Kontaktdaten" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: sammle die produktbewertungen")
        << "Sammle die Produktbewertungen" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: extrahiere die tabelle")
        << "Extrahiere die Tabelle" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: gib mir die preise")
        << "Gib mir die Preise" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("German: welche kurse gibt es")
        << "Welche Kurse gibt es?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("German: wie teuer ist der versand")
        << "Wie teuer ist der Versand?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("German: was steht im impressum")
        << "Was steht im Impressum?" << shop << true << false << none
        << "open(https://shop.example/) extract";
    QTest::newRow("pagination: list all products on every page")
        << "List all products on every page" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("pagination: scrape the first 2 pages")
        << "Scrape the first 2 pages" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=2 +direct";
    QTest::newRow("pagination: get every result page")
        << "Get every result page" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("pagination: collect items over 6 pages")
        << "Collect items over 6 pages" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=6 +direct";
    QTest::newRow("pagination: extract the list until the end")
        << "Extract the list until the end" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("pagination: read pages 1 to 3")
        << "Read pages 1 to 3" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=3 +direct";
    QTest::newRow("pagination: alle seiten durchgehen")
        << "Alle Seiten durchgehen" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate";
    QTest::newRow("pagination: die ersten 4 seiten lesen")
        << "Die ersten 4 Seiten lesen" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +max=4";
    QTest::newRow("pagination: load more until everything is shown and list it")
        << "Load more until everything is shown and list it" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate +direct";
    QTest::newRow("pagination: paginate through the results")
        << "Paginate through the results" << shop << true << false << none
        << "open(https://shop.example/) extract +paginate";
    QTest::newRow("search: search for 'kayak' and list the results")
        << "Search for \"kayak\" and list the results" << shop << true << false << none
        << "open(https://shop.example/) search(kayak) extract +direct";
    QTest::newRow("search: search the store for paddles")
        << "search the store for paddles" << shop << false << false << none
        << "open(https://shop.example/) search(paddles) extract";
    QTest::newRow("search: look up life vests")
        << "Look up life vests" << shop << false << false << none
        << "open(https://shop.example/) search(life vests) extract";
    QTest::newRow("search: search for wetsuits, then extract the prices")
        << "Search for wetsuits, then extract the prices" << shop << true << false << none
        << "open(https://shop.example/) search(wetsuits) extract +direct";
    QTest::newRow("search: suche nach paddeln")
        << "Suche nach Paddeln" << shop << false << false << none
        << "open(https://shop.example/) search(Paddeln) extract";
    QTest::newRow("search: durchsuche die seite nach neopren")
        << "Durchsuche die Seite nach Neopren" << shop << false << false << none
        << "open(https://shop.example/) search(Neopren) extract";
    QTest::newRow("search: use the search box to find buoys")
        << "Use the search box to find buoys" << shop << false << false << none
        << "open(https://shop.example/) search(buoys) extract";
    QTest::newRow("steps: click 'next'") << "Click \"Next\"" << shop << false << false << none
                                         << "open(https://shop.example/) click(Next) +steps";
    QTest::newRow("steps: click on 'pricing' and list the plans")
        << "Click on \"Pricing\" and list the plans" << shop << false << false << none
        << "open(https://shop.example/) click(Pricing) extract +direct +steps";
    QTest::newRow("steps: type 'ada' into 'name'")
        << "Type \"ada\" into \"Name\"" << shop << false << false << none
        << "open(https://shop.example/) type(ada→Name) +steps";
    QTest::newRow("steps: select 'germany' from 'country'")
        << "Select \"Germany\" from \"Country\"" << shop << false << false << none
        << "open(https://shop.example/) select(Germany→Country) +steps";
    QTest::newRow("steps: press escape") << "Press Escape" << shop << false << false << none
                                         << "open(https://shop.example/) press(escape) +steps";
    QTest::newRow("steps: scroll up") << "Scroll up" << shop << false << false << none
                                      << "open(https://shop.example/) scroll(up) +steps";
    QTest::newRow("steps: wait 500 ms") << "Wait 500 ms" << shop << false << false << none
                                        << "open(https://shop.example/) wait(500ms) +steps";
    QTest::newRow("steps: untick 'newsletter'")
        << "Untick \"Newsletter\"" << shop << false << false << none
        << "open(https://shop.example/) uncheck(Newsletter) +steps";
    QTest::newRow("steps: click 'tab 2', then wait for 'loaded'")
        << "Click \"Tab 2\", then wait for \"Loaded\"" << shop << false << false << none
        << "open(https://shop.example/) click(Tab 2) wait(Loaded) +steps";
    QTest::newRow("steps: klicke auf 'weiter' und warte 1 sekunde")
        << "Klicke auf \"Weiter\" und warte 1 Sekunde" << shop << false << false << none
        << "open(https://shop.example/) click(Weiter) wait(1000ms) +steps";
    QTest::newRow("sign-in: sign in and list my bookings")
        << "Sign in and list my bookings" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("sign-in: log in, then get my invoices")
        << "Log in, then get my invoices" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("sign-in: login and show the dashboard")
        << "Login and show the dashboard" << shop << true << false << none
        << "open(https://shop.example/) login extract +login +direct";
    QTest::newRow("sign-in: sign in to see my orders")
        << "Sign in to see my orders" << shop << true << false << none
        << "open(https://shop.example/) login extract +login";
    QTest::newRow("sign-in: anmelden und bestellungen zeigen")
        << "Anmelden und Bestellungen zeigen" << shop << true << false << none
        << "open(https://shop.example/) login extract +login";
    QTest::newRow("sign-in: einloggen, dann die rechnungen holen")
        << "Einloggen, dann die Rechnungen holen" << shop << true << false << none
        << "open(https://shop.example/) login extract +login";
    QTest::newRow("a trailing full stop") << "List the products." << shop << true << false << none
                                          << "open(https://shop.example/) extract +direct";
    QTest::newRow("exclamation marks") << "list the products!!!" << shop << true << false << none
                                       << "open(https://shop.example/) extract +direct";
    QTest::newRow("two direct lines")
        << "Get the prices\nthen list the sizes" << shop << true << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("opens a docs URL and extracts")
        << "Open https://docs.example/api and extract the endpoints" << none << false << false
        << none << "open(https://docs.example/api) extract +direct";
    QTest::newRow("goes to a URL and collects")
        << "Go to https://blog.example/archive and collect all post titles" << none << false
        << false << none << "open(https://blog.example/archive) extract +direct";
    QTest::newRow("visits a host with a path")
        << "Visit shop.example/sale and list the discounted items" << none << false << false << none
        << "open(https://shop.example/sale) extract +direct";
    QTest::newRow("navigates then summarises")
        << "Navigate to https://news.example then summarise the top story" << none << false << false
        << none << "open(https://news.example) extract +direct";
    QTest::newRow("reads a URL written in the task")
        << "Read https://a.example/x" << none << false << false << none
        << "open(https://a.example/x) extract +direct";
    QTest::newRow("extracts from a URL written at the end")
        << "Extract the title from https://b.example/post" << none << false << false << none
        << "open(https://b.example/post) extract +direct";
    QTest::newRow("browses to a URL")
        << "Browse to https://c.example and list the links" << none << false << false << none
        << "open(https://c.example) extract +direct";
    QTest::newRow("splits steps written on separate lines")
        << "Click \"Menu\"\nClick \"Orders\"" << shop << false << false << none
        << "open(https://shop.example/) click(Menu) click(Orders) +steps";
    QTest::newRow("a form to fill in and send without values is a task it cannot do")
        << "Fill in the form and send it" << shop << false << false << none
        << "open(https://shop.example/) extract +cannot(Fill in the form)";
    QTest::newRow("a form to submit without values is a task it cannot do")
        << "Submit the contact form" << shop << false << false << none
        << "open(https://shop.example/) extract +cannot(Submit the contact form)";
    QTest::newRow("a form with values but no pdf_filling is a task it cannot do")
        << "Fill out the application form with name \"Ada\"" << shop << false << false << none
        << "open(https://shop.example/) extract +cannot(Fill out the application form)";
    QTest::newRow("a German form to fill in is a task it cannot do")
        << "Fülle das Formular aus und schicke es ab" << shop << false << false << none
        << "open(https://shop.example/) extract +cannot(Fülle das Formular)";
    QTest::newRow("a form whose values are steps is a task it can do")
        << "Type \"Ada\" into \"Name\" then click \"Send\" to submit the form" << shop << false
        << false << none << "open(https://shop.example/) type(Ada→Name) click(Send) +steps";
    QTest::newRow("reading a form is no request to send it")
        << "List the fields of the signup form" << shop << false << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("a booking with no step spelled out is a task it cannot do")
        << "Book a table for two at 7pm" << shop << false << false << none
        << "open(https://shop.example/) extract +cannot(Book a table for two at 7pm)";
    QTest::newRow("a purchase after a search is a task it cannot do")
        << "Search for rope and buy the cheapest one" << shop << false << false << none
        << "open(https://shop.example/) search(rope) extract +cannot(buy the cheapest one)";
    QTest::newRow("a purchase after signing in is a task it cannot do")
        << "Log in and add the rope to the cart" << shop << false << false << none
        << "open(https://shop.example/) login extract +login +cannot(add the rope to the cart)";
    QTest::newRow("a German order is a task it cannot do")
        << "Bestelle den Anker" << shop << false << false << none
        << "open(https://shop.example/) extract +cannot(Bestelle den Anker)";
    QTest::newRow("ordering a list by a column is sorting, not a purchase")
        << "List the products and order them by price" << shop << false << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("the order dates and the reply count are things to read, not acts")
        << "List the books and order dates, and the reply count" << shop << false << false << none
        << "open(https://shop.example/) extract +direct";
    QTest::newRow("a purchase spelled out as steps is a task it can do")
        << "Click \"Buy\" then click \"Confirm\"" << shop << false << false << none
        << "open(https://shop.example/) click(Buy) click(Confirm) +steps";
    QTest::newRow("a sign-in form is the sign-in flow's to fill")
        << "Log in and fill in the form" << shop << false << false << none
        << "open(https://shop.example/) login extract +login";
}

void tst_TaskParser::readsTasks()
{
    QFETCH(QString, task);
    QFETCH(QStringList, urls);
    QFETCH(bool, hasSchema);
    QFETCH(bool, hasData);
    QFETCH(QStringList, tools);
    QFETCH(QString, plan);
    TaskContext context;
    context.urls = urls;
    context.hasSchema = hasSchema;
    context.hasData = hasData;
    context.additionalTools = tools;
    QCOMPARE(describe(parseTask(task, context)), plan);
}

void tst_TaskParser::readsCredentialsWrittenInTheTask_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("an email after 'email'")
        << "Sign in with email \"ann@example.org\" and password \"s3cret\""
        << "email"
        << "ann@example.org";
    QTest::newRow("a password after 'password'")
        << "Sign in with email \"ann@example.org\" and password \"s3cret\""
        << "password"
        << "s3cret";
    QTest::newRow("a user name written 'user:'") << "Log in, user: \"ann\""
                                                 << "username"
                                                 << "ann";
    QTest::newRow("the German 'Passwort'") << "Anmelden mit Passwort \"geheim\""
                                           << "password"
                                           << "geheim";
}

void tst_TaskParser::readsCredentialsWrittenInTheTask()
{
    QFETCH(QString, task);
    QFETCH(QString, key);
    QFETCH(QString, value);
    const TaskPlan plan = parseTask(task, TaskContext{{kShop}, false, false, {}, false});
    QCOMPARE(plan.credentials.value(key).toString(), value);
}

void tst_TaskParser::roundTripsOperationsThroughJson()
{
    const TaskPlan plan = parseTask(
        QStringLiteral("Type \"rope\" into \"Search\", wait 2 seconds and list the results"),
        TaskContext{{kShop}, true, false, {}, false});
    QVERIFY(plan.ops.size() >= 3);
    for (const TaskOp &op : plan.ops) {
        const TaskOp back = TaskOp::fromJson(op.toJson());
        QCOMPARE(int(back.kind), int(op.kind));
        QCOMPARE(back.a, op.a);
        QCOMPARE(back.b, op.b);
        QCOMPARE(back.n, op.n);
    }
    // A form's values travel with its operation (a paused run resumes with them).
    const TaskPlan fill = parseTask(
        QStringLiteral("Fill the form at https://forms.example/a.pdf with city \"London\""),
        TaskContext{{}, false, false, {QStringLiteral("pdf_filling")}, false});
    QCOMPARE(fill.ops.size(), 1);
    QVERIFY(!fill.ops.first().args.isEmpty());
    QCOMPARE(TaskOp::fromJson(fill.ops.first().toJson()).args, fill.ops.first().args);
}

QTEST_GUILESS_MAIN(tst_TaskParser)
#include "tst_taskparser.moc"
