#pragma once

#include "A2wRepository.h"

#include <QObject>
#include <QStringList>

namespace ph {
class DomainError;
class Settings;
class Store;
} // namespace ph

namespace ph::a2w {

class EngineMirror;
class RunRecorder;

// Runs parked behind signed links (docs/api/a2w.md): an action waiting for a person's
// confirmation (input.links.confirm), a delegated session waiting for approval
// (input.links.verify), a sign-in link or code given out of band (auth input), and the
// deadlines of every waiting run. See A2wService for each call's contract.
class ParkedRuns : public QObject
{
    Q_OBJECT
public:
    ParkedRuns(Store &store, Settings &settings, A2wRepository &repo, RunRecorder &recorder,
               EngineMirror &mirror, QObject *parent = nullptr);

    // The link to one parking of a run: `kind` (confirm, verify) under the public base URL,
    // signed with an HMAC of the run and its deadline under a key of the store's secret
    // box for `purpose`.
    static QString link(const Store &store, const Settings &settings, const QString &kind,
                        const QByteArray &purpose, const QString &runId, qint64 expiresAt);

    // What a page asks of a person (human verification, a payment step, terms, an account
    // link, an offer): parked with that reason and resumed through the confirm link, or by
    // the operator, once the person has acted ("done").
    static const QStringList &gateReasons();

    Run confirmationFor(const QString &id, const QString &signature) const;
    Run confirm(const QString &id, const QString &signature, bool accept);
    Run confirmAsOperator(const QString &id, bool accept);
    Run verificationFor(const QString &id, const QString &signature) const;
    // Parks a run that needs a delegated session before it starts (`task` kept for then).
    void parkForVerification(Run &run, const QString &task);
    Run provideAuthInput(const QString &id, const QString &value, const QString &kind);
    // Runs past their deadline end expired.
    void expireOverdue();

private:
    static QString linkSignature(const Store &store, const QByteArray &purpose,
                                 const QString &runId, const QString &expiresAt);
    Run parkedBehindLink(const QString &id, const QString &reason, const QString &signature,
                         const QByteArray &purpose, const DomainError &notFound) const;
    Run decide(Run run, bool accept, const QString &who);
    void consumeAuthInput(const QString &id);

    Store &m_store;
    Settings &m_settings;
    A2wRepository &m_repo;
    RunRecorder &m_rec;
    EngineMirror &m_mirror;
};

} // namespace ph::a2w
