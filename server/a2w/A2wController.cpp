#include "A2wController.h"

#include "A2wService.h"
#include "WebBotAuth.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/Settings.h"
#include "http/Authenticator.h"
#include "http/EventStream.h"
#include "http/Exchange.h"
#include "http/LongPoll.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

namespace ph::a2w {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

const QByteArray kNoIndex = "noindex, nofollow, noarchive";
constexpr int kLinkBudget = 1024; // a browserLink longer than this is left out

QJsonObject link(const QString &href, const QString &method = QStringLiteral("GET"),
                 const QJsonObject &headers = {})
{
    QJsonObject o{{QStringLiteral("href"), href}, {QStringLiteral("method"), method}};
    if (!headers.isEmpty())
        o.insert(QStringLiteral("headers"), headers);
    return o;
}

QString runUrl(const QString &base, const QString &id, const QString &token)
{
    QString url = base + QStringLiteral("/v2/a2w/runs/") + id;
    if (!token.isEmpty())
        url += QStringLiteral("?access=") + token;
    return url;
}

int retryAfterMs(const QString &status)
{
    if (Status::isTerminal(status))
        return 0;
    return status == Status::inputRequired || status == Status::waitingBrowser ? 5000 : 1000;
}

// A run's answers are never indexed, its refusals neither (a GET-create link that fails
// is still a link a crawler may follow): set before anything can throw.
void noIndex(Exchange &ex)
{
    ex.addResponseHeader("X-Robots-Tag", kNoIndex);
}

bool wantsMarkdown(const http::Request &r)
{
    const QString format = r.queryValue(QStringLiteral("format"));
    if (format == QLatin1String("json"))
        return false;
    if (format == QLatin1String("markdown"))
        return true;
    if (!format.isEmpty())
        throw DomainError::invalidField(QStringLiteral("format"),
                                        QStringLiteral("must be markdown or json"));
    return r.header("accept").contains("text/markdown");
}

} // namespace

