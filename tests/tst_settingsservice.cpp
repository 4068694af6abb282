// SettingsService on a real SQLite file: a patch is stored whole, or — when one key is
// unknown or one value is bad — not at all (every stored setting as it was, no change
// announced), with the typed error naming that key; a --set override that wins is
// reported; secrets are listed only as set or not.
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Settings.h"
#include "core/SettingsService.h"
#include "core/Store.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ph;

Q_DECLARE_METATYPE(SettingsPatch)

class tst_SettingsService : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void storesAPatchWhole();
    void refusesAPatchAndStoresNothing_data();
    void refusesAPatchAndStoresNothing();
    void reportsAStartOverrideThatWins();
    void listsASecretOnlyAsSet();

private:
    // The settings as a fresh start would read them from the file.
    QJsonObject reread() const { return Settings(*m_store).snapshot(); }

    QTemporaryDir m_dir;
    ManualClock m_clock{1'700'000'000'000};
    std::unique_ptr<Store> m_store;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<SettingsService> m_service;
};

void tst_SettingsService::init()
{
    m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("settings.db")), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_settings = std::make_unique<Settings>(*m_store);
    m_service = std::make_unique<SettingsService>(*m_settings, *m_store);
    // Something stored before, which a refused patch must leave alone.
    QVERIFY(m_settings->set(SettingKeys::poolSize, 6).isEmpty());
}

void tst_SettingsService::cleanup()
{
    m_service.reset();
    m_settings.reset();
    m_store.reset();
    QFile::remove(m_dir.filePath(QStringLiteral("settings.db")));
}

void tst_SettingsService::storesAPatchWhole()
{
    QSignalSpy changed(m_settings.get(), &Settings::changed);
    const QStringList overridden =
        m_service->apply({{SettingKeys::poolSize, 8},
                          {SettingKeys::agentMaxSteps, 50},
                          {SettingKeys::publicBaseUrl, QStringLiteral("https://ph.example")}});
    QVERIFY(overridden.isEmpty());
    QCOMPARE(changed.size(), 3);
    QCOMPARE(m_settings->intValue(SettingKeys::poolSize), 8);
    const QJsonObject stored = reread();
    QCOMPARE(stored.value(SettingKeys::poolSize).toInt(), 8);
    QCOMPARE(stored.value(SettingKeys::agentMaxSteps).toInt(), 50);
    QCOMPARE(stored.value(SettingKeys::publicBaseUrl).toString(),
             QStringLiteral("https://ph.example"));
}

void tst_SettingsService::refusesAPatchAndStoresNothing_data()
{
    QTest::addColumn<SettingsPatch>("patch");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("refuses a key that is no setting")
        << SettingsPatch{{SettingKeys::poolSize, 8}, {QStringLiteral("pool.colour"), 1}}
        << "UNKNOWN_SETTING"
        << "pool.colour"
        << "pool.colour is not a setting";
    QTest::newRow("refuses a value out of range after a good one")
        << SettingsPatch{{SettingKeys::agentMaxSteps, 50}, {SettingKeys::poolSize, 65}}
        << "INVALID_FIELD"
        << "pool.size"
        << "pool.size must be between 1 and 64";
    QTest::newRow("refuses a value out of range before a good one")
        << SettingsPatch{{SettingKeys::poolSize, 0}, {SettingKeys::agentMaxSteps, 50}}
        << "INVALID_FIELD"
        << "pool.size"
        << "pool.size must be between 1 and 64";
    QTest::newRow("refuses text where a number belongs")
        << SettingsPatch{{SettingKeys::agentMaxSteps, 50},
                         {SettingKeys::poolSize, QStringLiteral("eight")}}
        << "INVALID_FIELD"
        << "pool.size"
        << "pool.size must be a number";
    QTest::newRow("refuses a fraction where a whole number belongs")
        << SettingsPatch{{SettingKeys::poolSize, 2.5}} << "INVALID_FIELD"
        << "pool.size"
        << "pool.size must be a whole number";
    QTest::newRow("refuses a number where a switch belongs")
        << SettingsPatch{{SettingKeys::poolSize, 8}, {SettingKeys::allowPrivateTargets, 1}}
        << "INVALID_FIELD"
        << "network.allowPrivateTargets"
        << "network.allowPrivateTargets must be a boolean";
    QTest::newRow("refuses an unknown key even when a bad value comes first")
        << SettingsPatch{{SettingKeys::poolSize, 65}, {QStringLiteral("zzz"), 1}}
        << "UNKNOWN_SETTING"
        << "zzz"
        << "zzz is not a setting";
}

void tst_SettingsService::refusesAPatchAndStoresNothing()
{
    QFETCH(SettingsPatch, patch);
    QFETCH(QString, code);
    QFETCH(QString, field);
    QFETCH(QString, message);
    const QJsonObject before = m_settings->snapshot();
    const QJsonObject storedBefore = reread();
    QSignalSpy changed(m_settings.get(), &Settings::changed);
    try {
        m_service->apply(patch);
        QFAIL("applied");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Invalid);
        QCOMPARE(e.code(), code);
        QCOMPARE(e.field(), field);
        QCOMPARE(e.message(), message);
    }
    // Every setting as it was, in memory and in the file; nobody was told of a change.
    QCOMPARE(m_settings->snapshot(), before);
    QCOMPARE(reread(), storedBefore);
    QCOMPARE(reread().value(SettingKeys::poolSize).toInt(), 6);
    QCOMPARE(changed.size(), 0);
}

void tst_SettingsService::reportsAStartOverrideThatWins()
{
    QVERIFY(m_settings->setOverride(QStringLiteral("agent.maxPages=7")).isEmpty());
    const QStringList overridden =
        m_service->apply({{SettingKeys::agentMaxPages, 9}, {SettingKeys::agentMaxSteps, 50}});
    QCOMPARE(overridden, QStringList{SettingKeys::agentMaxPages});
    QCOMPARE(m_settings->intValue(SettingKeys::agentMaxPages), 7);
    // Stored all the same: the next start without --set has it.
    QCOMPARE(reread().value(SettingKeys::agentMaxPages).toInt(), 9);
}

void tst_SettingsService::listsASecretOnlyAsSet()
{
    const QString secret = QStringLiteral("sk-never-shown-1234");
    m_service->apply({{SettingKeys::llmApiKey, secret}});
    QCOMPARE(m_settings->stringValue(SettingKeys::llmApiKey), secret);
    const auto list = m_service->list();
    QCOMPARE(list.size(), Settings::definitions().size());
    for (const SettingsService::Entry &e : list) {
        if (e.definition->key == SettingKeys::llmApiKey)
            QCOMPARE(e.shown, QJsonValue(QJsonObject{{QStringLiteral("set"), true}}));
        else
            QCOMPARE(e.shown, m_settings->value(e.definition->key));
        QVERIFY(!QJsonDocument(QJsonArray{e.shown}).toJson().contains(secret.toUtf8()));
    }
}

QTEST_GUILESS_MAIN(tst_SettingsService)
#include "tst_settingsservice.moc"
