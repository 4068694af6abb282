#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>

namespace ph {
class Store;
namespace sites {
class AnalyticsRepository;
}
} // namespace ph

namespace ph::runtime {

class RuntimeJournal;
struct Session;

// What a visitor's page stores and reports (docs/security.md, "Quotas for what visitors
// store"): the compacted checkpoint, telemetry batches, their retention and the stored-
// bytes quotas per session and per site; and the signed analytics beacon.
class RuntimeTelemetry
{
public:
    RuntimeTelemetry(RuntimeJournal &journal, sites::AnalyticsRepository &analytics);

    // POST /snapshot: replaces the session's checkpoint (413 over the size or a quota).
    QJsonObject saveSnapshot(const Session &session, const QJsonObject &body);
    // POST /telemetry/ingest: keeps at most the configured events, each truncated.
    QJsonObject ingestTelemetry(const Session &session, const QJsonObject &body);
    // Deletes telemetry past its retention and expired checkpoints; the rows deleted.
    int purgeStale();
    // GET /v2/runtime/collect: verifies the beacon and records the goal, event or
    // conversion for the session's site; the recorded id.
    QString collect(const QHash<QString, QString> &query);

    // The beacon's signature: HMAC-SHA256 of "sid.exp" with a key derived from the
    // store's secret (hex).
    static QByteArray beaconSignature(Store &store, const QString &sessionId, qint64 expiresAt);

private:
    // 413 when `added` more bytes (after `freed` are given back) would take the session
    // or its site over its storage quota.
    void checkQuota(const Session &session, qint64 freed, qint64 added, const QString &field);

    RuntimeJournal &m_journal;
    sites::AnalyticsRepository &m_analytics;
};

} // namespace ph::runtime
