#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <utility>

namespace ph {
class Settings;
class Store;
namespace sites {
class SiteRepository;
}
} // namespace ph

namespace ph::runtime {

class RuntimeRepository;
struct Session;

// What the runtime tells the rest of the service once a transaction committed;
// RuntimeService emits its signals from these. Unset ones are not called.
struct RuntimeSignals
{
    // New events of a session (its seq is now `seq`): streams send a projection.
    std::function<void(const QString &sessionId, qint64 seq)> sessionAdvanced;
    std::function<void(const QString &sessionId, const QString &runId)> runStarted;
    std::function<void(const QString &sessionId, const QString &runId, const QString &message)>
        runAnswered;
    std::function<void(const QString &runId)> runStopped;
};

// What every part of the runtime writes through: the store and its clock, the session's
// event log, and what a transaction owes once it commits (the streams' announcements and
// the run signals). The parts append; RuntimeService flushes after each call.
class RuntimeJournal
{
public:
    RuntimeJournal(Store &store, Settings &settings, sites::SiteRepository &sites);
    ~RuntimeJournal();
    RuntimeJournal(const RuntimeJournal &) = delete;
    RuntimeJournal &operator=(const RuntimeJournal &) = delete;

    Store &store() const { return m_store; }
    Settings &settings() const { return m_settings; }
    sites::SiteRepository &sites() const { return m_sites; }
    RuntimeRepository &repo() const { return *m_repo; }

    // The runtime's writes commit with synchronous=NORMAL (docs/decisions.md, "Runtime
    // writes"): a visitor's session is short-lived, and a power cut that undoes its last
    // commands is met by the strict-mode protocol (the client resyncs), never by a wrong
    // state; a process kill loses nothing.
    void write(const std::function<void()> &work) const;
    qint64 now() const;

    // A new event of `session` (its seq moves): stored now, announced after the commit.
    void appendEvent(Session &session, const QString &type, const QString &runId,
                     const QJsonObject &data);
    // Work for after the commit (a run signal, a step's end).
    void afterCommit(std::function<void()> then) { m_afterCommit.append(std::move(then)); }

    // After a transaction: the sessions that advanced are announced, then what was owed
    // runs.
    void flush();

    RuntimeSignals &hooks() { return m_signals; }
    // Queue a run signal for after the commit.
    void runStarted(const QString &sessionId, const QString &runId);
    void runAnswered(const QString &sessionId, const QString &runId, const QString &message);
    // Tells the engine at once (called from work owed after a commit).
    void runStoppedNow(const QString &runId);

private:
    Store &m_store;
    Settings &m_settings;
    sites::SiteRepository &m_sites;
    std::unique_ptr<RuntimeRepository> m_repo;
    QList<std::pair<QString, qint64>> m_advanced; // sessions to announce after commit
    QList<std::function<void()>> m_afterCommit;
    RuntimeSignals m_signals;
};

} // namespace ph::runtime
