#include "AgentController.h"

#include "AgentRequest.h"
#include "RunService.h"

#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/HeaderText.h"
#include "core/ObjectStore.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/AgentRun.h"
#include "engine/ResponseBuilder.h"
#include "engine/liveview/LiveViews.h"
#include "http/Authenticator.h"
#include "http/EventStream.h"
#include "http/Exchange.h"
#include "http/LongPoll.h"
#include "net/NetworkPolicy.h"

#include <QDateTime>
#include <QPointer>

namespace ph::cloud {

using engine::AgentRun;
using engine::RunStatus;
using engine::StepRecord;
using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

constexpr int kMaxWaitSeconds = 300;

int statusFor(RunStatus s)
{
    return s == RunStatus::Executing ? 202 : 200;
}

} // namespace

AgentController::AgentController(Store &store, Settings &settings, NetworkPolicy &policy,
                                 RunService &runs, engine::LiveViews &liveViews, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_policy(policy)
    , m_runs(runs)
    , m_liveViews(liveViews)
{}

QJsonObject AgentController::withLiveView(QJsonObject response, const AgentRun *run, bool asked)
{
    // Not part of the run's stored response: the link is a credential, minted for the
    // answer that carries it.
    if (asked && run && response.value(QStringLiteral("phase")).toInt() == run->phase())
        response.insert(QStringLiteral("liveView"),
                        m_liveViews.link(run->trajectoryId(), run->phase()));
    return response;
}

QList<Route> AgentController::routes()
{
    using C = AgentController;
    return {
        Route::to("POST", QStringLiteral("/agent"), AuthPolicy::ApiKey, this, &C::run)
            .requiring(QStringLiteral("cloudAgent")),
        Route::to("POST", QStringLiteral("/execute"), AuthPolicy::ApiKey, this, &C::run)
            .requiring(QStringLiteral("cloudAgent")),
        Route::to("GET", QStringLiteral("/agent/{trajectoryId}"), AuthPolicy::ApiKey, this,
                  &C::get),
        Route::to("DELETE", QStringLiteral("/agent/{trajectoryId}"), AuthPolicy::ApiKey, this,
                  &C::cancel),
        Route::to("POST", QStringLiteral("/storage"), AuthPolicy::ApiKey, this, &C::upload),
        Route::to("GET", QStringLiteral("/storage/{id}"), AuthPolicy::Public, this, &C::download),
        Route::to("GET", QStringLiteral("/storage/sites/{siteId}/{token}"), AuthPolicy::Public,
                  this, &C::siteRoot),
        Route::to("GET", QStringLiteral("/storage/sites/{siteId}/{token}/{path}"),
                  AuthPolicy::Public, this, &C::siteFile),
    };
}

void AgentController::run(Exchange &exchange)
{
    const engine::ExecuteRequest request =
        readExecuteRequest(exchange.request().jsonObject(),
                           m_policy.grantFor(exchange.request().principal.keyId), m_settings);
    AgentRun *run = m_runs.start(request, exchange.request().principal.keyId, exchange.request().id,
                                 exchange.request().path);
    QPointer<AgentRun> guard(run);

    // The synchronous window: the answer waits for the run to settle, up to the window
    // (agent.syncWindowMs, or Prefer: wait=N); then the run goes on and the answer
    // says "executing" (202).
    int windowMs = m_settings.intValue(SettingKeys::agentSyncWindowMs);
    if (const auto wait = exchange.request().preferWait(kMaxWaitSeconds))
        windowMs = *wait * 1000;
    // A client that leaves while it waits cancels the run (billed for what it used).
    connect(&exchange, &Exchange::clientDisconnected, run, [guard] {
        if (guard && guard->status() == RunStatus::Executing)
            guard->cancel(QStringLiteral("client_disconnected"));
    });
    auto *poll = http::LongPoll::hold(
        exchange, windowMs, [guard] { return !guard || guard->status() != RunStatus::Executing; },
        [this, guard, liveView = request.liveView](Exchange &ex) {
            if (!guard) {
                ex.fail(DomainError::internal(QStringLiteral("the run is gone")));
                return;
            }
            if (const auto bad = RunService::inputError(*guard)) {
                ex.fail(*bad);
                return;
            }
            // The first answer carries the live view link when asked for, whatever the
            // status: a link to an ended run shows how it ended.
            ex.respondJson(statusFor(guard->status()),
                           withLiveView(guard->response(), guard, liveView));
        });
    connect(run, &AgentRun::changed, poll, &http::LongPoll::wake);
}

void AgentController::get(Exchange &exchange)
{
    const QString id = exchange.request().param(QStringLiteral("trajectoryId"));
    const QString keyId = exchange.request().principal.keyId;
    m_runs.latest(id, keyId); // 404 before any wait
    http::EventStream::Framing framing;
    if (http::EventStream::framingFromAccept(exchange.request().header("accept"), &framing)) {
        stream(exchange, id, keyId, int(framing));
        return;
    }
    // Prefer: wait=N holds the answer until the run settles (long-poll).
    const int waitMs = exchange.request().preferWait(kMaxWaitSeconds).value_or(0) * 1000;
    QPointer<AgentRun> run = m_runs.live(id);
    auto *poll = http::LongPoll::hold(
        exchange, waitMs, [run] { return !run || run->status() != RunStatus::Executing; },
        [this, id, keyId, run](Exchange &ex) {
            QJsonObject latest;
            try {
                latest = m_runs.latest(id, keyId);
            } catch (const DomainError &e) {
                ex.fail(e);
                return;
            }
            // While the phase lives (executing or waiting for input), its link again.
            if (run && !engine::isTerminal(run->status()))
                latest = withLiveView(latest, run, run->request().liveView);
            ex.respondJson(latest.value(QStringLiteral("status")).toString() ==
                                   QLatin1String("executing")
                               ? 202
                               : 200,
                           latest);
        });
    if (run)
        connect(run, &AgentRun::changed, poll, &http::LongPoll::wake);
}

void AgentController::stream(Exchange &exchange, const QString &id, const QString &keyId,
                             int framing)
{
    // Progress as events ({id, type, ts, trajectoryId, data}): status changes always, each
    // step as it ends when the run asked for it (options.ui.emitEvents), then `done` with
    // the response once the phase settles (or waits for input), and the stream closes.
    auto *events =
        new http::EventStream(exchange, http::EventStream::Framing(framing), 15000, &exchange);
    struct State
    {
        qint64 seq = 0;
        qsizetype stepsSent = 0;
        QString status;
        bool done = false;
    };
    auto state = std::make_shared<State>();
    auto send = [events, state, id](const QString &type, const QJsonObject &data) {
        const qint64 seq = ++state->seq;
        events->sendEnvelope(
            {{QStringLiteral("id"), QString::number(seq)},
             {QStringLiteral("type"), type},
             {QStringLiteral("ts"), Clock::isoUtc(QDateTime::currentMSecsSinceEpoch())},
             {QStringLiteral("trajectoryId"), id},
             {QStringLiteral("data"), data}},
            seq);
    };
    auto finish = [this, events, state, send, id, keyId] {
        if (std::exchange(state->done, true))
            return;
        QJsonObject latest;
        try {
            latest = m_runs.latest(id, keyId);
        } catch (const DomainError &) {
        }
        send(QStringLiteral("done"), latest);
        events->close();
    };
    QPointer<AgentRun> run = m_runs.live(id);
    const QJsonObject latest = m_runs.latest(id, keyId);
    state->status = latest.value(QStringLiteral("status")).toString();
    send(QStringLiteral("status"), {{QStringLiteral("status"), state->status}});
    if (!run || run->status() != RunStatus::Executing) {
        finish();
        return;
    }
    const bool progress = run->request().emitEvents;
    state->stepsSent = progress ? 0 : run->steps().size();
    auto onChange = [run, state, send, finish, progress] {
        if (!run) {
            finish();
            return;
        }
        const QList<StepRecord> &steps = run->steps();
        while (progress && state->stepsSent < steps.size() &&
               steps.at(state->stepsSent).status != QLatin1String("executing")) {
            const StepRecord &s = steps.at(state->stepsSent++);
            send(QStringLiteral("step"), {{QStringLiteral("seq"), s.seq},
                                          {QStringLiteral("tool"), s.toolName},
                                          {QStringLiteral("status"), s.status},
                                          {QStringLiteral("summary"), s.summary},
                                          {QStringLiteral("durationMs"), s.durationMs}});
        }
        const QString status = engine::toString(run->status());
        if (status != state->status) {
            state->status = status;
            send(QStringLiteral("status"), {{QStringLiteral("status"), status}});
        }
        if (run->status() != RunStatus::Executing)
            finish();
    };
    connect(run, &AgentRun::changed, events, onChange);
    connect(run, &QObject::destroyed, events, finish);
    onChange();
}

void AgentController::cancel(Exchange &exchange)
{
    const QString id = exchange.request().param(QStringLiteral("trajectoryId"));
    const QString keyId = exchange.request().principal.keyId;
    exchange.respondJson(200, m_runs.cancel(id, keyId));
}

void AgentController::upload(Exchange &exchange)
{
    const QByteArray body = exchange.request().body;
    if (body.isEmpty())
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("EMPTY_UPLOAD"),
                          QStringLiteral("the upload has no content"), QStringLiteral("body"));
    // The name and the type come back in the download's headers: no control character
    // (CR, LF, …) may get in.
    QString name = exchange.request().queryValue(QStringLiteral("name"));
    QString nameField = QStringLiteral("name");
    if (name.isEmpty()) {
        name = QString::fromUtf8(exchange.request().header("x-filename"));
        nameField = QStringLiteral("X-Filename");
    }
    if (const QString problem = HeaderText::valueProblem(name); !problem.isEmpty())
        throw DomainError::invalidField(nameField, problem);
    if (name.isEmpty())
        name = QStringLiteral("upload");
    QByteArray type = exchange.request().header("content-type");
    if (const QString problem = HeaderText::valueProblem(QString::fromLatin1(type));
        !problem.isEmpty())
        throw DomainError::invalidField(QStringLiteral("Content-Type"), problem);
    if (type.isEmpty() || type.startsWith("application/x-www-form-urlencoded"))
        type = "application/octet-stream";
    const StoredObject o =
        m_store.objects().put(exchange.request().principal.keyId, QStringLiteral("upload"), name,
                              QString::fromLatin1(type), body);
    exchange.respondJson(201,
                         {{QStringLiteral("storageRef"),
                           engine::ResponseBuilder::storageRef(m_store.objects(), m_settings, o.id,
                                                               o.name, o.contentType, o.size)}});
}

