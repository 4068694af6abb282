#include "ParkedRuns.h"

#include "EngineMirror.h"
#include "RunRecorder.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"

#include <QJsonArray>
#include <QMessageAuthenticationCode>
#include <QTimer>

namespace ph::a2w {

ParkedRuns::ParkedRuns(Store &store, Settings &settings, A2wRepository &repo, RunRecorder &recorder,
                       EngineMirror &mirror, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_repo(repo)
    , m_rec(recorder)
    , m_mirror(mirror)
{}

QString ParkedRuns::link(const Store &store, const Settings &settings, const QString &kind,
                         const QByteArray &purpose, const QString &runId, qint64 expiresAt)
{
    QString base = settings.stringValue(SettingKeys::publicBaseUrl);
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return QStringLiteral("%1/v2/a2w/%2/%3?sig=%4")
        .arg(base, kind, runId, linkSignature(store, purpose, runId, Clock::isoUtc(expiresAt)));
}

Run ParkedRuns::provideAuthInput(const QString &id, const QString &value, const QString &kind)
{
    std::optional<Run> found = m_repo.find(id);
    if (!found)
        throw runNotFound();
    Run run = *found;
    const QString awaited = run.authInput.value(QStringLiteral("kind")).toString();
    if (run.status != Status::inputRequired ||
        run.authInput.value(QStringLiteral("status")).toString() != QLatin1String("awaiting"))
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("NOT_AWAITING_SIGN_IN"),
                          QStringLiteral("the run is not waiting for a sign-in link or code"), {},
                          {{QStringLiteral("status"), run.status}});
    if (kind != QLatin1String("unknown") && kind != awaited)
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("AUTH_KIND_MISMATCH"),
                          QStringLiteral("the run waits for a %1, not a %2").arg(awaited, kind),
                          QStringLiteral("kind"), {{QStringLiteral("awaited"), awaited}});
    m_repo.setAuthSealed(id, m_store.secrets().seal(value));
    run.authInput.insert(QStringLiteral("status"), QStringLiteral("provided"));
    run.updatedAt = m_store.clock().nowMs();
    m_repo.update(run);
    m_rec.emitEvent(run, QStringLiteral("input"), {{QStringLiteral("authInput"), run.authInput}});
    Q_EMIT m_rec.runChanged(run.id);
    // Used asynchronously, as the contract says: the caller keeps polling.
    QTimer::singleShot(0, this, [this, id] { consumeAuthInput(id); });
    return run;
}

void ParkedRuns::consumeAuthInput(const QString &id)
{
    std::optional<Run> found = m_repo.find(id);
    if (!found || found->status != Status::inputRequired)
        return;
    Run run = *found;
    bool ok = false;
    const QString value = m_store.secrets().unseal(m_repo.takeAuthSealed(id), &ok);
    if (!ok)
        return;
    const QString key =
        run.authInput.value(QStringLiteral("kind")).toString() == QLatin1String("magic_link")
            ? QStringLiteral("magic_link")
            : QStringLiteral("code");
    run.authInput.insert(QStringLiteral("status"), QStringLiteral("consumed"));
    m_rec.emitEvent(run, QStringLiteral("input"), {{QStringLiteral("authInput"), run.authInput}});
    try {
        m_mirror.resume(run, {{key, value}}, {});
    } catch (const DomainError &e) {
        m_rec.settle(run, Status::failed, e.message());
    }
}

