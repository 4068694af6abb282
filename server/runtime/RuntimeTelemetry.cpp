#include "RuntimeTelemetry.h"

#include "RuntimeCommon.h"
#include "RuntimeJournal.h"
#include "RuntimeRepository.h"

#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/JsonFields.h"
#include "core/JsonText.h"
#include "core/ObjectStore.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "sites/AnalyticsRepository.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>

#include <limits>

namespace ph::runtime {

RuntimeTelemetry::RuntimeTelemetry(RuntimeJournal &journal, sites::AnalyticsRepository &analytics)
    : m_journal(journal)
    , m_analytics(analytics)
{}

QByteArray RuntimeTelemetry::beaconSignature(Store &store, const QString &sessionId,
                                             qint64 expiresAt)
{
    return QMessageAuthenticationCode::hash(
               (sessionId + QLatin1Char('.') + QString::number(expiresAt)).toUtf8(),
               store.secrets().derive("pilothouse runtime collect v1"), QCryptographicHash::Sha256)
        .toHex();
}

void RuntimeTelemetry::checkQuota(const Session &s, qint64 freed, qint64 added,
                                  const QString &field)
{
    const qint64 at = m_journal.now();
    struct Scope
    {
        QString code, setting, whose;
        qint64 stored;
    };
    const Scope scopes[] = {
        {QStringLiteral("SESSION_STORAGE_QUOTA_EXCEEDED"),
         SettingKeys::runtimeMaxStoredBytesPerSession, QStringLiteral("this session"),
         m_journal.repo().storedBytesOfSession(s.id, at) - freed},
        {QStringLiteral("SITE_STORAGE_QUOTA_EXCEEDED"), SettingKeys::runtimeMaxStoredBytesPerSite,
         QStringLiteral("the site's sessions"),
         m_journal.repo().storedBytesOfSite(s.siteId, at) - freed},
    };
    for (const Scope &scope : scopes) {
        const qint64 limit = m_journal.settings().int64Value(scope.setting);
        if (scope.stored + added > limit)
            throw overQuota(scope.code,
                            QStringLiteral("%1 would keep %2 bytes stored; the limit is %3 (%4)")
                                .arg(scope.whose)
                                .arg(scope.stored + added)
                                .arg(limit)
                                .arg(scope.setting),
                            field, scope.setting, limit, scope.stored, added);
    }
}

int RuntimeTelemetry::purgeStale()
{
    const qint64 at = m_journal.now();
    const qint64 keep =
        m_journal.settings().int64Value(SettingKeys::runtimeTelemetryRetentionHours) * 3600 * 1000;
    int n = 0;
    m_journal.write([&] {
        n += m_journal.repo().purgeTelemetry(at - keep);
        n += m_journal.repo().purgeExpiredSnapshots(at);
    });
    return n;
}
QJsonObject RuntimeTelemetry::saveSnapshot(const Session &s, const QJsonObject &body)
{
    const JsonFields f(body);
    QString field = QStringLiteral("checkpoint");
    if (!body.value(field).isObject())
        field = QStringLiteral("payload");
    if (!body.value(field).isObject())
        throw invalid(QStringLiteral("checkpoint"),
                      QStringLiteral("checkpoint or payload (an object) is required"));
    QJsonObject payload = body.value(field).toObject();
    if (const auto steps = f.optionalArray(QStringLiteral("compactedPrevSteps")))
        payload.insert(QStringLiteral("compactedPrevSteps"), *steps);
    if (const auto summary = f.optionalString(QStringLiteral("chatSummary")))
        payload.insert(QStringLiteral("chatSummary"), *summary);
    Snapshot snap;
    snap.version = f.optionalInt(QStringLiteral("version"), 1, 1000000).value_or(1);
    snap.seq =
        f.optionalInt(QStringLiteral("seq"), 0, std::numeric_limits<qint64>::max()).value_or(s.seq);
    snap.visitorId = f.optionalString(QStringLiteral("visitorId")).value_or(QString()).left(128);
    snap.updatedAt =
        f.optionalInt(QStringLiteral("updatedAt"), 0, std::numeric_limits<qint64>::max())
            .value_or(m_journal.now());
    const qint64 ttlHours = f.optionalInt(QStringLiteral("ttlHours"), 1, 24 * 30).value_or(24);
    snap.expiresAt = m_journal.now() + ttlHours * 3600 * 1000;
    // A checkpoint older than the stored one is not written over it.
    if (const auto stored = m_journal.repo().snapshotOf(s.id, m_journal.now());
        stored && (stored->version > snap.version ||
                   (stored->version == snap.version && stored->seq > snap.seq)))
        throw DomainError(
            DomainError::Kind::Conflict, QStringLiteral("stale_seq"),
            QStringLiteral("a newer checkpoint (version %1, seq %2) is stored")
                .arg(stored->version)
                .arg(stored->seq),
            QStringLiteral("seq"),
            {{QStringLiteral("currentSeq"), stored->seq},
             {QStringLiteral("decisionReason"), QStringLiteral("stale_seq_retryable")},
             {QStringLiteral("retryable"), true},
             {QStringLiteral("conflict"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("stale_seq")},
                          {QStringLiteral("currentSeq"), stored->seq},
                          {QStringLiteral("retryable"), true}}}});
    const QByteArray json = QJsonDocument(payload).toJson(QJsonDocument::Compact);
    snap.bytes = json.size();
    const qint64 maxBytes = m_journal.settings().int64Value(SettingKeys::runtimeMaxSnapshotBytes);
    if (snap.bytes > maxBytes)
        throw overQuota(QStringLiteral("SNAPSHOT_TOO_LARGE"),
                        QStringLiteral("the checkpoint is %1 bytes; the limit is %2 (%3)")
                            .arg(snap.bytes)
                            .arg(maxBytes)
                            .arg(SettingKeys::runtimeMaxSnapshotBytes),
                        field, SettingKeys::runtimeMaxSnapshotBytes, maxBytes, 0, snap.bytes);
    const bool offload =
        json.size() > m_journal.settings().intValue(SettingKeys::runtimeSnapshotInlineBytes);
    // One checkpoint per session: the new one replaces the stored one (and its object) in
    // the same transaction, and counts against the quotas in place of it.
    m_journal.write([&] {
        const std::optional<Snapshot> current = m_journal.repo().snapshotOf(s.id, m_journal.now());
        checkQuota(s, current ? current->bytes : 0, snap.bytes, field);
        if (offload) {
            // Oversized: the payload goes to storage, the row keeps its reference.
            snap.objectId =
                m_journal.store()
                    .objects()
                    .put(s.keyId, QStringLiteral("runtime_snapshot"),
                         s.id + QStringLiteral(".json"), QStringLiteral("application/json"), json,
                         ttlHours * 3600 * 1000)
                    .id;
        } else {
            snap.payload = payload;
        }
        m_journal.repo().upsertSnapshot(s.id, snap);
    });
    return {{QStringLiteral("sessionId"), s.id},
            {QStringLiteral("version"), snap.version},
            {QStringLiteral("seq"), snap.seq},
            {QStringLiteral("bytes"), snap.bytes},
            {QStringLiteral("offloaded"), offload},
            {QStringLiteral("updatedAt"), snap.updatedAt},
            {QStringLiteral("expiresAt"), snap.expiresAt}};
}

