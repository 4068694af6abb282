#pragma once

#include "browser/LiveFrameSource.h"
#include "core/DomainError.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSize>

#include <functional>
#include <optional>

namespace ph {
class BrowserLease;
class BrowserPool;
class Settings;
class Store;
} // namespace ph

namespace ph::engine {

class LiveSession;
class RunManager;
class TrajectoryRepository;

// What a live view token opens: one phase of one trajectory, until `expiresAt`.
struct LiveViewTicket
{
    QString trajectoryId;
    int phase = 0;
    qint64 expiresAt = 0;
};

// One person watching a live view (a stream of the LiveViewController): the frames and
// states of the phase until it ends. Deleting it stops watching.
class LiveViewer : public QObject
{
    Q_OBJECT
public:
    ~LiveViewer() override;

    QJsonObject state() const;
    // The latest frame (JPEG) and its size; empty before the first.
    QByteArray lastFrame() const;
    QSize lastFrameSize() const;

Q_SIGNALS:
    void frame(const QByteArray &jpeg, const QSize &size);
    void stateChanged(const QJsonObject &state);
    // The phase ended (success, error, cancelled): nothing follows.
    void ended(const QJsonObject &state);

private:
    friend class LiveSession;
    friend class LiveViews;
    LiveViewer(LiveSession *session, QObject *parent);

    QPointer<LiveSession> m_session;
};

// Live views of agent runs (docs/api/agent.md#live-view): signed, expiring links to a
// page served by Pilothouse that shows a screencast of the run's page and lets a person
// take it over while the run waits for input.
//
// The link's token is an HMAC over "<trajectoryId>.<phase>.<expires>" with a key derived
// from the secrets key (as the storage links are signed), so it cannot be forged or
// extended and needs no API key. Frames come from a LiveFrameSource made for the page
// while someone watches: the console's build registers one that shows the page in an
// offscreen view; otherwise the page is printed (PrintFrameSource). One session per
// phase captures once for all its viewers, and only frames that changed are sent.
class LiveViews : public QObject
{
    Q_OBJECT
public:
    LiveViews(Store &store, Settings &settings, BrowserPool &pool, RunManager &runs,
              TrajectoryRepository &trajectories, QObject *parent = nullptr);
    ~LiveViews() override;

    // How frames are captured from then on; null: the print fallback.
    void setFrameSourceFactory(LiveFrameSourceFactory factory);

    // The link of a phase, {url, expiresAt}; the same link while more than half of its
    // life (agent.liveViewTokenSeconds) is left.
    QJsonObject link(const QString &trajectoryId, int phase);
    // The phase a token opens. 403 LIVE_VIEW_TOKEN_INVALID (forged, malformed, another
    // trajectory's) or LIVE_VIEW_TOKEN_EXPIRED.
    LiveViewTicket verify(const QString &trajectoryId, const QString &token) const;

    // The phase as a viewer sees it: {status, ended, input, page, url, title, questions,
    // error, frames, width, height}.
    QJsonObject state(const LiveViewTicket &ticket) const;
    // A new viewer of the phase, owned by `parent`.
    LiveViewer *watch(const LiveViewTicket &ticket, QObject *parent);
    // Hands a person's input to the run's page. Throws (before anything happens) 409
    // LIVE_VIEW_RUN_ENDED, LIVE_VIEW_WATCH_ONLY (the run is executing), LIVE_VIEW_NO_PAGE
    // (it waits without a page), 400 naming x or y outside the frame; `done` then gets
    // nothing, or 409 LIVE_VIEW_INPUT_FAILED when the page could not take it.
    void input(const LiveViewTicket &ticket, const LiveInput &input,
               std::function<void(const std::optional<DomainError> &)> done);

    // Sessions open now (viewers of some phase, or an input in flight).
    int sessionCount() const { return int(m_sessions.size()); }
    // Ends every session (its viewers hear nothing more) and lets go of the pages: before
    // the pool closes.
    void shutdown();

private:
    friend class LiveSession;
    // The state, and the run's page when it holds one.
    QJsonObject stateOf(const LiveViewTicket &ticket, BrowserLease **lease) const;
    LiveSession *session(const LiveViewTicket &ticket);
    void forget(LiveSession *session);
    QByteArray signature(const QString &trajectoryId, int phase, qint64 expiresAt) const;

    Store &m_store;
    Settings &m_settings;
    BrowserPool &m_pool;
    RunManager &m_runs;
    TrajectoryRepository &m_trajectories;
    LiveFrameSourceFactory m_factory;
    QHash<QString, LiveSession *> m_sessions;
    QHash<QString, qint64> m_links; // "<id>#<phase>" → expiry of the link last given
};

} // namespace ph::engine
