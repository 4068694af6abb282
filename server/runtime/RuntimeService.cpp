#include "RuntimeService.h"

#include "CommandProtocol.h"
#include "NavigationDecision.h"
#include "RemoteSteps.h"
#include "RuntimeCommon.h"
#include "RuntimeJournal.h"
#include "RuntimeProjection.h"
#include "RuntimeRepository.h"
#include "RuntimeSessions.h"
#include "RuntimeTelemetry.h"

namespace ph::runtime {

RuntimeService::RuntimeService(Store &store, Settings &settings, sites::SiteRepository &sites,
                               sites::AnalyticsRepository &analytics, QObject *parent)
    : QObject(parent)
    , m_journal(std::make_unique<RuntimeJournal>(store, settings, sites))
    , m_projection(std::make_unique<RuntimeProjection>(*m_journal))
    , m_steps(std::make_unique<RemoteSteps>(*m_journal, *m_projection))
    , m_sessions(std::make_unique<RuntimeSessions>(*m_journal))
    , m_telemetry(std::make_unique<RuntimeTelemetry>(*m_journal, analytics))
    , m_commands(std::make_unique<CommandProtocol>(*m_journal, *m_projection, *m_steps))
{
    RuntimeSignals &hooks = m_journal->hooks();
    hooks.sessionAdvanced = [this](const QString &sessionId, qint64 seq) {
        Q_EMIT sessionAdvanced(sessionId, seq);
    };
    hooks.runStarted = [this](const QString &sessionId, const QString &runId) {
        Q_EMIT runStarted(sessionId, runId);
    };
    hooks.runAnswered = [this](const QString &sessionId, const QString &runId,
                               const QString &message) {
        Q_EMIT runAnswered(sessionId, runId, message);
    };
    hooks.runStopped = [this](const QString &runId) { Q_EMIT runStopped(runId); };
    connect(&m_journal->repo(), &RuntimeRepository::sessionChanged, this,
            &RuntimeService::sessionChanged);
    connect(&m_journal->repo(), &RuntimeRepository::runChanged, this,
            &RuntimeService::visitorRunChanged);
}

RuntimeService::~RuntimeService() = default;

RuntimeRepository &RuntimeService::repository()
{
    return m_journal->repo();
}

std::optional<Session> RuntimeService::session(const QString &id) const
{
    return m_journal->repo().findSession(id);
}

// --- sessions ------------------------------------------------------------------------

RuntimeService::Opened RuntimeService::open(const QJsonObject &body, const QString &bearer,
                                            const QString &clientAddress)
{
    return m_sessions->open(body, bearer, clientAddress);
}

RuntimeService::SiteToken RuntimeService::mintSiteToken(const QString &secret,
                                                        const QJsonObject &body)
{
    return m_sessions->mintSiteToken(secret, body);
}

Session RuntimeService::authenticate(const QString &sessionToken, const QString &sessionId) const
{
    return m_sessions->authenticate(sessionToken, sessionId);
}

Session RuntimeService::authenticateStream(const QString &streamTicket) const
{
    return m_sessions->authenticateStream(streamTicket);
}

QJsonObject RuntimeService::updateContext(const Session &session, const QJsonObject &body)
{
    return m_sessions->updateContext(session, body);
}

QJsonObject RuntimeService::sanitizeContext(const QJsonObject &context, QStringList *dropped)
{
    return runtime::sanitizeContext(context, dropped);
}

// --- projections ---------------------------------------------------------------------

QJsonObject RuntimeService::projection(const Session &session, qint64 seqAfter,
                                       bool withSnapshot) const
{
    return m_projection->of(session, seqAfter, withSnapshot);
}

QJsonObject RuntimeService::projection(const QString &sessionId, qint64 seqAfter) const
{
    return m_projection->of(sessionId, seqAfter);
}

// --- commands and runs ---------------------------------------------------------------

RuntimeService::Answer RuntimeService::command(const Session &session, const QJsonObject &body)
{
    return m_commands->command(session, body);
}

QJsonObject RuntimeService::externalDecision(const Session &session, const QJsonObject &body)
{
    return m_commands->externalDecision(session, body);
}

void RuntimeService::runProgress(const QString &runId, const QString &status,
                                 const QJsonObject &data)
{
    m_commands->runProgress(runId, status, data);
}

void RuntimeService::markTab(const QString &sessionId, const QString &logicalTabId,
                             const QString &status)
{
    m_commands->markTab(sessionId, logicalTabId, status);
}

void RuntimeService::endActiveRun(const QString &sessionId, const QString &reason)
{
    m_commands->endActiveRun(sessionId, reason);
}

QList<Session> RuntimeService::liveSessions(int limit) const
{
    return m_journal->repo().liveSessions(limit);
}

double RuntimeService::blockScore() const
{
    return m_commands->blockScore();
}

RuntimeService::Adversarial RuntimeService::assessUrl(const QString &url, const QString &siteHost)
{
    return runtime::assessUrl(url, siteHost);
}

void RuntimeService::setA2wClaimer(A2wClaimer claimer)
{
    m_commands->setA2wClaimer(std::move(claimer));
}

void RuntimeService::setA2wReviewer(A2wReviewer reviewer)
{
    m_commands->setA2wReviewer(std::move(reviewer));
}

QString RuntimeService::consentToken(const QString &sessionId, const QString &a2wRunId) const
{
    return m_commands->consentToken(sessionId, a2wRunId);
}

// --- steps on the visitor's page -----------------------------------------------------

void RuntimeService::requestStep(const QString &sessionId, const QString &runId, QJsonObject step,
                                 int timeoutMs, StepDone done)
{
    m_steps->request(sessionId, runId, std::move(step), timeoutMs, std::move(done));
}

// --- checkpoints, telemetry, beacon --------------------------------------------------

QJsonObject RuntimeService::saveSnapshot(const Session &session, const QJsonObject &body)
{
    return m_telemetry->saveSnapshot(session, body);
}

QJsonObject RuntimeService::ingestTelemetry(const Session &session, const QJsonObject &body)
{
    return m_telemetry->ingestTelemetry(session, body);
}

int RuntimeService::purgeStale()
{
    return m_telemetry->purgeStale();
}

QString RuntimeService::collect(const QHash<QString, QString> &query)
{
    return m_telemetry->collect(query);
}

} // namespace ph::runtime
