#pragma once

#include "RuntimeTypes.h"

#include <QHash>
#include <QObject>

class QTimer;

namespace ph::runtime {

class RuntimeJournal;
class RuntimeProjection;

// Steps run in the visitor's page (RemoteTab drives them for the engine): a step goes out
// as a `page.request` event of the session and comes back as RUN_CONTROL `continue` with
// its `stepId` and `result`. Each step's `done` is called once: with the result, or with
// an error when the page does not answer in time or the run ends.
class RemoteSteps : public QObject
{
    Q_OBJECT
public:
    RemoteSteps(RuntimeJournal &journal, const RuntimeProjection &projection,
                QObject *parent = nullptr);
    ~RemoteSteps() override;

    // Sends `step` to the session's page; `done` is called later, never from here.
    void request(const QString &sessionId, const QString &runId, QJsonObject step, int timeoutMs,
                 StepDone done);
    // RUN_CONTROL continue with a stepId (inside the command's transaction): the step's
    // result; its `done` runs after the commit.
    CommandAnswer deliver(Session &session, const QJsonObject &body);
    // Ends the run's waiting steps with `why`.
    void fail(const QString &runId, const QString &why);

    int pending() const { return int(m_steps.size()); }

private:
    struct PendingStep
    {
        QString sessionId;
        QString runId;
        StepDone done;
        QTimer *timer = nullptr;
    };

    RuntimeJournal &m_journal;
    const RuntimeProjection &m_projection;
    QHash<QString, PendingStep> m_steps;
    int m_stepCounter = 0;
};

} // namespace ph::runtime
