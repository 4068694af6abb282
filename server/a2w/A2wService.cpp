#include "A2wService.h"

#include "A2wArtifacts.h"

#include "cloud/AgentRequest.h"
#include "cloud/RunService.h"
#include "core/ApiKeyService.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/JsonText.h"
#include "core/ObjectStore.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/AgentRun.h"
#include "engine/ResponseBuilder.h"
#include "engine/RunManager.h"
#include "net/NetworkPolicy.h"
#include "sites/AnalyticsRepository.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>
#include <QTimer>
#include <QUrl>

namespace ph::a2w {

namespace {

// An ordinary question of the run (the spec names none of its reasons for it).
const QString kClarification = QStringLiteral("clarification_required");
const QString kEndpoint = QStringLiteral("/v2/a2w/runs");

DomainError runNotFound()
{
    return {DomainError::Kind::NotFound, QStringLiteral("RUN_NOT_FOUND"),
            QStringLiteral("no such run, or the access token is not its own")};
}

QJsonObject attributed(const CreateRequest &request, const Caller &caller)
{
    if (!request.agent.isEmpty()) {
        QJsonObject a = request.agent;
        a.insert(QStringLiteral("attributedBy"), QStringLiteral("agent"));
        return a;
    }
    // Heuristics: the product token of User-Agent, the key directory a signature points
    // at, a client id header.
    QJsonObject a{{QStringLiteral("attributedBy"), QStringLiteral("heuristic")}};
    const QString ua = caller.userAgent.left(256);
    if (!ua.isEmpty()) {
        a.insert(QStringLiteral("userAgent"), ua);
        a.insert(QStringLiteral("displayName"),
                 ua.section(QLatin1Char(' '), 0, 0).section(QLatin1Char('/'), 0, 0));
    }
    if (!caller.signatureAgent.isEmpty())
        a.insert(QStringLiteral("signatureAgent"), caller.signatureAgent.left(512));
    if (!caller.clientId.isEmpty())
        a.insert(QStringLiteral("clientId"), caller.clientId.left(128));
    if (caller.signedRequest)
        a.insert(QStringLiteral("signed"), true);
    return a;
}

// The stored shortcut or playbook (a journey) `id`, if published.
std::optional<QJsonObject> storedEntry(const QJsonObject &config, const QString &id, bool playbook)
{
    for (const QJsonValue &v : config.value(QStringLiteral("shortcuts")).toArray()) {
        const QJsonObject s = v.toObject();
        const bool journey = s.value(QStringLiteral("kind")).toString() == QLatin1String("journey");
        if (s.value(QStringLiteral("id")).toString() == id && journey == playbook &&
            s.value(QStringLiteral("enabled")).toBool(true))
            return s;
    }
    return std::nullopt;
}

// What the engine is asked to do for a stored shortcut or playbook.
QString taskOf(const QJsonObject &entry)
{
    QStringList parts;
    const QString prompt = entry.value(QStringLiteral("prompt")).toString();
    if (!prompt.isEmpty())
        parts << prompt;
    const QJsonArray steps = entry.value(QStringLiteral("steps")).toArray();
    for (qsizetype i = 0; i < steps.size(); ++i) {
        const QJsonObject s = steps.at(i).toObject();
        QString line = QStringLiteral("Step %1: %2")
                           .arg(i + 1)
                           .arg(s.value(QStringLiteral("title")).toString());
        if (!s.value(QStringLiteral("prompt")).toString().isEmpty())
            line += QStringLiteral(" — ") + s.value(QStringLiteral("prompt")).toString();
        parts << line;
    }
    if (parts.isEmpty())
        parts << entry.value(QStringLiteral("label")).toString();
    return parts.join(QLatin1Char('\n'));
}

// Whether the caller asked for files: accept.modes has artifacts, or artifacts names some.
bool wantsFiles(const Run &run)
{
    bool wanted = !run.request.value(QStringLiteral("artifacts")).toArray().isEmpty();
    for (const QJsonValue &m : run.request.value(QStringLiteral("accept"))
                                   .toObject()
                                   .value(QStringLiteral("modes"))
                                   .toArray())
        wanted |= m.toString() == QLatin1String("artifacts");
    return wanted;
}

constexpr qint64 kTableFileTtlMs = 7LL * 24 * 3600 * 1000;

} // namespace

struct A2wService::Site
{
    QString id;
    QString name;
    QJsonObject config; // effective
};

A2wService::A2wService(Store &store, Settings &settings, NetworkPolicy &policy,
                       sites::SiteRepository &sites, sites::AnalyticsRepository &analytics,
                       ApiKeyService &keys, cloud::RunService &runs, engine::RunManager &engine,
                       QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_policy(policy)
    , m_sites(sites)
    , m_analytics(analytics)
    , m_keys(keys)
    , m_runs(runs)
    , m_engine(engine)
    , m_repo(std::make_unique<A2wRepository>(store))
{
    connect(&m_engine, &engine::RunManager::runChanged, this, &A2wService::onEngineChanged);
    connect(&m_engine, &engine::RunManager::runSettled, this, &A2wService::onEngineChanged);
    m_expiry.setSingleShot(true);
    connect(&m_expiry, &QTimer::timeout, this, &A2wService::expireOverdue);
}

A2wService::~A2wService() = default;

QString A2wService::hashToken(const QString &token)
{
    return Ids::sha256Hex(token.toUtf8());
}

QString A2wService::receiptFor(const QString &runId) const
{
    const QByteArray mac = QMessageAuthenticationCode::hash(
        runId.toUtf8(), m_store.secrets().derive("a2w-receipt"), QCryptographicHash::Sha256);
    return QStringLiteral("rcpt_") +
           QString::fromLatin1(mac.left(24).toBase64(QByteArray::Base64UrlEncoding |
                                                     QByteArray::OmitTrailingEquals));
}

std::optional<Run> A2wService::findByReceipt(const QString &receipt) const
{
    return m_repo->findByReceipt(hashToken(receipt));
}

void A2wService::recover()
{
    // Runs the engine could not keep across a restart end failed; runs waiting for
    // input (the engine keeps those) or for a browser go on waiting.
    for (Run run : m_repo->list({}, 100000)) {
        if (Status::isTerminal(run.status))
            continue;
        if (run.status == Status::pending || run.status == Status::running) {
            settle(run, Status::failed, engine::RunManager::orphanReason());
            continue;
        }
        if (!run.trajectoryId.isEmpty())
            m_byTrajectory.insert(run.trajectoryId, run.id);
    }
    scheduleExpiry();
}

A2wService::Site A2wService::enabledSite(const CreateRequest &request,
                                         const QString &execution) const
{
    const qint64 now = m_store.clock().nowMs();
    const std::optional<sites::SiteKey> key = m_sites.usableKeyFor(request.url, now);
    if (!key)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("SITE_NOT_ENABLED"),
                          QStringLiteral("%1 is not on an enabled site (no active site key "
                                         "allows this host)")
                              .arg(request.host),
                          QStringLiteral("url"));
    const std::optional<sites::Site> site = m_sites.findSite(key->siteId);
    if (!site)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("SITE_NOT_ENABLED"),
                          QStringLiteral("%1 is not on an enabled site").arg(request.host),
                          QStringLiteral("url"));
    const QJsonObject config = sites::SiteConfigSchema::effective(m_sites.config(site->id).config);
    const QJsonObject ai = config.value(QStringLiteral("aiAccess")).toObject();
    if (!ai.value(QStringLiteral("enabled")).toBool())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("AI_ACCESS_DISABLED"),
                          QStringLiteral("the site does not accept runs of AI agents "
                                         "(aiAccess.enabled is off)"),
                          QStringLiteral("url"));
    if (execution == QLatin1String("cloud") && !ai.value(QStringLiteral("cloudBrowser")).toBool())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("CLOUD_EXECUTION_DISABLED"),
                          QStringLiteral("the site does not allow runs in the cloud browser "
                                         "(aiAccess.cloudBrowser is off)"),
                          QStringLiteral("execution"));
    if (execution == QLatin1String("browser") &&
        !ai.value(QStringLiteral("browserDeepLinks")).toBool())
        throw DomainError(DomainError::Kind::Forbidden,
                          QStringLiteral("BROWSER_EXECUTION_DISABLED"),
                          QStringLiteral("the site does not allow browser handoffs "
                                         "(aiAccess.browserDeepLinks is off)"),
                          QStringLiteral("execution"));
    return {site->id, site->name, config};
}

QString A2wService::accountFor(const QString &siteId, const QString &siteName)
{
    if (const auto keyId = m_repo->siteAccount(siteId)) {
        const ApiKey key = m_keys.find(*keyId).key;
        if (!key.isActive())
            throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("A2W_ACCOUNT_REVOKED"),
                              QStringLiteral("the site's A2W account key is revoked: the owner "
                                             "has stopped visiting agents' runs"));
        return *keyId;
    }
    // The site's A2W account: a key whose secret is never shown (nobody can call with
    // it); its balance caps what visiting agents spend on the site. It never carries
    // privateTargets: what visitors' work reaches is the site's own hosts and its
    // private-host allowlist (NetworkPolicy::grantFor gives this key a visitor grant).
    ApiKeyService::NewKey account;
    account.label = QStringLiteral("A2W visitors · %1").arg(siteName);
    account.balance = ApiKeyService::Balance::unlimited();
    const auto minted = m_keys.mint(account);
    m_sites.setApiKeyCapabilities(minted.key.id, {{QStringLiteral("cloudAgent"), true}});
    m_repo->setSiteAccount(siteId, minted.key.id);
    return minted.key.id;
}

