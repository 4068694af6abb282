// BuiltinTools, the one place registering the built-in tools (the registry itself,
// engine/Tool, knows no implementation): the sixteen tools, each once.
#include "engine/Tool.h"
#include "engine/tools/BuiltinTools.h"

#include <QtTest>

using namespace ph;

class tst_BuiltinTools : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void registersEachBuiltinToolOnce_data();
    void registersEachBuiltinToolOnce();
    void holdsTheSixteenBuiltinTools();
    void registersIntoARegistryItIsGiven();
};

void tst_BuiltinTools::registersEachBuiltinToolOnce_data()
{
    QTest::addColumn<QString>("tool");
    for (const char *name :
         {"act_on_tab", "crawl_and_extract_from_tab", "ask_user", "run_page_script",
          "generate_docs", "generate_pdfs", "screenshot", "generate_sheets", "generate_websites",
          "pdf_filling", "sheets_access", "create_sheet_from_data", "sheets_workflow",
          "docs_access", "slides_access", "pdf_generator"})
        QTest::addRow("the registry holds %s once", name) << QString::fromLatin1(name);
}

void tst_BuiltinTools::registersEachBuiltinToolOnce()
{
    QFETCH(QString, tool);
    const auto registry = engine::builtinTools();
    int n = 0;
    for (const engine::Tool *t : registry->all())
        n += t->name() == tool ? 1 : 0;
    QCOMPARE(n, 1);
}

void tst_BuiltinTools::holdsTheSixteenBuiltinTools()
{
    QCOMPARE(engine::builtinTools()->all().size(), 16);
}

void tst_BuiltinTools::registersIntoARegistryItIsGiven()
{
    engine::ToolRegistry registry;
    QVERIFY(registry.all().isEmpty());
    engine::registerBuiltinTools(registry);
    QCOMPARE(registry.all().size(), engine::builtinTools()->all().size());
    QVERIFY(registry.find(QStringLiteral("act_on_tab")));
}

QTEST_GUILESS_MAIN(tst_BuiltinTools)
#include "tst_builtintools.moc"
