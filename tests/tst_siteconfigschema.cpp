// SiteConfigSchema: the one sanitizer behind upsertSiteConfig (strict), proposals and
// validate (lenient), the merges and the redaction the owner's AI reads through.
#include "core/DomainError.h"
#include "sites/SiteConfigSchema.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace ph;
using sites::SiteConfigSchema;
using Mode = SiteConfigSchema::Mode;

namespace {
QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

// The error a call throws, or none.
template <class F> std::optional<DomainError> errorOf(F call)
{
    try {
        call();
    } catch (const DomainError &e) {
        return e;
    }
    return std::nullopt;
}
} // namespace

class tst_SiteConfigSchema : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void refusesABadPatchNamingThePath_data();
    void refusesABadPatchNamingThePath();
    void dropsWhatAnAiMayNotProposeAndSaysWhat_data();
    void dropsWhatAnAiMayNotProposeAndSaysWhat();
    void keepsNullToClearAField();
    void upsertReplacesAndNullRemoves();
    void proposalUpsertsShortcutsById();
    void effectiveConfigurationFillsDefaults();
    void redactsSecretsForTheOwnersAi_data();
    void redactsSecretsForTheOwnersAi();
    void mergesCapabilitiesAndRefusesUnknownOnes();
};

void tst_SiteConfigSchema::refusesABadPatchNamingThePath_data()
{
    QTest::addColumn<QJsonObject>("patch");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("refuses an unknown top-level field")
        << json(R"({"greetings":{"text":"hi"}})") << "UNKNOWN_FIELD"
        << "siteConfig.greetings";
    QTest::newRow("refuses an unknown nested field")
        << json(R"({"greeting":{"txt":"hi"}})") << "UNKNOWN_FIELD"
        << "siteConfig.greeting.txt";
    QTest::newRow("refuses two shortcuts with one id")
        << json(R"({"shortcuts":[{"id":"a","label":"A"},{"id":"a","label":"B"}]})")
        << "DUPLICATE_ID"
        << "siteConfig.shortcuts[1].id";
}

void tst_SiteConfigSchema::refusesABadPatchNamingThePath()
{
    QFETCH(QJsonObject, patch);
    QFETCH(QString, code);
    QFETCH(QString, field);
    const auto e = errorOf([&] {
        SiteConfigSchema::sanitizePatch(patch, Mode::Strict, QStringLiteral("siteConfig"));
    });
    QVERIFY(e);
    QCOMPARE(e->kind(), DomainError::Kind::Invalid);
    QCOMPARE(e->code(), code);
    QCOMPARE(e->field(), field);
}

void tst_SiteConfigSchema::dropsWhatAnAiMayNotProposeAndSaysWhat_data()
{
    QTest::addColumn<QJsonObject>("patch");
    QTest::addColumn<QStringList>("dropped");
    QTest::addColumn<QStringList>("kept");
    QTest::newRow("drops the AI-access guardrails, an owner-only field")
        << json(R"({"aiAccess":{"enabled":false},"greeting":{"text":"Ahoy"}})")
        << QStringList{"patch.aiAccess"} << QStringList{"greeting"};
    QTest::newRow("drops analytics consent, an owner-only field")
        << json(R"({"analytics":{"enabled":false}})") << QStringList{"patch.analytics"}
        << QStringList{};
    QTest::newRow("drops a field it does not know instead of failing")
        << json(R"({"colour":"red","voice":{"enabled":true}})") << QStringList{"patch.colour"}
        << QStringList{"voice"};
}

void tst_SiteConfigSchema::dropsWhatAnAiMayNotProposeAndSaysWhat()
{
    QFETCH(QJsonObject, patch);
    QFETCH(QStringList, dropped);
    QFETCH(QStringList, kept);
    QStringList got;
    const QJsonObject out =
        SiteConfigSchema::sanitizePatch(patch, Mode::Lenient, QStringLiteral("patch"), &got);
    QCOMPARE(got, dropped);
    QCOMPARE(out.keys(), kept);
}

void tst_SiteConfigSchema::keepsNullToClearAField()
{
    const QJsonObject out = SiteConfigSchema::sanitizePatch(json(R"({"greeting":null})"),
                                                            Mode::Strict, QStringLiteral("s"));
    QVERIFY(out.contains(QStringLiteral("greeting")));
    QVERIFY(out.value(QStringLiteral("greeting")).isNull());
}