void AgentController::download(Exchange &exchange)
{
    const QString id = exchange.request().param(QStringLiteral("id"));
    const auto object = m_store.objects().find(id);
    bool allowed = false;
    const QString sig = exchange.request().queryValue(QStringLiteral("sig"));
    if (!sig.isEmpty()) {
        const qint64 expires =
            exchange.request().queryValue(QStringLiteral("expires")).toLongLong();
        if (!m_store.objects().verify(id, expires, sig))
            throw DomainError(
                DomainError::Kind::Forbidden, QStringLiteral("LINK_INVALID"),
                QStringLiteral("the download link is invalid or has expired; ask for a new one"));
        allowed = true;
    } else if (object) {
        // Without a signature, the key that owns the object may fetch it.
        const QString key = http::ApiKeyAuthenticator::presentedKey(exchange.request());
        const auto found = m_store.apiKeys().findBySecret(key);
        allowed = found && found->isActive() && (found->id == object->keyId || found->isOwner());
        if (!allowed)
            throw DomainError::unauthorized(
                QStringLiteral("MISSING_API_KEY"),
                QStringLiteral("a signed link or the owning API key is required"));
    }
    if (!object || !allowed)
        throw DomainError::notFound(QStringLiteral("no stored object %1").arg(id));
    // Names and types are checked when stored; objects stored before that are cleaned
    // here rather than refused.
    QString filename = object->name;
    for (QChar &c : filename) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\') ||
            !HeaderText::isSafeValue(QStringView(&c, 1)))
            c = QLatin1Char('_');
    }
    QByteArray contentType = object->contentType.toUtf8();
    if (!HeaderText::isSafeValue(contentType))
        contentType = "application/octet-stream";
    exchange.respond(200, m_store.objects().data(id), contentType,
                     {qMakePair(QByteArray("Content-Disposition"),
                                QByteArray("attachment; filename=\"") + filename.toUtf8() + '"'),
                      qMakePair(QByteArray("Cache-Control"), QByteArray("private, max-age=60"))});
}

