#pragma once

#include <QJsonObject>
#include <QString>

namespace ph::runtime {

class RuntimeJournal;
struct Session;

// The JSON views of a session the API returns (SessionProjectionResponse): events after a
// seq (at most 200), tabs, the active run, and the checkpoint when asked for.
class RuntimeProjection
{
public:
    explicit RuntimeProjection(const RuntimeJournal &journal);

    QJsonObject of(const Session &session, qint64 seqAfter, bool withSnapshot) const;
    // By id: an empty object for an unknown session.
    QJsonObject of(const QString &sessionId, qint64 seqAfter) const;

    static constexpr int kMaxEvents = 200;

private:
    const RuntimeJournal &m_journal;
};

} // namespace ph::runtime
