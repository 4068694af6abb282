// RuntimeTelemetry: the session's checkpoint (inline or offloaded, one per session, never
// older over newer), telemetry batches, retention, the stored-bytes quotas per session and
// per site, and the signed analytics beacon; RuntimeProjection reads the checkpoint back.
// Real store, manual clock, no HTTP.
#include "RuntimeParts.h"

#include "core/DomainError.h"
#include "runtime/RuntimeProjection.h"
#include "runtime/RuntimeTelemetry.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace ph;
using namespace ph::runtime;
using ph::test::json;
using ph::test::thrown;

namespace {
// A checkpoint of about `bytes` bytes of JSON.
QJsonObject checkpoint(int bytes, int version = 1)
{
    return {{QStringLiteral("checkpoint"),
             QJsonObject{{QStringLiteral("blob"), QString(bytes - 11, QLatin1Char('x'))}}},
            {QStringLiteral("version"), version}};
}
} // namespace

class tst_RuntimeTelemetry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void keepsOneCheckpointAndProjectsIt();
    void offloadsALargeCheckpointAndReadsItBack();
    void refusesACheckpointAndKeepsThePrevious_data();
    void refusesACheckpointAndKeepsThePrevious();
    void countsAReplacedCheckpointInPlaceOfTheOld();
    void keepsTelemetryWithinItsLimits();
    void purgesWhatOutlivedItsRetention();
    void verifiesTheAnalyticsBeacon_data();
    void verifiesTheAnalyticsBeacon();

private:
    std::unique_ptr<test::RuntimeParts> m_parts;
    std::unique_ptr<RuntimeTelemetry> m_telemetry;
    std::unique_ptr<RuntimeProjection> m_projection;
    Session m_session;
};

void tst_RuntimeTelemetry::init()
{
    m_parts = std::make_unique<test::RuntimeParts>();
    QVERIFY(m_parts->opened);
    m_telemetry = std::make_unique<RuntimeTelemetry>(*m_parts->journal, *m_parts->analytics);
    m_projection = std::make_unique<RuntimeProjection>(*m_parts->journal);
    m_session = m_parts->insertSession();
}

void tst_RuntimeTelemetry::cleanup()
{
    m_projection.reset();
    m_telemetry.reset();
    m_parts.reset();
}

void tst_RuntimeTelemetry::keepsOneCheckpointAndProjectsIt()
{
    const QJsonObject saved =
        m_telemetry->saveSnapshot(m_session, json(R"({"checkpoint":{"step":1},"seq":4})"));
    QCOMPARE(saved.value(QStringLiteral("offloaded")).toBool(), false);
    QCOMPARE(saved.value(QStringLiteral("seq")).toInteger(), 4);
    m_telemetry->saveSnapshot(m_session, json(R"({"payload":{"step":2},"seq":5})"));
    const QJsonObject p = m_projection->of(m_session, 0, true);
    const QJsonObject snap = p.value(QStringLiteral("snapshot")).toObject();
    QCOMPARE(snap.value(QStringLiteral("payload")).toObject(), json(R"({"step":2})"));
    QCOMPARE(snap.value(QStringLiteral("seq")).toInteger(), 5);
    // Without asking for it, a projection carries no checkpoint.
    QVERIFY(!m_projection->of(m_session, 0, false).contains(QStringLiteral("snapshot")));
    QCOMPARE(m_projection->of(QStringLiteral("rts_unknown"), 0), QJsonObject());
}

void tst_RuntimeTelemetry::offloadsALargeCheckpointAndReadsItBack()
{
    QCOMPARE(m_parts->settings->set(SettingKeys::runtimeSnapshotInlineBytes, 1024), QString());
    const QJsonObject body = checkpoint(3000);
    const QJsonObject saved = m_telemetry->saveSnapshot(m_session, body);
    QCOMPARE(saved.value(QStringLiteral("offloaded")).toBool(), true);
    const QJsonObject snap =
        m_projection->of(m_session, 0, true).value(QStringLiteral("snapshot")).toObject();
    QCOMPARE(snap.value(QStringLiteral("offloaded")).toBool(), true);
    QCOMPARE(snap.value(QStringLiteral("payload")).toObject(),
             body.value(QStringLiteral("checkpoint")).toObject());
}

