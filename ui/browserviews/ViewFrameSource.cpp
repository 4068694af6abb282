#include "ViewFrameSource.h"

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPixmap>
#include <QTimer>
#include <QWebEnginePage>
#include <QWebEngineView>
#include <QWheelEvent>

namespace ph::ui {

namespace {

struct KeyOf
{
    Qt::Key key;
    QString text;
};

KeyOf keyOf(const QString &name)
{
    static const QHash<QString, KeyOf> keys = {
        {QStringLiteral("Enter"), {Qt::Key_Return, QStringLiteral("\r")}},
        {QStringLiteral("Tab"), {Qt::Key_Tab, QStringLiteral("\t")}},
        {QStringLiteral("Backspace"), {Qt::Key_Backspace, QStringLiteral("\b")}},
        {QStringLiteral("Delete"), {Qt::Key_Delete, QString(QChar(0x7f))}},
        {QStringLiteral("Escape"), {Qt::Key_Escape, QString(QChar(0x1b))}},
        {QStringLiteral("ArrowUp"), {Qt::Key_Up, {}}},
        {QStringLiteral("ArrowDown"), {Qt::Key_Down, {}}},
        {QStringLiteral("ArrowLeft"), {Qt::Key_Left, {}}},
        {QStringLiteral("ArrowRight"), {Qt::Key_Right, {}}},
        {QStringLiteral("Home"), {Qt::Key_Home, {}}},
        {QStringLiteral("End"), {Qt::Key_End, {}}},
        {QStringLiteral("PageUp"), {Qt::Key_PageUp, {}}},
        {QStringLiteral("PageDown"), {Qt::Key_PageDown, {}}}};
    return keys.value(name, {Qt::Key_unknown, {}});
}

// `key` 0: a character only (what a keyboard layout would produce), as typing sends it.
void sendKey(QWidget *target, int key, const QString &text)
{
    QKeyEvent press(QEvent::KeyPress, key, Qt::NoModifier, text);
    QCoreApplication::sendEvent(target, &press);
    QKeyEvent release(QEvent::KeyRelease, key, Qt::NoModifier, text);
    QCoreApplication::sendEvent(target, &release);
}

} // namespace

ViewFrameSource::ViewFrameSource(QWebEnginePage *page, QObject *parent)
    : LiveFrameSource(parent)
    , m_page(page)
{
    frameView();
}

ViewFrameSource::~ViewFrameSource()
{
    if (m_own && m_page && QWebEngineView::forPage(m_page) == m_own.get()) {
        // Given back as it was found: to the view it was taken from, or to none.
        if (m_previous)
            m_previous->setPage(m_page);
        else
            m_own->setPage(nullptr);
    }
    m_own.reset();
}

LiveFrameSourceFactory ViewFrameSource::factory()
{
    return [](QWebEnginePage *page) -> std::unique_ptr<LiveFrameSource> {
        return std::make_unique<ViewFrameSource>(page);
    };
}

QWebEngineView *ViewFrameSource::view() const
{
    return m_page ? const_cast<QWebEngineView *>(QWebEngineView::forPage(m_page)) : nullptr;
}

bool ViewFrameSource::borrowsConsoleView() const
{
    QWebEngineView *v = view();
    return v && v != m_own.get();
}

QWebEngineView *ViewFrameSource::frameView()
{
    if (!m_page)
        return nullptr;
    QWebEngineView *holder = view();
    if (holder && holder != m_own.get() && holder->isVisible())
        return holder; // the console shows the page: its tile is used as it is
    if (holder && holder != m_own.get())
        m_previous = holder; // a tile nobody sees: the page comes back to it afterwards
    if (!m_own) {
        m_own = std::make_unique<QWebEngineView>();
        // Rendered, never put on a screen, and never a reason for the application to quit.
        m_own->setAttribute(Qt::WA_DontShowOnScreen);
        m_own->setAttribute(Qt::WA_QuitOnClose, false);
        m_own->resize(kWidth, kHeight);
    }
    if (holder != m_own.get())
        m_own->setPage(m_page);
    if (!m_own->isVisible())
        m_own->show();
    return m_own.get();
}

QSize ViewFrameSource::frameSize() const
{
    const QWebEngineView *v = view();
    return v ? v->size() : QSize(kWidth, kHeight);
}

void ViewFrameSource::capture(std::function<void(const QImage &frame)> done)
{
    QWebEngineView *v = frameView();
    if (!v) {
        done(QImage());
        return;
    }
    QImage image = v->grab().toImage();
    // Frames are in CSS pixels, whatever the screen's scale.
    if (!image.isNull() && image.size() != v->size())
        image = image.scaled(v->size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    done(image);
}

void ViewFrameSource::deliver(const LiveInput &input, Done done)
{
    QWebEngineView *v = frameView();
    if (!v || v != m_own.get() || !v->focusProxy()) {
        // The console's tile (maybe disabled while the operator watches): through the DOM.
        deliverByScript(m_page, input, 0, std::move(done));
        return;
    }
    QWidget *target = v->focusProxy();
    const QPointF at = input.at;
    const QPointF global = target->mapToGlobal(at);
    switch (input.kind) {
    case LiveInput::Kind::Click: {
        QMouseEvent move(QEvent::MouseMove, at, global, Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(target, &move);
        QMouseEvent press(QEvent::MouseButtonPress, at, global, Qt::LeftButton, Qt::LeftButton,
                          Qt::NoModifier);
        QCoreApplication::sendEvent(target, &press);
        QMouseEvent release(QEvent::MouseButtonRelease, at, global, Qt::LeftButton, Qt::NoButton,
                            Qt::NoModifier);
        QCoreApplication::sendEvent(target, &release);
        break;
    }
    case LiveInput::Kind::Type:
        for (const QChar c : input.text) {
            if (c == QLatin1Char('\n'))
                sendKey(target, Qt::Key_Return, QStringLiteral("\r"));
            else
                sendKey(target, 0, QString(c));
        }
        break;
    case LiveInput::Kind::Key: {
        const KeyOf k = keyOf(input.key);
        sendKey(target, k.key, k.text);
        break;
    }
    case LiveInput::Kind::Scroll: {
        // A wheel notch (120) scrolls about 100 CSS pixels.
        const QPoint angle(int(-input.delta.x() * 1.2), int(-input.delta.y() * 1.2));
        QWheelEvent wheel(at, global, QPoint(), angle, Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(target, &wheel);
        break;
    }
    }
    // Answered even when the source goes first: the caller waits for it.
    QTimer::singleShot(0, [done] { done(true, {}); });
}

} // namespace ph::ui
