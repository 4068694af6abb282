#include "LiveViews.h"

#include "engine/AgentRun.h"
#include "engine/RunManager.h"
#include "engine/TrajectoryRepository.h"
#include "engine/liveview/LiveSession.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"

#include <QJsonArray>
#include <QMessageAuthenticationCode>
#include <QUrl>

namespace ph::engine {

namespace {

QString sessionKey(const QString &trajectoryId, int phase)
{
    return trajectoryId + QLatin1Char('#') + QString::number(phase);
}

DomainError conflict(const QString &code, const QString &message, const QJsonObject &state)
{
    return DomainError(DomainError::Kind::Conflict, code, message, {},
                       {{QStringLiteral("status"), state.value(QStringLiteral("status"))}});
}

} // namespace

// ------------------------------------------------------------------------------ viewer

LiveViewer::LiveViewer(LiveSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{}

LiveViewer::~LiveViewer()
{
    if (m_session)
        m_session->detach(this);
}

QJsonObject LiveViewer::state() const
{
    return m_session ? m_session->state() : QJsonObject();
}

QByteArray LiveViewer::lastFrame() const
{
    return m_session ? m_session->frame() : QByteArray();
}

QSize LiveViewer::lastFrameSize() const
{
    return m_session ? m_session->frameSize() : QSize();
}

// ------------------------------------------------------------------------------ views

LiveViews::LiveViews(Store &store, Settings &settings, BrowserPool &pool, RunManager &runs,
                     TrajectoryRepository &trajectories, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_pool(pool)
    , m_runs(runs)
    , m_trajectories(trajectories)
{}

LiveViews::~LiveViews()
{
    shutdown();
}

void LiveViews::shutdown()
{
    // Sessions let go of their pages (and views) before the pool is gone.
    const auto sessions = std::exchange(m_sessions, {});
    qDeleteAll(sessions);
}

void LiveViews::setFrameSourceFactory(LiveFrameSourceFactory factory)
{
    m_factory = std::move(factory);
}

QByteArray LiveViews::signature(const QString &trajectoryId, int phase, qint64 expiresAt) const
{
    // The storage links' scheme (core/ObjectStore) with a key of its own.
    const QByteArray key = m_store.secrets().derive("pilothouse live view v1");
    return QMessageAuthenticationCode::hash(trajectoryId.toUtf8() + '.' +
                                                QByteArray::number(phase) + '.' +
                                                QByteArray::number(expiresAt),
                                            key, QCryptographicHash::Sha256)
        .toHex();
}

QJsonObject LiveViews::link(const QString &trajectoryId, int phase)
{
    const qint64 now = m_store.clock().nowMs();
    const qint64 life = m_settings.int64Value(SettingKeys::agentLiveViewTokenSeconds) * 1000;
    for (auto it = m_links.begin(); it != m_links.end();)
        it = it.value() <= now ? m_links.erase(it) : std::next(it);
    const QString key = sessionKey(trajectoryId, phase);
    qint64 expires = m_links.value(key);
    if (expires - now < life / 2 || expires - now > life) {
        expires = now + life;
        m_links.insert(key, expires);
    }
    const QString token = QStringLiteral("%1.%2.%3")
                              .arg(phase)
                              .arg(expires)
                              .arg(QString::fromLatin1(signature(trajectoryId, phase, expires)));
    const QString url = m_settings.stringValue(SettingKeys::publicBaseUrl) +
                        QStringLiteral("/live/") +
                        QString::fromLatin1(QUrl::toPercentEncoding(trajectoryId)) +
                        QStringLiteral("?token=") + token;
    return {{QStringLiteral("url"), url}, {QStringLiteral("expiresAt"), Clock::isoUtc(expires)}};
}

LiveViewTicket LiveViews::verify(const QString &trajectoryId, const QString &token) const
{
    const DomainError invalid(DomainError::Kind::Forbidden,
                              QStringLiteral("LIVE_VIEW_TOKEN_INVALID"),
                              QStringLiteral("the live view link is not valid; ask the API for "
                                             "the run's liveView link again"),
                              QStringLiteral("token"));
    const QStringList parts = token.split(QLatin1Char('.'));
    if (parts.size() != 3)
        throw invalid;
    bool phaseOk = false;
    bool expiresOk = false;
    const int phase = parts.at(0).toInt(&phaseOk);
    const qint64 expires = parts.at(1).toLongLong(&expiresOk);
    if (!phaseOk || !expiresOk || phase < 1 ||
        !Ids::equalConstantTime(signature(trajectoryId, phase, expires), parts.at(2).toLatin1()))
        throw invalid;
    if (expires < m_store.clock().nowMs())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("LIVE_VIEW_TOKEN_EXPIRED"),
                          QStringLiteral("the live view link has expired; GET /agent/%1 gives a "
                                         "new one while the run lives")
                              .arg(trajectoryId),
                          QStringLiteral("token"),
                          {{QStringLiteral("expiredAt"), Clock::isoUtc(expires)}});
    return {trajectoryId, phase, expires};
}

QJsonObject LiveViews::stateOf(const LiveViewTicket &ticket, BrowserLease **lease) const
{
    QString status;
    QString error;
    QList<Question> questions;
    bool holdsPage = false;
    AgentRun *run = m_runs.live(ticket.trajectoryId);
    if (run && run->phase() == ticket.phase) {
        status = toString(run->status());
        error = run->error();
        questions = run->questions();
        holdsPage = run->holdsPage() && !isTerminal(run->status());
    } else if (const auto row = m_trajectories.phase(ticket.trajectoryId, ticket.phase)) {
        // Not in memory (a later phase runs, the run was let go, or a restart): as stored.
        status = row->status;
        error = row->error;
        for (const auto &q : row->state.value(QStringLiteral("__questions")).toArray())
            questions.append(Question::fromJson(q.toObject()));
    } else {
        status = toString(RunStatus::Error);
        error = QStringLiteral("there is no such run");
    }
    BrowserLease *shown = nullptr;
    if (holdsPage) {
        for (BrowserLease *l : m_pool.leases()) {
            if (l->label() == ticket.trajectoryId &&
                (l->page() || l->engine() == QLatin1String("chromium")))
                shown = l;
        }
    }
    const bool waiting = status == toString(RunStatus::RequiresInput);
    const bool ended = isTerminal(runStatusFromString(status));
    QJsonObject s{{QStringLiteral("trajectoryId"), ticket.trajectoryId},
                  {QStringLiteral("phase"), ticket.phase},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("ended"), ended},
                  {QStringLiteral("page"), shown != nullptr},
                  {QStringLiteral("input"), waiting && shown != nullptr}};
    if (shown) {
        s.insert(QStringLiteral("url"), shown->url().toString());
        s.insert(QStringLiteral("title"), shown->title());
    }
    if (waiting) {
        QJsonArray asked;
        for (const Question &q : std::as_const(questions))
            asked.append(QJsonObject{{QStringLiteral("key"), q.key},
                                     {QStringLiteral("question"), q.question}});
        s.insert(QStringLiteral("questions"), asked);
    }
    if (!error.isEmpty() && ended)
        s.insert(QStringLiteral("error"), error);
    if (lease)
        *lease = shown;
    return s;
}

QJsonObject LiveViews::state(const LiveViewTicket &ticket) const
{
    if (LiveSession *s = m_sessions.value(sessionKey(ticket.trajectoryId, ticket.phase)))
        return s->state();
    return stateOf(ticket, nullptr);
}

LiveSession *LiveViews::session(const LiveViewTicket &ticket)
{
    const QString key = sessionKey(ticket.trajectoryId, ticket.phase);
    LiveSession *s = m_sessions.value(key);
    if (!s) {
        s = new LiveSession(*this, ticket, this);
        m_sessions.insert(key, s);
    }
    return s;
}

void LiveViews::forget(LiveSession *session)
{
    const QString key = sessionKey(session->ticket().trajectoryId, session->ticket().phase);
    if (m_sessions.value(key) == session)
        m_sessions.remove(key);
    session->deleteLater();
}

LiveViewer *LiveViews::watch(const LiveViewTicket &ticket, QObject *parent)
{
    LiveSession *s = session(ticket);
    auto *viewer = new LiveViewer(s, parent);
    s->attach(viewer);
    return viewer;
}

void LiveViews::input(const LiveViewTicket &ticket, const LiveInput &input,
                      std::function<void(const std::optional<DomainError> &)> done)
{
    const QJsonObject now = state(ticket);
    const QString status = now.value(QStringLiteral("status")).toString();
    if (now.value(QStringLiteral("ended")).toBool())
        throw conflict(
            QStringLiteral("LIVE_VIEW_RUN_ENDED"),
            QStringLiteral("the run has ended (%1); its page takes no input").arg(status), now);
    if (status != toString(RunStatus::RequiresInput))
        throw conflict(QStringLiteral("LIVE_VIEW_WATCH_ONLY"),
                       QStringLiteral("the run is %1: the page can be watched, and taken over "
                                      "only while the run waits for input")
                           .arg(status),
                       now);
    if (!now.value(QStringLiteral("page")).toBool())
        throw conflict(QStringLiteral("LIVE_VIEW_NO_PAGE"),
                       QStringLiteral("the run waits for input without a page (it gave its page "
                                      "back); answer it through the API"),
                       now);
    LiveSession *s = session(ticket);
    s->refresh();
    LiveFrameSource *source = s->source();
    if (!source) {
        s->holdForInput();
        s->inputDone(); // lets the session go again if nobody watches
        throw conflict(QStringLiteral("LIVE_VIEW_NO_PAGE"),
                       QStringLiteral("the run's page is not open"), now);
    }
    const QSize size = source->frameSize();
    const auto outside = [&](const QString &field, double v, int limit) {
        if (v >= 0 && v < limit)
            return;
        s->holdForInput();
        s->inputDone();
        throw DomainError::invalidField(
            field, QStringLiteral("is outside the frame (0 to %1)").arg(limit - 1));
    };
    if (input.kind == LiveInput::Kind::Click || input.kind == LiveInput::Kind::Scroll) {
        outside(QStringLiteral("x"), input.at.x(), size.width());
        outside(QStringLiteral("y"), input.at.y(), size.height());
    }
    s->holdForInput();
    QPointer<LiveSession> guard(s);
    source->deliver(input, [guard, done](bool ok, const QString &error) {
        if (guard)
            guard->inputDone();
        if (ok)
            done(std::nullopt);
        else
            done(DomainError(DomainError::Kind::Conflict, QStringLiteral("LIVE_VIEW_INPUT_FAILED"),
                             error.isEmpty() ? QStringLiteral("the page could not take the input")
                                             : error));
    });
}

} // namespace ph::engine