void tst_RuntimeTelemetry::refusesACheckpointAndKeepsThePrevious_data()
{
    QTest::addColumn<QString>("setting");
    QTest::addColumn<int>("limit");
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("code");
    QTest::newRow("a checkpoint over the size limit is refused")
        << SettingKeys::runtimeMaxSnapshotBytes << 1024 << checkpoint(2000, 3)
        << "SNAPSHOT_TOO_LARGE";
    QTest::newRow("a checkpoint over the session's stored bytes is refused")
        << SettingKeys::runtimeMaxStoredBytesPerSession << 1024 << checkpoint(2000, 3)
        << "SESSION_STORAGE_QUOTA_EXCEEDED";
    QTest::newRow("a checkpoint over the site's stored bytes is refused")
        << SettingKeys::runtimeMaxStoredBytesPerSite << 1024 << checkpoint(2000, 3)
        << "SITE_STORAGE_QUOTA_EXCEEDED";
    QTest::newRow("a checkpoint older than the stored one is refused")
        << QString() << 0 << checkpoint(100, 1) << "stale_seq";
}

void tst_RuntimeTelemetry::refusesACheckpointAndKeepsThePrevious()
{
    QFETCH(QString, setting);
    QFETCH(int, limit);
    QFETCH(QJsonObject, body);
    QFETCH(QString, code);
    m_telemetry->saveSnapshot(m_session, checkpoint(200, 2));
    if (!setting.isEmpty())
        QCOMPARE(m_parts->settings->set(setting, limit), QString());
    QCOMPARE(thrown([&] { m_telemetry->saveSnapshot(m_session, body); }).code(), code);
    const QJsonObject snap =
        m_projection->of(m_session, 0, true).value(QStringLiteral("snapshot")).toObject();
    QCOMPARE(snap.value(QStringLiteral("version")).toInteger(), 2);
    QCOMPARE(snap.value(QStringLiteral("bytes")).toInteger(), 200);
}

void tst_RuntimeTelemetry::countsAReplacedCheckpointInPlaceOfTheOld()
{
    QCOMPARE(m_parts->settings->set(SettingKeys::runtimeMaxStoredBytesPerSession, 1500), QString());
    m_telemetry->saveSnapshot(m_session, checkpoint(1000, 1));
    // 1000 more would be 2000 stored, but the new one replaces the old.
    m_telemetry->saveSnapshot(m_session, checkpoint(1000, 2));
    QCOMPARE(m_parts->repo().storedBytesOfSession(m_session.id, m_parts->clock.nowMs()), 1000);
    // A telemetry batch counts on top of the checkpoint.
    QCOMPARE(thrown([&] {
                 m_telemetry->ingestTelemetry(
                     m_session,
                     QJsonObject{{QStringLiteral("events"),
                                  QJsonArray{QJsonObject{
                                      {QStringLiteral("type"), QStringLiteral("click")},
                                      {QStringLiteral("text"), QString(600, QLatin1Char('t'))}}}}});
             }).code(),
             QStringLiteral("SESSION_STORAGE_QUOTA_EXCEEDED"));
}