A2wController::A2wController(A2wService &service, WebBotAuth &trust, Settings &settings,
                             QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_trust(trust)
    , m_settings(settings)
{}

QString A2wController::tokenOf(const http::Request &r)
{
    const QString q = r.queryValue(QStringLiteral("access"));
    if (!q.isEmpty())
        return q;
    const QByteArray auth = r.header("authorization");
    if (auth.startsWith("Bearer ") || auth.startsWith("bearer "))
        return QString::fromLatin1(auth.mid(7).trimmed());
    return {};
}

QString A2wController::preferredExecution(const http::Request &r)
{
    for (const QByteArray &part : r.header("prefer").split(',')) {
        const QByteArray p = part.trimmed();
        if (p.startsWith("execution=")) {
            const QString v = QString::fromLatin1(p.mid(10)).trimmed();
            if (v != QLatin1String("cloud") && v != QLatin1String("browser") &&
                v != QLatin1String("auto"))
                throw DomainError::invalidField(QStringLiteral("Prefer"),
                                                QStringLiteral("execution must be cloud, browser "
                                                               "or auto"));
            return v;
        }
    }
    return {};
}

void A2wController::withCaller(Exchange &ex, WebBotAuth &trust,
                               const std::function<void(const Caller &)> &then)
{
    QPointer<Exchange> guard(&ex);
    const http::Request &incoming = ex.request();
    const SignedRequest signedRequest{incoming.method, incoming.path, incoming.rawQuery,
                                      incoming.headers};
    trust.verify(signedRequest, [guard, then](const WebBotAuth::Verdict &v) {
        if (!guard || guard->isAnswered())
            return;
        const http::Request &r = guard->request();
        try {
            if (v.refused())
                throw DomainError(DomainError::Kind::Unauthenticated, v.errorCode, v.errorMessage,
                                  QStringLiteral("Signature"));
            Caller caller{r.remoteAddress.toString(),
                          QString::fromUtf8(r.header("user-agent")),
                          QString::fromUtf8(r.header("signature-agent")),
                          QString::fromUtf8(r.header("x-svc-client-id")),
                          !r.header("signature").isEmpty(),
                          v.agentUrl};
            then(caller);
        } catch (const DomainError &e) {
            guard->fail(e);
        }
    });
}

QList<Route> A2wController::routes()
{
    using C = A2wController;
    return {
        Route::to("POST", QStringLiteral("/v2/a2w/runs"), AuthPolicy::Anonymous, this, &C::create),
        Route::to("GET", QStringLiteral("/v2/a2w/runs"), AuthPolicy::Anonymous, this,
                  &C::createFromQuery),
        Route::to("GET", QStringLiteral("/v2/a2w/runs/{id}"), AuthPolicy::AccessToken, this,
                  &C::read),
        Route::to("POST", QStringLiteral("/v2/a2w/runs/{id}"), AuthPolicy::AccessToken, this,
                  &C::answer),
        Route::to("DELETE", QStringLiteral("/v2/a2w/runs/{id}"), AuthPolicy::AccessToken, this,
                  &C::cancel),
        Route::to("POST", QStringLiteral("/v2/a2w/runs/{id}/auth-input"), AuthPolicy::AccessToken,
                  this, &C::authInput),
        Route::to("GET", QStringLiteral("/v2/a2w/runs/{id}/artifacts"), AuthPolicy::AccessToken,
                  this, &C::artifacts),
        Route::to("GET", QStringLiteral("/v2/a2w/workflows/{id}"), AuthPolicy::AccessToken, this,
                  &C::workflow),
        Route::to("POST", QStringLiteral("/v2/a2w/runs/{id}/handoffs"), AuthPolicy::AccessToken,
                  this, &C::handoff),
        Route::to("GET", QStringLiteral("/v2/a2w/capabilities"), AuthPolicy::Anonymous, this,
                  &C::capabilities),
        Route::to("GET", QStringLiteral("/v2/a2w/open/{receipt}"), AuthPolicy::Anonymous, this,
                  &C::open),
        Route::to("GET", QStringLiteral("/v2/a2w/confirm/{id}"), AuthPolicy::Anonymous, this,
                  &C::confirmationPage),
        Route::to("POST", QStringLiteral("/v2/a2w/confirm/{id}"), AuthPolicy::Anonymous, this,
                  &C::confirm),
        Route::to("GET", QStringLiteral("/v2/a2w/verify/{id}"), AuthPolicy::Anonymous, this,
                  &C::verificationPage),
        Route::to("POST", QStringLiteral("/v2/a2w/verify/{id}"), AuthPolicy::Anonymous, this,
                  &C::verify),
    };
}

QString A2wController::base() const
{
    QString b = m_settings.stringValue(SettingKeys::publicBaseUrl);
    while (b.endsWith(QLatin1Char('/')))
        b.chop(1);
    return b;
}

int A2wController::waitCapSeconds() const
{
    return m_settings.intValue(SettingKeys::a2wMaxWaitSeconds);
}

QJsonObject A2wController::resource(const Run &run, const QString &token, const QString &base,
                                    const QString &receipt, const QString &workflowToken)
{
    QString workflowUrl = base + QStringLiteral("/v2/a2w/workflows/") + run.workflowId;
    if (!workflowToken.isEmpty())
        workflowUrl += QStringLiteral("?access=") + workflowToken;
    const QString self = runUrl(base, run.id, token);
    const QString plain = runUrl(base, run.id, {});
    const QJsonObject auth{{QStringLiteral("Authorization"), QStringLiteral("Bearer ") + token}};
    QJsonObject links{
        {QStringLiteral("self"), link(self)},
        {QStringLiteral("poll"),
         link(plain, QStringLiteral("GET"),
              {{QStringLiteral("Accept"), QStringLiteral("application/json")},
               {QStringLiteral("Prefer"), QStringLiteral("wait=10")},
               {QStringLiteral("Authorization"), QStringLiteral("Bearer ") + token}})},
        {QStringLiteral("stream"),
         link(plain, QStringLiteral("GET"),
              {{QStringLiteral("Accept"), QStringLiteral("text/event-stream")},
               {QStringLiteral("Authorization"), QStringLiteral("Bearer ") + token}})},
        {QStringLiteral("ndjson"),
         link(plain, QStringLiteral("GET"),
              {{QStringLiteral("Accept"), QStringLiteral("application/x-ndjson")},
               {QStringLiteral("Authorization"), QStringLiteral("Bearer ") + token}})},
        {QStringLiteral("workflow"), link(workflowUrl)},
        {QStringLiteral("continue"), link(plain, QStringLiteral("POST"), auth)},
        {QStringLiteral("cancel"), link(plain, QStringLiteral("DELETE"), auth)},
    };
    const QString open = base + QStringLiteral("/v2/a2w/open/") + receipt;
    links.insert(QStringLiteral("open"), link(open));
    const QString browserLink = run.url + QStringLiteral("#pilothouse-a2w=") + receipt;
    if (browserLink.size() <= kLinkBudget)
        links.insert(QStringLiteral("browserLink"), link(browserLink));
    if (!run.result.value(QStringLiteral("artifacts")).toArray().isEmpty())
        links.insert(QStringLiteral("artifacts"),
                     link(plain + QStringLiteral("/artifacts"), QStringLiteral("GET"), auth));

    QJsonObject o{{QStringLiteral("id"), run.id},
                  {QStringLiteral("runId"), run.id},
                  {QStringLiteral("run"), self},
                  {QStringLiteral("workflow"), workflowUrl},
                  {QStringLiteral("protocol"), QStringLiteral("a2w")},
                  {QStringLiteral("status"), run.status},
                  {QStringLiteral("url"), run.url},
                  {QStringLiteral("execution"), run.execution},
                  {QStringLiteral("retryAfterMs"), retryAfterMs(run.status)},
                  {QStringLiteral("open"), open},
                  {QStringLiteral("links"), links},
                  {QStringLiteral("createdAt"), Clock::isoUtc(run.createdAt)},
                  {QStringLiteral("updatedAt"), Clock::isoUtc(run.updatedAt)}};
    if (links.contains(QStringLiteral("browserLink")))
        o.insert(QStringLiteral("browserLink"), browserLink);
    if (!run.engagementKind.isEmpty())
        o.insert(QStringLiteral("engagementKind"), run.engagementKind);
    QJsonObject agent = run.agent;
    agent.insert(QStringLiteral("trust"), run.trust);
    o.insert(QStringLiteral("agent"), agent);
    if (!run.parentRunId.isEmpty()) {
        o.insert(QStringLiteral("parentRunId"), run.parentRunId);
        o.insert(QStringLiteral("hop"), run.hop);
    }
    if (!run.input.isEmpty())
        o.insert(QStringLiteral("input"), run.input);
    if (!run.authInput.isEmpty())
        o.insert(QStringLiteral("authInput"), run.authInput);
    if (!run.result.isEmpty())
        o.insert(QStringLiteral("result"), run.result);
    if (!run.error.isEmpty())
        o.insert(QStringLiteral("error"), run.error);
    if (run.expiresAt)
        o.insert(QStringLiteral("expiresAt"), Clock::isoUtc(*run.expiresAt));
    return o;
}

QString A2wController::markdown(const Run &run, const QString &token, const QString &base,
                                const QString &receipt)
{
    const QString self = runUrl(base, run.id, token);
    QString md = QStringLiteral("# A2W run %1\n\n").arg(run.id);
    md += QStringLiteral("**Status:** %1").arg(run.status);
    if (!run.error.isEmpty())
        md += QStringLiteral(" — %1").arg(run.error);
    md += QStringLiteral("\n\n**Run:** %1 (%2 on %3)\n\n")
              .arg(self, run.selector.left(200), run.host);
    if (Status::isTerminal(run.status)) {
        const QString text = run.result.value(QStringLiteral("text"))
                                 .toString(run.result.value(QStringLiteral("summary")).toString());
        md += QStringLiteral("## Result\n\n%1\n\n")
                  .arg(text.isEmpty() ? QStringLiteral("(no text)") : text);
    } else if (run.status == Status::inputRequired) {
        md += QStringLiteral("## Input required\n\n%1\n\n")
                  .arg(run.input.value(QStringLiteral("message")).toString());
        for (const QJsonValue &q : run.input.value(QStringLiteral("questions")).toArray())
            md += QStringLiteral("- `%1`: %2\n")
                      .arg(q.toObject().value(QStringLiteral("key")).toString(),
                           q.toObject().value(QStringLiteral("question")).toString());
        md += QStringLiteral("\nAnswer with `POST %1` and a JSON body "
                             "`{\"answers\": {\"<key>\": \"<text>\"}}`.\n\n")
                  .arg(self);
    } else {
        md += QStringLiteral("## Still running\n\nThe run is still working. Open the poll link "
                             "below: it waits up to 10 seconds for news, then shows this page "
                             "again.\n\n");
    }
    md += QStringLiteral("## Links\n\n");
    md += QStringLiteral("- Poll: %1&format=markdown&wait=10\n").arg(self);
    md += QStringLiteral("- JSON: %1&format=json\n").arg(self);
    md += QStringLiteral("- Open in a browser: %1/v2/a2w/open/%2\n").arg(base, receipt);
    return md;
}

void A2wController::create(Exchange &ex)
{
    noIndex(ex);
    const http::Request &r = ex.request();
    const CreateRequest request = CreateRequest::fromJson(r.jsonObject());
    const QString execution = preferredExecution(r);
    withCaller(ex, m_trust, [this, &ex, request, execution](const Caller &caller) {
        const http::Request &req = ex.request();
        const A2wService::Created created = m_service.create(
            request, caller, execution, QString::fromUtf8(req.header("idempotency-key")),
            QCryptographicHash::hash(req.body, QCryptographicHash::Sha256));
        // A run that waits for a person from the start has nothing to wait for.
        const int waitMs = created.run.status == Status::inputRequired
                               ? 0
                               : req.preferWait(waitCapSeconds()).value_or(0) * 1000;
        holdThenAnswer(ex, created.run, created.runToken, waitMs, false,
                       created.replayed ? 200 : 201, created.workflowToken);
    });
}

void A2wController::createFromQuery(Exchange &ex)
{
    noIndex(ex);
    const http::Request &r = ex.request();
    const bool asMarkdown = r.queryValue(QStringLiteral("format")) != QLatin1String("json");
    if (!asMarkdown || r.query.hasQueryItem(QStringLiteral("format")))
        wantsMarkdown(r); // checks the value
    CreateRequest request = CreateRequest::fromQuery(r.query);
    if (request.execution.isEmpty())
        request.execution = {{QStringLiteral("mode"), QStringLiteral("cloud")}};
    int wait = 25;
    if (r.query.hasQueryItem(QStringLiteral("wait"))) {
        bool ok = false;
        wait = r.queryValue(QStringLiteral("wait")).toInt(&ok);
        if (!ok || wait < 0)
            throw DomainError::invalidField(QStringLiteral("wait"),
                                            QStringLiteral("must be a whole number of seconds"));
    }
    withCaller(ex, m_trust, [this, &ex, request, wait, asMarkdown](const Caller &caller) {
        const A2wService::Created created =
            m_service.create(request, caller, {}, {},
                             QCryptographicHash::hash(ex.request().query.toString().toUtf8(),
                                                      QCryptographicHash::Sha256));
        holdThenAnswer(ex, created.run, created.runToken, std::min(wait, waitCapSeconds()) * 1000,
                       asMarkdown, 201, created.workflowToken);
    });
}

void A2wController::holdThenAnswer(Exchange &ex, const Run &run, const QString &token, int waitMs,
                                   bool asMarkdown, int status, const QString &workflowToken)
{
    ex.setSite(run.siteId); // a held answer counts against http.maxStreamsPerSite
    const QString runId = run.id;
    const QString initial = run.status;
    A2wService *service = &m_service;
    const QString b = base();
    const QString receipt = m_service.receiptFor(runId);
    auto answer = [service, runId, token, b, receipt, asMarkdown, status,
                   workflowToken](Exchange &e) {
        const Run now = service->find(runId).value_or(Run());
        const http::HeaderList headers{{"Cache-Control", "no-store"}}; // X-Robots: noIndex()
        if (asMarkdown) {
            e.respond(status, markdown(now, token, b, receipt).toUtf8(),
                      "text/markdown; charset=utf-8", headers);
            return;
        }
        QJsonObject o = resource(now, token, b, receipt, workflowToken);
        const QJsonObject delegation = service->delegationOf(now, true);
        if (!delegation.isEmpty())
            o.insert(QStringLiteral("delegation"), delegation);
        e.respondJson(status, o, headers);
    };
    if (waitMs <= 0 || Status::isTerminal(initial)) {
        answer(ex);
        return;
    }
    // Answers at the first change of state (or input), or when the wait is up.
    auto *poll = http::LongPoll::hold(
        ex, waitMs,
        [service, runId, initial] {
            const auto now = service->find(runId);
            return !now || now->status != initial;
        },
        answer);
    if (poll)
        connect(&m_service, &A2wService::runChanged, poll, [poll, runId](const QString &changed) {
            if (changed == runId)
                poll->wake();
        });
}

void A2wController::read(Exchange &ex)
{
    noIndex(ex);
    const http::Request &r = ex.request();
    const QString token = tokenOf(r);
    const Run run = m_service.authorize(r.param(QStringLiteral("id")), token);
    http::EventStream::Framing framing;
    if (http::EventStream::framingFromAccept(r.header("accept"), &framing)) {
        stream(ex, run, int(framing));
        return;
    }
    const bool asMarkdown = wantsMarkdown(r);
    int waitMs = r.preferWait(waitCapSeconds()).value_or(0) * 1000;
    if (r.query.hasQueryItem(QStringLiteral("wait")))
        waitMs =
            std::clamp(r.queryValue(QStringLiteral("wait")).toInt(), 0, waitCapSeconds()) * 1000;
    holdThenAnswer(ex, run, token, waitMs, asMarkdown, 200);
}

void A2wController::stream(Exchange &ex, const Run &run, int framing)
{
    ex.setSite(run.siteId); // counts against http.maxStreamsPerSite
    auto *events = new http::EventStream(ex, http::EventStream::Framing(framing), 15000, &ex);
    qint64 after = ex.request().header("last-event-id").toLongLong();
    if (ex.request().query.hasQueryItem(QStringLiteral("lastEventId")))
        after = ex.request().queryValue(QStringLiteral("lastEventId")).toLongLong();
    const QString runId = run.id;
    bool ended = false;
    for (const Event &e : m_service.events(runId, after)) {
        events->sendEnvelope(e.toJson(), e.seq);
        ended |= e.type == QLatin1String("done");
    }
    if (ended) {
        events->close();
        return;
    }
    connect(&m_service, &A2wService::eventAdded, events,
            [events, runId](const QString &changed, const Event &e) {
                if (changed != runId)
                    return;
                events->sendEnvelope(e.toJson(), e.seq);
                if (e.type == QLatin1String("done"))
                    events->close();
            });
}

void A2wController::answer(Exchange &ex)
{
    const http::Request &r = ex.request();
    const QString token = tokenOf(r);
    const Run run = m_service.authorize(r.param(QStringLiteral("id")), token);
    const ContinueRequest request = ContinueRequest::fromJson(r.jsonObject());
    auto go = [this, &ex, token, id = run.id, request](const QString &trust) {
        const Run now = m_service.answer(id, request, trust);
        QJsonObject o = resource(now, token, base(), m_service.receiptFor(now.id));
        const QJsonObject delegation = m_service.delegationOf(now, false);
        if (!delegation.isEmpty())
            o.insert(QStringLiteral("delegation"), delegation);
        ex.respondJson(200, o);
    };
    if (request.auth.isEmpty()) {
        go(Trust::anonymous);
        return;
    }
    // A delegated session given on continue is a sensitive field as on create: the
    // continuing call's own signature decides the tier.
    withCaller(ex, m_trust, [go, request](const Caller &caller) {
        go(A2wService::trustOf(CreateRequest(), caller));
    });
}

void A2wController::authInput(Exchange &ex)
{
    const http::Request &r = ex.request();
    const QString token = tokenOf(r);
    const Run run = m_service.authorize(r.param(QStringLiteral("id")), token);
    const JsonFields body(r.jsonObject());
    body.rejectUnknown({QStringLiteral("value"), QStringLiteral("kind")});
    const QString value = body.requiredString(QStringLiteral("value"));
    if (value.isEmpty())
        throw DomainError::invalidField(QStringLiteral("value"),
                                        QStringLiteral("must not be empty"));
    const std::optional<QString> kind = body.optionalEnum(
        QStringLiteral("kind"),
        {QStringLiteral("magic_link"), QStringLiteral("otp"), QStringLiteral("unknown")});
    if (!kind)
        throw DomainError::missingField(QStringLiteral("kind"));
    const Run now = m_service.provideAuthInput(run.id, value, *kind);
    ex.respondJson(200, resource(now, token, base(), m_service.receiptFor(now.id)));
}

void A2wController::cancel(Exchange &ex)
{
    const http::Request &r = ex.request();
    const QString token = tokenOf(r);
    const Run run = m_service.authorize(r.param(QStringLiteral("id")), token);
    const Run now = m_service.cancel(run.id);
    ex.respondJson(200, resource(now, token, base(), m_service.receiptFor(now.id)));
}

void A2wController::artifacts(Exchange &ex)
{
    const http::Request &r = ex.request();
    const Run run = m_service.authorize(r.param(QStringLiteral("id")), tokenOf(r));
    ex.respondJson(200, m_service.artifacts(run), {{"Cache-Control", "no-store"}});
}

QJsonObject A2wController::workflowSnapshot(const QString &workflowId, const QList<Run> &runs)
{
    QJsonArray list;
    bool active = false;
    const Run *finalRun = nullptr;
    QString status;
    for (const Run &run : runs) {
        QJsonObject o{{QStringLiteral("runId"), run.id},
                      {QStringLiteral("status"), run.status},
                      {QStringLiteral("url"), run.url},
                      {QStringLiteral("host"), run.host},
                      {QStringLiteral("hop"), run.hop},
                      {QStringLiteral("trust"), run.trust},
                      {QStringLiteral("createdAt"), Clock::isoUtc(run.createdAt)},
                      {QStringLiteral("updatedAt"), Clock::isoUtc(run.updatedAt)}};
        if (!run.parentRunId.isEmpty())
            o.insert(QStringLiteral("parentRunId"), run.parentRunId);
        const QString summary = run.result.value(QStringLiteral("summary")).toString();
        if (!summary.isEmpty())
            o.insert(QStringLiteral("summary"), summary);
        if (!run.error.isEmpty())
            o.insert(QStringLiteral("error"), run.error);
        list.append(o);
        active |= !Status::isTerminal(run.status);
        // The final result: the completed run that settled last.
        if (run.status == Status::completed && (!finalRun || run.updatedAt >= finalRun->updatedAt))
            finalRun = &run;
    }
    // The workflow's status: the most pressing of its active runs, else (all ended)
    // completed when one completed, else the root's.
    static const QStringList pressing{Status::inputRequired, Status::running, Status::pending,
                                      Status::waitingBrowser};
    for (const QString &st : pressing)
        for (const Run &run : runs)
            if (status.isEmpty() && run.status == st)
                status = st;
    if (status.isEmpty())
        status = finalRun ? Status::completed : runs.isEmpty() ? QString() : runs.first().status;
    QJsonObject o{{QStringLiteral("id"), workflowId},
                  {QStringLiteral("workflowId"), workflowId},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("rootRunId"), runs.isEmpty() ? QString() : runs.first().id},
                  {QStringLiteral("runs"), list}};
    if (!active && finalRun) {
        QJsonObject result = finalRun->result;
        result.insert(QStringLiteral("runId"), finalRun->id);
        o.insert(QStringLiteral("result"), result);
    }
    return o;
}