QJsonObject RuntimeTelemetry::ingestTelemetry(const Session &s, const QJsonObject &body)
{
    const JsonFields f(body);
    const std::optional<QJsonArray> events = f.optionalArray(QStringLiteral("events"));
    if (!events)
        throw DomainError::missingField(QStringLiteral("events"));
    const int maxEvents = m_journal.settings().intValue(SettingKeys::runtimeTelemetryMaxEvents);
    const int maxBytes = m_journal.settings().intValue(SettingKeys::runtimeTelemetryMaxEventBytes);
    QJsonArray kept;
    int truncated = 0;
    for (const QJsonValue &e : *events) {
        if (kept.size() >= maxEvents)
            break;
        const QString json = JsonText::from(e);
        if (json.toUtf8().size() > maxBytes) {
            ++truncated;
            const QJsonObject o = e.toObject();
            kept.append(QJsonObject{
                {QStringLiteral("type"), o.value(QStringLiteral("type")).toString().left(64)},
                {QStringLiteral("truncated"), true},
                {QStringLiteral("bytes"), json.toUtf8().size()}});
        } else {
            kept.append(e);
        }
    }
    const int dropped = int(events->size() - kept.size());
    QJsonObject batch{{QStringLiteral("events"), kept}};
    for (const QString &k : {QStringLiteral("runId"), QStringLiteral("flushReason"),
                             QStringLiteral("pageUrl"), QStringLiteral("sdkVersion")})
        if (const auto v = f.optionalString(k))
            batch.insert(k, v->left(k == QLatin1String("pageUrl") ? 2048 : 128));
    m_journal.write([&] {
        checkQuota(s, 0, RuntimeRepository::telemetryBytes(batch), QStringLiteral("events"));
        m_journal.repo().insertTelemetry(s.id, batch, dropped, m_journal.now());
    });
    return {{QStringLiteral("accepted"), kept.size()},
            {QStringLiteral("dropped"), dropped},
            {QStringLiteral("truncated"), truncated},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("maxEvents"), maxEvents},
                                                   {QStringLiteral("maxEventBytes"), maxBytes}}}};
}

