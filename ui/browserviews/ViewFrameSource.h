#pragma once

#include "browser/LiveFrameSource.h"

#include <QPointer>

#include <memory>

class QWebEngineView;

namespace ph::ui {

// Live view frames of a page as a screen shows it (registered by app/ when the process
// has a QApplication; docs/api/agent.md#live-view). While someone watches, the page is
// shown in an offscreen QWebEngineView of 1280 × 800 px (WA_DontShowOnScreen: nothing
// appears on a desktop): frames are its pixels (grab()), and input arrives as real mouse,
// key and wheel events at the view's focus proxy. A page has one view at a time: when the
// console's live views show the page in a tile, the tile is used as it is (its pixels at
// its size, input through the DOM, as its view may be disabled), and a page taken from a
// tile that nobody sees is given back to it when the watching ends.
class ViewFrameSource final : public LiveFrameSource
{
    Q_OBJECT
public:
    explicit ViewFrameSource(QWebEnginePage *page, QObject *parent = nullptr);
    ~ViewFrameSource() override;

    static LiveFrameSourceFactory factory();
    static constexpr int kWidth = 1280;
    static constexpr int kHeight = 800;

    void capture(std::function<void(const QImage &frame)> done) override;
    QSize frameSize() const override;
    void deliver(const LiveInput &input, Done done) override;
    int frameIntervalMs() const override { return 250; }
    QString kind() const override { return QStringLiteral("view"); }

    // The view the frames come from now: ours, or the console's that shows the page.
    QWebEngineView *view() const;
    bool borrowsConsoleView() const;

private:
    // The view to take frames from, attaching ours when no visible view shows the page.
    QWebEngineView *frameView();

    QPointer<QWebEnginePage> m_page;
    std::unique_ptr<QWebEngineView> m_own;
    QPointer<QWebEngineView> m_previous; // a hidden view the page was taken from
};

} // namespace ph::ui
