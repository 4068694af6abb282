// ToolLibrary on the real service's store (a SQLite file in a temporary directory),
// called directly: saved tools kept or refused with the typed error naming the field
// (nothing stored then), the script a saved tool runs, triggers created, refused,
// revoked and fired — what a firing runs, who may fire it, and that it is counted.
#include "TestMain.h"
#include "TestService.h"

#include "cloud/ToolLibrary.h"
#include "core/ApiKeyService.h"
#include "core/DomainError.h"
#include "core/Store.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace ph;
using namespace ph::cloud;
using namespace ph::test;

namespace {
QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

QJsonArray array(const char *json)
{
    return QJsonDocument::fromJson(json).array();
}

const QJsonObject kQueryParameters = object(
    R"({"type":"object","properties":{"query":{"type":"string"},
        "pages":{"type":"integer","default":2}},"required":["query"]})");

ToolDraft stepsTool(const QString &name)
{
    ToolDraft d;
    d.name = name;
    d.description = QStringLiteral("Searches the shop");
    d.parameters = kQueryParameters;
    d.steps = array(R"([{"tool":"act_on_tab","args":{"action":"navigate",
        "url":"https://shop.example/?q={{query}}"}},
        {"tool":"crawl_and_extract_from_tab","args":{"maxPages":"{{pages}}"}}])");
    return d;
}

ToolDraft pageTool(const QString &name)
{
    ToolDraft d;
    d.name = name;
    d.parameters = object(R"({"type":"object","properties":{"suffix":{"type":"string"}}})");
    d.code = QStringLiteral("return document.title + params.suffix;");
    d.url = QStringLiteral("https://shop.example/");
    return d;
}
} // namespace

Q_DECLARE_METATYPE(ToolDraft)
Q_DECLARE_METATYPE(TriggerDraft)

class tst_ToolLibrary : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void keepsATool_data();
    void keepsATool();
    void refusesAToolNamingTheField_data();
    void refusesAToolNamingTheField();
    void refusesASecondToolOfTheSameName();
    void replacesAndRemovesOnlyStoredTools();
    void buildsTheScriptASavedToolRuns();
    void buildsTheRunOfASavedTool();
    void refusesArgumentsThatDoNotFit();
    void refusesATriggerNamingTheField_data();
    void refusesATriggerNamingTheField();
    void firesATrigger_data();
    void firesATrigger();
    void refusesToFire_data();
    void refusesToFire();
    void revokesOnlyTheKeysOwnTrigger();

private:
    ToolLibrary &library() { return m_ph->service().toolLibrary(); }

    std::unique_ptr<TestService> m_ph;
    QString m_owner;
    QString m_user;
};

void tst_ToolLibrary::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_owner = m_ph->service().store().apiKeys().activeOwnerId();
    m_user = m_ph->service()
                 .keyService()
                 .mint({QStringLiteral("user"), QStringLiteral("user"), {}})
                 .key.id;
    QVERIFY(!m_owner.isEmpty());
    library().createTool(m_user, stepsTool(QStringLiteral("search")));
}

void tst_ToolLibrary::cleanupTestCase()
{
    m_ph.reset();
}

void tst_ToolLibrary::keepsATool_data()
{
    QTest::addColumn<ToolDraft>("draft");
    QTest::addColumn<QString>("kind");
    QTest::newRow("keeps browser steps with their parameters")
        << stepsTool(QStringLiteral("find")) << "subroutine";
    QTest::newRow("keeps JavaScript with the page it runs in")
        << pageTool(QStringLiteral("title")) << "javascript";
    ToolDraft bare = stepsTool(QStringLiteral("bare"));
    bare.parameters.reset();
    bare.steps = array(R"([{"tool":"act_on_tab","args":{"action":"snapshot"}}])");
    QTest::newRow("gives a tool without parameters an empty object schema") << bare << "subroutine";
}

void tst_ToolLibrary::keepsATool()
{
    QFETCH(ToolDraft, draft);
    QFETCH(QString, kind);
    const SavedTool t = library().createTool(m_owner, draft);
    QCOMPARE(t.kind, kind);
    QCOMPARE(t.parameters.value(QStringLiteral("type")).toString(), QStringLiteral("object"));
    const SavedTool stored = library().tool(m_owner, draft.name);
    QCOMPARE(stored.kind, kind);
    QCOMPARE(stored.description, draft.description);
    QCOMPARE(stored.steps, t.steps);
    QCOMPARE(stored.code, draft.code.value_or(QString()));
    // Another key has no such tool.
    QVERIFY(!library().findTool(m_user, draft.name));
}

