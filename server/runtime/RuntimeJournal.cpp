#include "RuntimeJournal.h"

#include "RuntimeRepository.h"

#include "core/Clock.h"
#include "core/Store.h"

namespace ph::runtime {

RuntimeJournal::RuntimeJournal(Store &store, Settings &settings, sites::SiteRepository &sites)
    : m_store(store)
    , m_settings(settings)
    , m_sites(sites)
    , m_repo(std::make_unique<RuntimeRepository>(store))
{}

RuntimeJournal::~RuntimeJournal() = default;

void RuntimeJournal::write(const std::function<void()> &work) const
{
    m_store.transaction(work, Store::Sync::Normal);
}

qint64 RuntimeJournal::now() const
{
    return m_store.clock().nowMs();
}

void RuntimeJournal::appendEvent(Session &session, const QString &type, const QString &runId,
                                 const QJsonObject &data)
{
    Event e;
    e.seq = ++session.seq;
    e.type = type;
    e.runId = runId;
    e.data = data;
    e.at = now();
    session.updatedAt = e.at;
    m_repo->insertEvent(session.id, e);
    m_advanced.append({session.id, session.seq});
}

void RuntimeJournal::flush()
{
    for (const auto &[id, seq] : std::exchange(m_advanced, {}))
        if (m_signals.sessionAdvanced)
            m_signals.sessionAdvanced(id, seq);
    for (const auto &then : std::exchange(m_afterCommit, {}))
        then();
}

void RuntimeJournal::runStarted(const QString &sessionId, const QString &runId)
{
    afterCommit([this, sessionId, runId] {
        if (m_signals.runStarted)
            m_signals.runStarted(sessionId, runId);
    });
}

void RuntimeJournal::runAnswered(const QString &sessionId, const QString &runId,
                                 const QString &message)
{
    afterCommit([this, sessionId, runId, message] {
        if (m_signals.runAnswered)
            m_signals.runAnswered(sessionId, runId, message);
    });
}

void RuntimeJournal::runStoppedNow(const QString &runId)
{
    if (m_signals.runStopped)
        m_signals.runStopped(runId);
}

} // namespace ph::runtime