void A2wService::checkRate(const Caller &caller, const QString &trust)
{
    // Per tier: anonymous and identified callers by address, verified ones by the key
    // directory that vouches for them.
    const qint64 now = m_store.clock().nowMs();
    const QString who = trust == Trust::verified
                            ? QStringLiteral("verified ") + caller.verifiedAgent
                            : trust + u' ' + caller.address;
    QList<qint64> &times = m_recent[who];
    while (!times.isEmpty() && times.first() <= now - 60000)
        times.removeFirst();
    const QString setting = trust == Trust::verified     ? SettingKeys::a2wRunsPerMinuteVerified
                            : trust == Trust::identified ? SettingKeys::a2wRunsPerMinuteIdentified
                                                         : SettingKeys::a2wRunsPerMinutePerAddress;
    const int limit = m_settings.intValue(setting);
    if (times.size() >= limit) {
        const int retry = int(std::max<qint64>(1, (times.first() + 60000 - now + 999) / 1000));
        throw DomainError(DomainError::Kind::TooManyRequests, QStringLiteral("RATE_LIMITED"),
                          QStringLiteral("%1 runs a minute for a%2 %3 caller at most (%4)")
                              .arg(limit)
                              .arg(trust == Trust::anonymous ? QStringLiteral("n") : QString())
                              .arg(trust, setting),
                          {}, {{QStringLiteral("limit"), limit}, {QStringLiteral("trust"), trust}})
            .withRetryAfter(retry);
    }
    times.append(now);
}

struct A2wService::Launch
{
    QString contract = QStringLiteral("a2w");
    std::optional<Run> parent;
    HandoffContext context;
};

QString A2wService::trustOf(const CreateRequest &request, const Caller &caller)
{
    if (!caller.verifiedAgent.isEmpty())
        return Trust::verified;
    if (!request.agent.isEmpty() || !caller.clientId.isEmpty())
        return Trust::identified;
    return Trust::anonymous;
}

QString A2wService::idempotencyScope(const CreateRequest &request, const Caller &caller)
{
    const QString trust = trustOf(request, caller);
    if (trust == Trust::verified)
        return trust + u'\n' + caller.verifiedAgent;
    return trust + u'\n' + caller.address + u'\n' + caller.clientId;
}

void A2wService::checkSensitive(const CreateRequest &request, const QString &trust) const
{
    if (trust == Trust::verified || !m_settings.boolValue(SettingKeys::a2wSensitiveNeedsVerified))
        return;
    QString field;
    if (request.auth.value(QStringLiteral("mode")).toString() == QLatin1String("delegated_session"))
        field = QStringLiteral("auth");
    else if (!request.commerce.isEmpty())
        field = QStringLiteral("commerce");
    else if (!request.payment.isEmpty())
        field = QStringLiteral("payment");
    if (!field.isEmpty())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("TRUST_TIER_TOO_LOW"),
                          QStringLiteral("%1 needs a verified Web Bot Auth signature; this "
                                         "caller is %2")
                              .arg(field, trust),
                          field, {{QStringLiteral("trust"), trust}});
}

QString A2wService::taskFor(const CreateRequest &request, const Site &site,
                            QString *engagementKind) const
{
    // The selector: a prompt, or a stored shortcut or playbook the owner published.
    QString task = request.selector;
    *engagementKind = request.engagementKind;
    auto takeStored = [&](const QJsonObject &entry, const QString &field) {
        const QString stored = entry.value(QStringLiteral("engagementKind")).toString();
        if (!stored.isEmpty() && !engagementKind->isEmpty() && stored != *engagementKind)
            throw DomainError(
                DomainError::Kind::Invalid, QStringLiteral("ENGAGEMENT_KIND_MISMATCH"),
                QStringLiteral("engagementKind %1 does not agree with the stored "
                               "%2's %3")
                    .arg(*engagementKind, field, stored),
                QStringLiteral("engagementKind"), {{QStringLiteral("stored"), stored}});
        if (!stored.isEmpty())
            *engagementKind = stored;
        return taskOf(entry);
    };
    if (request.kind != CreateRequest::Kind::Prompt) {
        const bool playbook = request.kind == CreateRequest::Kind::Playbook;
        const QString field =
            playbook ? QStringLiteral("playbookId") : QStringLiteral("shortcutId");
        const auto entry = storedEntry(site.config, request.selector, playbook);
        if (!entry)
            throw DomainError(
                DomainError::Kind::NotFound,
                playbook ? QStringLiteral("PLAYBOOK_NOT_FOUND")
                         : QStringLiteral("SHORTCUT_NOT_FOUND"),
                QStringLiteral("the site publishes no %1 %2")
                    .arg(playbook ? QStringLiteral("playbook") : QStringLiteral("shortcut"),
                         request.selector),
                field);
        task = takeStored(*entry, field);
    }
    if (!request.capabilityId.isEmpty()) {
        // A capability the site declares (a shortcut's or journey's capabilityId) runs that
        // entry with the arguments; any other id is the caller's hint for the planner.
        std::optional<QJsonObject> declared;
        for (const QJsonValue &v : site.config.value(QStringLiteral("shortcuts")).toArray()) {
            const QJsonObject s = v.toObject();
            if (s.value(QStringLiteral("capabilityId")).toString() == request.capabilityId &&
                s.value(QStringLiteral("enabled")).toBool(true))
                declared = s;
        }
        QString capability =
            declared && request.kind == CreateRequest::Kind::Prompt && request.selector.isEmpty()
                ? takeStored(*declared, QStringLiteral("capabilityId"))
                : QStringLiteral("Use the capability %1").arg(request.capabilityId);
        if (!request.args.isEmpty()) {
            QStringList lines;
            for (auto it = request.args.begin(); it != request.args.end(); ++it)
                lines << QStringLiteral("%1: %2").arg(
                    it.key(), it.value().isString()
                                  ? it.value().toString()
                                  : JsonText::from(QJsonArray{it.value()}).mid(1).chopped(1));
            capability += QStringLiteral("\nWith these values:\n") + lines.join(u'\n');
        }
        task = task.isEmpty() ? capability : task + u'\n' + capability;
    }
    return task;
}

A2wService::Created A2wService::create(const CreateRequest &request, const Caller &caller,
                                       const QString &preferExecution,
                                       const QString &idempotencyKey, const QByteArray &bodyDigest,
                                       const QString &contract)
{
    const qint64 now = m_store.clock().nowMs();
    // The key is the caller's own: the same key from another caller is another key (a
    // fresh run), never the first caller's run and tokens.
    const QString keyHash = idempotencyKey.isEmpty()
                                ? QString()
                                : Ids::sha256Hex(contract.toUtf8() + "-idempotency:" +
                                                 idempotencyScope(request, caller).toUtf8() + '\n' +
                                                 idempotencyKey.toUtf8());
    const QString bodyHash = QString::fromLatin1(bodyDigest.toHex());
    if (!keyHash.isEmpty()) {
        const qint64 ttl = m_settings.int64Value(SettingKeys::a2wIdempotencyHours) * 3600000;
        m_repo->forgetIdempotentBefore(now - ttl);
        if (const auto seen = m_repo->idempotent(keyHash)) {
            if (seen->bodyHash != bodyHash)
                throw DomainError(DomainError::Kind::Conflict,
                                  QStringLiteral("IDEMPOTENCY_KEY_REUSED"),
                                  QStringLiteral("this Idempotency-Key was used with another "
                                                 "request body"),
                                  QStringLiteral("Idempotency-Key"));
            const QJsonObject tokens =
                QJsonDocument::fromJson(m_store.secrets().unseal(seen->tokensSealed).toUtf8())
                    .object();
            if (const auto run = m_repo->find(seen->runId))
                return {*run, tokens.value(QStringLiteral("run")).toString(),
                        tokens.value(QStringLiteral("workflow")).toString(),
                        tokens.value(QStringLiteral("receipt")).toString(), true};
        }
    }
    Launch how;
    how.contract = contract;
    Created created = launch(request, caller, preferExecution, how);
    if (!keyHash.isEmpty()) {
        const QJsonObject tokens{{QStringLiteral("run"), created.runToken},
                                 {QStringLiteral("workflow"), created.workflowToken},
                                 {QStringLiteral("receipt"), created.receipt}};
        m_repo->rememberIdempotent(keyHash, {bodyHash, created.run.id,
                                             m_store.secrets().seal(JsonText::from(tokens)), now});
    }
    return created;
}

A2wService::Created A2wService::handoff(const QString &parentId, const CreateRequest &request,
                                        const HandoffContext &context, const Caller &caller,
                                        const QString &preferExecution)
{
    const std::optional<Run> parent = m_repo->find(parentId);
    if (!parent)
        throw runNotFound();
    if (parent->status == Status::cancelled || parent->status == Status::expired)
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("RUN_ENDED"),
                          QStringLiteral("a %1 run hands nothing off").arg(parent->status), {},
                          {{QStringLiteral("status"), parent->status}});
    Launch how;
    how.contract = parent->contract;
    how.parent = parent;
    how.context = context;
    return launch(request, caller, preferExecution, how);
}