void A2wController::workflow(Exchange &ex)
{
    const http::Request &r = ex.request();
    const QString id = r.param(QStringLiteral("id"));
    const QList<Run> runs = m_service.workflowRuns(id, tokenOf(r));
    if (!runs.isEmpty())
        ex.setSite(runs.first().siteId); // a stream counts against http.maxStreamsPerSite
    http::EventStream::Framing framing;
    if (!http::EventStream::framingFromAccept(r.header("accept"), &framing)) {
        ex.respondJson(200, workflowSnapshot(id, runs));
        return;
    }
    // The lineage as it happens: every event of every run (each names its runId), ids
    // in the store's order, then `workflow` with the snapshot once no run is active.
    auto *events = new http::EventStream(ex, framing, 15000, &ex);
    qint64 after = r.header("last-event-id").toLongLong();
    if (r.query.hasQueryItem(QStringLiteral("lastEventId")))
        after = r.queryValue(QStringLiteral("lastEventId")).toLongLong();
    A2wService *service = &m_service;
    auto finishIfEnded = [service, events, id]() {
        const QList<Run> now = service->runsOfWorkflow(id);
        for (const Run &run : now)
            if (!Status::isTerminal(run.status))
                return false;
        const QJsonObject snapshot = workflowSnapshot(id, now);
        events->sendEnvelope(QJsonObject{{QStringLiteral("type"), QStringLiteral("workflow")},
                                         {QStringLiteral("workflowId"), id},
                                         {QStringLiteral("data"), snapshot}},
                             0);
        events->close();
        return true;
    };
    for (const Event &e : m_service.workflowEvents(id, after)) {
        QJsonObject env = e.toJson();
        env.insert(QStringLiteral("id"), QString::number(e.position));
        events->sendEnvelope(env, e.position);
    }
    if (finishIfEnded())
        return;
    connect(&m_service, &A2wService::eventAdded, events,
            [service, events, id, finishIfEnded](const QString &runId, const Event &e) {
                const std::optional<Run> run = service->find(runId);
                if (!run || run->workflowId != id)
                    return;
                QJsonObject env = e.toJson();
                env.insert(QStringLiteral("id"), QString::number(e.position));
                events->sendEnvelope(env, e.position);
                if (e.type == QLatin1String("done"))
                    finishIfEnded();
            });
}

