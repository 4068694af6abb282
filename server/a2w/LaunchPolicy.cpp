#include "LaunchPolicy.h"

#include "Delegations.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/JsonSchema.h"
#include "core/JsonText.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "sites/SiteConfig.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace ph::a2w {

namespace {

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

// The enabled shortcut or journey that declares `capabilityId`: the one contract every
// capability call goes through (create, GET links, v1 tasks, handoffs, the site's MCP
// tools). 404 CAPABILITY_NOT_FOUND naming capabilityId otherwise: an id the site does not
// declare is never text for the planner.
QJsonObject declaredCapability(const QJsonObject &config, const QString &capabilityId)
{
    for (const QJsonValue &v : config.value(QStringLiteral("shortcuts")).toArray()) {
        const QJsonObject s = v.toObject();
        if (s.value(QStringLiteral("capabilityId")).toString() == capabilityId &&
            s.value(QStringLiteral("enabled")).toBool(true))
            return s;
    }
    throw DomainError(DomainError::Kind::NotFound, QStringLiteral("CAPABILITY_NOT_FOUND"),
                      QStringLiteral("the site declares no capability %1 (see "
                                     "/v2/a2w/capabilities)")
                          .arg(capabilityId.left(128)),
                      QStringLiteral("capabilityId"));
}

// `args` against the capability's argsSchema (core/JsonSchema): 400 INVALID_FIELD naming
// the argument. A capability without a schema takes any object.
void checkArgs(const QJsonObject &capability, const QJsonObject &args)
{
    const QJsonObject schema = capability.value(QStringLiteral("argsSchema")).toObject();
    if (schema.isEmpty())
        return;
    const QString problem = JsonSchema::check(schema, args, QStringLiteral("args"));
    if (!problem.isEmpty())
        throw DomainError::invalidField(QStringLiteral("args"), problem);
}

// The arguments as lines the planner reads: "name: value".
QString argLines(const QJsonObject &args)
{
    QStringList lines;
    for (auto it = args.begin(); it != args.end(); ++it)
        lines << QStringLiteral("%1: %2").arg(
            it.key(), it.value().isString()
                          ? it.value().toString()
                          : JsonText::from(QJsonArray{it.value()}).mid(1).chopped(1));
    return lines.join(u'\n');
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

} // namespace

LaunchPolicy::LaunchPolicy(Store &store, Settings &settings, sites::SiteRepository &sites,
                           A2wRepository &repo, const Delegations &delegations)
    : m_store(store)
    , m_settings(settings)
    , m_sites(sites)
    , m_repo(repo)
    , m_delegations(delegations)
{}

LaunchPolicy::Site LaunchPolicy::enabledSite(const CreateRequest &request,
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
    const sites::SiteConfig config(m_sites.config(site->id).config);
    const sites::SiteConfig::AiAccess ai = config.aiAccess();
    if (!ai.enabled())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("AI_ACCESS_DISABLED"),
                          QStringLiteral("the site does not accept runs of AI agents "
                                         "(aiAccess.enabled is off)"),
                          QStringLiteral("url"));
    if (execution == QLatin1String("cloud") && !ai.cloudBrowser())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("CLOUD_EXECUTION_DISABLED"),
                          QStringLiteral("the site does not allow runs in the cloud browser "
                                         "(aiAccess.cloudBrowser is off)"),
                          QStringLiteral("execution"));
    if (execution == QLatin1String("browser") && !ai.browserDeepLinks())
        throw DomainError(DomainError::Kind::Forbidden,
                          QStringLiteral("BROWSER_EXECUTION_DISABLED"),
                          QStringLiteral("the site does not allow browser handoffs "
                                         "(aiAccess.browserDeepLinks is off)"),
                          QStringLiteral("execution"));
    return {site->id, site->name, config.effective(), config.stored()};
}

void LaunchPolicy::checkRate(const Caller &caller, const QString &trust)
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

QString LaunchPolicy::trustOf(const CreateRequest &request, const Caller &caller)
{
    if (!caller.verifiedAgent.isEmpty())
        return Trust::verified;
    if (!request.agent.isEmpty() || !caller.clientId.isEmpty())
        return Trust::identified;
    return Trust::anonymous;
}