A2wService::Created A2wService::launch(const CreateRequest &request, const Caller &caller,
                                       const QString &preferExecution, const Launch &how)
{
    const qint64 now = m_store.clock().nowMs();
    const bool v1 = how.contract == QLatin1String("v1");
    // Execution: the body's mode or preference, else Prefer, else the site's (v1: a
    // person present in a browser that may take it, else the cloud).
    QString execution = request.executionPreference();
    if (execution.isEmpty())
        execution = preferExecution;
    Site site =
        enabledSite(request, execution == QLatin1String("browser") ? QStringLiteral("browser")
                                                                   : QStringLiteral("cloud"));
    if (execution.isEmpty() || execution == QLatin1String("auto")) {
        if (v1) {
            const bool present = request.execution.value(QStringLiteral("userPresent")).toBool() ||
                                 request.identity.value(QStringLiteral("userPresent")).toBool();
            const bool deepLinks = site.config.value(QStringLiteral("aiAccess"))
                                       .toObject()
                                       .value(QStringLiteral("browserDeepLinks"))
                                       .toBool();
            execution = present && deepLinks ? QStringLiteral("browser") : QStringLiteral("cloud");
        } else {
            execution = site.config.value(QStringLiteral("agentDiscovery"))
                            .toObject()
                            .value(QStringLiteral("preferExecution"))
                            .toString();
            if (execution != QLatin1String("browser"))
                execution = QStringLiteral("cloud");
        }
        site = enabledSite(request, execution);
    }
    if (!request.allowedModes().contains(execution))
        throw DomainError(
            DomainError::Kind::Invalid, QStringLiteral("EXECUTION_MODE_NOT_ALLOWED"),
            QStringLiteral("%1 execution is not among execution.allowedModes").arg(execution),
            QStringLiteral("execution.allowedModes"));

    // Who calls: the tier decides the rate limit and the sensitive fields. A handoff
    // without an agent object speaks for the parent's agent.
    QJsonObject agent = attributed(request, caller);
    if (how.parent && request.agent.isEmpty())
        agent = how.parent->agent;
    QString trust = trustOf(request, caller);
    if (how.parent && trust == Trust::anonymous && request.agent.isEmpty())
        trust = how.parent->trust == Trust::verified ? Trust::identified : how.parent->trust;
    agent.insert(QStringLiteral("trust"), trust);
    if (!caller.verifiedAgent.isEmpty())
        agent.insert(QStringLiteral("signatureAgent"), caller.verifiedAgent);
    checkSensitive(request, trust);

    int hop = 0;
    if (how.parent) {
        const QJsonObject ai = site.config.value(QStringLiteral("aiAccess")).toObject();
        if (!ai.value(QStringLiteral("allowDelegatedHandoffs")).toBool())
            throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("HANDOFF_NOT_ALLOWED"),
                              QStringLiteral("%1 does not accept runs handed off by another run "
                                             "(aiAccess.allowDelegatedHandoffs is off)")
                                  .arg(request.host),
                              QStringLiteral("url"));
        // maxHops: the smallest of the receiving site's, the parent site's and every
        // limit the callers set on the way (the root's request, the parent's, this one).
        const auto hopsOf = [](const QJsonObject &config) {
            return config.value(QStringLiteral("aiAccess"))
                .toObject()
                .value(QStringLiteral("maxHops"))
                .toInt(2);
        };
        int maxHops = std::min(
            hopsOf(site.config),
            hopsOf(sites::SiteConfigSchema::effective(m_sites.config(how.parent->siteId).config)));
        QString limitedBy = QStringLiteral("site");
        for (const QJsonObject &policy :
             {how.parent->request.value(QStringLiteral("policy")).toObject(), request.policy}) {
            const QJsonValue asked = policy.value(QStringLiteral("maxHops"));
            if (asked.isDouble() && asked.toInt() < maxHops) {
                maxHops = asked.toInt();
                limitedBy = QStringLiteral("caller");
            }
        }
        for (const Run &r : m_repo->runsOfWorkflow(how.parent->workflowId)) {
            const QJsonValue asked = r.request.value(QStringLiteral("policy"))
                                         .toObject()
                                         .value(QStringLiteral("maxHops"));
            if (asked.isDouble() && asked.toInt() < maxHops) {
                maxHops = asked.toInt();
                limitedBy = QStringLiteral("caller");
            }
        }
        hop = how.parent->hop + 1;
        if (hop > maxHops)
            throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("MAX_HOPS_EXCEEDED"),
                              QStringLiteral("this handoff would be hop %1 of a workflow limited "
                                             "to %2 (by the %3)")
                                  .arg(hop)
                                  .arg(maxHops)
                                  .arg(limitedBy),
                              QStringLiteral("policy.maxHops"),
                              {{QStringLiteral("hop"), hop}, {QStringLiteral("maxHops"), maxHops}});
    }

    // A delegated session: a token within its scope, or (no token) a person approves
    // one behind input.links.verify before the run starts.
    QString delegationId;
    bool awaitVerification = false;
    if (request.auth.value(QStringLiteral("mode")).toString() ==
        QLatin1String("delegated_session")) {
        const QString token = request.auth.value(QStringLiteral("token")).toString();
        QString what = request.capabilityId;
        if (request.kind != CreateRequest::Kind::Prompt)
            what = request.selector;
        if (token.isEmpty())
            awaitVerification = true;
        else
            delegationId = checkDelegation(token, site.id, what).id;
    }

    QString engagementKind;
    QString task = taskFor(request, site, &engagementKind);
    if (how.parent) {
        QStringList context;
        context
            << QStringLiteral("This run continues work handed off from %1.").arg(how.parent->host);
        if (!how.context.contextSummary.isEmpty())
            context << QStringLiteral("Context: ") + how.context.contextSummary;
        if (!how.context.expectedOutput.isEmpty())
            context << QStringLiteral("Expected output: ") + how.context.expectedOutput;
        if (!how.context.lastObservation.isEmpty())
            context << QStringLiteral("Last observation: ") +
                           JsonText::from(how.context.lastObservation).left(4000);
        task += QStringLiteral("\n\n") + context.join(u'\n');
    }

    checkRate(caller, trust);

    Run run;
    run.id = Ids::make(v1 ? QStringLiteral("task") : QStringLiteral("a2w"));
    run.workflowId = how.parent ? how.parent->workflowId : Ids::make(QStringLiteral("wf"));
    run.siteId = site.id;
    run.url = request.url;
    run.host = request.host;
    run.kind = CreateRequest::kindName(request.kind);
    run.selector = request.selector.isEmpty() ? request.capabilityId : request.selector;
    run.engagementKind = engagementKind;
    run.execution = execution;
    run.request = request.stored();
    if (how.parent) {
        QJsonObject handoff{{QStringLiteral("parentRunId"), how.parent->id}};
        if (!how.context.contextSummary.isEmpty())
            handoff.insert(QStringLiteral("contextSummary"), how.context.contextSummary);
        if (!how.context.expectedOutput.isEmpty())
            handoff.insert(QStringLiteral("expectedOutput"), how.context.expectedOutput);
        run.request.insert(QStringLiteral("handoff"), handoff);
    }
    run.agent = agent;
    run.trust = trust;
    run.contract = how.contract;
    run.parentRunId = how.parent ? how.parent->id : QString();
    run.delegationId = delegationId;
    run.hop = hop;
    run.clientAddress = caller.address;
    run.createdAt = run.updatedAt = now;
    run.status = execution == QLatin1String("browser") ? Status::waitingBrowser : Status::pending;
    if (run.status == Status::waitingBrowser) {
        run.expiresAt = now + m_settings.int64Value(SettingKeys::a2wInputExpirySeconds) * 1000;
        // The visitor's browser that claims the run (the embed SDK) runs this task.
        run.pendingTask = task;
    }

    Created created;
    created.runToken = Ids::make(v1 ? QStringLiteral("taskr") : QStringLiteral("a2wr"), 32);
    if (!how.parent)
        created.workflowToken = Ids::make(QStringLiteral("a2ww"), 32);
    created.receipt = receiptFor(run.id);
    m_store.transaction([&] {
        if (!how.parent)
            m_repo->insertWorkflow(run.workflowId, hashToken(created.workflowToken), run.id);
        m_repo->insertRun(run, hashToken(created.runToken), hashToken(created.receipt));
    });
    emitEvent(run, QStringLiteral("status"), {{QStringLiteral("status"), run.status}});
    if (how.parent)
        emitEvent(*how.parent, QStringLiteral("message"),
                  {{QStringLiteral("role"), QStringLiteral("system")},
                   {QStringLiteral("handoff"), run.id},
                   {QStringLiteral("host"), run.host}});
    Q_EMIT runChanged(run.id);

    if (awaitVerification) {
        parkForVerification(run, task);
    } else if (execution == QLatin1String("cloud")) {
        start(run, task);
    } else {
        scheduleExpiry();
    }
    created.run = *m_repo->find(run.id);
    return created;
}

engine::ExecuteRequest A2wService::engineRequest(const Run &run, QJsonObject raw,
                                                 const QString &keyId) const
{
    raw.insert(QStringLiteral("urls"), QJsonArray{run.url});
    raw.insert(QStringLiteral("response"),
               QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}});
    // A caller that asks for artifacts gets the extracted table as a spreadsheet, the
    // answer as a document, a picture of the page (and, when it settles, the table as
    // CSV and JSON).
    if (wantsFiles(run))
        raw.insert(QStringLiteral("tools"),
                   QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                QJsonArray{QStringLiteral("generate_sheets"),
                                           QStringLiteral("generate_docs"),
                                           QStringLiteral("screenshot")}}});
    engine::ExecuteRequest request =
        cloud::readExecuteRequest(raw, m_policy.grantFor(keyId), m_settings);
    // A visiting agent's work: its pages come from the visitors' share of the pool.
    request.browser.forVisitorsOf(run.siteId);
    // Confirmation: the site's aiAccess.confirmation, which a caller may tighten
    // (policy.confirmation: required) but never loosen. Continuations carry it too, so a
    // run rebuilt from the store after a restart keeps its gate.
    const QString sitePolicy = sites::SiteConfigSchema::effective(m_sites.config(run.siteId).config)
                                   .value(QStringLiteral("aiAccess"))
                                   .toObject()
                                   .value(QStringLiteral("confirmation"))
                                   .toString();
    request.confirmSubmits =
        sitePolicy == QLatin1String("required") || run.request.value(QStringLiteral("policy"))
                                                           .toObject()
                                                           .value(QStringLiteral("confirmation"))
                                                           .toString() == QLatin1String("required");
    // A delegated session is a person's approval in advance (scoped and spend-capped):
    // the run does not stop to ask again.
    if (!run.delegationId.isEmpty()) {
        const std::optional<Delegation> d = m_repo->delegation(run.delegationId);
        if (d && !d->revokedAt && d->expiresAt > m_store.clock().nowMs())
            request.confirmSubmits = false;
    }
    // crossHost: the site's aiAccess.crossHost, which a caller may narrow (same_host)
    // but never widen; same_host keeps the run on the origin (scheme, host and port) it
    // started on, on every page it lands on.
    const QString siteCross = sites::SiteConfigSchema::effective(m_sites.config(run.siteId).config)
                                  .value(QStringLiteral("aiAccess"))
                                  .toObject()
                                  .value(QStringLiteral("crossHost"))
                                  .toString();
    const QString askedCross = run.request.value(QStringLiteral("policy"))
                                   .toObject()
                                   .value(QStringLiteral("crossHost"))
                                   .toString();
    if (siteCross != QLatin1String("allow") || askedCross == QLatin1String("same_host"))
        request.sameOrigin = NetworkPolicy::originOf(QUrl(run.url));
    return request;
}

