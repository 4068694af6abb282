#pragma once

#include <QImage>
#include <QObject>
#include <QPointF>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QWebEnginePage;

namespace ph {

// One input of a person who took over a run's page through its live view
// (docs/api/agent.md#live-view). Coordinates are in the frame the viewer saw (CSS pixels
// of the page's viewport, or of the printed page for the print source).
struct LiveInput
{
    enum class Kind { Click, Type, Key, Scroll };
    Kind kind = Kind::Click;
    QPointF at;    // click, scroll
    QString text;  // type: the characters
    QString key;   // key: one of keyNames()
    QPointF delta; // scroll, in CSS pixels
    static const QStringList &keyNames();
};

// The pixels of a pool page and a way to hand it a person's input, for live views. The
// server does not depend on Widgets: the console's build registers an implementation
// that shows the page in an offscreen QWebEngineView (real pixels, real input events,
// ui/browserviews/ViewFrameSource); without it the engine prints the page
// (engine/PrintFrameSource). A source is made for one page while someone watches and
// deleted when nobody does; it then lets go of the page (a view gives it back to the
// view that had it, or to none).
class LiveFrameSource : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(bool ok, const QString &error)>;

    explicit LiveFrameSource(QObject *parent = nullptr)
        : QObject(parent)
    {}

    // The page as it looks now; a null image when it cannot be had. `done` runs from
    // the event loop or at once, and never after the source is gone.
    virtual void capture(std::function<void(const QImage &frame)> done) = 0;
    // The size of the frames in CSS pixels (the coordinates inputs arrive in).
    virtual QSize frameSize() const = 0;
    // Delivers one input; `done` runs once, from the event loop.
    virtual void deliver(const LiveInput &input, Done done) = 0;
    // How often capturing is worth it (ms between two frames).
    virtual int frameIntervalMs() const = 0;
    // What the frames are, for the viewer: `view` (the page on a screen of its own) or
    // `print` (the page printed, from its top).
    virtual QString kind() const = 0;

    // Input through the page's DOM, in the page agent's isolated world (the page's own
    // scripts are not touched): a click focuses and clicks the element at the point,
    // typing inserts text into the focused field, keys do what they do in a form (Enter
    // submits, Tab moves on, Backspace deletes), scrolling scrolls. For sources without
    // real input events. `layoutWidth` > 0: the point is in the document laid out at that
    // width from its top (the print source), not in the viewport.
    static void deliverByScript(QWebEnginePage *page, const LiveInput &input, int layoutWidth,
                                Done done);
};

using LiveFrameSourceFactory =
    std::function<std::unique_ptr<LiveFrameSource>(QWebEnginePage *page)>;

} // namespace ph