QString LaunchPolicy::idempotencyScope(const CreateRequest &request, const Caller &caller)
{
    const QString trust = trustOf(request, caller);
    if (trust == Trust::verified)
        return trust + u'\n' + caller.verifiedAgent;
    return trust + u'\n' + caller.address + u'\n' + caller.clientId;
}

void LaunchPolicy::checkSensitive(const CreateRequest &request, const QString &trust) const
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

QString LaunchPolicy::taskFor(const CreateRequest &request, const Site &site,
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
        const QJsonObject declared = declaredCapability(site.config, request.capabilityId);
        checkArgs(declared, request.args);
        const bool sameEntry = request.kind != CreateRequest::Kind::Prompt &&
                               declared.value(QStringLiteral("id")).toString() == request.selector;
        QString capability;
        if (!sameEntry) {
            capability = takeStored(declared, QStringLiteral("capabilityId"));
            if (capability.isEmpty())
                capability = QStringLiteral("Use the capability %1").arg(request.capabilityId);
        }
        if (!request.args.isEmpty())
            capability += (capability.isEmpty() ? QString() : QStringLiteral("\n")) +
                          QStringLiteral("With these values:\n") + argLines(request.args);
        if (!capability.isEmpty())
            task = task.isEmpty() ? capability : task + u'\n' + capability;
    }
    return task;
}

QString LaunchPolicy::idempotencyKey(const QString &contract, const CreateRequest &request,
                                     const Caller &caller, const QString &key)
{
    // The key is the caller's own: the same key from another caller is another key (a
    // fresh run), never the first caller's run and tokens.
    return key.isEmpty()
               ? QString()
               : Ids::sha256Hex(contract.toUtf8() + "-idempotency:" +
                                idempotencyScope(request, caller).toUtf8() + '\n' + key.toUtf8());
}

std::optional<LaunchPolicy::Seen> LaunchPolicy::seen(const QString &keyHash,
                                                     const QString &bodyHash)
{
    const qint64 ttl = m_settings.int64Value(SettingKeys::a2wIdempotencyHours) * 3600000;
    m_repo.forgetIdempotentBefore(m_store.clock().nowMs() - ttl);
    const auto seen = m_repo.idempotent(keyHash);
    if (!seen)
        return std::nullopt;
    if (seen->bodyHash != bodyHash)
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("IDEMPOTENCY_KEY_REUSED"),
                          QStringLiteral("this Idempotency-Key was used with another "
                                         "request body"),
                          QStringLiteral("Idempotency-Key"));
    return Seen{
        seen->runId,
        QJsonDocument::fromJson(m_store.secrets().unseal(seen->tokensSealed).toUtf8()).object()};
}

void LaunchPolicy::remember(const QString &keyHash, const QString &bodyHash, const QString &runId,
                            const QJsonObject &tokens)
{
    m_repo.rememberIdempotent(
        keyHash,
        {bodyHash, runId, m_store.secrets().seal(JsonText::from(tokens)), m_store.clock().nowMs()});
}

QString LaunchPolicy::executionOf(const CreateRequest &request, const QString &preferExecution,
                                  const Launch &how, Site *site) const
{
    // Execution: the body's mode or preference, else Prefer, else the site's (v1: a
    // person present in a browser that may take it, else the cloud).
    QString execution = request.executionPreference();
    if (execution.isEmpty())
        execution = preferExecution;
    *site = enabledSite(request, execution == QLatin1String("browser") ? QStringLiteral("browser")
                                                                       : QStringLiteral("cloud"));
    if (execution.isEmpty() || execution == QLatin1String("auto")) {
        if (how.contract == QLatin1String("v1")) {
            const bool present = request.execution.value(QStringLiteral("userPresent")).toBool() ||
                                 request.identity.value(QStringLiteral("userPresent")).toBool();
            const bool deepLinks = site->config.value(QStringLiteral("aiAccess"))
                                       .toObject()
                                       .value(QStringLiteral("browserDeepLinks"))
                                       .toBool();
            execution = present && deepLinks ? QStringLiteral("browser") : QStringLiteral("cloud");
        } else {
            execution = site->config.value(QStringLiteral("agentDiscovery"))
                            .toObject()
                            .value(QStringLiteral("preferExecution"))
                            .toString();
            if (execution != QLatin1String("browser"))
                execution = QStringLiteral("cloud");
        }
        *site = enabledSite(request, execution);
    }
    if (!request.allowedModes().contains(execution))
        throw DomainError(
            DomainError::Kind::Invalid, QStringLiteral("EXECUTION_MODE_NOT_ALLOWED"),
            QStringLiteral("%1 execution is not among execution.allowedModes").arg(execution),
            QStringLiteral("execution.allowedModes"));
    return execution;
}