void A2wService::start(Run &run, const QString &task)
{
    engine::AgentRun *agentRun = nullptr;
    try {
        const std::optional<sites::Site> site = m_sites.findSite(run.siteId);
        const QString keyId = accountFor(run.siteId, site ? site->name : run.host);
        const engine::ExecuteRequest request =
            engineRequest(run, {{QStringLiteral("input"), task}}, keyId);
        agentRun = m_runs.start(request, keyId, Ids::make(QStringLiteral("req")), kEndpoint);
    } catch (const DomainError &e) {
        // Refused by the run core (credits, limits, a target it may not reach): the run
        // is kept as failed for the operator, and the caller gets the error.
        settle(run, Status::failed, e.message());
        throw;
    }
    run.trajectoryId = agentRun->trajectoryId();
    run.updatedAt = m_store.clock().nowMs();
    m_repo->update(run);
    m_byTrajectory.insert(run.trajectoryId, run.id);
    onEngineChanged(run.trajectoryId);
}

void A2wService::onEngineChanged(const QString &trajectoryId)
{
    const QString runId = m_byTrajectory.value(trajectoryId);
    if (runId.isEmpty())
        return;
    std::optional<Run> run = m_repo->find(runId);
    if (!run || Status::isTerminal(run->status))
        return;
    QJsonObject response;
    if (engine::AgentRun *live = m_engine.live(trajectoryId)) {
        response = live->response();
    } else {
        const auto account = m_repo->siteAccount(run->siteId);
        engine::EngineError error;
        response = m_engine.latest(trajectoryId, account.value_or(QString()), &error)
                       .value_or(QJsonObject());
    }
    if (!response.isEmpty())
        sync(*run, response, response.value(QStringLiteral("status")).toString());
}

void A2wService::sync(Run &run, const QJsonObject &response, const QString &engineStatus)
{
    // Steps, once each has ended, in order.
    const QJsonArray steps = response.value(QStringLiteral("steps")).toArray();
    // A tool call as it starts (once per step), then the step once it has ended.
    int &announced = m_toolsSeen[run.id];
    while (announced < steps.size()) {
        const QJsonObject s = steps.at(announced).toObject();
        emitEvent(run, QStringLiteral("tool"),
                  {{QStringLiteral("seq"), s.value(QStringLiteral("seq"))},
                   {QStringLiteral("tool"), s.value(QStringLiteral("toolName"))},
                   {QStringLiteral("status"), QStringLiteral("started")}});
        ++announced;
    }
    int &seen = m_stepsSeen[run.id];
    while (seen < steps.size()) {
        const QJsonObject s = steps.at(seen).toObject();
        const QString status = s.value(QStringLiteral("status")).toString();
        if (status == QLatin1String("executing"))
            break;
        emitEvent(run, QStringLiteral("step"),
                  {{QStringLiteral("seq"), s.value(QStringLiteral("seq"))},
                   {QStringLiteral("tool"), s.value(QStringLiteral("toolName"))},
                   {QStringLiteral("status"), status},
                   {QStringLiteral("summary"), s.value(QStringLiteral("summary"))}});
        ++seen;
    }

    if (engineStatus == QLatin1String("executing")) {
        if (run.status != Status::running) {
            run.input = {};
            run.expiresAt.reset();
            setStatus(run, Status::running);
        }
        return;
    }
    if (engineStatus == QLatin1String("requires_input")) {
        if (run.status == Status::inputRequired)
            return;
        const QJsonArray questions = response.value(QStringLiteral("questions")).toArray();
        QStringList lines;
        QString authKind;
        QString authPrompt;
        bool onlySignIn = !questions.isEmpty();
        for (const QJsonValue &v : questions) {
            const QJsonObject q = v.toObject();
            const QString key = q.value(QStringLiteral("key")).toString();
            lines << q.value(QStringLiteral("question")).toString();
            if (key == QLatin1String("magic_link") || key == QLatin1String("code")) {
                authKind = key == QLatin1String("code") ? QStringLiteral("otp") : key;
                authPrompt = q.value(QStringLiteral("question")).toString();
            } else {
                onlySignIn = false;
            }
        }
        const qint64 expires = m_store.clock().nowMs() +
                               m_settings.int64Value(SettingKeys::a2wInputExpirySeconds) * 1000;
        run.expiresAt = expires;
        // A one-time code or an emailed link resumes through auth-input, never in
        // clear through an ordinary answer.
        const bool signIn = onlySignIn && !authKind.isEmpty();
        bool confirmation = false;
        for (const QJsonValue &v : questions)
            confirmation |= v.toObject().value(QStringLiteral("key")).toString() ==
                            QLatin1String("confirm_action");
        QJsonObject links;
        if (confirmation) {
            QString base = m_settings.stringValue(SettingKeys::publicBaseUrl);
            while (base.endsWith(QLatin1Char('/')))
                base.chop(1);
            links.insert(QStringLiteral("confirm"),
                         QStringLiteral("%1/v2/a2w/confirm/%2?sig=%3")
                             .arg(base, run.id,
                                  linkSignature("a2w-confirm", run.id, Clock::isoUtc(expires))));
        }
        run.input = {{QStringLiteral("reason"), confirmation
                                                    ? QStringLiteral("action_confirmation_required")
                                                : signIn ? QStringLiteral("sign_in_link_required")
                                                         : kClarification},
                     {QStringLiteral("message"), lines.join(QLatin1Char('\n'))},
                     {QStringLiteral("questions"), questions},
                     {QStringLiteral("links"), links},
                     {QStringLiteral("expiresAt"), Clock::isoUtc(expires)}};
        if (signIn && !confirmation) {
            static const QRegularExpression masked(QStringLiteral("\\S+•••@\\S+[A-Za-z]"));
            run.authInput = {{QStringLiteral("status"), QStringLiteral("awaiting")},
                             {QStringLiteral("kind"), authKind},
                             {QStringLiteral("prompt"), authPrompt}};
            const QString email = masked.match(authPrompt).captured(0);
            if (!email.isEmpty())
                run.authInput.insert(QStringLiteral("emailMasked"), email);
        }
        run.status = Status::inputRequired;
        run.updatedAt = m_store.clock().nowMs();
        m_repo->update(run);
        QJsonObject inputEvent = run.input;
        if (!run.authInput.isEmpty())
            inputEvent.insert(QStringLiteral("authInput"), run.authInput);
        emitEvent(run, QStringLiteral("input"), inputEvent);
        emitEvent(run, QStringLiteral("status"), {{QStringLiteral("status"), run.status}});
        Q_EMIT runChanged(run.id);
        scheduleExpiry();
        return;
    }
    if (engineStatus == QLatin1String("success")) {
        run.result = shapeResult(run, response);
        if (wantsFiles(run))
            addTableFiles(run, response);
        const QString text = response.value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("text"))
                                 .toString();
        if (!text.isEmpty())
            emitEvent(run, QStringLiteral("message"),
                      {{QStringLiteral("role"), QStringLiteral("assistant")},
                       {QStringLiteral("text"), text}});
        settle(run, Status::completed, {});
        return;
    }
    // error or cancelled: what the run got to is kept as its result.
    run.result = shapeResult(run, response);
    const QString error = response.value(QStringLiteral("error")).toString();
    settle(run, engineStatus == QLatin1String("cancelled") ? Status::cancelled : Status::failed,
           error.isEmpty() ? engineStatus : error);
}

void A2wService::addTableFiles(Run &run, const QJsonObject &response)
{
    const QJsonObject answer = response.value(QStringLiteral("result")).toObject();
    const QJsonArray rows = TableFiles::rowsOf(answer.value(QStringLiteral("json")),
                                               answer.value(QStringLiteral("text")).toString());
    const auto keyId = m_repo->siteAccount(run.siteId);
    if (rows.isEmpty() || !keyId)
        return;
    QJsonArray artifacts = run.result.value(QStringLiteral("artifacts")).toArray();
    const QList<std::pair<QString, QByteArray>> files{
        {QStringLiteral("text/csv"), TableFiles::csv(rows)},
        {QStringLiteral("application/json"), TableFiles::json(rows)}};
    for (const auto &[type, data] : files) {
        const QString name = type == QLatin1String("text/csv") ? QStringLiteral("table.csv")
                                                               : QStringLiteral("table.json");
        const StoredObject o =
            m_store.objects().put(*keyId, QStringLiteral("a2w"), name, type, data, kTableFileTtlMs);
        artifacts.append(QJsonObject{{QStringLiteral("ref"), o.id},
                                     {QStringLiteral("name"), o.name},
                                     {QStringLiteral("contentType"), o.contentType},
                                     {QStringLiteral("sizeBytes"), o.size}});
    }
    run.result.insert(QStringLiteral("artifacts"), artifacts);
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

const QString kVisitorReview = QStringLiteral("visitor_review_required");
} // namespace

A2wService::Claimed A2wService::offerBrowserRun(const QString &receipt, const QString &siteId) const
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

A2wService::Claimed A2wService::claimBrowserRun(const QString &receipt, const QString &siteId)
{
    const Claimed offer = offerBrowserRun(receipt, siteId);
    Run run = *m_repo->find(offer.runId);
    run.expiresAt.reset();
    run.pendingTask.clear();
    emitEvent(run, QStringLiteral("message"),
              {{QStringLiteral("role"), QStringLiteral("system")},
               {QStringLiteral("browser"),
                QStringLiteral("a visitor accepted the run in their browser")}});
    setStatus(run, Status::running);
    return offer;
}

