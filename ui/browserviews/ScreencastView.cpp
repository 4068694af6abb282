#include "ScreencastView.h"

#include "browser/LiveFrameSource.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPointer>
#include <QWheelEvent>

namespace ph::ui {

ScreencastView::ScreencastView(std::unique_ptr<LiveFrameSource> source, QWidget *parent)
    : QWidget(parent)
    , m_source(std::move(source))
{
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 200);
    connect(&m_timer, &QTimer::timeout, this, &ScreencastView::poll);
    m_timer.setInterval(m_source ? m_source->frameIntervalMs() : 1000);
}

ScreencastView::~ScreencastView() = default;

void ScreencastView::showEvent(QShowEvent *event)
{
    m_timer.start();
    poll();
    QWidget::showEvent(event);
}

void ScreencastView::hideEvent(QHideEvent *event)
{
    m_timer.stop();
    QWidget::hideEvent(event);
}

void ScreencastView::poll()
{
    if (!m_source || m_capturing)
        return;
    m_capturing = true;
    QPointer<ScreencastView> self(this);
    m_source->capture([self](const QImage &frame) {
        if (!self)
            return;
        self->m_capturing = false;
        if (!frame.isNull() && frame != self->m_frame) {
            self->m_frame = frame;
            self->update();
        }
    });
}

QRect ScreencastView::frameRect() const
{
    if (m_frame.isNull())
        return rect();
    const QSize scaled = m_frame.size().scaled(size(), Qt::KeepAspectRatio);
    return QRect(QPoint((width() - scaled.width()) / 2, (height() - scaled.height()) / 2), scaled);
}

QPointF ScreencastView::toPage(const QPointF &p) const
{
    const QRect r = frameRect();
    const QSize page = m_source ? m_source->frameSize() : QSize(1280, 800);
    if (r.width() <= 0 || r.height() <= 0)
        return {};
    return {(p.x() - r.x()) * page.width() / r.width(),
            (p.y() - r.y()) * page.height() / r.height()};
}

void ScreencastView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    if (!m_frame.isNull())
        painter.drawImage(frameRect(), m_frame);
    if (!isEnabled())
        painter.fillRect(frameRect(), QColor(255, 255, 255, 40));
}

void ScreencastView::mousePressEvent(QMouseEvent *event)
{
    setFocus();
    if (!m_source || event->button() != Qt::LeftButton)
        return;
    LiveInput input;
    input.kind = LiveInput::Kind::Click;
    input.at = toPage(event->position());
    m_source->deliver(input, [](bool, const QString &) {});
    QTimer::singleShot(100, this, &ScreencastView::poll);
}

void ScreencastView::keyPressEvent(QKeyEvent *event)
{
    if (!m_source)
        return;
    static const QHash<int, QString> keys{
        {Qt::Key_Return, QStringLiteral("Enter")},
        {Qt::Key_Enter, QStringLiteral("Enter")},
        {Qt::Key_Tab, QStringLiteral("Tab")},
        {Qt::Key_Backspace, QStringLiteral("Backspace")},
        {Qt::Key_Delete, QStringLiteral("Delete")},
        {Qt::Key_Escape, QStringLiteral("Escape")},
        {Qt::Key_Up, QStringLiteral("ArrowUp")},
        {Qt::Key_Down, QStringLiteral("ArrowDown")},
        {Qt::Key_Left, QStringLiteral("ArrowLeft")},
        {Qt::Key_Right, QStringLiteral("ArrowRight")},
        {Qt::Key_Home, QStringLiteral("Home")},
        {Qt::Key_End, QStringLiteral("End")},
        {Qt::Key_PageUp, QStringLiteral("PageUp")},
        {Qt::Key_PageDown, QStringLiteral("PageDown")},
    };
    LiveInput input;
    if (keys.contains(event->key())) {
        input.kind = LiveInput::Kind::Key;
        input.key = keys.value(event->key());
    } else if (!event->text().isEmpty() && event->text().at(0).isPrint()) {
        input.kind = LiveInput::Kind::Type;
        input.text = event->text();
    } else {
        QWidget::keyPressEvent(event);
        return;
    }
    m_source->deliver(input, [](bool, const QString &) {});
}

void ScreencastView::wheelEvent(QWheelEvent *event)
{
    if (!m_source)
        return;
    LiveInput input;
    input.kind = LiveInput::Kind::Scroll;
    input.at = toPage(event->position());
    input.delta = QPointF(-event->angleDelta().x() / 8.0 * 3, -event->angleDelta().y() / 8.0 * 3);
    m_source->deliver(input, [](bool, const QString &) {});
}

} // namespace ph::ui