int LaunchPolicy::hopOf(const CreateRequest &request, const Site &site, const Launch &how) const
{
    if (!how.parent)
        return 0;
    const sites::SiteConfig::AiAccess ai = sites::SiteConfig(site.stored).aiAccess();
    if (!ai.allowDelegatedHandoffs())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("HANDOFF_NOT_ALLOWED"),
                          QStringLiteral("%1 does not accept runs handed off by another run "
                                         "(aiAccess.allowDelegatedHandoffs is off)")
                              .arg(request.host),
                          QStringLiteral("url"));
    // maxHops: the smallest of the receiving site's, the parent site's and every
    // limit the callers set on the way (the root's request, the parent's, this one).
    int maxHops =
        std::min(ai.maxHops(),
                 sites::SiteConfig(m_sites.config(how.parent->siteId).config).aiAccess().maxHops());
    QString limitedBy = QStringLiteral("site");
    QList<QJsonObject> policies{how.parent->request.value(QStringLiteral("policy")).toObject(),
                                request.policy};
    for (const Run &r : m_repo.runsOfWorkflow(how.parent->workflowId))
        policies << r.request.value(QStringLiteral("policy")).toObject();
    for (const QJsonObject &policy : policies) {
        const QJsonValue asked = policy.value(QStringLiteral("maxHops"));
        if (asked.isDouble() && asked.toInt() < maxHops) {
            maxHops = asked.toInt();
            limitedBy = QStringLiteral("caller");
        }
    }
    const int hop = how.parent->hop + 1;
    if (hop > maxHops)
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("MAX_HOPS_EXCEEDED"),
                          QStringLiteral("this handoff would be hop %1 of a workflow limited "
                                         "to %2 (by the %3)")
                              .arg(hop)
                              .arg(maxHops)
                              .arg(limitedBy),
                          QStringLiteral("policy.maxHops"),
                          {{QStringLiteral("hop"), hop}, {QStringLiteral("maxHops"), maxHops}});
    return hop;
}

LaunchPolicy::Plan LaunchPolicy::plan(const CreateRequest &request, const Caller &caller,
                                      const QString &preferExecution, const Launch &how)
{
    Plan plan;
    Site site;
    plan.execution = executionOf(request, preferExecution, how, &site);
    plan.siteId = site.id;

    // Who calls: the tier decides the rate limit and the sensitive fields. A handoff
    // without an agent object speaks for the parent's agent.
    plan.agent = attributed(request, caller);
    if (how.parent && request.agent.isEmpty())
        plan.agent = how.parent->agent;
    plan.trust = trustOf(request, caller);
    if (how.parent && plan.trust == Trust::anonymous && request.agent.isEmpty())
        plan.trust = how.parent->trust == Trust::verified ? Trust::identified : how.parent->trust;
    plan.agent.insert(QStringLiteral("trust"), plan.trust);
    if (!caller.verifiedAgent.isEmpty())
        plan.agent.insert(QStringLiteral("signatureAgent"), caller.verifiedAgent);
    checkSensitive(request, plan.trust);
    plan.hop = hopOf(request, site, how);

    // A delegated session: a token within its scope, or (no token) a person approves
    // one behind input.links.verify before the run starts.
    if (request.auth.value(QStringLiteral("mode")).toString() ==
        QLatin1String("delegated_session")) {
        const QString token = request.auth.value(QStringLiteral("token")).toString();
        const QString what =
            request.kind != CreateRequest::Kind::Prompt ? request.selector : request.capabilityId;
        if (token.isEmpty())
            plan.awaitVerification = true;
        else
            plan.delegationId = m_delegations.check(token, site.id, what).id;
    }

    plan.task = taskFor(request, site, &plan.engagementKind);
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
        plan.task += QStringLiteral("\n\n") + context.join(u'\n');
    }

    checkRate(caller, plan.trust);
    return plan;
}

} // namespace ph::a2w
