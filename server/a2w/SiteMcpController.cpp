#include "SiteMcpController.h"

#include "A2wController.h"
#include "A2wService.h"
#include "WebBotAuth.h"

#include "core/DomainError.h"
#include "core/Settings.h"
#include "http/Exchange.h"
#include "mcp/McpServer.h"

#include <QPointer>
#include <QTimer>

namespace ph::a2w {

namespace {

const QString kPath = QStringLiteral("/v2/a2w/sites/{siteId}/mcp");

// Who a site MCP request comes from, for the session limits: a verified agent is its key
// directory; anyone else is their client address with their client id (X-Svc-Client-Id),
// grouped by address, so a flood from one address evicts that address's sessions first.
mcp::McpServer::Caller callerOf(const Caller &c)
{
    if (!c.verifiedAgent.isEmpty())
        return {QStringLiteral("agent ") + c.verifiedAgent,
                QStringLiteral("agent ") + c.verifiedAgent};
    return {QStringLiteral("client %1 %2").arg(c.address, c.clientId.left(128)),
            QStringLiteral("address ") + c.address};
}

} // namespace

SiteMcpController::SiteMcpController(A2wService &service, WebBotAuth &trust, Settings &settings,
                                     const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_trust(trust)
    , m_settings(settings)
{
    mcp::McpServer::Info info;
    info.name = QStringLiteral("pilothouse-a2w");
    info.title = QStringLiteral("Pilothouse A2W site tools");
    info.version = QStringLiteral(PILOTHOUSE_VERSION);
    info.instructions = QStringLiteral(
        "Each tool starts an A2W run on this site: a browser does the task and the tool answers "
        "with the result. A run that needs longer, or a person's input, answers with its run "
        "link: follow it (GET with Prefer: wait=10) until the run ends.");
    m_server = std::make_unique<mcp::McpServer>(kPath, http::AuthPolicy::Anonymous, info, clock);
    // The mcp.* settings, until Service applies them again when they change.
    mcp::McpServer::Limits limits;
    limits.maxSessions = m_settings.intValue(SettingKeys::mcpMaxSessions);
    limits.maxSessionsPerCredential = m_settings.intValue(SettingKeys::mcpMaxSessionsPerCredential);
    limits.maxSessionBytes = m_settings.int64Value(SettingKeys::mcpMaxSessionBytes);
    limits.idleTimeoutMs = m_settings.int64Value(SettingKeys::mcpSessionIdleMs);
    m_server->setLimits(limits);
    m_server->setToolProvider([this](const http::Request &request) {
        QList<mcp::Tool> out;
        const QString siteId = request.param(QStringLiteral("siteId"));
        A2wService::SiteTools site;
        try {
            site = m_service.capabilitiesOfSite(siteId);
        } catch (const DomainError &) {
            return out;
        }
        for (const QJsonValue &v : site.tools) {
            const QJsonObject t = v.toObject();
            mcp::Tool tool;
            tool.name = t.value(QStringLiteral("name")).toString();
            tool.title = t.value(QStringLiteral("title")).toString();
            tool.description = t.value(QStringLiteral("description")).toString();
            tool.inputSchema = t.value(QStringLiteral("inputSchema")).toObject();
            const QString name = tool.name;
            tool.asyncHandler = [this, siteId, name](const QJsonObject &arguments,
                                                     const mcp::CallContext &context,
                                                     mcp::ToolReply reply) {
                const A2wService::SiteTools now = m_service.capabilitiesOfSite(siteId);
                const CreateRequest create = m_service.requestForTool(now, name, arguments);
                const http::Request &r = context.request;
                Caller caller{r.remoteAddress.toString(),
                              QString::fromUtf8(r.header("user-agent")),
                              {},
                              QString::fromUtf8(r.header("x-svc-client-id")),
                              false,
                              {}};
                const A2wService::Created created =
                    m_service.create(create, caller, QStringLiteral("cloud"), {}, {});
                QString base = m_settings.stringValue(SettingKeys::publicBaseUrl);
                while (base.endsWith(u'/'))
                    base.chop(1);
                const QString runId = created.run.id;
                const QString token = created.runToken;
                const QString receipt = created.receipt;
                A2wService *runs = &m_service;
                // Answers once: when the run ends or waits for a person, or when the
                // wait is up (then with the run link to follow).
                auto answered = std::make_shared<bool>(false);
                auto *watch = new QObject(this);
                auto answer = [runs, runId, token, receipt, base, reply, answered, watch] {
                    if (*answered)
                        return;
                    const std::optional<Run> run = runs->find(runId);
                    if (!run)
                        return;
                    const bool ended = Status::isTerminal(run->status);
                    QJsonObject shown = A2wController::resource(*run, token, base, receipt);
                    shown.remove(QStringLiteral("links"));
                    if (!ended && run->status != Status::inputRequired)
                        shown.insert(QStringLiteral("note"),
                                     QStringLiteral("The run is still going: follow `run` (GET, "
                                                    "Prefer: wait=10) until it ends."));
                    *answered = true;
                    watch->deleteLater();
                    if (run->status == Status::failed || run->status == Status::cancelled ||
                        run->status == Status::expired) {
                        const DomainError e(
                            DomainError::Kind::Conflict, QStringLiteral("RUN_FAILED"),
                            QStringLiteral("the run ended %1: %2").arg(run->status, run->error), {},
                            {{QStringLiteral("runId"), runId},
                             {QStringLiteral("status"), run->status},
                             {QStringLiteral("run"), shown.value(QStringLiteral("run"))}});
                        reply({}, &e);
                        return;
                    }
                    reply(shown, nullptr);
                };
                connect(runs, &A2wService::runChanged, watch,
                        [runs, runId, answer](const QString &changed) {
                            if (changed != runId)
                                return;
                            const std::optional<Run> run = runs->find(runId);
                            if (run && (Status::isTerminal(run->status) ||
                                        run->status == Status::inputRequired))
                                answer();
                        });
                QTimer::singleShot(m_settings.intValue(SettingKeys::a2wMaxWaitSeconds) * 1000,
                                   watch, answer);
                const std::optional<Run> run = runs->find(runId);
                if (run &&
                    (Status::isTerminal(run->status) || run->status == Status::inputRequired))
                    answer();
            };
            out.append(tool);
        }
        return out;
    });
}

SiteMcpController::~SiteMcpController() = default;

QList<http::Route> SiteMcpController::routes()
{
    using C = SiteMcpController;
    return {http::Route::to("POST", kPath, http::AuthPolicy::Anonymous, this, &C::post),
            http::Route::to("DELETE", kPath, http::AuthPolicy::Anonymous, this, &C::remove),
            http::Route::to("GET", kPath, http::AuthPolicy::Anonymous, this, &C::get)};
}

void SiteMcpController::checkSite(const http::Exchange &ex) const
{
    // A site that is not enabled, or publishes nothing, has no MCP server: 404 (or 403)
    // before any session is opened.
    m_service.capabilitiesOfSite(ex.request().param(QStringLiteral("siteId")));
}

void SiteMcpController::post(http::Exchange &ex)
{
    checkSite(ex);
    QPointer<http::Exchange> guard(&ex);
    A2wController::withCaller(ex, m_trust, [this, guard](const Caller &caller) {
        if (guard)
            m_server->postAs(*guard, callerOf(caller));
    });
}

void SiteMcpController::remove(http::Exchange &ex)
{
    QPointer<http::Exchange> guard(&ex);
    A2wController::withCaller(ex, m_trust, [this, guard](const Caller &caller) {
        if (guard)
            m_server->removeAs(*guard, callerOf(caller));
    });
}

void SiteMcpController::get(http::Exchange &ex)
{
    m_server->get(ex);
}

} // namespace ph::a2w