void tst_SiteConfigSchema::upsertReplacesAndNullRemoves()
{
    const QJsonObject stored = json(R"({"greeting":{"text":"Hi"},"voice":{"enabled":true}})");
    const QJsonObject out =
        SiteConfigSchema::applyUpsert(stored, json(R"({"greeting":{"text":"Ahoy"},"voice":null})"));
    QCOMPARE(out, json(R"({"greeting":{"text":"Ahoy"}})"));
}

void tst_SiteConfigSchema::proposalUpsertsShortcutsById()
{
    const QJsonObject stored =
        json(R"({"shortcuts":[{"id":"a","label":"A"},{"id":"b","label":"B"}]})");
    const QJsonObject out = SiteConfigSchema::applyProposal(
        stored, json(R"({"shortcuts":[{"id":"b","label":"B2"},{"id":"c","label":"C"}]})"));
    const QJsonArray list = out.value(QStringLiteral("shortcuts")).toArray();
    QCOMPARE(list.size(), 3); // a kept, b replaced, c added
    QStringList labels;
    for (const QJsonValue &v : list)
        labels << v.toObject().value(QStringLiteral("label")).toString();
    QVERIFY(labels.contains(QStringLiteral("A")));
    QVERIFY(labels.contains(QStringLiteral("B2")));
    QVERIFY(labels.contains(QStringLiteral("C")));
    QVERIFY(!labels.contains(QStringLiteral("B")));
}

void tst_SiteConfigSchema::effectiveConfigurationFillsDefaults()
{
    const QJsonObject effective =
        SiteConfigSchema::effective(json(R"({"greeting":{"text":"Ahoy"}})"));
    const QJsonObject greeting = effective.value(QStringLiteral("greeting")).toObject();
    QCOMPARE(greeting.value(QStringLiteral("text")).toString(), QStringLiteral("Ahoy"));
    // Merged key by key: the stored text, the default timing.
    QCOMPARE(greeting.value(QStringLiteral("delay")), SiteConfigSchema::defaults()
                                                          .value(QStringLiteral("greeting"))
                                                          .toObject()
                                                          .value(QStringLiteral("delay")));
    QVERIFY(effective.contains(QStringLiteral("aiAccess")));
}

void tst_SiteConfigSchema::redactsSecretsForTheOwnersAi_data()
{
    QTest::addColumn<QJsonObject>("in");
    QTest::addColumn<QJsonObject>("out");
    QTest::newRow("drops a value under a secret-like key")
        << json(R"({"hook":{"url":"https://h.example/x","secret":"s3","apiKey":"k"}})")
        << json(R"({"hook":{"url":"https://h.example/x"}})");
    QTest::newRow("drops credentials and secret query parameters from URLs")
        << json(R"({"u":"https://me:pw@h.example/p?token=abc&page=2"})")
        << json(R"({"u":"https://h.example/p?page=2"})");
    QTest::newRow("keeps ordinary text as it is")
        << json(R"({"greeting":{"text":"token of thanks"}})")
        << json(R"({"greeting":{"text":"token of thanks"}})");
}

void tst_SiteConfigSchema::redactsSecretsForTheOwnersAi()
{
    QFETCH(QJsonObject, in);
    QFETCH(QJsonObject, out);
    QCOMPARE(SiteConfigSchema::redact(in).toObject(), out);
}

void tst_SiteConfigSchema::mergesCapabilitiesAndRefusesUnknownOnes()
{
    const QJsonObject merged = SiteConfigSchema::mergeCapabilities(
        SiteConfigSchema::capabilityDefaults(), json(R"({"cloudScrape":true})"),
        QStringLiteral("capabilities"));
    QCOMPARE(merged.value(QStringLiteral("cloudScrape")).toBool(), true);
    QCOMPARE(merged.value(QStringLiteral("embed")).toBool(), true); // default kept
    const auto e = errorOf([] {
        SiteConfigSchema::mergeCapabilities(SiteConfigSchema::capabilityDefaults(),
                                            json(R"({"teleport":true})"),
                                            QStringLiteral("capabilities"));
    });
    QVERIFY(e);
    QCOMPARE(e->code(), QStringLiteral("UNKNOWN_FIELD"));
    QCOMPARE(e->field(), QStringLiteral("capabilities.teleport"));
}

QTEST_GUILESS_MAIN(tst_SiteConfigSchema)
#include "tst_siteconfigschema.moc"
