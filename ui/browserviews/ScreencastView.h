#pragma once

#include <QImage>
#include <QTimer>
#include <QWidget>

#include <memory>

namespace ph {
class LiveFrameSource;
}

namespace ph::ui {

// A chromium engine page in the console's live views: the frames of its screencast,
// scaled to the widget, and — while enabled (the operator took over) — mouse clicks,
// typing, keys and the wheel handed to the page as real input events.
class ScreencastView : public QWidget
{
    Q_OBJECT
public:
    explicit ScreencastView(std::unique_ptr<LiveFrameSource> source, QWidget *parent = nullptr);
    ~ScreencastView() override;

    QImage frame() const { return m_frame; }
    // Whether it shows a page (a session's view waits for its first page without one).
    bool hasSource() const { return m_source != nullptr; }
    QSize sizeHint() const override { return {640, 400}; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void poll();
    QRect frameRect() const;
    QPointF toPage(const QPointF &widgetPoint) const;

    std::unique_ptr<LiveFrameSource> m_source;
    QImage m_frame;
    QTimer m_timer;
    bool m_capturing = false;
};

} // namespace ph::ui
