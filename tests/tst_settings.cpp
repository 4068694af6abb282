#include "core/Clock.h"
#include "core/Settings.h"
#include "core/Store.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ph;

class tst_Settings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fallsBackToTheBuiltInDefault();
    void storesAValueAcrossRestarts();
    void refusesABadValueAndKeepsTheOldOne_data();
    void refusesABadValueAndKeepsTheOldOne();
    void letsTheCommandLineOverrideWithoutStoring();
    void prefersAStoredValueOverTheRuntimeDefault();
    void documentsEverySetting();

private:
    QTemporaryDir m_dir;
    SystemClock m_clock;
};

void tst_Settings::fallsBackToTheBuiltInDefault()
{
    Store store(m_dir.filePath(QStringLiteral("a.db")), m_clock);
    QString error;
    QVERIFY(store.open(&error));
    Settings s(store);
    QCOMPARE(s.intValue(SettingKeys::poolSize), 4);
    QCOMPARE(s.int64Value(SettingKeys::maxBodyBytes), qint64(10 * 1024 * 1024));
}

void tst_Settings::storesAValueAcrossRestarts()
{
    const QString file = m_dir.filePath(QStringLiteral("b.db"));
    {
        Store store(file, m_clock);
        QString error;
        QVERIFY(store.open(&error));
        Settings s(store);
        QSignalSpy spy(&s, &Settings::changed);
        QCOMPARE(s.set(SettingKeys::poolSize, 7), QString());
        QCOMPARE(spy.count(), 1);
    }
    Store store(file, m_clock);
    QString error;
    QVERIFY(store.open(&error));
    Settings s(store);
    QCOMPARE(s.intValue(SettingKeys::poolSize), 7);
}

void tst_Settings::refusesABadValueAndKeepsTheOldOne_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("complaint");
    QTest::newRow("rejects a string for a number")
        << SettingKeys::poolSize << QJsonValue(QStringLiteral("8")) << "must be a number";
    QTest::newRow("rejects a fraction")
        << SettingKeys::poolSize << QJsonValue(2.5) << "whole number";
    QTest::newRow("rejects a pool of zero pages")
        << SettingKeys::poolSize << QJsonValue(0) << "between 1 and 64";
    QTest::newRow("rejects a number for a boolean")
        << SettingKeys::allowPrivateTargets << QJsonValue(1) << "must be a boolean";
    QTest::newRow("rejects an LLM address without a scheme")
        << SettingKeys::llmBaseUrl << QJsonValue(QStringLiteral("models.example/v1"))
        << "must be an absolute http or https URL";
    QTest::newRow("rejects an issuer that is not http")
        << SettingKeys::oidcIssuer << QJsonValue(QStringLiteral("ftp://idp.example"))
        << "must be an absolute http or https URL";
    QTest::newRow("rejects an unknown key")
        << QStringLiteral("no.such") << QJsonValue(1) << "unknown setting";
}

void tst_Settings::refusesABadValueAndKeepsTheOldOne()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, complaint);
    Store store(m_dir.filePath(QStringLiteral("c.db")), m_clock);
    QString error;
    QVERIFY(store.open(&error));
    Settings s(store);
    QCOMPARE(s.set(SettingKeys::poolSize, 5), QString());
    const QString problem = s.set(key, value);
    QVERIFY2(problem.contains(complaint), qPrintable(problem));
    QCOMPARE(s.intValue(SettingKeys::poolSize), 5);
}

void tst_Settings::letsTheCommandLineOverrideWithoutStoring()
{
    const QString file = m_dir.filePath(QStringLiteral("d.db"));
    {
        Store store(file, m_clock);
        QString error;
        QVERIFY(store.open(&error));
        Settings s(store);
        QCOMPARE(s.setOverride(QStringLiteral("pool.size=9")), QString());
        QCOMPARE(s.setOverride(QStringLiteral("network.allowPrivateTargets=off")), QString());
        QVERIFY(!s.setOverride(QStringLiteral("pool.size=lots")).isEmpty());
        QVERIFY(!s.setOverride(QStringLiteral("nonsense")).isEmpty());
        QCOMPARE(s.intValue(SettingKeys::poolSize), 9);
        QCOMPARE(s.boolValue(SettingKeys::allowPrivateTargets), false);
    }
    Store store(file, m_clock);
    QString error;
    QVERIFY(store.open(&error));
    Settings s(store);
    QCOMPARE(s.intValue(SettingKeys::poolSize), 4);
}

void tst_Settings::prefersAStoredValueOverTheRuntimeDefault()
{
    Store store(m_dir.filePath(QStringLiteral("e.db")), m_clock);
    QString error;
    QVERIFY(store.open(&error));
    Settings s(store);
    s.setRuntimeDefault(SettingKeys::allowPrivateTargets, true);
    QCOMPARE(s.boolValue(SettingKeys::allowPrivateTargets), true);
    QCOMPARE(s.set(SettingKeys::allowPrivateTargets, false), QString());
    QCOMPARE(s.boolValue(SettingKeys::allowPrivateTargets), false);
}

// docs/configuration.md has one table row per setting, with its built-in default.
void tst_Settings::documentsEverySetting()
{
    QFile doc(QStringLiteral(DOCS_DIR "/configuration.md"));
    QVERIFY(doc.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(doc.readAll());
    for (const Settings::Definition &d : Settings::definitions()) {
        const QString row = QStringLiteral("| `%1` |").arg(d.key);
        QVERIFY2(text.contains(row), qPrintable(QStringLiteral("no row for %1").arg(d.key)));
        if (d.defaultValue.isDouble()) {
            const QString line = text.mid(text.indexOf(row)).section(QLatin1Char('\n'), 0, 0);
            QVERIFY2(line.contains(QStringLiteral("| %1 |").arg(qint64(d.defaultValue.toDouble()))),
                     qPrintable(line));
        }
    }
}

QTEST_GUILESS_MAIN(tst_Settings)
#include "tst_settings.moc"