QString RuntimeTelemetry::collect(const QHash<QString, QString> &q)
{
    const QString sid = q.value(QStringLiteral("sid"));
    const qint64 exp = q.value(QStringLiteral("exp")).toLongLong();
    const QByteArray expected = beaconSignature(m_journal.store(), sid, exp);
    if (sid.isEmpty() ||
        !Ids::equalConstantTime(expected, q.value(QStringLiteral("sig")).toLatin1()))
        throw DomainError::unauthorized(QStringLiteral("SIGNATURE_INVALID"),
                                        QStringLiteral("the beacon's signature does not hold"));
    if (exp <= m_journal.now())
        throw DomainError::unauthorized(QStringLiteral("SIGNATURE_EXPIRED"),
                                        QStringLiteral("the beacon's signature has expired; "
                                                       "refresh the session"));
    const std::optional<Session> session = m_journal.repo().findSession(sid);
    if (!session)
        throw DomainError::unauthorized(QStringLiteral("SIGNATURE_INVALID"),
                                        QStringLiteral("no such session"));
    const QString kind = q.value(QStringLiteral("kind"));
    const QString name = q.value(QStringLiteral("name")).left(120);
    if (kind != QLatin1String("goal") && kind != QLatin1String("event") &&
        kind != QLatin1String("conversion"))
        throw invalid(QStringLiteral("kind"), QStringLiteral("must be goal, event or conversion"));
    if (name.isEmpty())
        throw DomainError::missingField(QStringLiteral("name"));
    QJsonObject doc{{QStringLiteral("kind"), kind},
                    {QStringLiteral("name"), name},
                    {QStringLiteral("sessionId"), sid},
                    {QStringLiteral("source"), QStringLiteral("runtime")}};
    if (kind == QLatin1String("goal"))
        doc.insert(QStringLiteral("goal"), name);
    if (kind == QLatin1String("conversion"))
        doc.insert(QStringLiteral("converted"), true);
    if (q.contains(QStringLiteral("value"))) {
        bool ok = false;
        const double v = q.value(QStringLiteral("value")).toDouble(&ok);
        if (!ok)
            throw invalid(QStringLiteral("value"), QStringLiteral("must be a number"));
        doc.insert(QStringLiteral("value"), v);
    }
    if (q.contains(QStringLiteral("currency")))
        doc.insert(QStringLiteral("currency"), q.value(QStringLiteral("currency")).left(8));
    if (q.contains(QStringLiteral("props"))) {
        const QJsonObject props =
            QJsonDocument::fromJson(q.value(QStringLiteral("props")).toUtf8()).object();
        doc.insert(QStringLiteral("properties"), sanitizeContext(props));
    }
    if (q.contains(QStringLiteral("page")))
        doc.insert(QStringLiteral("pageUrl"), q.value(QStringLiteral("page")).left(2048));
    return m_analytics.record(session->siteId, sites::AnalyticsRepository::Collection::Interaction,
                              doc);
}

} // namespace ph::runtime
