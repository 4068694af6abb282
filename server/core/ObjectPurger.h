#pragma once

#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>

namespace ph {

class ObjectStore;

// Deletes expired stored objects (large-response snapshots, anything put with a TTL)
// every `intervalMs`: an expired object is already invisible to find(), this gives its
// bytes back. Objects without a TTL (uploads, generated files and websites) go once they
// are older than the retention (storage.retentionHours; 0 keeps them). Other areas add
// their own rows to forget on the same timer (runtime telemetry past its retention).
// Time is the store's clock, so tests drive it with a ManualClock.
class ObjectPurger : public QObject
{
    Q_OBJECT
public:
    ObjectPurger(ObjectStore &objects, int intervalMs, QObject *parent = nullptr);

    void setInterval(int intervalMs);
    // Objects without a TTL older than this are purged; 0 keeps them.
    void setRetentionMs(qint64 retentionMs) { m_retentionMs = retentionMs; }
    qint64 retentionMs() const { return m_retentionMs; }
    int interval() const { return m_timer.interval(); }
    // Runs on every purge after the objects: deletes what its area keeps past its time
    // and returns how many rows went.
    void addTask(std::function<int()> task) { m_tasks.append(std::move(task)); }
    // Purges now; returns how many objects went.
    int purge();
    qint64 purgedTotal() const { return m_total; }

Q_SIGNALS:
    void purged(int count); // count > 0
    // Every purge that ran, whatever it removed (0 included): tests wait on it to know a
    // tick has happened before they check that something was kept.
    void swept(int count);

private:
    ObjectStore &m_objects;
    QTimer m_timer;
    qint64 m_total = 0;
    qint64 m_retentionMs = 0;
    QList<std::function<int()>> m_tasks;
};

} // namespace ph
