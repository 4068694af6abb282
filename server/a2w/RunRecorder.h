#pragma once

#include "A2wRepository.h"

#include <QObject>

namespace ph {
class DomainError;
class Store;
namespace sites {
class AnalyticsRepository;
}
} // namespace ph

namespace ph::a2w {

// Why a run waits for input (docs/api/a2w.md): an ordinary question, the visitor's
// review of a browser run.
inline const QString kClarification = QStringLiteral("clarification_required");
inline const QString kVisitorReview = QStringLiteral("visitor_review_required");

// 404 RUN_NOT_FOUND (a wrong token never tells whether the run exists).
DomainError runNotFound();
// How tokens and receipts are kept: hashed.
QString hashToken(const QString &token);

// How every part of A2wService changes a run: stores the row, appends its events and
// says so (the facade forwards these signals as its own). The one place a run settles:
// its last events, what it cost a delegated session, the owner's analytics.
class RunRecorder : public QObject
{
    Q_OBJECT
public:
    RunRecorder(Store &store, A2wRepository &repo, sites::AnalyticsRepository &analytics,
                QObject *parent = nullptr);

    void emitEvent(const Run &run, const QString &type, const QJsonObject &data);
    void setStatus(Run &run, const QString &status);
    // Ends the run with `status` (terminal) and `error`.
    void settle(Run &run, const QString &status, const QString &error);
    // Parks the run input_required with `input` (and `authInput`, if any): stored, its
    // input and status events, a new deadline.
    void park(Run &run, const QJsonObject &input);

Q_SIGNALS:
    void eventAdded(const QString &runId, const ph::a2w::Event &event);
    void runChanged(const QString &runId);
    void delegationsChanged();
    // A run's deadline (expiresAt) was set or may have moved.
    void deadlinesChanged();
    // A run settled: whoever follows its trajectory lets it go.
    void settled(const QString &runId, const QString &trajectoryId);

private:
    void recordInteraction(const Run &run);

    Store &m_store;
    A2wRepository &m_repo;
    sites::AnalyticsRepository &m_analytics;
};

} // namespace ph::a2w
