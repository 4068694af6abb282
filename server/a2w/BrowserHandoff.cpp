#include "BrowserHandoff.h"

#include "RunRecorder.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "sites/SiteRepository.h"

#include <QJsonArray>
#include <QMessageAuthenticationCode>

namespace ph::a2w {

BrowserHandoff::BrowserHandoff(Store &store, Settings &settings, A2wRepository &repo,
                               sites::SiteRepository &sites, RunRecorder &recorder)
    : m_store(store)
    , m_settings(settings)
    , m_repo(repo)
    , m_sites(sites)
    , m_rec(recorder)
{}

QString BrowserHandoff::receiptFor(const QString &runId) const
{
    const QByteArray mac = QMessageAuthenticationCode::hash(
        runId.toUtf8(), m_store.secrets().derive("a2w-receipt"), QCryptographicHash::Sha256);
    return QStringLiteral("rcpt_") +
           QString::fromLatin1(mac.left(24).toBase64(QByteArray::Base64UrlEncoding |
                                                     QByteArray::OmitTrailingEquals));
}

std::optional<Run> BrowserHandoff::findByReceipt(const QString &receipt) const
{
    return m_repo.findByReceipt(hashToken(receipt));
}

namespace {
// The run a receipt names, waiting for a browser on `siteId`.
Run waitingForBrowser(const std::optional<Run> &run, const QString &siteId)
{
    if (!run)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("RUN_NOT_FOUND"),
                          QStringLiteral("no run has this receipt"), QStringLiteral("a2wReceipt"));
    if (run->siteId != siteId)
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("SITE_MISMATCH"),
                          QStringLiteral("the run belongs to another site"),
                          QStringLiteral("a2wReceipt"));
    if (run->status != Status::waitingBrowser)
        throw DomainError(
            DomainError::Kind::Conflict, QStringLiteral("NOT_WAITING_FOR_BROWSER"),
            QStringLiteral("the run is %1, not waiting for a browser").arg(run->status),
            QStringLiteral("a2wReceipt"), {{QStringLiteral("status"), run->status}});
    return *run;
}

} // namespace

Claimed BrowserHandoff::offer(const QString &receipt, const QString &siteId) const
{
    const Run run = waitingForBrowser(findByReceipt(receipt), siteId);
    const std::optional<sites::Site> site = m_sites.findSite(run.siteId);
    Claimed c;
    c.runId = run.id;
    c.task = run.pendingTask;
    c.siteName = site ? site->name : run.host;
    c.host = run.host;
    c.url = run.url;
    c.agentName = run.agent.value(QStringLiteral("displayName"))
                      .toString(run.agent.value(QStringLiteral("name")).toString())
                      .left(80);
    c.trust = run.trust;
    if (run.trust == Trust::verified)
        c.signatureAgent = run.agent.value(QStringLiteral("signatureAgent")).toString();
    return c;
}

Claimed BrowserHandoff::claim(const QString &receipt, const QString &siteId)
{
    const Claimed offer = this->offer(receipt, siteId);
    Run run = *m_repo.find(offer.runId);
    run.expiresAt.reset();
    run.pendingTask.clear();
    m_rec.emitEvent(run, QStringLiteral("message"),
                    {{QStringLiteral("role"), QStringLiteral("system")},
                     {QStringLiteral("browser"),
                      QStringLiteral("a visitor accepted the run in their browser")}});
    m_rec.setStatus(run, Status::running);
    return offer;
}

void BrowserHandoff::decline(const QString &receipt, const QString &siteId)
{
    Run run = waitingForBrowser(findByReceipt(receipt), siteId);
    run.pendingTask.clear();
    m_rec.emitEvent(run, QStringLiteral("message"),
                    {{QStringLiteral("role"), QStringLiteral("system")},
                     {QStringLiteral("browser"), QStringLiteral("the visitor declined the run")}});
    m_rec.settle(run, Status::cancelled, QStringLiteral("declined by the visitor"));
}

