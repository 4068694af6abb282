#include "RuntimeRunner.h"

#include "RemoteTab.h"
#include "RuntimeService.h"

#include "a2w/A2wService.h"
#include "cloud/AgentRequest.h"
#include "cloud/RunService.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/Settings.h"
#include "engine/AgentRun.h"
#include "engine/RunManager.h"
#include "net/NetworkPolicy.h"
#include "sites/SiteConfig.h"
#include "sites/SiteRepository.h"

#include <QJsonArray>
#include <QUrl>

namespace ph::runtime {

namespace {
const QString kEndpoint = QStringLiteral("/v2/runtime/command");

// The engine run's latest ApiExecuteResponse: the live run's without a store read, else
// the stored one; empty when there is none.
QJsonObject responseOf(const engine::RunManager &engine, const QString &trajectoryId,
                       const QString &keyId)
{
    if (engine::AgentRun *live = engine.live(trajectoryId))
        return live->response();
    engine::EngineError error;
    return engine.latest(trajectoryId, keyId, &error).value_or(QJsonObject());
}

// Runtime runs act on a visitor's page for a site's account: they never work inside a
// caller's browser session (docs/api/sessions.md, "Work inside a session"). Their requests
// are made here, so this only holds that line should a field ever reach them.
void refuseBrowserSession(const engine::ExecuteRequest &request)
{
    if (!request.browserSession.isEmpty() || request.sessionPage)
        throw DomainError::invalidField(
            QStringLiteral("browserSession"),
            QStringLiteral("runtime runs never work inside a caller's browser session"));
}
} // namespace

RuntimeRunner::RuntimeRunner(RuntimeService &runtime, cloud::RunService &runs,
                             engine::RunManager &engine, a2w::A2wService &a2w,
                             sites::SiteRepository &sites, NetworkPolicy &policy,
                             Settings &settings, QObject *parent)
    : QObject(parent)
    , m_runtime(runtime)
    , m_runs(runs)
    , m_engine(engine)
    , m_a2w(a2w)
    , m_sites(sites)
    , m_policy(policy)
    , m_settings(settings)
{
    connect(&m_runtime, &RuntimeService::runStarted, this, &RuntimeRunner::start);
    connect(&m_runtime, &RuntimeService::runAnswered, this, &RuntimeRunner::answer);
    connect(&m_runtime, &RuntimeService::runStopped, this, &RuntimeRunner::stop);
    connect(&m_engine, &engine::RunManager::runChanged, this, &RuntimeRunner::engineChanged);
    connect(&m_engine, &engine::RunManager::runSettled, this, &RuntimeRunner::engineChanged);
}

void RuntimeRunner::start(const QString &sessionId, const QString &runId)
{
    if (!m_settings.boolValue(SettingKeys::runtimeExecuteRuns))
        return;
    const std::optional<Run> run = m_runtime.repository().findRun(runId);
    if (!run)
        return;
    launch(sessionId, runId, {{QStringLiteral("input"), run->message}});
}

void RuntimeRunner::answer(const QString &sessionId, const QString &runId, const QString &message)
{
    const Link link = m_links.value(runId);
    if (link.trajectoryId.isEmpty())
        return;
    // The visitor's reply in any form ("my email is …", key: value, a bare value):
    // the engine reads it against the questions it asked.
    launch(sessionId, runId,
           {{QStringLiteral("trajectoryId"), link.trajectoryId},
            {QStringLiteral("input"), message},
            {QStringLiteral("history"), QJsonObject{{QStringLiteral("continue"), true}}}});
}

void RuntimeRunner::launch(const QString &sessionId, const QString &runId, QJsonObject raw)
{
    const std::optional<Session> session = m_runtime.session(sessionId);
    if (!session)
        return;
    try {
        const std::optional<sites::Site> site = m_sites.findSite(session->siteId);
        if (!site)
            throw DomainError::notFound(QStringLiteral("the session's site is gone"));
        const QString keyId = m_a2w.accountFor(site->id, site->name);
        raw.insert(QStringLiteral("urls"), QJsonArray{session->url});
        raw.insert(QStringLiteral("response"),
                   QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}});
        engine::ExecuteRequest request =
            cloud::readExecuteRequest(raw, m_policy.grantFor(keyId), m_settings);
        refuseBrowserSession(request);
        // The site's policies apply as to its cloud runs (docs/security.md, "Consent in
        // the visitor's page"): under aiAccess.confirmation `required` a form the run
        // would send other than by GET waits for a person (the visitor, in the chat), and
        // crossHost `same_host` keeps the run on the page's host. A claimed A2W run's
        // caller may tighten both (its policy), never loosen them.
        const sites::SiteConfig::AiAccess ai =
            sites::SiteConfig(m_sites.config(site->id).config).aiAccess();
        QJsonObject asked;
        bool claimedByAnAgent = false;
        if (const std::optional<Run> own = m_runtime.repository().findRun(runId);
            own && !own->a2wRunId.isEmpty()) {
            claimedByAnAgent = true;
            if (const std::optional<a2w::Run> claimed = m_a2w.find(own->a2wRunId))
                asked = claimed->request.value(QStringLiteral("policy")).toObject();
        }
        // A visiting agent's run in the visitor's own session asks before every form it
        // would send, whatever the site's confirmation says: the consent dialog promised it.
        const QString required = QStringLiteral("required");
        request.confirmSubmits = claimedByAnAgent || ai.confirmationRequired() ||
                                 asked.value(QStringLiteral("confirmation")).toString() == required;
        if (!ai.crossHostAllowed() ||
            asked.value(QStringLiteral("crossHost")).toString() == QLatin1String("same_host"))
            request.sameOrigin = NetworkPolicy::originOf(QUrl(session->url));
        request.browser.forVisitorsOf(site->id); // a visitor's work: the visitors' share
        // The run acts on the visitor's page.
        RuntimeService *runtime = &m_runtime;
        const QString url = session->url;
        request.remoteTab = [runtime, sessionId, runId, url] {
            return std::make_unique<RemoteTab>(*runtime, sessionId, runId, QUrl(url));
        };
        engine::AgentRun *agentRun =
            m_runs.start(request, keyId, Ids::make(QStringLiteral("req")), kEndpoint);
        Link &link = m_links[runId];
        link.trajectoryId = agentRun->trajectoryId();
        link.keyId = keyId;
        if (const std::optional<Run> run = m_runtime.repository().findRun(runId))
            link.a2wRunId = run->a2wRunId;
        m_byTrajectory.insert(link.trajectoryId, runId);
        engineChanged(link.trajectoryId);
    } catch (const DomainError &e) {
        m_runtime.runProgress(
            runId, QStringLiteral("failed"),
            {{QStringLiteral("error"), e.message()}, {QStringLiteral("code"), e.code()}});
    }
}