void tst_RuntimeTelemetry::keepsTelemetryWithinItsLimits()
{
    QCOMPARE(m_parts->settings->set(SettingKeys::runtimeTelemetryMaxEvents, 2), QString());
    QCOMPARE(m_parts->settings->set(SettingKeys::runtimeTelemetryMaxEventBytes, 64), QString());
    const QJsonObject body{
        {QStringLiteral("events"),
         QJsonArray{json(R"({"type":"click"})"),
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("input")},
                                {QStringLiteral("value"), QString(100, QLatin1Char('v'))}},
                    json(R"({"type":"scroll"})")}},
        {QStringLiteral("pageUrl"), QStringLiteral("https://shop.harbour.example/")}};
    const QJsonObject out = m_telemetry->ingestTelemetry(m_session, body);
    QCOMPARE(out.value(QStringLiteral("accepted")).toInt(), 2);
    QCOMPARE(out.value(QStringLiteral("dropped")).toInt(), 1);
    QCOMPARE(out.value(QStringLiteral("truncated")).toInt(), 1);
    QCOMPARE(thrown([&] { m_telemetry->ingestTelemetry(m_session, {}); }).field(),
             QStringLiteral("events"));
}

void tst_RuntimeTelemetry::purgesWhatOutlivedItsRetention()
{
    m_telemetry->ingestTelemetry(m_session, json(R"({"events":[{"type":"click"}]})"));
    m_telemetry->saveSnapshot(m_session, json(R"({"checkpoint":{"a":1},"ttlHours":1})"));
    QCOMPARE(m_telemetry->purgeStale(), 0);
    m_parts->clock.advance(qint64(721) * 3600 * 1000);
    QCOMPARE(m_telemetry->purgeStale(), 2);
    QCOMPARE(m_parts->repo().storedBytesOfSession(m_session.id, m_parts->clock.nowMs()), 0);
}

void tst_RuntimeTelemetry::verifiesTheAnalyticsBeacon_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("code");
    QTest::newRow("a signed goal of a live session is recorded") << QString() << QString();
    QTest::newRow("a beacon with another signature is refused") << "sig"
                                                                << "SIGNATURE_INVALID";
    QTest::newRow("a beacon past its expiry is refused") << "expired"
                                                         << "SIGNATURE_EXPIRED";
    QTest::newRow("a beacon of an unknown session is refused") << "session"
                                                               << "SIGNATURE_INVALID";
    QTest::newRow("a kind that is no goal, event or conversion is refused") << "kind"
                                                                            << "INVALID_FIELD";
    QTest::newRow("a value that is not a number is refused") << "value"
                                                             << "INVALID_FIELD";
}

void tst_RuntimeTelemetry::verifiesTheAnalyticsBeacon()
{
    QFETCH(QString, change);
    QFETCH(QString, code);
    const QString sid =
        change == QLatin1String("session") ? QStringLiteral("rts_gone") : m_session.id;
    const qint64 exp = m_parts->clock.nowMs() + 60 * 1000;
    QHash<QString, QString> q{
        {QStringLiteral("sid"), sid},
        {QStringLiteral("exp"), QString::number(exp)},
        {QStringLiteral("sig"),
         QString::fromLatin1(RuntimeTelemetry::beaconSignature(m_parts->store(), sid, exp))},
        {QStringLiteral("kind"), QStringLiteral("goal")},
        {QStringLiteral("name"), QStringLiteral("checkout")},
        {QStringLiteral("value"), QStringLiteral("12.5")}};
    if (change == QLatin1String("sig"))
        q.insert(QStringLiteral("sig"), QStringLiteral("00"));
    if (change == QLatin1String("expired"))
        m_parts->clock.advance(61 * 1000);
    if (change == QLatin1String("kind"))
        q.insert(QStringLiteral("kind"), QStringLiteral("purchase"));
    if (change == QLatin1String("value"))
        q.insert(QStringLiteral("value"), QStringLiteral("a lot"));
    if (code.isEmpty()) {
        QVERIFY(!m_telemetry->collect(q).isEmpty());
        return;
    }
    QCOMPARE(thrown([&] { m_telemetry->collect(q); }).code(), code);
}

QTEST_GUILESS_MAIN(tst_RuntimeTelemetry)
#include "tst_runtimetelemetry.moc"
