#include "browser/chromium/CdpScreencast.h"

#include "browser/chromium/CdpPage.h"

#include <QJsonObject>
#include <QTimer>

namespace ph {

namespace {

struct KeyCode
{
    const char *name;
    int windowsCode;
    const char *text;
};

// The keys a live view passes on (LiveInput::keyNames()) as DevTools key events.
const KeyCode kKeys[] = {
    {"Enter", 13, "\r"},    {"Tab", 9, ""},      {"Backspace", 8, ""},  {"Delete", 46, ""},
    {"Escape", 27, ""},     {"ArrowUp", 38, ""}, {"ArrowDown", 40, ""}, {"ArrowLeft", 37, ""},
    {"ArrowRight", 39, ""}, {"Home", 36, ""},    {"End", 35, ""},       {"PageUp", 33, ""},
    {"PageDown", 34, ""},
};

} // namespace

CdpScreencast::CdpScreencast(CdpPage *page, QObject *parent)
    : LiveFrameSource(parent)
    , m_page(page)
    , m_hasPage(true)
{
    QPointer<CdpPage> guard(page);
    m_command = [guard](const QString &method, const QJsonObject &params, QObject *context,
                        std::function<void(const QJsonObject &, const QString &)> reply) {
        if (guard)
            guard->command(method, params, context, std::move(reply));
    };
    connect(page, &CdpPage::event, this, &CdpScreencast::onEvent);
    start();
}

CdpScreencast::CdpScreencast(Command command, QSize size, QObject *parent)
    : LiveFrameSource(parent)
    , m_command(std::move(command))
    , m_size(size)
{
    start();
}

void CdpScreencast::start()
{
    m_command(QStringLiteral("Page.startScreencast"),
              {{QStringLiteral("format"), QStringLiteral("jpeg")},
               {QStringLiteral("quality"), 70},
               {QStringLiteral("maxWidth"), m_size.width()},
               {QStringLiteral("maxHeight"), m_size.height()}},
              this, {});
}

CdpScreencast::~CdpScreencast()
{
    if (alive())
        m_command(QStringLiteral("Page.stopScreencast"), {}, nullptr, {});
}

void CdpScreencast::onEvent(const QString &method, const QJsonObject &params)
{
    if (method != QLatin1String("Page.screencastFrame"))
        return;
    if (alive())
        m_command(QStringLiteral("Page.screencastFrameAck"),
                  {{QStringLiteral("sessionId"), params.value(QStringLiteral("sessionId"))}},
                  nullptr, {});
    QImage frame;
    if (!frame.loadFromData(
            QByteArray::fromBase64(params.value(QStringLiteral("data")).toString().toLatin1()),
            "JPEG"))
        return;
    m_frame = frame;
    ++m_frames;
    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &w : waiting)
        w(m_frame);
}

void CdpScreencast::capture(std::function<void(const QImage &)> done)
{
    if (!m_frame.isNull() || !alive()) {
        QTimer::singleShot(0, this, [this, done] { done(m_frame); });
        return;
    }
    // The first frame is on its way; an unchanging page sends no more.
    m_waiting.append(done);
    QTimer::singleShot(2000, this, [this] {
        const auto waiting = std::exchange(m_waiting, {});
        for (const auto &w : waiting)
            w(m_frame);
    });
}

void CdpScreencast::deliver(const LiveInput &input, Done done)
{
    if (!alive()) {
        QTimer::singleShot(0, this, [done] { done(false, QStringLiteral("the page is gone")); });
        return;
    }
    QList<std::pair<QString, QJsonObject>> events;
    const double x = input.at.x();
    const double y = input.at.y();
    switch (input.kind) {
    case LiveInput::Kind::Click:
        for (const char *type : {"mouseMoved", "mousePressed", "mouseReleased"})
            events.append({QStringLiteral("Input.dispatchMouseEvent"),
                           {{QStringLiteral("type"), QLatin1String(type)},
                            {QStringLiteral("x"), x},
                            {QStringLiteral("y"), y},
                            {QStringLiteral("button"), QStringLiteral("left")},
                            {QStringLiteral("clickCount"), 1}}});
        break;
    case LiveInput::Kind::Type:
        events.append({QStringLiteral("Input.insertText"), {{QStringLiteral("text"), input.text}}});
        break;
    case LiveInput::Kind::Key:
        for (const KeyCode &k : kKeys) {
            if (input.key != QLatin1String(k.name))
                continue;
            QJsonObject down{{QStringLiteral("type"), QStringLiteral("keyDown")},
                             {QStringLiteral("key"), QLatin1String(k.name)},
                             {QStringLiteral("code"), QLatin1String(k.name)},
                             {QStringLiteral("windowsVirtualKeyCode"), k.windowsCode}};
            if (*k.text)
                down.insert(QStringLiteral("text"), QLatin1String(k.text));
            QJsonObject up = down;
            up.insert(QStringLiteral("type"), QStringLiteral("keyUp"));
            up.remove(QStringLiteral("text"));
            events.append({QStringLiteral("Input.dispatchKeyEvent"), down});
            events.append({QStringLiteral("Input.dispatchKeyEvent"), up});
        }
        break;
    case LiveInput::Kind::Scroll:
        events.append({QStringLiteral("Input.dispatchMouseEvent"),
                       {{QStringLiteral("type"), QStringLiteral("mouseWheel")},
                        {QStringLiteral("x"), x},
                        {QStringLiteral("y"), y},
                        {QStringLiteral("deltaX"), input.delta.x()},
                        {QStringLiteral("deltaY"), input.delta.y()}}});
        break;
    }
    if (events.isEmpty()) {
        QTimer::singleShot(0, this, [done] { done(false, QStringLiteral("unknown input")); });
        return;
    }
    // The events in order; the answer once the last has been taken.
    auto failure = std::make_shared<QString>();
    auto remaining = std::make_shared<int>(int(events.size()));
    for (const auto &[method, params] : events) {
        m_command(method, params, this,
                  [failure, remaining, done](const QJsonObject &, const QString &error) {
                      if (!error.isEmpty() && failure->isEmpty())
                          *failure = error;
                      if (--*remaining == 0)
                          done(failure->isEmpty(), *failure);
                  });
    }
}

} // namespace ph
