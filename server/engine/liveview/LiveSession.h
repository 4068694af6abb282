#pragma once

#include "engine/liveview/LiveViews.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>

namespace ph::engine {

// Internal to LiveViews: one phase watched. It follows the run (state changes, the page
// it leases, gives back or replaces), keeps one frame source on the page while anyone
// watches or an input is under way, captures at the source's pace and hands each frame
// that changed, as JPEG, to every viewer. It goes a few seconds after the last viewer.
class LiveSession : public QObject
{
public:
    LiveSession(LiveViews &views, LiveViewTicket ticket, QObject *parent = nullptr);
    ~LiveSession() override;

    const LiveViewTicket &ticket() const { return m_ticket; }
    QJsonObject state() const { return m_state; }
    QByteArray frame() const { return m_frame; }
    QSize frameSize() const { return m_frameSize; }
    LiveFrameSource *source() const { return m_source.get(); }

    void attach(LiveViewer *viewer);
    void detach(LiveViewer *viewer);
    // An input keeps the session (and its source) until it is delivered.
    void holdForInput();
    void inputDone();
    // Reads the run again: its state, its page.
    void refresh();

private:
    void setLease(BrowserLease *lease);
    void tick();
    void lingerIfIdle();

    LiveViews &m_views;
    LiveViewTicket m_ticket;
    QList<LiveViewer *> m_viewers;
    QPointer<BrowserLease> m_lease;
    QPointer<QWebEnginePage> m_page; // QtWebEngine: replaced after a renderer crash
    std::unique_ptr<LiveFrameSource> m_source;
    QList<QMetaObject::Connection> m_pageConnections;
    QJsonObject m_state;
    QByteArray m_frame;
    QSize m_frameSize;
    size_t m_frameHash = 0;
    QTimer m_tick;
    QTimer m_linger;
    bool m_capturing = false;
    bool m_ended = false;
    int m_inputs = 0;
};

} // namespace ph::engine