void A2wService::declineBrowserRun(const QString &receipt, const QString &siteId)
{
    Run run = waitingForBrowser(findByReceipt(receipt), siteId);
    run.pendingTask.clear();
    emitEvent(run, QStringLiteral("message"),
              {{QStringLiteral("role"), QStringLiteral("system")},
               {QStringLiteral("browser"), QStringLiteral("the visitor declined the run")}});
    settle(run, Status::cancelled, QStringLiteral("declined by the visitor"));
}

void A2wService::browserRunStep(const QString &runId, const QJsonObject &step)
{
    const std::optional<Run> run = m_repo->find(runId);
    if (!run || Status::isTerminal(run->status))
        return;
    // The visitor's page stays theirs: the caller sees that a step ran, not what it saw.
    emitEvent(*run, QStringLiteral("step"),
              {{QStringLiteral("tool"), step.value(QStringLiteral("tool"))},
               {QStringLiteral("status"), step.value(QStringLiteral("status"))}});
}

void A2wService::finishBrowserRun(const QString &runId, bool ok, const QJsonObject &result,
                                  const QString &error)
{
    Q_UNUSED(result)
    // Once: the engine reports an end more than once, and a run under review is not
    // finished again.
    std::optional<Run> run = m_repo->find(runId);
    if (!run || run->status != Status::running)
        return;
    if (!ok) {
        // The reason may quote the visitor's page: the caller gets none of it.
        Q_UNUSED(error)
        settle(*run, Status::failed,
               QStringLiteral("the task did not finish in the visitor's browser (nothing "
                              "from their page was shared)"));
        return;
    }
    // Done in the visitor's browser: the result is theirs until they share it.
    const qint64 expires =
        m_store.clock().nowMs() + m_settings.int64Value(SettingKeys::a2wInputExpirySeconds) * 1000;
    run->expiresAt = expires;
    run->input = {{QStringLiteral("reason"), kVisitorReview},
                  {QStringLiteral("message"),
                   QStringLiteral("The task ran in a visitor's browser; the visitor decides "
                                  "whether to share its result with you.")},
                  {QStringLiteral("questions"), QJsonArray()},
                  {QStringLiteral("links"), QJsonObject()},
                  {QStringLiteral("expiresAt"), Clock::isoUtc(expires)}};
    run->status = Status::inputRequired;
    run->updatedAt = m_store.clock().nowMs();
    m_repo->update(*run);
    emitEvent(*run, QStringLiteral("input"), run->input);
    emitEvent(*run, QStringLiteral("status"), {{QStringLiteral("status"), run->status}});
    Q_EMIT runChanged(run->id);
    scheduleExpiry();
}

void A2wService::shareBrowserResult(const QString &runId, bool share, const QJsonObject &result)
{
    std::optional<Run> run = m_repo->find(runId);
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
        emitEvent(*run, QStringLiteral("message"),
                  {{QStringLiteral("role"), QStringLiteral("system")},
                   {QStringLiteral("browser"), QStringLiteral("the visitor withheld the result")}});
        settle(*run, Status::completed, {});
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
        emitEvent(*run, QStringLiteral("message"),
                  {{QStringLiteral("role"), QStringLiteral("assistant")},
                   {QStringLiteral("text"), text}});
    settle(*run, Status::completed, {});
}

void A2wService::settle(Run &run, const QString &status, const QString &error)
{
    run.status = status;
    run.error = error;
    run.input = {};
    run.expiresAt.reset();
    run.updatedAt = m_store.clock().nowMs();
    m_repo->update(run);
    const QJsonObject observation = run.result.value(QStringLiteral("observation")).toObject();
    if (!observation.isEmpty())
        emitEvent(run, QStringLiteral("observation"), observation);
    if (!run.result.isEmpty())
        emitEvent(run, QStringLiteral("result"), run.result);
    QJsonObject data{{QStringLiteral("status"), status}};
    if (!error.isEmpty())
        data.insert(QStringLiteral("error"), error);
    if (status == Status::failed)
        emitEvent(run, QStringLiteral("error"), {{QStringLiteral("message"), error}});
    emitEvent(run, QStringLiteral("status"), data);
    emitEvent(run, QStringLiteral("done"), data);
    m_byTrajectory.remove(run.trajectoryId);
    m_stepsSeen.remove(run.id);
    m_toolsSeen.remove(run.id);
    if (!run.delegationId.isEmpty() && !run.trajectoryId.isEmpty()) {
        // What the run cost counts against its delegated session's cap.
        Sql q(m_store, QStringLiteral("SELECT credits_milli FROM trajectories WHERE id = :t"));
        q.bind(QStringLiteral(":t"), run.trajectoryId).exec();
        if (q.next() && q.value(0).toLongLong() > 0) {
            m_repo->addSpent(run.delegationId, q.value(0).toLongLong());
            Q_EMIT delegationsChanged();
        }
    }
    Q_EMIT runChanged(run.id);
    recordInteraction(run);
}

void A2wService::setStatus(Run &run, const QString &status)
{
    run.status = status;
    run.updatedAt = m_store.clock().nowMs();
    m_repo->update(run);
    emitEvent(run, QStringLiteral("status"), {{QStringLiteral("status"), status}});
    Q_EMIT runChanged(run.id);
}

void A2wService::emitEvent(const Run &run, const QString &type, const QJsonObject &data)
{
    const Event e = m_repo->appendEvent(run.id, type, data);
    Q_EMIT eventAdded(run.id, e);
}

Run A2wService::authorize(const QString &id, const QString &token) const
{
    if (token.isEmpty() || !m_repo->tokenMatches(id, hashToken(token)))
        throw runNotFound();
    const auto run = m_repo->find(id);
    if (!run)
        throw runNotFound();
    return *run;
}

QList<Run> A2wService::workflowRuns(const QString &workflowId, const QString &token) const
{
    if (token.isEmpty() || !m_repo->workflowTokenMatches(workflowId, hashToken(token)))
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("WORKFLOW_NOT_FOUND"),
                          QStringLiteral("no such workflow, or the access token is not its own"));
    return m_repo->runsOfWorkflow(workflowId);
}

QList<Run> A2wService::runsOfWorkflow(const QString &workflowId) const
{
    return m_repo->runsOfWorkflow(workflowId);
}

std::optional<Run> A2wService::find(const QString &id) const
{
    return m_repo->find(id);
}

QList<Run> A2wService::list(const QString &siteId, int limit) const
{
    return m_repo->list(siteId, limit);
}

QList<Event> A2wService::events(const QString &runId, qint64 afterSeq) const
{
    return m_repo->events(runId, afterSeq);
}

QList<Event> A2wService::workflowEvents(const QString &workflowId, qint64 afterPosition) const
{
    return m_repo->workflowEvents(workflowId, afterPosition);
}

Run A2wService::answer(const QString &id, const ContinueRequest &request, const QString &trust)
{
    std::optional<Run> found = m_repo->find(id);
    if (!found)
        throw runNotFound();
    Run run = *found;
    if (!request.auth.isEmpty()) {
        // The same rule as on create: a delegated session needs the verified tier.
        CreateRequest asked;
        asked.auth = request.auth;
        checkSensitive(asked, trust);
        // A delegated session given on continue: the run acts under it from now on; a
        // run waiting for one starts.
        run.delegationId = checkDelegation(request.auth.value(QStringLiteral("token")).toString(),
                                           run.siteId, scopeItemOf(run))
                               .id;
        m_repo->update(run);
        if (run.status == Status::inputRequired &&
            run.input.value(QStringLiteral("reason")).toString() ==
                QLatin1String("auth_required")) {
            const QString task = run.pendingTask;
            run.pendingTask.clear();
            run.input = {};
            run.expiresAt.reset();
            emitEvent(run, QStringLiteral("message"),
                      {{QStringLiteral("role"), QStringLiteral("user")},
                       {QStringLiteral("delegation"), run.delegationId}});
            if (run.execution == QLatin1String("cloud")) {
                start(run, task);
            } else {
                // A browser run waits for a browser again, with the same deadline as at
                // creation.
                run.pendingTask = task;
                run.expiresAt = m_store.clock().nowMs() +
                                m_settings.int64Value(SettingKeys::a2wInputExpirySeconds) * 1000;
                setStatus(run, Status::waitingBrowser);
                scheduleExpiry();
            }
            return *m_repo->find(id);
        }
        if (request.input.isEmpty() && request.answers.isEmpty())
            return *m_repo->find(id);
    }
    if (run.status != Status::inputRequired ||
        run.input.value(QStringLiteral("reason")).toString() != kClarification)
        throw DomainError(
            DomainError::Kind::Conflict, QStringLiteral("NOT_WAITING_FOR_INPUT"),
            run.status == Status::inputRequired
                ? QStringLiteral("this run waits for %1: it resumes out of band, "
                                 "not by input")
                      .arg(run.input.value(QStringLiteral("reason")).toString())
                : QStringLiteral("the run is %1, not waiting for input").arg(run.status),
            {}, {{QStringLiteral("status"), run.status}});
    QStringList keys;
    for (const QJsonValue &q : run.input.value(QStringLiteral("questions")).toArray())
        keys << q.toObject().value(QStringLiteral("key")).toString();
    const QJsonObject answers = request.bind(keys);
    emitEvent(run, QStringLiteral("message"),
              {{QStringLiteral("role"), QStringLiteral("user")},
               {QStringLiteral("answered"), QJsonArray::fromStringList(answers.keys())}});
    resume(run, answers, request.input);
    return *m_repo->find(id);
}

void A2wService::resume(Run &run, const QJsonObject &answers, const QString &input)
{
    const QString keyId = m_repo->siteAccount(run.siteId).value_or(QString());
    QJsonObject raw{{QStringLiteral("trajectoryId"), run.trajectoryId},
                    {QStringLiteral("history"), QJsonObject{{QStringLiteral("continue"), true},
                                                            {QStringLiteral("answers"), answers}}}};
    if (answers.isEmpty())
        raw.insert(QStringLiteral("input"), input);
    const engine::ExecuteRequest continuation = engineRequest(run, raw, keyId);
    run.input = {};
    run.expiresAt.reset();
    setStatus(run, Status::running);
    m_byTrajectory.insert(run.trajectoryId, run.id);
    m_runs.start(continuation, keyId, Ids::make(QStringLiteral("req")), kEndpoint);
    onEngineChanged(run.trajectoryId);
}