void A2wController::handoff(Exchange &ex)
{
    const http::Request &r = ex.request();
    const QString token = tokenOf(r);
    const Run parent = m_service.authorize(r.param(QStringLiteral("id")), token);
    if (parent.contract != QLatin1String("a2w")) // a v1 task: POST /v1/tasks/{id}/handoffs
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("RUN_NOT_FOUND"),
                          QStringLiteral("no such run, or the access token is not its own"));
    const HandoffRequest request = HandoffRequest::fromJson(r.jsonObject());
    const QString execution = preferredExecution(r);
    withCaller(ex, m_trust, [this, &ex, parent, request, execution](const Caller &caller) {
        const A2wService::Created created = m_service.handoff(
            parent.id, request.child,
            {request.contextSummary, request.expectedOutput, request.lastObservation}, caller,
            execution);
        ex.respondJson(201, resource(created.run, created.runToken, base(), created.receipt));
    });
}

void A2wController::capabilities(Exchange &ex)
{
    const http::Request &r = ex.request();
    withCaller(ex, m_trust, [this, &ex](const Caller &caller) {
        const http::Request &req = ex.request();
        const A2wService::SiteTools site = m_service.capabilities(
            req.queryValue(QStringLiteral("url")), req.queryValue(QStringLiteral("host")),
            req.queryValue(QStringLiteral("siteId")));
        const QString b = base();
        const QString trust =
            caller.verifiedAgent.isEmpty()
                ? (caller.clientId.isEmpty() ? Trust::anonymous : Trust::identified)
                : Trust::verified;
        const QJsonObject document{
            {QStringLiteral("protocol"), QStringLiteral("mcp")},
            {QStringLiteral("serverInfo"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("pilothouse-a2w-") + site.siteId},
                         {QStringLiteral("title"), site.siteName},
                         {QStringLiteral("version"), QStringLiteral(PILOTHOUSE_VERSION)}}},
            {QStringLiteral("site"), QJsonObject{{QStringLiteral("siteId"), site.siteId},
                                                 {QStringLiteral("name"), site.siteName},
                                                 {QStringLiteral("url"), site.url}}},
            {QStringLiteral("executor"),
             QJsonObject{{QStringLiteral("contract"), QStringLiteral("a2w")},
                         {QStringLiteral("runEndpoint"), b + QStringLiteral("/v2/a2w/runs")}}},
            {QStringLiteral("mcp"),
             QJsonObject{{QStringLiteral("transport"), QStringLiteral("streamable-http")},
                         {QStringLiteral("url"),
                          b + QStringLiteral("/v2/a2w/sites/%1/mcp").arg(site.siteId)}}},
            {QStringLiteral("trust"), trust},
            {QStringLiteral("tools"), site.tools}};
        // `trust` is this caller's: the caller may keep it a minute, no shared cache may
        // hand it to another (respondJson would add no-store).
        ex.respond(200, QJsonDocument(document).toJson(QJsonDocument::Compact), "application/json",
                   {{"Cache-Control", "private, max-age=60"},
                    {"Vary", "Signature, Signature-Input, Signature-Agent, X-Svc-Client-Id"}});
    });
    Q_UNUSED(r);
}