void tst_ToolLibrary::refusesAToolNamingTheField_data()
{
    QTest::addColumn<ToolDraft>("draft");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    ToolDraft d = stepsTool(QStringLiteral("Bad Name"));
    QTest::newRow("refuses a name with capitals and a space") << d << "INVALID_FIELD"
                                                              << "name";
    d = stepsTool(QString());
    QTest::newRow("refuses an empty name") << d << "INVALID_FIELD"
                                           << "name";
    d = stepsTool(QStringLiteral("both"));
    d.code = QStringLiteral("return 1;");
    QTest::newRow("refuses steps and code together") << d << "INVALID_FIELD"
                                                     << "body";
    d = stepsTool(QStringLiteral("neither"));
    d.steps.reset();
    QTest::newRow("refuses a tool with nothing to run") << d << "INVALID_FIELD"
                                                        << "body";
    d = stepsTool(QStringLiteral("none"));
    d.steps = QJsonArray();
    QTest::newRow("refuses an empty list of steps") << d << "INVALID_FIELD"
                                                    << "steps";
    d = stepsTool(QStringLiteral("flyer"));
    d.steps = array(R"([{"tool":"fly","args":{}}])");
    QTest::newRow("refuses a step tool the bridge does not have") << d << "INVALID_FIELD"
                                                                  << "steps[0].tool";
    d = stepsTool(QStringLiteral("where"));
    d.steps = array(R"([{"tool":"act_on_tab","args":{"action":"navigate","url":"{{where}}"}}])");
    QTest::newRow("refuses a placeholder that names no parameter") << d << "INVALID_FIELD"
                                                                   << "steps[0].args";
    d = stepsTool(QStringLiteral("no_action"));
    d.steps = array(R"([{"tool":"act_on_tab","args":{}}])");
    QTest::newRow("refuses a page action without its action") << d << "MISSING_FIELD"
                                                              << "steps[0].args.action";
    d = stepsTool(QStringLiteral("listy"));
    d.parameters = object(R"({"type":"array"})");
    QTest::newRow("refuses parameters that are not an object schema") << d << "INVALID_FIELD"
                                                                      << "parameters.type";
    d = stepsTool(QStringLiteral("ghost"));
    d.parameters = object(R"({"type":"object","properties":{},"required":["ghost"]})");
    d.steps = array(R"([{"tool":"act_on_tab","args":{"action":"snapshot"}}])");
    QTest::newRow("refuses a required parameter that is not declared") << d << "INVALID_FIELD"
                                                                       << "parameters.required[0]";
    d = stepsTool(QStringLiteral("typeless"));
    d.parameters = object(R"({"type":"object","properties":{"query":{"type":"date"}}})");
    QTest::newRow("refuses a parameter type JSON Schema does not have")
        << d << "INVALID_FIELD"
        << "parameters.properties.query.type";
    d = pageTool(QStringLiteral("pageless"));
    d.url.reset();
    QTest::newRow("refuses JavaScript without its page") << d << "MISSING_FIELD"
                                                         << "url";
    d = pageTool(QStringLiteral("local_file"));
    d.url = QStringLiteral("file:///etc/passwd");
    QTest::newRow("refuses a page that is not on the web") << d << "INVALID_FIELD"
                                                           << "url";
    d = pageTool(QStringLiteral("blank"));
    d.code = QStringLiteral("   ");
    QTest::newRow("refuses blank JavaScript") << d << "INVALID_FIELD"
                                              << "code";
    d = stepsTool(QStringLiteral("recorded"));
    d.steps.reset();
    d.fromRecording = QStringLiteral("traj_nobody");
    QTest::newRow("refuses a recording the key does not have") << d << "RECORDING_NOT_FOUND"
                                                               << "fromRecording";
}

void tst_ToolLibrary::refusesAToolNamingTheField()
{
    QFETCH(ToolDraft, draft);
    QFETCH(QString, code);
    QFETCH(QString, field);
    const qsizetype before = library().tools(m_owner).size();
    try {
        library().createTool(m_owner, draft);
        QFAIL("stored");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), code);
        QCOMPARE(e.field(), field);
        if (code.endsWith(QLatin1String("_FIELD"))) // the sentence starts with the field
            QVERIFY2(e.message().startsWith(field), qPrintable(e.message()));
    }
    QCOMPARE(library().tools(m_owner).size(), before);
}