Run A2wService::provideAuthInput(const QString &id, const QString &value, const QString &kind)
{
    std::optional<Run> found = m_repo->find(id);
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
    m_repo->setAuthSealed(id, m_store.secrets().seal(value));
    run.authInput.insert(QStringLiteral("status"), QStringLiteral("provided"));
    run.updatedAt = m_store.clock().nowMs();
    m_repo->update(run);
    emitEvent(run, QStringLiteral("input"), {{QStringLiteral("authInput"), run.authInput}});
    Q_EMIT runChanged(run.id);
    // Used asynchronously, as the contract says: the caller keeps polling.
    QTimer::singleShot(0, this, [this, id] { consumeAuthInput(id); });
    return run;
}

void A2wService::consumeAuthInput(const QString &id)
{
    std::optional<Run> found = m_repo->find(id);
    if (!found || found->status != Status::inputRequired)
        return;
    Run run = *found;
    bool ok = false;
    const QString value = m_store.secrets().unseal(m_repo->takeAuthSealed(id), &ok);
    if (!ok)
        return;
    const QString key =
        run.authInput.value(QStringLiteral("kind")).toString() == QLatin1String("magic_link")
            ? QStringLiteral("magic_link")
            : QStringLiteral("code");
    run.authInput.insert(QStringLiteral("status"), QStringLiteral("consumed"));
    emitEvent(run, QStringLiteral("input"), {{QStringLiteral("authInput"), run.authInput}});
    try {
        resume(run, {{key, value}}, {});
    } catch (const DomainError &e) {
        settle(run, Status::failed, e.message());
    }
}

QString A2wService::linkSignature(const QByteArray &purpose, const QString &runId,
                                  const QString &expiresAt) const
{
    const QByteArray mac = QMessageAuthenticationCode::hash(
        (runId + QLatin1Char(':') + expiresAt).toUtf8(), m_store.secrets().derive(purpose),
        QCryptographicHash::Sha256);
    return QString::fromLatin1(
        mac.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

Run A2wService::parkedBehindLink(const QString &id, const QString &reason, const QString &signature,
                                 const QByteArray &purpose, const DomainError &notFound) const
{
    const std::optional<Run> run = m_repo->find(id);
    // A link is for one parking of one run: anything else is no such link.
    if (!run || run->status != Status::inputRequired ||
        run->input.value(QStringLiteral("reason")).toString() != reason ||
        !Ids::equalConstantTime(
            linkSignature(purpose, id, run->input.value(QStringLiteral("expiresAt")).toString())
                .toLatin1(),
            signature.toLatin1()))
        throw notFound;
    return *run;
}

Run A2wService::confirmationFor(const QString &id, const QString &signature) const
{
    return parkedBehindLink(
        id, QStringLiteral("action_confirmation_required"), signature, "a2w-confirm",
        DomainError(DomainError::Kind::NotFound, QStringLiteral("CONFIRMATION_NOT_FOUND"),
                    QStringLiteral("no confirmation waits behind this link (used, expired "
                                   "or never issued)")));
}

Run A2wService::confirm(const QString &id, const QString &signature, bool accept)
{
    return decide(confirmationFor(id, signature), accept, QStringLiteral("person"));
}

Run A2wService::confirmAsOperator(const QString &id, bool accept)
{
    const std::optional<Run> run = m_repo->find(id);
    if (!run)
        throw runNotFound();
    if (run->status != Status::inputRequired ||
        run->input.value(QStringLiteral("reason")).toString() !=
            QLatin1String("action_confirmation_required"))
        throw DomainError(DomainError::Kind::Conflict,
                          QStringLiteral("NOT_WAITING_FOR_CONFIRMATION"),
                          QStringLiteral("the run does not wait for a confirmation"), {},
                          {{QStringLiteral("status"), run->status}});
    return decide(*run, accept, QStringLiteral("operator"));
}

Run A2wService::decide(Run run, bool accept, const QString &who)
{
    if (!accept)
        return cancel(run.id, QStringLiteral("the %1 declined the action").arg(who));
    emitEvent(run, QStringLiteral("message"),
              {{QStringLiteral("role"), QStringLiteral("user")},
               {QStringLiteral("confirmed"), true},
               {QStringLiteral("by"), who}});
    resume(run, {{QStringLiteral("confirm_action"), QStringLiteral("confirm")}}, {});
    return *m_repo->find(run.id);
}

Run A2wService::cancel(const QString &id, const QString &reason)
{
    std::optional<Run> found = m_repo->find(id);
    if (!found)
        throw runNotFound();
    Run run = *found;
    if (Status::isTerminal(run.status))
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("RUN_ENDED"),
                          QStringLiteral("the run has ended (%1)").arg(run.status), {},
                          {{QStringLiteral("status"), run.status}});
    // Marked first, so the engine's own cancel event finds the run ended.
    settle(run, Status::cancelled, reason);
    if (!run.trajectoryId.isEmpty()) {
        engine::EngineError error;
        m_engine.cancel(run.trajectoryId, m_repo->siteAccount(run.siteId).value_or(QString()),
                        reason, &error);
    }
    return run;
}

QString A2wService::scopeItemOf(const Run &run)
{
    if (run.kind == QLatin1String("shortcut") || run.kind == QLatin1String("playbook"))
        return run.selector;
    return run.request.value(QStringLiteral("capabilityId")).toString();
}

Delegation A2wService::checkDelegation(const QString &token, const QString &siteId,
                                       const QString &what) const
{
    const QString field = QStringLiteral("auth.token");
    const std::optional<Delegation> d = m_repo->delegationByToken(hashToken(token));
    if (!d)
        throw DomainError(DomainError::Kind::Unauthenticated, QStringLiteral("DELEGATION_INVALID"),
                          QStringLiteral("no delegated session has this token"), field);
    if (d->revokedAt)
        throw DomainError(DomainError::Kind::Unauthenticated, QStringLiteral("DELEGATION_REVOKED"),
                          QStringLiteral("the delegated session was revoked"), field);
    if (d->expiresAt <= m_store.clock().nowMs())
        throw DomainError(
            DomainError::Kind::Unauthenticated, QStringLiteral("DELEGATION_EXPIRED"),
            QStringLiteral("the delegated session expired at %1").arg(Clock::isoUtc(d->expiresAt)),
            field);
    if (d->siteId != siteId)
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("DELEGATION_OUT_OF_SCOPE"),
                          QStringLiteral("the delegated session is for another site"),
                          QStringLiteral("url"));
    if (!d->allows(what))
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("DELEGATION_OUT_OF_SCOPE"),
                          what.isEmpty()
                              ? QStringLiteral("the delegated session allows only %1, not a "
                                               "free prompt")
                                    .arg(d->scope.join(QStringLiteral(", ")))
                              : QStringLiteral("the delegated session does not cover %1 (it "
                                               "allows %2)")
                                    .arg(what, d->scope.join(QStringLiteral(", "))),
                          field, {{QStringLiteral("scope"), QJsonArray::fromStringList(d->scope)}});
    if (d->spentMilli >= d->spendCapMilli)
        throw DomainError(DomainError::Kind::PaymentRequired,
                          QStringLiteral("DELEGATION_CAP_REACHED"),
                          QStringLiteral("the delegated session has spent its cap of %1 credits")
                              .arg(double(d->spendCapMilli) / 1000.0),
                          field,
                          {{QStringLiteral("spendCap"), double(d->spendCapMilli) / 1000.0},
                           {QStringLiteral("spent"), double(d->spentMilli) / 1000.0}});
    return *d;
}

void A2wService::parkForVerification(Run &run, const QString &task)
{
    const qint64 expires =
        m_store.clock().nowMs() + m_settings.int64Value(SettingKeys::a2wInputExpirySeconds) * 1000;
    QString base = m_settings.stringValue(SettingKeys::publicBaseUrl);
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    run.pendingTask = task;
    run.expiresAt = expires;
    run.input = {
        {QStringLiteral("reason"), QStringLiteral("auth_required")},
        {QStringLiteral("message"),
         QStringLiteral("A person who owns or runs %1 must approve a delegated session "
                        "for this agent: open input.links.verify.")
             .arg(run.host)},
        {QStringLiteral("questions"), QJsonArray()},
        {QStringLiteral("links"),
         QJsonObject{{QStringLiteral("verify"),
                      QStringLiteral("%1/v2/a2w/verify/%2?sig=%3")
                          .arg(base, run.id,
                               linkSignature("a2w-verify", run.id, Clock::isoUtc(expires)))}}},
        {QStringLiteral("expiresAt"), Clock::isoUtc(expires)}};
    run.status = Status::inputRequired;
    run.updatedAt = m_store.clock().nowMs();
    m_repo->update(run);
    emitEvent(run, QStringLiteral("input"), run.input);
    emitEvent(run, QStringLiteral("status"), {{QStringLiteral("status"), run.status}});
    Q_EMIT runChanged(run.id);
    scheduleExpiry();
}

Run A2wService::verificationFor(const QString &id, const QString &signature) const
{
    return parkedBehindLink(
        id, QStringLiteral("auth_required"), signature, "a2w-verify",
        DomainError(DomainError::Kind::NotFound, QStringLiteral("VERIFICATION_NOT_FOUND"),
                    QStringLiteral("no approval waits behind this link (used, expired or "
                                   "never issued)")));
}