void BrowserHandoff::step(const QString &runId, const QJsonObject &step)
{
    const std::optional<Run> run = m_repo.find(runId);
    if (!run || Status::isTerminal(run->status))
        return;
    // The visitor's page stays theirs: the caller sees that a step ran, not what it saw.
    m_rec.emitEvent(*run, QStringLiteral("step"),
                    {{QStringLiteral("tool"), step.value(QStringLiteral("tool"))},
                     {QStringLiteral("status"), step.value(QStringLiteral("status"))}});
}

void BrowserHandoff::finish(const QString &runId, bool ok, const QJsonObject &result,
                            const QString &error)
{
    Q_UNUSED(result)
    // Once: the engine reports an end more than once, and a run under review is not
    // finished again.
    std::optional<Run> run = m_repo.find(runId);
    if (!run || run->status != Status::running)
        return;
    if (!ok) {
        // The reason may quote the visitor's page: the caller gets none of it.
        Q_UNUSED(error)
        m_rec.settle(*run, Status::failed,
                     QStringLiteral("the task did not finish in the visitor's browser (nothing "
                                    "from their page was shared)"));
        return;
    }
    // Done in the visitor's browser: the result is theirs until they share it.
    const qint64 expires =
        m_store.clock().nowMs() + m_settings.int64Value(SettingKeys::a2wInputExpirySeconds) * 1000;
    run->expiresAt = expires;
    m_rec.park(*run, {{QStringLiteral("reason"), kVisitorReview},
                      {QStringLiteral("message"),
                       QStringLiteral("The task ran in a visitor's browser; the visitor decides "
                                      "whether to share its result with you.")},
                      {QStringLiteral("questions"), QJsonArray()},
                      {QStringLiteral("links"), QJsonObject()},
                      {QStringLiteral("expiresAt"), Clock::isoUtc(expires)}});
}

void BrowserHandoff::share(const QString &runId, bool share, const QJsonObject &result)
{
    std::optional<Run> run = m_repo.find(runId);
    if (!run)
        throw runNotFound();
    if (Status::isTerminal(run->status))
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("RUN_ENDED"),
                          QStringLiteral("the run has ended (%1)").arg(run->status), {},
                          {{QStringLiteral("status"), run->status}});
    if (run->status != Status::inputRequired ||
        run->input.value(QStringLiteral("reason")).toString() != kVisitorReview)
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("NOT_WAITING_FOR_REVIEW"),
                          QStringLiteral("the run does not wait for the visitor's review"), {},
                          {{QStringLiteral("status"), run->status}});
    if (!share) {
        // Withheld: completed in the visitor's browser, nothing of it sent.
        run->result = {{QStringLiteral("summary"),
                        QStringLiteral("The task ran in a visitor's browser; the visitor did "
                                       "not share its result.")},
                       {QStringLiteral("withheld"), true}};
        m_rec.emitEvent(
            *run, QStringLiteral("message"),
            {{QStringLiteral("role"), QStringLiteral("system")},
             {QStringLiteral("browser"), QStringLiteral("the visitor withheld the result")}});
        m_rec.settle(*run, Status::completed, {});
        return;
    }
    // Shared: exactly what the visitor was shown (the answer's text and JSON).
    const QString text = result.value(QStringLiteral("text")).toString();
    QJsonObject shared{{QStringLiteral("summary"), text.left(300)},
                       {QStringLiteral("primary"), QStringLiteral("text")},
                       {QStringLiteral("text"), text},
                       {QStringLiteral("withheld"), false},
                       {QStringLiteral("sharedBy"), QStringLiteral("visitor")}};
    if (result.contains(QStringLiteral("json")))
        shared.insert(QStringLiteral("json"), result.value(QStringLiteral("json")));
    run->result = shared;
    if (!text.isEmpty())
        m_rec.emitEvent(*run, QStringLiteral("message"),
                        {{QStringLiteral("role"), QStringLiteral("assistant")},
                         {QStringLiteral("text"), text}});
    m_rec.settle(*run, Status::completed, {});
}

} // namespace ph::a2w