void tst_ToolLibrary::refusesASecondToolOfTheSameName()
{
    try {
        library().createTool(m_user, pageTool(QStringLiteral("search")));
        QFAIL("stored");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Conflict);
        QCOMPARE(e.code(), QStringLiteral("TOOL_EXISTS"));
        QCOMPARE(e.field(), QStringLiteral("name"));
    }
    QCOMPARE(library().tool(m_user, QStringLiteral("search")).kind, QStringLiteral("subroutine"));
}

void tst_ToolLibrary::replacesAndRemovesOnlyStoredTools()
{
    const auto expectNotFound = [](const std::function<void()> &work) {
        try {
            work();
            QFAIL("no error");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Kind::NotFound);
            QCOMPARE(e.code(), QStringLiteral("TOOL_NOT_FOUND"));
            QCOMPARE(e.field(), QStringLiteral("name"));
        }
    };
    expectNotFound([&] { library().replaceTool(m_user, QStringLiteral("nope"), pageTool({})); });
    expectNotFound([&] { library().removeTool(m_user, QStringLiteral("nope")); });
    // The user's tool is not the owner's to change.
    expectNotFound([&] { library().removeTool(m_owner, QStringLiteral("search")); });

    // A bad replacement keeps the stored tool; a good one replaces it under its name.
    library().createTool(m_user, stepsTool(QStringLiteral("swap")));
    ToolDraft bad = pageTool(QStringLiteral("ignored"));
    bad.url = QStringLiteral("ftp://shop.example/");
    QVERIFY_THROWS_EXCEPTION(DomainError,
                             library().replaceTool(m_user, QStringLiteral("swap"), bad));
    QCOMPARE(library().tool(m_user, QStringLiteral("swap")).kind, QStringLiteral("subroutine"));
    const SavedTool replaced =
        library().replaceTool(m_user, QStringLiteral("swap"), pageTool(QStringLiteral("ignored")));
    QCOMPARE(replaced.name, QStringLiteral("swap"));
    QCOMPARE(library().tool(m_user, QStringLiteral("swap")).kind, QStringLiteral("javascript"));
    library().removeTool(m_user, QStringLiteral("swap"));
    QVERIFY(!library().findTool(m_user, QStringLiteral("swap")));
}

void tst_ToolLibrary::buildsTheScriptASavedToolRuns()
{
    // Placeholders: a whole-string one keeps the argument's JSON type, one inside text
    // becomes text; a parameter left out takes its schema default.
    const SavedTool search = library().tool(m_user, QStringLiteral("search"));
    const QJsonArray steps = ToolLibrary::scriptFor(
        search, {{QStringLiteral("query"), QStringLiteral("rope")}}, QStringLiteral("params"));
    QCOMPARE(steps.size(), 2);
    QCOMPARE(steps.at(0)[QStringLiteral("args")][QStringLiteral("url")].toString(),
             QStringLiteral("https://shop.example/?q=rope"));
    QCOMPARE(steps.at(1)[QStringLiteral("args")][QStringLiteral("maxPages")], QJsonValue(2));

    // A JavaScript tool opens its page (or the url argument) and runs its code there.
    const SavedTool page = library().createTool(m_user, pageTool(QStringLiteral("title_of")));
    const QJsonArray script = ToolLibrary::scriptFor(
        page, {{QStringLiteral("suffix"), QStringLiteral("!")}}, QStringLiteral("params"));
    QCOMPARE(script.size(), 2);
    QCOMPARE(script.at(0)[QStringLiteral("args")][QStringLiteral("action")].toString(),
             QStringLiteral("navigate"));
    QCOMPARE(script.at(0)[QStringLiteral("args")][QStringLiteral("url")].toString(),
             QStringLiteral("https://shop.example/"));
    QCOMPARE(script.at(1)[QStringLiteral("tool")].toString(), QStringLiteral("run_page_script"));
    QCOMPARE(script.at(1)[QStringLiteral("args")][QStringLiteral("params")].toObject(),
             (QJsonObject{{QStringLiteral("suffix"), QStringLiteral("!")}}));
}