Run A2wService::approveDelegation(const QString &id, const QString &signature,
                                  const DelegationGrant &grant, const QString &approvedBy)
{
    Run run = verificationFor(id, signature);
    if (grant.scope.isEmpty())
        throw DomainError::invalidField(QStringLiteral("scope"),
                                        QStringLiteral("choose at least one thing the agent may "
                                                       "do"));
    const SiteTools site = capabilitiesOfSite(run.siteId);
    QStringList known{QStringLiteral("*")};
    for (const QJsonValue &t : site.tools) {
        const QJsonObject meta =
            t[QStringLiteral("_meta")][QStringLiteral("pilothouse/a2w")].toObject();
        known << meta.value(QStringLiteral("id")).toString()
              << meta.value(QStringLiteral("capabilityId")).toString();
    }
    for (const QString &item : grant.scope)
        if (item.isEmpty() || !known.contains(item))
            throw DomainError::invalidField(QStringLiteral("scope"),
                                            QStringLiteral("%1 is none of the site's shortcuts, "
                                                           "playbooks or capabilities")
                                                .arg(item));
    if (grant.spendCapMilli <= 0 || grant.spendCapMilli > 1'000'000'000)
        throw DomainError::invalidField(QStringLiteral("spendCap"),
                                        QStringLiteral("must be more than 0 and at most 1,000,000 "
                                                       "credits"));
    if (grant.ttlMs < 60'000 || grant.ttlMs > 30LL * 86'400'000)
        throw DomainError::invalidField(QStringLiteral("expiresIn"),
                                        QStringLiteral("must be a minute to 30 days"));
    const qint64 now = m_store.clock().nowMs();
    const QString token = Ids::make(QStringLiteral("rds"), 32);
    Delegation d;
    d.id = Ids::make(QStringLiteral("dlg"));
    d.prefix = token.left(12);
    d.siteId = run.siteId;
    d.scope = grant.scope;
    d.spendCapMilli = grant.spendCapMilli;
    d.approvedBy = approvedBy;
    d.runId = run.id;
    d.createdAt = now;
    d.expiresAt = now + grant.ttlMs;
    m_store.transaction([&] {
        m_repo->insertDelegation(d, hashToken(token));
        m_repo->setDelegationSealed(run.id, m_store.secrets().seal(token));
    });
    Q_EMIT delegationsChanged();
    // The run itself must be in the scope the person approved.
    if (!d.allows(scopeItemOf(run))) {
        settle(run, Status::cancelled,
               QStringLiteral("the approved scope does not cover this run's task"));
        return *m_repo->find(id);
    }
    ContinueRequest go;
    go.auth = {{QStringLiteral("mode"), QStringLiteral("delegated_session")},
               {QStringLiteral("token"), token}};
    emitEvent(run, QStringLiteral("message"),
              {{QStringLiteral("role"), QStringLiteral("system")},
               {QStringLiteral("approvedBy"), approvedBy}});
    // The session goes to the run's own caller, whose tier create checked already.
    return answer(id, go, run.trust);
}

QJsonObject A2wService::delegationOf(const Run &run, bool revealNewToken)
{
    if (run.delegationId.isEmpty())
        return {};
    const std::optional<Delegation> d = m_repo->delegation(run.delegationId);
    if (!d)
        return {};
    QJsonObject o{{QStringLiteral("mode"), QStringLiteral("delegated_session")},
                  {QStringLiteral("id"), d->id},
                  {QStringLiteral("scope"), QJsonArray::fromStringList(d->scope)},
                  {QStringLiteral("spendCap"), double(d->spendCapMilli) / 1000.0},
                  {QStringLiteral("spent"), double(d->spentMilli) / 1000.0},
                  {QStringLiteral("expiresAt"), Clock::isoUtc(d->expiresAt)},
                  {QStringLiteral("revoked"), d->revokedAt.has_value()}};
    if (revealNewToken && d->runId == run.id) {
        bool ok = false;
        const QString token = m_store.secrets().unseal(m_repo->takeDelegationSealed(run.id), &ok);
        if (ok && !token.isEmpty())
            o.insert(QStringLiteral("token"), token);
    }
    return o;
}

QList<Delegation> A2wService::delegations(int limit) const
{
    return m_repo->delegations(limit);
}

void A2wService::revokeDelegation(const QString &id)
{
    const std::optional<Delegation> d = m_repo->delegation(id);
    if (!d)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("DELEGATION_NOT_FOUND"),
                          QStringLiteral("no delegated session has this id"));
    if (!m_repo->revokeDelegation(id, m_store.clock().nowMs()))
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("DELEGATION_REVOKED"),
                          QStringLiteral("the delegated session is revoked already"));
    Q_EMIT delegationsChanged();
}

void A2wService::expireOverdue()
{
    for (Run run : m_repo->overdue(m_store.clock().nowMs())) {
        const QString reason =
            run.status == Status::waitingBrowser
                ? QStringLiteral("no browser claimed the run in time")
            : run.input.value(QStringLiteral("reason")).toString() == kVisitorReview
                ? QStringLiteral("the visitor did not share the result in time")
                : QStringLiteral("the input was not given in time");
        settle(run, Status::expired, reason);
        if (!run.trajectoryId.isEmpty()) {
            engine::EngineError error;
            m_engine.cancel(run.trajectoryId, m_repo->siteAccount(run.siteId).value_or(QString()),
                            reason, &error);
        }
    }
    scheduleExpiry();
}

void A2wService::scheduleExpiry()
{
    const std::optional<qint64> next = m_repo->nextDeadline();
    if (!next) {
        m_expiry.stop();
        return;
    }
    const qint64 in = std::max<qint64>(0, *next - m_store.clock().nowMs());
    m_expiry.start(int(std::min<qint64>(in + 10, 3600000)));
}

QJsonObject A2wService::artifacts(const Run &run) const
{
    QJsonArray list;
    QString earliest;
    // Every file of the result (generated by the run, or its table as CSV and JSON),
    // signed afresh.
    for (const QJsonValue &v : run.result.value(QStringLiteral("artifacts")).toArray()) {
        const QString ref = v.toObject().value(QStringLiteral("ref")).toString();
        const std::optional<StoredObject> o =
            ref.isEmpty() ? std::nullopt : m_store.objects().find(ref);
        if (!o)
            continue;
        const QJsonObject signedRef = engine::ResponseBuilder::storageRef(
            m_store.objects(), m_settings, o->id, o->name, o->contentType, o->size);
        const QString expires = signedRef.value(QStringLiteral("expiresAt")).toString();
        if (earliest.isEmpty() || expires < earliest)
            earliest = expires;
        list.append(
            QJsonObject{{QStringLiteral("name"), o->name},
                        {QStringLiteral("contentType"), o->contentType},
                        {QStringLiteral("sizeBytes"), o->size},
                        {QStringLiteral("url"), signedRef.value(QStringLiteral("downloadUrl"))},
                        {QStringLiteral("expiresAt"), expires}});
    }
    if (earliest.isEmpty())
        earliest = Clock::isoUtc(m_store.clock().nowMs() +
                                 m_settings.int64Value(SettingKeys::storageUrlTtlSeconds) * 1000);
    return {{QStringLiteral("runId"), run.id},
            {QStringLiteral("expiresAt"), earliest},
            {QStringLiteral("artifacts"), list}};
}

QJsonObject A2wService::shapeResult(const Run &run, const QJsonObject &response) const
{
    const QJsonObject engineResult = response.value(QStringLiteral("result")).toObject();
    const QString text = engineResult.value(QStringLiteral("text")).toString();
    QStringList modes;
    const QJsonObject accept = run.request.value(QStringLiteral("accept")).toObject();
    for (const QJsonValue &m : accept.value(QStringLiteral("modes")).toArray())
        modes << m.toString();
    if (modes.isEmpty())
        modes = {QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("observation"),
                 QStringLiteral("artifacts")};
    const QString summary =
        text.isEmpty() ? response.value(QStringLiteral("error")).toString() : text.left(280);

    QJsonObject result{{QStringLiteral("summary"), summary},
                       {QStringLiteral("primary"),
                        accept.value(QStringLiteral("primary")).toString(modes.first())}};
    if (modes.contains(QStringLiteral("text")) && !text.isEmpty())
        result.insert(QStringLiteral("text"), text);
    if (modes.contains(QStringLiteral("markdown")) && !text.isEmpty())
        result.insert(QStringLiteral("markdown"), text);
    if (modes.contains(QStringLiteral("json")) && engineResult.contains(QStringLiteral("json")))
        result.insert(QStringLiteral("json"), engineResult.value(QStringLiteral("json")));
    if (modes.contains(QStringLiteral("observation"))) {
        // The page the run ended on: the last step that reported one.
        QString url = run.url;
        QString title;
        const QJsonArray steps = response.value(QStringLiteral("steps")).toArray();
        for (const QJsonValue &v : steps) {
            const QJsonObject output = v.toObject().value(QStringLiteral("output")).toObject();
            if (output.contains(QStringLiteral("url")))
                url = output.value(QStringLiteral("url")).toString();
            if (output.contains(QStringLiteral("title")))
                title = output.value(QStringLiteral("title")).toString();
        }
        QJsonObject observation{{QStringLiteral("url"), url},
                                {QStringLiteral("host"), QUrl(url).host()},
                                {QStringLiteral("summary"), summary}};
        if (!title.isEmpty())
            observation.insert(QStringLiteral("title"), title);
        result.insert(QStringLiteral("observation"), observation);
    }
    if (modes.contains(QStringLiteral("artifacts"))) {
        QJsonArray refs;
        for (const QJsonValue &v : response.value(QStringLiteral("metadata"))
                                       .toObject()
                                       .value(QStringLiteral("generatedFiles"))
                                       .toArray()) {
            const QJsonObject f = v.toObject();
            refs.append(
                QJsonObject{{QStringLiteral("ref"), f.value(QStringLiteral("id"))},
                            {QStringLiteral("name"), f.value(QStringLiteral("name"))},
                            {QStringLiteral("contentType"), f.value(QStringLiteral("contentType"))},
                            {QStringLiteral("sizeBytes"), f.value(QStringLiteral("sizeBytes"))}});
        }
        if (!refs.isEmpty())
            result.insert(QStringLiteral("artifacts"), refs);
    }
    result.insert(QStringLiteral("blocks"), response.value(QStringLiteral("output")).toArray());
    QJsonArray messages{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                    {QStringLiteral("text"), run.selector},
                                    {QStringLiteral("ts"), Clock::isoUtc(run.createdAt)}}};
    if (!text.isEmpty())
        messages.append(
            QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                        {QStringLiteral("text"), text},
                        {QStringLiteral("ts"), Clock::isoUtc(m_store.clock().nowMs())}});
    result.insert(QStringLiteral("transcript"),
                  QJsonObject{{QStringLiteral("messages"), messages}});
    return result;
}

