#include "ObjectPurger.h"

#include "ObjectStore.h"
#include "Store.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcPurge, "pilothouse.storage")

namespace ph {

ObjectPurger::ObjectPurger(ObjectStore &objects, int intervalMs, QObject *parent)
    : QObject(parent)
    , m_objects(objects)
{
    connect(&m_timer, &QTimer::timeout, this, [this] { purge(); });
    setInterval(intervalMs);
}

void ObjectPurger::setInterval(int intervalMs)
{
    m_timer.start(qMax(1, intervalMs));
}

int ObjectPurger::purge()
{
    for (const auto &task : std::as_const(m_tasks)) {
        try {
            if (const int rows = task(); rows > 0)
                qCInfo(lcPurge) << "purged" << rows << "rows past their retention";
        } catch (const StoreError &e) {
            qCWarning(lcPurge) << "purging rows past their retention failed:" << e.what();
        }
    }
    int n = 0;
    try {
        n = m_objects.purgeExpired(m_retentionMs);
    } catch (const StoreError &e) {
        // A busy or closing store: the next tick tries again.
        qCWarning(lcPurge) << "purging expired objects failed:" << e.what();
        return 0;
    }
    if (n > 0) {
        m_total += n;
        qCInfo(lcPurge) << "purged" << n << "expired stored objects";
        Q_EMIT purged(n);
    }
    Q_EMIT swept(n);
    return n;
}

} // namespace ph
