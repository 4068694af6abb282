// SettingsService: PATCH /settings and the console's Settings panel store all or nothing.
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "system/SettingsService.h"

#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ph;

class tst_SettingsService : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void storesEveryValueOfAPatch();
    void storesNothingWhenOneValueIsRefused_data();
    void storesNothingWhenOneValueIsRefused();

private:
    QTemporaryDir m_dir;
    SystemClock m_clock;
};

void tst_SettingsService::storesEveryValueOfAPatch()
{
    const QString file = m_dir.filePath(QStringLiteral("patch.db"));
    {
        Store store(file, m_clock);
        QString error;
        QVERIFY(store.open(&error));
        Settings settings(store);
        QSignalSpy changed(&settings, &Settings::changed);
        sys::SettingsService(settings).apply(
            {{SettingKeys::poolSize, 6}, {SettingKeys::scrapeMaxUrls, 40}});
        QCOMPARE(changed.count(), 2);
    }
    Store store(file, m_clock); // and they were written to the file
    QString error;
    QVERIFY(store.open(&error));
    Settings settings(store);
    QCOMPARE(settings.intValue(SettingKeys::poolSize), 6);
    QCOMPARE(settings.intValue(SettingKeys::scrapeMaxUrls), 40);
}

void tst_SettingsService::storesNothingWhenOneValueIsRefused_data()
{
    QTest::addColumn<QJsonObject>("patch");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("stores nothing when a later value is out of range")
        << QJsonObject{{SettingKeys::poolSize, 6}, {SettingKeys::scrapeMaxUrls, -3}}
        << QStringLiteral("INVALID_FIELD") << SettingKeys::scrapeMaxUrls;
    QTest::newRow("stores nothing when a value has the wrong type")
        << QJsonObject{{SettingKeys::scrapeMaxUrls, 40},
                       {SettingKeys::poolSize, QStringLiteral("six")}}
        << QStringLiteral("INVALID_FIELD") << SettingKeys::poolSize;
    QTest::newRow("stores nothing when a key is not a setting")
        << QJsonObject{{SettingKeys::poolSize, 6}, {QStringLiteral("pool.sizes"), 6}}
        << QStringLiteral("UNKNOWN_SETTING") << QStringLiteral("pool.sizes");
}

void tst_SettingsService::storesNothingWhenOneValueIsRefused()
{
    QFETCH(QJsonObject, patch);
    QFETCH(QString, code);
    QFETCH(QString, field);
    Store store(m_dir.filePath(QStringLiteral("%1.db").arg(QTest::currentDataTag())), m_clock);
    QString error;
    QVERIFY(store.open(&error));
    Settings settings(store);
    const QJsonObject before = settings.snapshot();
    QSignalSpy changed(&settings, &Settings::changed);
    try {
        sys::SettingsService(settings).apply(patch);
        QFAIL("applied a patch with a refused value");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), code);
        QCOMPARE(e.field(), field);
    }
    QCOMPARE(changed.count(), 0);
    QCOMPARE(settings.snapshot(), before);
}

QTEST_GUILESS_MAIN(tst_SettingsService)
#include "tst_settingsservice.moc"