void A2wService::recordInteraction(const Run &run)
{
    // The owner's analytics see every A2W run (a site deleted meanwhile: nothing to add).
    try {
        QJsonArray trajectory;
        for (const Event &e : m_repo->events(run.id, 0))
            if (e.type == QLatin1String("step"))
                trajectory.append(e.data);
        m_analytics.record(
            run.siteId, sites::AnalyticsRepository::Collection::Interaction,
            {{QStringLiteral("kind"), QStringLiteral("a2w_run")},
             {QStringLiteral("runId"), run.id},
             {QStringLiteral("status"), run.status},
             {QStringLiteral("execution"), run.execution},
             {QStringLiteral("engagementKind"), run.engagementKind},
             {QStringLiteral("selector"), run.kind},
             {QStringLiteral("agent"), run.agent.value(QStringLiteral("displayName")).toString()},
             {QStringLiteral("converted"), run.status == Status::completed},
             {QStringLiteral("trajectory"), trajectory}});
    } catch (const DomainError &) {
    }
}

} // namespace ph::a2w

namespace ph::a2w {

namespace {

QJsonObject schemaOf(const QJsonObject &properties, const QStringList &required)
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("object")},
                  {QStringLiteral("properties"), properties},
                  {QStringLiteral("additionalProperties"), false}};
    if (!required.isEmpty())
        o.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    return o;
}

const QJsonObject kUrlProperty{
    {QStringLiteral("type"), QStringLiteral("string")},
    {QStringLiteral("description"),
     QStringLiteral("The page on this site to start on (an absolute URL of an allowed host).")}};

} // namespace

A2wService::SiteTools A2wService::capabilities(const QString &url, const QString &host,
                                               const QString &siteId) const
{
    const qint64 now = m_store.clock().nowMs();
    std::optional<sites::SiteKey> key;
    QString field = QStringLiteral("url");
    if (!url.isEmpty()) {
        key = m_sites.usableKeyFor(url, now);
    } else if (!host.isEmpty()) {
        field = QStringLiteral("host");
        key = m_sites.usableKeyFor(QStringLiteral("https://%1/").arg(host), now);
    } else if (!siteId.isEmpty()) {
        field = QStringLiteral("siteId");
        for (const sites::SiteKey &k : m_sites.listKeys(siteId))
            if (k.isUsable(now) && !key)
                key = k;
    } else {
        throw DomainError::missingField(QStringLiteral("url"));
    }
    if (!key)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("SITE_NOT_ENABLED"),
                          QStringLiteral("%1 is not an enabled site (no active site key allows "
                                         "it)")
                              .arg(url.isEmpty() ? host.isEmpty() ? siteId : host : url),
                          field);
    SiteTools out = capabilitiesOfSite(key->siteId);
    if (!url.isEmpty())
        out.url = url;
    return out;
}

A2wService::SiteTools A2wService::capabilitiesOfSite(const QString &siteId) const
{
    const std::optional<sites::Site> site = m_sites.findSite(siteId);
    const qint64 now = m_store.clock().nowMs();
    std::optional<sites::SiteKey> key;
    if (site)
        for (const sites::SiteKey &k : m_sites.listKeys(siteId))
            if (k.isUsable(now) && !key)
                key = k;
    if (!site || !key)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("SITE_NOT_ENABLED"),
                          QStringLiteral("no enabled site has this id"), QStringLiteral("siteId"));
    SiteTools out;
    out.siteId = site->id;
    out.siteName = site->name;
    out.config = sites::SiteConfigSchema::effective(m_sites.config(site->id).config);
    const QJsonObject ai = out.config.value(QStringLiteral("aiAccess")).toObject();
    const QJsonObject discovery = out.config.value(QStringLiteral("agentDiscovery")).toObject();
    if (!ai.value(QStringLiteral("enabled")).toBool())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("AI_ACCESS_DISABLED"),
                          QStringLiteral("the site does not accept runs of AI agents "
                                         "(aiAccess.enabled is off)"));
    if (!discovery.value(QStringLiteral("enabled")).toBool())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("DISCOVERY_DISABLED"),
                          QStringLiteral("the site does not publish its capabilities "
                                         "(agentDiscovery.enabled is off)"));
    for (const QString &d : key->allowedDomains)
        if (!d.contains(u'*') && out.url.isEmpty())
            out.url = QStringLiteral("https://%1/").arg(d);

    const QJsonObject expose = discovery.value(QStringLiteral("expose")).toObject();
    if (expose.value(QStringLiteral("prompt")).toBool(true))
        out.tools.append(QJsonObject{
            {QStringLiteral("name"), QStringLiteral("run_task")},
            {QStringLiteral("title"), QStringLiteral("Do a task on %1").arg(site->name)},
            {QStringLiteral("description"),
             QStringLiteral("Start an A2W run on %1: a browser does the task on the site and "
                            "returns what it found.")
                 .arg(site->name)},
            {QStringLiteral("inputSchema"),
             schemaOf({{QStringLiteral("url"), kUrlProperty},
                       {QStringLiteral("prompt"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                    {QStringLiteral("minLength"), 1},
                                    {QStringLiteral("description"),
                                     QStringLiteral("What to do, in plain words.")}}}},
                      {QStringLiteral("url"), QStringLiteral("prompt")})}});
    for (const QJsonValue &v : out.config.value(QStringLiteral("shortcuts")).toArray()) {
        const QJsonObject s = v.toObject();
        const bool journey = s.value(QStringLiteral("kind")).toString() == QLatin1String("journey");
        if (!s.value(QStringLiteral("enabled")).toBool(true) ||
            !expose.value(journey ? QStringLiteral("playbooks") : QStringLiteral("shortcuts"))
                 .toBool(true))
            continue;
        QJsonObject properties{{QStringLiteral("url"), kUrlProperty}};
        const QString capability = s.value(QStringLiteral("capabilityId")).toString();
        if (!capability.isEmpty())
            properties.insert(
                QStringLiteral("args"),
                QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                            {QStringLiteral("description"),
                             QStringLiteral("Arguments of the capability %1.").arg(capability)}});
        const QString description = s.value(QStringLiteral("description")).toString();
        QJsonObject tool{
            {QStringLiteral("name"),
             (journey ? QStringLiteral("playbook_") : QStringLiteral("shortcut_")) +
                 s.value(QStringLiteral("id")).toString()},
            {QStringLiteral("title"), s.value(QStringLiteral("label")).toString()},
            {QStringLiteral("description"),
             description.isEmpty() ? s.value(QStringLiteral("label")).toString() : description},
            {QStringLiteral("inputSchema"),
             schemaOf(properties, s.value(QStringLiteral("url")).toString().isEmpty()
                                      ? QStringList{QStringLiteral("url")}
                                      : QStringList())}};
        QJsonObject meta{{QStringLiteral("kind"),
                          journey ? QStringLiteral("playbook") : QStringLiteral("shortcut")},
                         {QStringLiteral("id"), s.value(QStringLiteral("id"))}};
        if (!capability.isEmpty())
            meta.insert(QStringLiteral("capabilityId"), capability);
        if (s.contains(QStringLiteral("engagementKind")))
            meta.insert(QStringLiteral("engagementKind"),
                        s.value(QStringLiteral("engagementKind")));
        tool.insert(QStringLiteral("_meta"), QJsonObject{{QStringLiteral("pilothouse/a2w"), meta}});
        out.tools.append(tool);
    }
    return out;
}

CreateRequest A2wService::requestForTool(const SiteTools &site, const QString &tool,
                                         const QJsonObject &arguments) const
{
    for (const QJsonValue &v : site.tools) {
        const QJsonObject t = v.toObject();
        if (t.value(QStringLiteral("name")).toString() != tool)
            continue;
        QJsonObject body;
        const QJsonObject meta = t.value(QStringLiteral("_meta"))
                                     .toObject()
                                     .value(QStringLiteral("pilothouse/a2w"))
                                     .toObject();
        QString url = arguments.value(QStringLiteral("url")).toString();
        if (tool == QLatin1String("run_task")) {
            body.insert(QStringLiteral("prompt"), arguments.value(QStringLiteral("prompt")));
        } else {
            const QString id = meta.value(QStringLiteral("id")).toString();
            const bool playbook =
                meta.value(QStringLiteral("kind")).toString() == QLatin1String("playbook");
            body.insert(playbook ? QStringLiteral("playbookId") : QStringLiteral("shortcutId"), id);
            if (meta.contains(QStringLiteral("capabilityId")) &&
                arguments.contains(QStringLiteral("args"))) {
                body.insert(QStringLiteral("capabilityId"),
                            meta.value(QStringLiteral("capabilityId")));
                body.insert(QStringLiteral("args"), arguments.value(QStringLiteral("args")));
            }
            if (url.isEmpty())
                for (const QJsonValue &s : site.config.value(QStringLiteral("shortcuts")).toArray())
                    if (s.toObject().value(QStringLiteral("id")).toString() == id)
                        url = s.toObject().value(QStringLiteral("url")).toString();
        }
        body.insert(QStringLiteral("url"), url.isEmpty() ? site.url : url);
        body.insert(QStringLiteral("execution"),
                    QJsonObject{{QStringLiteral("mode"), QStringLiteral("cloud")}});
        return CreateRequest::fromJson(body);
    }
    throw DomainError(DomainError::Kind::NotFound, QStringLiteral("TOOL_NOT_FOUND"),
                      QStringLiteral("the site offers no tool %1").arg(tool),
                      QStringLiteral("name"));
}

} // namespace ph::a2w