namespace {

// The confirm and verify pages' one style sheet; they have no script.
const QByteArray kPageStyle = "body{font-family:sans-serif;max-width:40em;margin:3em auto}";

QByteArray confirmationHtml(const QString &title, const QString &body)
{
    return QStringLiteral("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                          "<meta name=\"viewport\" content=\"width=device-width\">"
                          "<title>%1</title><style>%3</style></head><body><h1>%1</h1>%2"
                          "</body></html>")
        .arg(title.toHtmlEscaped(), body, QString::fromLatin1(kPageStyle))
        .toUtf8();
}

// A strict policy, as the live view page has: nothing loads but the page's own style
// (by hash), forms post back to this origin only, and no other site may frame it.
const http::HeaderList kPageHeaders{
    {"Content-Security-Policy",
     "default-src 'none'; style-src 'sha256-" +
         QCryptographicHash::hash(kPageStyle, QCryptographicHash::Sha256).toBase64() +
         "'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
    {"X-Content-Type-Options", "nosniff"},
    {"X-Robots-Tag", "noindex, nofollow, noarchive"},
    {"Referrer-Policy", "no-referrer"},
    {"Cache-Control", "no-store"},
    {"X-Frame-Options", "DENY"}};

} // namespace

void A2wController::confirmationPage(Exchange &ex)
{
    // A person, out of band: what the run is about to do, and the two buttons.
    const http::Request &r = ex.request();
    const QString sig = r.queryValue(QStringLiteral("sig"));
    const Run run = m_service.confirmationFor(r.param(QStringLiteral("id")), sig);
    QString what;
    for (const QJsonValue &q : run.input.value(QStringLiteral("questions")).toArray())
        what += QStringLiteral("<p>%1</p>")
                    .arg(q.toObject().value(QStringLiteral("question")).toString().toHtmlEscaped());
    const QString action = QStringLiteral("/v2/a2w/confirm/%1?sig=%2").arg(run.id, sig);
    const QString body =
        QStringLiteral("<p>An AI agent working on <b>%1</b> for a visitor asks you to confirm "
                       "an action before it goes on:</p>%2<p>Task: %3</p>"
                       "<form method=\"post\" action=\"%4\"><button name=\"decision\" "
                       "value=\"confirm\">Confirm</button> <button name=\"decision\" "
                       "value=\"decline\">Decline</button></form>")
            .arg(run.host.toHtmlEscaped(), what, run.selector.left(300).toHtmlEscaped(),
                 action.toHtmlEscaped());
    ex.respond(200, confirmationHtml(QStringLiteral("Confirm an action"), body),
               "text/html; charset=utf-8", kPageHeaders);
}

void A2wController::confirm(Exchange &ex)
{
    const http::Request &r = ex.request();
    const QUrlQuery form = http::formQuery(QString::fromUtf8(r.body));
    const QString decision = form.queryItemValue(QStringLiteral("decision"));
    if (decision != QLatin1String("confirm") && decision != QLatin1String("decline"))
        throw DomainError::invalidField(QStringLiteral("decision"),
                                        QStringLiteral("must be confirm or decline"));
    const Run run =
        m_service.confirm(r.param(QStringLiteral("id")), r.queryValue(QStringLiteral("sig")),
                          decision == QLatin1String("confirm"));
    ex.respond(
        200,
        confirmationHtml(decision == QLatin1String("confirm") ? QStringLiteral("Confirmed")
                                                              : QStringLiteral("Declined"),
                         QStringLiteral("<p>The run on %1 is %2. You can close this "
                                        "page.</p>")
                             .arg(run.host.toHtmlEscaped(), decision == QLatin1String("confirm")
                                                                ? QStringLiteral("going on")
                                                                : QStringLiteral("cancelled"))),
        "text/html; charset=utf-8", kPageHeaders);
}

void A2wController::verificationPage(Exchange &ex)
{
    // A person who owns or runs the site: what the agent asks for, and the scope to grant.
    const http::Request &r = ex.request();
    const QString sig = r.queryValue(QStringLiteral("sig"));
    const Run run = m_service.verificationFor(r.param(QStringLiteral("id")), sig);
    const A2wService::SiteTools site = m_service.capabilitiesOfSite(run.siteId);
    QString choices = QStringLiteral("<label><input type=\"checkbox\" name=\"scope\" "
                                     "value=\"*\"> Any task on the site</label><br>");
    for (const QJsonValue &t : site.tools) {
        const QJsonObject meta =
            t[QStringLiteral("_meta")][QStringLiteral("pilothouse/a2w")].toObject();
        const QString id = meta.value(QStringLiteral("id")).toString();
        if (id.isEmpty())
            continue;
        const bool asked = id == run.selector;
        choices += QStringLiteral("<label><input type=\"checkbox\" name=\"scope\" value=\"%1\"%2>"
                                  " %3</label><br>")
                       .arg(id.toHtmlEscaped(), asked ? QStringLiteral(" checked") : QString(),
                            t[QStringLiteral("title")].toString().toHtmlEscaped());
    }
    const QString agent = run.agent.value(QStringLiteral("displayName")).toString();
    const QString action = QStringLiteral("/v2/a2w/verify/%1?sig=%2").arg(run.id, sig);
    const QString body =
        QStringLiteral(
            "<p>An AI agent%1 (trust: %2) asks for a delegated session on <b>%3</b> to do:</p>"
            "<blockquote>%4</blockquote><form method=\"post\" action=\"%5\">"
            "<p><label>Your owner API key or workspace ID token<br><input type=\"password\" "
            "name=\"credential\" autocomplete=\"off\" size=\"60\"></label></p>"
            "<fieldset><legend>The agent may</legend>%6</fieldset>"
            "<p><label>Spend at most <input name=\"spendCap\" value=\"10\" size=\"6\"> "
            "credits</label></p><p><label>For <input name=\"expiresInMinutes\" "
            "value=\"60\" size=\"6\"> minutes</label></p>"
            "<button name=\"decision\" value=\"approve\">Approve</button> <button "
            "name=\"decision\" value=\"decline\">Decline</button></form>")
            .arg(agent.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(agent.toHtmlEscaped()),
                 run.trust, run.host.toHtmlEscaped(), run.selector.left(300).toHtmlEscaped(),
                 action.toHtmlEscaped(), choices);
    ex.respond(200, confirmationHtml(QStringLiteral("Approve a delegated session"), body),
               "text/html; charset=utf-8", kPageHeaders);
}

void A2wController::verify(Exchange &ex)
{
    const http::Request &r = ex.request();
    const QString id = r.param(QStringLiteral("id"));
    const QString sig = r.queryValue(QStringLiteral("sig"));
    const QUrlQuery form = http::formQuery(QString::fromUtf8(r.body));
    const QString decision = form.queryItemValue(QStringLiteral("decision"));
    if (decision != QLatin1String("approve") && decision != QLatin1String("decline"))
        throw DomainError::invalidField(QStringLiteral("decision"),
                                        QStringLiteral("must be approve or decline"));
    m_service.verificationFor(id, sig); // 404 before any credential is looked at
    // The person signs in as the workspace's owner: the same check as the workspace calls.
    http::Request signIn;
    signIn.method = "POST";
    signIn.path = r.path;
    signIn.remoteAddress = r.remoteAddress;
    signIn.peerAddress = r.peerAddress;
    signIn.headers.insert(
        "authorization",
        "Bearer " + form.queryItemValue(QStringLiteral("credential"), QUrl::FullyDecoded).toUtf8());
    auto decide = [this, id, sig, decision, form](Exchange &e, const http::Request &as) {
        try {
            if (!m_auth)
                throw DomainError::unavailable(QStringLiteral("NO_AUTHENTICATOR"),
                                               QStringLiteral("approvals are not set up"));
            const http::Principal who = m_auth->authenticate(as, AuthPolicy::Workspace);
            const QString by = who.actor();
            Run run;
            if (decision == QLatin1String("decline")) {
                run = m_service.cancel(id, QStringLiteral("the site declined a delegated session"));
            } else {
                A2wService::DelegationGrant grant;
                grant.scope = form.allQueryItemValues(QStringLiteral("scope"), QUrl::FullyDecoded);
                bool ok = false;
                const double cap = form.queryItemValue(QStringLiteral("spendCap")).toDouble(&ok);
                if (!ok)
                    throw DomainError::invalidField(QStringLiteral("spendCap"),
                                                    QStringLiteral("must be a number of credits"));
                grant.spendCapMilli = qint64(cap * 1000.0);
                const qint64 minutes =
                    form.queryItemValue(QStringLiteral("expiresInMinutes")).toLongLong(&ok);
                if (!ok)
                    throw DomainError::invalidField(QStringLiteral("expiresInMinutes"),
                                                    QStringLiteral("must be whole minutes"));
                grant.ttlMs = minutes * 60000;
                run = m_service.approveDelegation(id, sig, grant, by);
            }
            e.respond(200,
                      confirmationHtml(decision == QLatin1String("approve")
                                           ? QStringLiteral("Approved")
                                           : QStringLiteral("Declined"),
                                       QStringLiteral("<p>The run on %1 is %2. You can close "
                                                      "this page.</p>")
                                           .arg(run.host.toHtmlEscaped(), run.status)),
                      "text/html; charset=utf-8", kPageHeaders);
        } catch (const DomainError &err) {
            e.fail(err);
        }
    };
    // An ID token may need the identity provider's keys first.
    QPointer<Exchange> guard(&ex);
    if (!m_auth || m_auth->prepare(signIn, AuthPolicy::Workspace, [guard, decide, signIn] {
            if (guard)
                decide(*guard, signIn);
        }))
        decide(ex, signIn);
}

void A2wController::open(Exchange &ex)
{
    // The receipt-based handoff: the target page, with the receipt in its fragment for
    // the embed to claim (the fragment never reaches the site's server).
    const auto run = m_service.findByReceipt(ex.request().param(QStringLiteral("receipt")));
    if (!run)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("RUN_NOT_FOUND"),
                          QStringLiteral("no run has this receipt"));
    const QString target = run->url + QStringLiteral("#pilothouse-a2w=") +
                           ex.request().param(QStringLiteral("receipt"));
    ex.respond(303, QByteArray(), "text/plain",
               {{"Location", target.toUtf8()},
                {"X-Robots-Tag", kNoIndex},
                {"Referrer-Policy", "no-referrer"}});
}

} // namespace ph::a2w
