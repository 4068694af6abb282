#include "LiveSession.h"

#include "engine/RunManager.h"
#include "engine/liveview/PrintFrameSource.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"

#include <QBuffer>
#include <QHashFunctions>
#include <QWebEnginePage>

namespace ph::engine {

namespace {

constexpr int kLingerMs = 3000;   // a viewer that reloads the page finds the session
constexpr int kAfterInputMs = 80; // a frame soon after an input shows what it did
constexpr int kJpegQuality = 70;

} // namespace

LiveSession::LiveSession(LiveViews &views, LiveViewTicket ticket, QObject *parent)
    : QObject(parent)
    , m_views(views)
    , m_ticket(std::move(ticket))
{
    m_linger.setSingleShot(true);
    m_linger.setInterval(kLingerMs);
    connect(&m_linger, &QTimer::timeout, this, [this] {
        if (m_viewers.isEmpty() && m_inputs == 0)
            m_views.forget(this);
    });
    connect(&m_tick, &QTimer::timeout, this, [this] { tick(); });
    const QString id = m_ticket.trajectoryId;
    auto onRun = [this, id](const QString &changed) {
        if (changed == id)
            refresh();
    };
    connect(&m_views.m_runs, &RunManager::runStarted, this, onRun);
    connect(&m_views.m_runs, &RunManager::runChanged, this, onRun);
    connect(&m_views.m_runs, &RunManager::runSettled, this, onRun);
    connect(&m_views.m_pool, &BrowserPool::leaseStarted, this, [this] { refresh(); });
    connect(&m_views.m_pool, &BrowserPool::leaseEnded, this, [this] { refresh(); });
    refresh();
}

LiveSession::~LiveSession()
{
    for (LiveViewer *v : std::as_const(m_viewers))
        v->m_session = nullptr;
    setLease(nullptr);
}

void LiveSession::attach(LiveViewer *viewer)
{
    m_linger.stop();
    m_viewers.append(viewer);
    refresh();
    // The page is shown at once, not at the next change.
    if (m_source && m_frame.isEmpty())
        QTimer::singleShot(0, this, [this] { tick(); });
}

void LiveSession::detach(LiveViewer *viewer)
{
    m_viewers.removeAll(viewer);
    lingerIfIdle();
}

void LiveSession::holdForInput()
{
    m_linger.stop();
    ++m_inputs;
}

void LiveSession::inputDone()
{
    m_inputs = qMax(0, m_inputs - 1);
    if (m_source)
        QTimer::singleShot(kAfterInputMs, this, [this] { tick(); });
    lingerIfIdle();
}

void LiveSession::lingerIfIdle()
{
    if (!m_viewers.isEmpty() || m_inputs > 0)
        return;
    // Nobody watches: the page goes back to how it was now; the session a little later.
    if (m_ended)
        setLease(nullptr);
    m_linger.start();
}

void LiveSession::refresh()
{
    BrowserLease *lease = nullptr;
    QJsonObject state = m_views.stateOf(m_ticket, &lease);
    if (state.value(QStringLiteral("ended")).toBool())
        lease = nullptr;
    QWebEnginePage *page = lease ? lease->page() : nullptr;
    // A new page, a page that went away (replaced after a crash, given back), or a source
    // to make: the source follows.
    if (lease != m_lease.data() || page != m_page.data() || bool(m_source) != (lease != nullptr))
        setLease(lease);
    if (m_source) {
        state.insert(QStringLiteral("frames"), m_source->kind());
        state.insert(QStringLiteral("width"), m_source->frameSize().width());
        state.insert(QStringLiteral("height"), m_source->frameSize().height());
    }
    if (state != m_state) {
        m_state = state;
        for (LiveViewer *v : std::as_const(m_viewers))
            Q_EMIT v->stateChanged(m_state);
    }
    if (m_state.value(QStringLiteral("ended")).toBool() && !m_ended) {
        m_ended = true;
        const auto viewers = m_viewers;
        for (LiveViewer *v : viewers)
            Q_EMIT v->ended(m_state);
        lingerIfIdle();
    }
}

void LiveSession::setLease(BrowserLease *lease)
{
    for (const auto &c : std::as_const(m_pageConnections))
        disconnect(c);
    m_pageConnections.clear();
    m_tick.stop();
    m_source.reset();
    m_capturing = false;
    m_lease = lease;
    m_page = lease ? lease->page() : nullptr;
    if (!lease)
        return;
    if (QWebEnginePage *page = lease->page()) {
        m_source = m_views.m_factory ? m_views.m_factory(page) : nullptr;
        if (!m_source)
            m_source = std::make_unique<PrintFrameSource>(page);
    } else {
        m_source = lease->screencast(); // the chromium engine's own frames
    }
    if (!m_source)
        return;
    // The page's address and title are part of the state; a new document is worth a frame.
    auto changed = [this] {
        refresh();
        QTimer::singleShot(kAfterInputMs, this, [this] { tick(); });
    };
    m_pageConnections << connect(lease, &BrowserLease::urlChanged, this, changed)
                      << connect(lease, &BrowserLease::titleChanged, this, changed)
                      << connect(lease, &BrowserLease::loadFinished, this, changed);
    m_tick.start(m_source->frameIntervalMs());
}

void LiveSession::tick()
{
    if (!m_source || m_capturing)
        return;
    m_capturing = true;
    QPointer<LiveSession> self(this);
    LiveFrameSource *source = m_source.get();
    source->capture([self, source](const QImage &image) {
        if (!self || self->m_source.get() != source)
            return;
        self->m_capturing = false;
        if (image.isNull())
            return;
        // Only a frame that differs from the last is sent.
        const size_t hash = qHashBits(image.constBits(), size_t(image.sizeInBytes()),
                                      size_t(image.width()) * 31 + size_t(image.height()));
        if (hash == self->m_frameHash && !self->m_frame.isEmpty())
            return;
        QByteArray jpeg;
        QBuffer buffer(&jpeg);
        buffer.open(QIODevice::WriteOnly);
        if (!image.convertToFormat(QImage::Format_RGB32).save(&buffer, "JPG", kJpegQuality))
            return;
        self->m_frameHash = hash;
        self->m_frame = jpeg;
        self->m_frameSize = image.size();
        const auto viewers = self->m_viewers;
        for (LiveViewer *v : viewers)
            Q_EMIT v->frame(jpeg, image.size());
    });
}

} // namespace ph::engine
