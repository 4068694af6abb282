// Where the Firecrawl API's screenshots go (firecrawl/ScreenshotLinks): a stored object
// of the caller's key served by the storage's signed, expiring link, on a real SQLite
// store with a manual clock.
#include "firecrawl/ScreenshotLinks.h"

#include "core/Clock.h"
#include "core/ObjectStore.h"
#include "core/Store.h"

#include <QTemporaryDir>
#include <QUrlQuery>
#include <QtTest>

using namespace ph;
using namespace ph::firecrawl;

class tst_ScreenshotLinks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void linksTheStoredPictureUnderTheBase_data();
    void linksTheStoredPictureUnderTheBase();
    void refusesAnAlteredSignature();
    void refusesTheLinkOnceADayHasPassed();

private:
    struct Link
    {
        QString id;
        qint64 expires = 0;
        QString sig;
    };
    static Link parse(const QString &url);

    QTemporaryDir m_dir;
    ManualClock m_clock{1'700'000'000'000};
    std::unique_ptr<Store> m_store;
};

void tst_ScreenshotLinks::init()
{
    m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("shots.db")), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
}

void tst_ScreenshotLinks::cleanup()
{
    m_store.reset();
    QFile::remove(m_dir.filePath(QStringLiteral("shots.db")));
}

tst_ScreenshotLinks::Link tst_ScreenshotLinks::parse(const QString &url)
{
    const QUrl u(url);
    const QUrlQuery q(u);
    return {u.path().section(QLatin1Char('/'), -1),
            q.queryItemValue(QStringLiteral("expires")).toLongLong(),
            q.queryItemValue(QStringLiteral("sig"))};
}

void tst_ScreenshotLinks::linksTheStoredPictureUnderTheBase_data()
{
    QTest::addColumn<QString>("base");
    QTest::addColumn<QString>("prefix");
    QTest::newRow("starts at the request's origin") << "http://127.0.0.1:8710"
                                                    << "http://127.0.0.1:8710/storage/obj_";
    QTest::newRow("drops the public base URL's trailing slashes")
        << "https://ph.example//"
        << "https://ph.example/storage/obj_";
    QTest::newRow("is a path without a base") << ""
                                              << "/storage/obj_";
}

void tst_ScreenshotLinks::linksTheStoredPictureUnderTheBase()
{
    QFETCH(QString, base);
    QFETCH(QString, prefix);
    const QByteArray png("\x89PNG\r\n\x1a\npicture", 16);
    const QString url = screenshotKeeper(*m_store, QStringLiteral("key_a"), base)(png);
    QVERIFY2(url.startsWith(prefix), qPrintable(url));
    const Link link = parse(url);
    QCOMPARE(link.expires, m_clock.nowMs() + kScreenshotTtlMs);
    QVERIFY(m_store->objects().verify(link.id, link.expires, link.sig));
    const auto object = m_store->objects().find(link.id);
    QVERIFY(object.has_value());
    QCOMPARE(object->keyId, QStringLiteral("key_a"));
    QCOMPARE(object->kind, QStringLiteral("screenshot"));
    QCOMPARE(object->contentType, QStringLiteral("image/png"));
    QCOMPARE(m_store->objects().data(link.id), png);
}

void tst_ScreenshotLinks::refusesAnAlteredSignature()
{
    const Link link = parse(screenshotKeeper(*m_store, QStringLiteral("key_a"), {})("png"));
    QString altered = link.sig;
    altered[0] = altered.at(0) == QLatin1Char('0') ? QLatin1Char('1') : QLatin1Char('0');
    QVERIFY(!m_store->objects().verify(link.id, link.expires, altered));
    // A later expiry with the same signature is not the link that was signed.
    QVERIFY(!m_store->objects().verify(link.id, link.expires + 1, link.sig));
}

void tst_ScreenshotLinks::refusesTheLinkOnceADayHasPassed()
{
    const Link link = parse(screenshotKeeper(*m_store, QStringLiteral("key_a"), {})("png"));
    m_clock.advance(kScreenshotTtlMs - 1);
    QVERIFY(m_store->objects().verify(link.id, link.expires, link.sig));
    m_clock.advance(2);
    QVERIFY(!m_store->objects().verify(link.id, link.expires, link.sig));
    // The picture goes with its link.
    QVERIFY(!m_store->objects().find(link.id).has_value());
}

QTEST_GUILESS_MAIN(tst_ScreenshotLinks)
#include "tst_screenshotlinks.moc"
