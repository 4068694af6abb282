#pragma once

#include <QObject>
#include <QTimer>

namespace ph {

class ObjectStore;

// Deletes expired stored objects (large-response snapshots, anything put with a TTL)
// every `intervalMs`: an expired object is already invisible to find(), this gives its
// bytes back. Expiry is judged by the store's clock, so tests drive it with a
// ManualClock. Uploads and generated files without a TTL are never purged.
class ObjectPurger : public QObject
{
    Q_OBJECT
public:
    ObjectPurger(ObjectStore &objects, int intervalMs, QObject *parent = nullptr);

    void setInterval(int intervalMs);
    int interval() const { return m_timer.interval(); }
    // Purges now; returns how many objects went.
    int purge();
    qint64 purgedTotal() const { return m_total; }

Q_SIGNALS:
    void purged(int count);

private:
    ObjectStore &m_objects;
    QTimer m_timer;
    qint64 m_total = 0;
};

} // namespace ph