void tst_ToolLibrary::buildsTheRunOfASavedTool()
{
    const QJsonObject params{{QStringLiteral("query"), QStringLiteral("rope")}};
    const engine::ExecuteRequest r =
        library().savedToolRequest(m_user, QStringLiteral("search"), params);
    QCOMPARE(r.origin, QStringLiteral("user_search"));
    QCOMPARE(r.input, QStringLiteral("user_search"));
    QCOMPARE(r.originParams, params);
    QCOMPARE(r.script.size(), 2);
    QCOMPARE(r.stored.value(QStringLiteral("tool")).toString(), QStringLiteral("user_search"));
    QCOMPARE(r.stored.value(QStringLiteral("params")).toObject(), params);
    // Another key's tool is not there for this key; the error names the bridge's field.
    try {
        library().savedToolRequest(m_owner, QStringLiteral("search"), params);
        QFAIL("built");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("TOOL_NOT_FOUND"));
        QCOMPARE(e.field(), QStringLiteral("tool"));
    }
}

void tst_ToolLibrary::refusesArgumentsThatDoNotFit()
{
    const SavedTool search = library().tool(m_user, QStringLiteral("search"));
    try {
        ToolLibrary::scriptFor(search, {{QStringLiteral("query"), 5}}, QStringLiteral("params"));
        QFAIL("built");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("INVALID_FIELD"));
        QCOMPARE(e.field(), QStringLiteral("params.query"));
    }
    try {
        ToolLibrary::scriptFor(search, {}, QStringLiteral("params"));
        QFAIL("built");
    } catch (const DomainError &e) {
        QVERIFY2(e.message().contains(QLatin1String("query")), qPrintable(e.message()));
    }
}

void tst_ToolLibrary::refusesATriggerNamingTheField_data()
{
    QTest::addColumn<TriggerDraft>("draft");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    TriggerDraft d;
    QTest::newRow("refuses a trigger without a target") << d << "INVALID_FIELD"
                                                        << "body";
    d.tool = QStringLiteral("search");
    d.prompt = QStringLiteral("Find rope");
    QTest::newRow("refuses a trigger with two targets") << d << "INVALID_FIELD"
                                                        << "body";
    d = {};
    d.tool = QStringLiteral("nope");
    QTest::newRow("refuses a tool the key has not saved") << d << "TOOL_NOT_FOUND"
                                                          << "tool";
    d = {};
    d.trajectoryId = QStringLiteral("traj_nobody");
    QTest::newRow("refuses a run the key never made") << d << "TRAJECTORY_NOT_FOUND"
                                                      << "trajectoryId";
    d = {};
    d.prompt = QStringLiteral("  ");
    QTest::newRow("refuses a blank prompt") << d << "INVALID_FIELD"
                                            << "prompt";
    d.prompt = QStringLiteral("Find rope");
    d.urls = QStringList{QStringLiteral("https://shop.example/"), QStringLiteral("file:///x")};
    QTest::newRow("refuses a page that is not on the web") << d << "INVALID_FIELD"
                                                           << "urls[1]";
}

void tst_ToolLibrary::refusesATriggerNamingTheField()
{
    QFETCH(TriggerDraft, draft);
    QFETCH(QString, code);
    QFETCH(QString, field);
    const qsizetype before = library().triggers(m_user).size();
    try {
        library().createTrigger(m_user, draft);
        QFAIL("stored");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), code);
        QCOMPARE(e.field(), field);
    }
    QCOMPARE(library().triggers(m_user).size(), before);
}

void tst_ToolLibrary::firesATrigger_data()
{
    QTest::addColumn<TriggerDraft>("draft");
    QTest::addColumn<QJsonObject>("input");
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QJsonObject>("params");
    TriggerDraft d;
    d.tool = QStringLiteral("search");
    QTest::newRow("runs a saved tool with the caller's body as its parameters")
        << d << QJsonObject{{QStringLiteral("query"), QStringLiteral("rope")}} << "user_search"
        << QJsonObject{{QStringLiteral("query"), QStringLiteral("rope")}};
    d.tool = QStringLiteral("user_search");
    QTest::newRow("knows a saved tool by its bridge name too")
        << d << QJsonObject() << "user_search" << QJsonObject();
    d = {};
    d.prompt = QStringLiteral("Find rope");
    d.urls = QStringList{QStringLiteral("https://shop.example/")};
    QTest::newRow("runs a prompt with the caller's input added")
        << d << QJsonObject{{QStringLiteral("input"), QStringLiteral("in blue")}} << "agent"
        << QJsonObject{
               {QStringLiteral("input"), QStringLiteral("Find rope\n\nin blue")},
               {QStringLiteral("urls"), QJsonArray{QStringLiteral("https://shop.example/")}}};
    QTest::newRow("runs a prompt as it is without input")
        << d << QJsonObject() << "agent"
        << QJsonObject{
               {QStringLiteral("input"), QStringLiteral("Find rope")},
               {QStringLiteral("urls"), QJsonArray{QStringLiteral("https://shop.example/")}}};
}