void RuntimeRunner::actExternally(const QString &siteId, const QString &pageUrl, const QString &url,
                                  const QString &task, int timeoutMs, QObject *context,
                                  std::function<void(QJsonObject)> done)
{
    const std::optional<sites::Site> site = m_sites.findSite(siteId);
    if (!site)
        throw DomainError::notFound(QStringLiteral("the session's site is gone"));
    const QString keyId = m_a2w.accountFor(site->id, site->name);
    // The visitor's page, not the external URL, is where the run's reach of the site's
    // own hosts is pinned.
    const QUrl page(pageUrl);
    const EgressGrant grant = NetworkPolicy::pinReach(m_policy.grantFor(keyId), page);
    engine::ExecuteRequest request = cloud::readExecuteRequest(
        {{QStringLiteral("input"), task}, {QStringLiteral("urls"), QJsonArray{url}}}, grant,
        m_settings);
    refuseBrowserSession(request);
    request.reachStart = page;
    request.browser.forVisitorsOf(site->id); // a visitor's work: the visitors' share
    engine::AgentRun *run =
        m_runs.start(request, keyId, Ids::make(QStringLiteral("req")), kEndpoint);
    const QString trajectoryId = run->trajectoryId();
    engine::RunManager *engine = &m_engine;
    cloud::RunService::awaitRun(run, timeoutMs, context, [engine, trajectoryId, keyId, done] {
        const QJsonObject response = responseOf(*engine, trajectoryId, keyId);
        QJsonObject out{{QStringLiteral("trajectoryId"), trajectoryId},
                        {QStringLiteral("status"), response.value(QStringLiteral("status"))}};
        const QString text = response.value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("text"))
                                 .toString();
        if (!text.isEmpty())
            out.insert(QStringLiteral("text"), text.left(20000));
        if (response.contains(QStringLiteral("error")))
            out.insert(QStringLiteral("error"), response.value(QStringLiteral("error")));
        done(out);
    });
}