QString ParkedRuns::linkSignature(const Store &store, const QByteArray &purpose,
                                  const QString &runId, const QString &expiresAt)
{
    const QByteArray mac = QMessageAuthenticationCode::hash(
        (runId + QLatin1Char(':') + expiresAt).toUtf8(), store.secrets().derive(purpose),
        QCryptographicHash::Sha256);
    return QString::fromLatin1(
        mac.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

Run ParkedRuns::parkedBehindLink(const QString &id, const QString &reason, const QString &signature,
                                 const QByteArray &purpose, const DomainError &notFound) const
{
    const std::optional<Run> run = m_repo.find(id);
    const QString parked = run ? run->input.value(QStringLiteral("reason")).toString() : QString();
    // The confirm link also resumes what a page asked of a person (ParkedRuns::gateReasons).
    const bool sameReason =
        parked == reason ||
        (reason == QLatin1String("action_confirmation_required") && gateReasons().contains(parked));
    // A link is for one parking of one run: anything else is no such link.
    if (!run || run->status != Status::inputRequired || !sameReason ||
        !Ids::equalConstantTime(
            linkSignature(m_store, purpose, id,
                          run->input.value(QStringLiteral("expiresAt")).toString())
                .toLatin1(),
            signature.toLatin1()))
        throw notFound;
    return *run;
}

Run ParkedRuns::confirmationFor(const QString &id, const QString &signature) const
{
    return parkedBehindLink(
        id, QStringLiteral("action_confirmation_required"), signature, "a2w-confirm",
        DomainError(DomainError::Kind::NotFound, QStringLiteral("CONFIRMATION_NOT_FOUND"),
                    QStringLiteral("no confirmation waits behind this link (used, expired "
                                   "or never issued)")));
}

Run ParkedRuns::confirm(const QString &id, const QString &signature, bool accept)
{
    return decide(confirmationFor(id, signature), accept, QStringLiteral("person"));
}

Run ParkedRuns::confirmAsOperator(const QString &id, bool accept)
{
    const std::optional<Run> run = m_repo.find(id);
    if (!run)
        throw runNotFound();
    const QString reason = run->input.value(QStringLiteral("reason")).toString();
    if (run->status != Status::inputRequired ||
        (reason != QLatin1String("action_confirmation_required") &&
         !gateReasons().contains(reason)))
        throw DomainError(DomainError::Kind::Conflict,
                          QStringLiteral("NOT_WAITING_FOR_CONFIRMATION"),
                          QStringLiteral("the run does not wait for a confirmation"), {},
                          {{QStringLiteral("status"), run->status}});
    return decide(*run, accept, QStringLiteral("operator"));
}

Run ParkedRuns::decide(Run run, bool accept, const QString &who)
{
    if (!accept)
        return m_mirror.cancel(run.id, QStringLiteral("the %1 declined the action").arg(who));
    m_rec.emitEvent(run, QStringLiteral("message"),
                    {{QStringLiteral("role"), QStringLiteral("user")},
                     {QStringLiteral("confirmed"), true},
                     {QStringLiteral("by"), who}});
    const QString reason = run.input.value(QStringLiteral("reason")).toString();
    if (gateReasons().contains(reason))
        m_mirror.resume(run, {{QStringLiteral("gate_") + reason, QStringLiteral("done")}}, {});
    else
        m_mirror.resume(run, {{QStringLiteral("confirm_action"), QStringLiteral("confirm")}}, {});
    return *m_repo.find(run.id);
}

const QStringList &ParkedRuns::gateReasons()
{
    static const QStringList reasons{QStringLiteral("human_verification_required"),
                                     QStringLiteral("payment_method_required"),
                                     QStringLiteral("payment_confirmation_required"),
                                     QStringLiteral("terms_acknowledgement_required"),
                                     QStringLiteral("account_link_required"),
                                     QStringLiteral("offer_claim_required")};
    return reasons;
}

void ParkedRuns::parkForVerification(Run &run, const QString &task)
{
    const qint64 expires =
        m_store.clock().nowMs() + m_settings.int64Value(SettingKeys::a2wInputExpirySeconds) * 1000;
    run.pendingTask = task;
    run.expiresAt = expires;
    m_rec.park(
        run,
        {{QStringLiteral("reason"), QStringLiteral("auth_required")},
         {QStringLiteral("message"),
          QStringLiteral("A person who owns or runs %1 must approve a delegated session "
                         "for this agent: open input.links.verify.")
              .arg(run.host)},
         {QStringLiteral("questions"), QJsonArray()},
         {QStringLiteral("links"),
          QJsonObject{{QStringLiteral("verify"), link(m_store, m_settings, QStringLiteral("verify"),
                                                      "a2w-verify", run.id, expires)}}},
         {QStringLiteral("expiresAt"), Clock::isoUtc(expires)}});
}

Run ParkedRuns::verificationFor(const QString &id, const QString &signature) const
{
    return parkedBehindLink(
        id, QStringLiteral("auth_required"), signature, "a2w-verify",
        DomainError(DomainError::Kind::NotFound, QStringLiteral("VERIFICATION_NOT_FOUND"),
                    QStringLiteral("no approval waits behind this link (used, expired or "
                                   "never issued)")));
}

void ParkedRuns::expireOverdue()
{
    for (Run run : m_repo.overdue(m_store.clock().nowMs())) {
        const QString reason =
            run.status == Status::waitingBrowser
                ? QStringLiteral("no browser claimed the run in time")
            : run.input.value(QStringLiteral("reason")).toString() == kVisitorReview
                ? QStringLiteral("the visitor did not share the result in time")
                : QStringLiteral("the input was not given in time");
        m_mirror.stop(run, Status::expired, reason);
    }
    Q_EMIT m_rec.deadlinesChanged();
}

} // namespace ph::a2w
