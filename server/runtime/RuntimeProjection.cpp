#include "RuntimeProjection.h"

#include "RuntimeJournal.h"
#include "RuntimeRepository.h"

#include "core/ObjectStore.h"
#include "core/Store.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace ph::runtime {

namespace {

QJsonObject ts(qint64 ms)
{
    return {{QStringLiteral("_seconds"), ms / 1000},
            {QStringLiteral("_nanoseconds"), (ms % 1000) * 1000000}};
}

} // namespace

RuntimeProjection::RuntimeProjection(const RuntimeJournal &journal)
    : m_journal(journal)
{}

QJsonObject RuntimeProjection::of(const Session &session, qint64 seqAfter, bool withSnapshot) const
{
    QJsonObject p{{QStringLiteral("sessionId"), session.id},
                  {QStringLiteral("epoch"), session.epoch},
                  {QStringLiteral("seq"), session.seq}};
    if (!session.activeRunId.isEmpty()) {
        if (const auto run = m_journal.repo().findRun(session.activeRunId)) {
            p.insert(QStringLiteral("activeRunId"), run->id);
            p.insert(QStringLiteral("runStatus"), run->status);
            p.insert(QStringLiteral("runMode"), run->mode);
        }
    }
    QJsonArray events;
    for (const Event &e : m_journal.repo().eventsAfter(session.id, seqAfter, kMaxEvents)) {
        QJsonObject o{{QStringLiteral("seq"), e.seq},
                      {QStringLiteral("type"), e.type},
                      {QStringLiteral("ts"), ts(e.at)}};
        if (!e.data.isEmpty())
            o.insert(QStringLiteral("data"), e.data);
        events.append(o);
    }
    p.insert(QStringLiteral("events"), events);
    QJsonArray tabs;
    for (const Tab &t : m_journal.repo().tabsOf(session.id)) {
        QJsonObject o{{QStringLiteral("logicalTabId"), t.logicalTabId},
                      {QStringLiteral("scope"), t.scope},
                      {QStringLiteral("status"), t.status},
                      {QStringLiteral("updatedAt"), t.updatedAt}};
        if (!t.parentTabId.isEmpty())
            o.insert(QStringLiteral("parentLogicalTabId"), t.parentTabId);
        if (!t.url.isEmpty())
            o.insert(QStringLiteral("url"), t.url);
        if (!t.reason.isEmpty())
            o.insert(QStringLiteral("reason"), t.reason);
        tabs.append(o);
    }
    p.insert(QStringLiteral("tabs"), tabs);
    if (withSnapshot) {
        if (const auto snap = m_journal.repo().snapshotOf(session.id, m_journal.now())) {
            QJsonObject s{{QStringLiteral("version"), snap->version},
                          {QStringLiteral("seq"), snap->seq},
                          {QStringLiteral("bytes"), snap->bytes}};
            if (!snap->objectId.isEmpty()) {
                // Offloaded: the checkpoint is read back from storage for the client.
                s.insert(QStringLiteral("payload"),
                         QJsonDocument::fromJson(m_journal.store().objects().data(snap->objectId))
                             .object());
                s.insert(QStringLiteral("offloaded"), true);
            } else {
                s.insert(QStringLiteral("payload"), snap->payload);
            }
            p.insert(QStringLiteral("snapshot"), s);
            p.insert(QStringLiteral("snapshotUpdatedAt"), snap->updatedAt);
        }
    }
    return p;
}

QJsonObject RuntimeProjection::of(const QString &sessionId, qint64 seqAfter) const
{
    const std::optional<Session> session = m_journal.repo().findSession(sessionId);
    return session ? of(*session, seqAfter, false) : QJsonObject();
}

} // namespace ph::runtime