void tst_ToolLibrary::firesATrigger()
{
    QFETCH(TriggerDraft, draft);
    QFETCH(QJsonObject, input);
    QFETCH(QString, tool);
    QFETCH(QJsonObject, params);
    const Trigger t = library().createTrigger(m_user, draft);
    QCOMPARE(t.fireCount, 0);
    const TriggerCall call = library().fireTrigger(t.id, m_user, false, input);
    QCOMPARE(call.triggerId, t.id);
    QCOMPARE(call.tool, tool);
    QCOMPARE(call.params, params);
    // Counted, with when.
    const auto fired = library().findTrigger(t.id);
    QCOMPARE(fired->fireCount, 1);
    QVERIFY(fired->lastFiredAt);
    library().fireTrigger(t.id, m_user, false, input);
    QCOMPARE(library().findTrigger(t.id)->fireCount, 2);
}

void tst_ToolLibrary::refusesToFire_data()
{
    QTest::addColumn<QString>("who");
    QTest::addColumn<bool>("revoke");
    QTest::addColumn<bool>("fires");
    QTest::newRow("refuses another key's trigger") << "other" << false << false;
    QTest::newRow("lets the owner fire a user's trigger") << "owner" << false << true;
    QTest::newRow("refuses a revoked trigger to its own key") << "user" << true << false;
    QTest::newRow("refuses a revoked trigger to the owner") << "owner" << true << false;
    QTest::newRow("refuses a trigger that does not exist") << "unknown" << false << false;
}

void tst_ToolLibrary::refusesToFire()
{
    QFETCH(QString, who);
    QFETCH(bool, revoke);
    QFETCH(bool, fires);
    TriggerDraft d;
    d.tool = QStringLiteral("search");
    const Trigger t = library().createTrigger(m_user, d);
    if (revoke)
        library().revokeTrigger(m_user, t.id);
    const QString other = m_ph->service()
                              .keyService()
                              .mint({QStringLiteral("other"), QStringLiteral("user"), {}})
                              .key.id;
    const QString id = who == QLatin1String("unknown") ? QStringLiteral("trg_nobody") : t.id;
    const QString caller = who == QLatin1String("owner")   ? m_owner
                           : who == QLatin1String("other") ? other
                                                           : m_user;
    try {
        const TriggerCall call =
            library().fireTrigger(id, caller, who == QLatin1String("owner"), {});
        QVERIFY(fires);
        QCOMPARE(call.tool, QStringLiteral("user_search"));
        QCOMPARE(library().findTrigger(t.id)->fireCount, 1);
    } catch (const DomainError &e) {
        QVERIFY2(!fires, qPrintable(e.message()));
        QCOMPARE(e.kind(), DomainError::Kind::NotFound);
        QCOMPARE(e.code(), QStringLiteral("TRIGGER_NOT_FOUND"));
        QCOMPARE(library().findTrigger(t.id)->fireCount, 0);
    }
}

void tst_ToolLibrary::revokesOnlyTheKeysOwnTrigger()
{
    TriggerDraft d;
    d.prompt = QStringLiteral("Find rope");
    const Trigger t = library().createTrigger(m_user, d);
    try {
        library().revokeTrigger(m_owner, t.id);
        QFAIL("revoked");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("TRIGGER_NOT_FOUND"));
    }
    QVERIFY(!library().findTrigger(t.id)->revokedAt);
    QVERIFY(library().revokeTrigger(m_user, t.id).revokedAt);
    QCOMPARE(library().trigger(m_user, t.id).id, t.id);
}

PH_WEBENGINE_TEST_MAIN(tst_ToolLibrary)
#include "tst_toollibrary.moc"