void RuntimeRunner::stop(const QString &runId)
{
    const Link link = m_links.value(runId);
    if (link.trajectoryId.isEmpty())
        return;
    engine::EngineError error;
    m_engine.cancel(link.trajectoryId, link.keyId, QStringLiteral("stopped by the visitor"),
                    &error);
}

void RuntimeRunner::engineChanged(const QString &trajectoryId)
{
    const QString runId = m_byTrajectory.value(trajectoryId);
    if (runId.isEmpty())
        return;
    Link &link = m_links[runId];
    const QJsonObject response = responseOf(m_engine, trajectoryId, link.keyId);
    if (response.isEmpty())
        return;
    // Each step once it has ended, for the visitor's chat.
    const QJsonArray steps = response.value(QStringLiteral("steps")).toArray();
    while (link.stepsSeen < steps.size()) {
        const QJsonObject s = steps.at(link.stepsSeen).toObject();
        if (s.value(QStringLiteral("status")).toString() == QLatin1String("executing"))
            break;
        const QJsonObject step{{QStringLiteral("tool"), s.value(QStringLiteral("toolName"))},
                               {QStringLiteral("status"), s.value(QStringLiteral("status"))},
                               {QStringLiteral("summary"), s.value(QStringLiteral("summary"))}};
        m_runtime.runProgress(runId, QStringLiteral("running"), {{QStringLiteral("step"), step}});
        if (!link.a2wRunId.isEmpty())
            m_a2w.browserRunStep(link.a2wRunId, step);
        ++link.stepsSeen;
    }
    const QString status = response.value(QStringLiteral("status")).toString();
    if (status == QLatin1String("requires_input")) {
        const QJsonArray questions = response.value(QStringLiteral("questions")).toArray();
        QStringList lines;
        for (const QJsonValue &q : questions)
            lines << q.toObject().value(QStringLiteral("question")).toString();
        m_runtime.runProgress(runId, QStringLiteral("awaiting_user"),
                              {{QStringLiteral("questions"), questions},
                               {QStringLiteral("text"), lines.join(QLatin1Char('\n'))}});
    } else if (status == QLatin1String("success")) {
        const QJsonObject result = response.value(QStringLiteral("result")).toObject();
        QJsonObject data{{QStringLiteral("text"), result.value(QStringLiteral("text"))}};
        if (result.contains(QStringLiteral("json")))
            data.insert(QStringLiteral("json"), result.value(QStringLiteral("json")));
        // Honest results: warnings come along.
        const QJsonArray warnings = response.value(QStringLiteral("metadata"))
                                        .toObject()
                                        .value(QStringLiteral("warnings"))
                                        .toArray();
        if (!warnings.isEmpty())
            data.insert(QStringLiteral("warnings"), warnings);
        // The A2W run first waits for the visitor's review, then the visitor is asked.
        if (!link.a2wRunId.isEmpty())
            m_a2w.finishBrowserRun(link.a2wRunId, true, data, QString());
        m_runtime.runProgress(runId, QStringLiteral("completed"), data);
    } else if (status == QLatin1String("error") || status == QLatin1String("cancelled")) {
        const QString error = response.value(QStringLiteral("error")).toString();
        m_runtime.runProgress(runId, QStringLiteral("failed"),
                              {{QStringLiteral("error"), error.isEmpty() ? status : error}});
        if (!link.a2wRunId.isEmpty())
            m_a2w.finishBrowserRun(link.a2wRunId, false, {}, error.isEmpty() ? status : error);
    }
}

} // namespace ph::runtime