void AgentController::siteRoot(Exchange &exchange)
{
    // Without its trailing slash, the root would resolve the pages' relative links one
    // level up, outside the token: an empty path redirects to the slashed form.
    serveSiteFile(exchange, exchange.request().path.endsWith(QLatin1Char('/'))
                                ? QStringLiteral("index.html")
                                : QString());
}

void AgentController::siteFile(Exchange &exchange)
{
    serveSiteFile(exchange, exchange.request().param(QStringLiteral("path")));
}

void AgentController::serveSiteFile(Exchange &exchange, const QString &path)
{
    const QString siteId = exchange.request().param(QStringLiteral("siteId"));
    switch (m_store.objects().checkSiteToken(siteId,
                                             exchange.request().param(QStringLiteral("token")))) {
    case ObjectStore::LinkCheck::Invalid:
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("LINK_INVALID"),
                          QStringLiteral("the site link is invalid; ask for a new one"));
    case ObjectStore::LinkCheck::Expired:
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("LINK_EXPIRED"),
                          QStringLiteral("the site link has expired; ask for a new one"));
    case ObjectStore::LinkCheck::Valid:
        break;
    }
    if (path.isEmpty()) { // the root without its slash (checked the token first)
        exchange.respond(
            308, QByteArray(), "text/plain",
            {qMakePair(QByteArray("Location"), exchange.request().path.toUtf8() + '/')});
        return;
    }
    const auto file = m_store.objects().siteFile(siteId, path);
    if (!file)
        throw DomainError::notFound(QStringLiteral("the site has no file %1").arg(path));
    QByteArray contentType = file->contentType.toUtf8();
    if (!HeaderText::isSafeValue(contentType))
        contentType = "application/octet-stream";
    // The pages are served from the API's own origin: no script runs in them, no form
    // posts anywhere, and the token in the URL never leaves as a Referer.
    exchange.respond(
        200, file->data, contentType,
        {qMakePair(QByteArray("Cache-Control"), QByteArray("private, max-age=60")),
         qMakePair(QByteArray("X-Content-Type-Options"), QByteArray("nosniff")),
         qMakePair(QByteArray("Referrer-Policy"), QByteArray("no-referrer")),
         qMakePair(QByteArray("Content-Security-Policy"),
                   QByteArray("default-src 'none'; style-src 'self' 'unsafe-inline'; img-src "
                              "'self' https: data:; base-uri 'none'; form-action 'none'; "
                              "frame-ancestors 'none'"))});
}

} // namespace ph::cloud
