#include "SessionLiveViewController.h"

#include "SessionService.h"

#include "browser/LiveFrameSource.h"
#include "browser/LiveViewPage.h"
#include "browser/SessionBrowser.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "http/EventStream.h"
#include "http/Exchange.h"

#include <QBuffer>
#include <QImage>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <memory>

namespace ph::sessions {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

// Frames are dropped while a viewer's connection has this much unsent (as the run live
// view does), so a slow viewer sees fewer frames, never old ones.
constexpr qint64 kMaxUnsentBytes = 2 * 1024 * 1024;
constexpr int kNoPageRetryMs = 500;
constexpr int kJpegQuality = 70;

QString idOf(const Exchange &ex)
{
    return ex.request().param(QStringLiteral("id"));
}

SessionBrowser *browserOf(const SessionService &sessions, const Exchange &ex)
{
    return sessions.liveViewBrowser(idOf(ex), ex.request().queryValue(QStringLiteral("token")));
}

QJsonObject stateOf(const QString &status, bool page, bool ended)
{
    return {{QStringLiteral("kind"), QStringLiteral("session")},
            {QStringLiteral("status"), status},
            {QStringLiteral("page"), page},
            {QStringLiteral("input"), !ended && page},
            {QStringLiteral("ended"), ended},
            {QStringLiteral("error"), QJsonValue()}};
}

QByteArray jpegOf(const QImage &image)
{
    QByteArray jpeg;
    QBuffer buffer(&jpeg);
    buffer.open(QIODevice::WriteOnly);
    if (!image.convertToFormat(QImage::Format_RGB32).save(&buffer, "JPG", kJpegQuality))
        return {};
    return jpeg;
}

// One viewer's stream: captures the session's current page every frameIntervalMs while
// the stream is open and sends the frames that changed.
class Watch : public QObject
{
public:
    Watch(SessionService &sessions, SessionBrowser *browser, const QString &id,
          http::EventStream *events)
        : QObject(events)
        , m_browser(browser)
        , m_id(id)
        , m_events(events)
    {
        m_timer.setSingleShot(true);
        connect(&m_timer, &QTimer::timeout, this, &Watch::tick);
        connect(&sessions, &SessionService::sessionEnded, this,
                [this](const QString &ended, const QString &status) {
                    if (ended == m_id)
                        end(status);
                });
        connect(browser, &QObject::destroyed, this, [this] { end(QStringLiteral("ended")); });
    }

    void begin()
    {
        m_source = m_browser->liveFrames(this);
        sendStatus();
        tick();
    }

private:
    void sendStatus()
    {
        m_events->send(QStringLiteral("status"), stateOf(kActive(), page(), false));
    }
    static QString kActive() { return QStringLiteral("active"); }
    bool page() const { return m_source != nullptr; }

    void tick()
    {
        if (m_ended)
            return;
        if (!m_source) {
            if (m_browser)
                m_source = m_browser->liveFrames(this);
            if (!m_source) {
                m_timer.start(kNoPageRetryMs);
                return;
            }
            sendStatus();
        }
        QPointer<Watch> self(this);
        m_source->capture([self](const QImage &image) {
            if (!self || self->m_ended)
                return;
            self->frame(image);
            self->m_timer.start(self->m_source ? self->m_source->frameIntervalMs()
                                               : kNoPageRetryMs);
        });
    }

    void frame(const QImage &image)
    {
        if (image.isNull() || m_events->unsentBytes() > kMaxUnsentBytes)
            return;
        const QByteArray jpeg = jpegOf(image);
        if (jpeg.isEmpty() || jpeg == m_last)
            return;
        m_last = jpeg;
        const QSize size = m_source->frameSize().isValid() ? m_source->frameSize() : image.size();
        m_events->send(QStringLiteral("frame"),
                       {{QStringLiteral("width"), size.width()},
                        {QStringLiteral("height"), size.height()},
                        {QStringLiteral("jpeg"), QString::fromLatin1(jpeg.toBase64())}});
    }

    void end(const QString &status)
    {
        if (m_ended)
            return;
        m_ended = true;
        m_timer.stop();
        m_source.reset();
        m_events->send(QStringLiteral("end"), stateOf(status, false, true));
        m_events->close();
    }

    QPointer<SessionBrowser> m_browser;
    QString m_id;
    http::EventStream *m_events;
    std::unique_ptr<LiveFrameSource> m_source;
    QByteArray m_last;
    QTimer m_timer;
    bool m_ended = false;
};

} // namespace

SessionLiveViewController::SessionLiveViewController(SessionService &sessions, QObject *parent)
    : QObject(parent)
    , m_sessions(sessions)
{}

QString SessionLiveViewController::url(const SessionService &sessions, const QString &origin,
                                       const QString &id)
{
    const QString token = sessions.liveViewToken(id);
    if (token.isEmpty())
        return {};
    return origin + QStringLiteral("/sessions/") +
           QString::fromLatin1(QUrl::toPercentEncoding(id)) + QStringLiteral("/live?token=") +
           token;
}

QList<Route> SessionLiveViewController::routes()
{
    using C = SessionLiveViewController;
    return {
        Route::to("GET", QStringLiteral("/sessions/{id}/live"), AuthPolicy::Public, this, &C::page),
        Route::to("GET", QStringLiteral("/sessions/{id}/live/stream"), AuthPolicy::Public, this,
                  &C::stream),
        Route::to("POST", QStringLiteral("/sessions/{id}/live/input"), AuthPolicy::Public, this,
                  &C::input),
    };
}

void SessionLiveViewController::page(Exchange &exchange)
{
    // A valid token of a session that ended still gets the page: its stream says so.
    browserOf(m_sessions, exchange);
    if (liveview::pageHtml().isEmpty())
        throw DomainError::internal(QStringLiteral("the live view page is missing from the build"));
    exchange.respond(200, liveview::pageHtml(), "text/html; charset=utf-8",
                     liveview::pageHeaders());
}

void SessionLiveViewController::stream(Exchange &exchange)
{
    SessionBrowser *browser = browserOf(m_sessions, exchange);
    // status (now and when a page appears), frame {width, height, jpeg} as the page
    // changes, end when the session ends; then the stream closes.
    auto *events =
        new http::EventStream(exchange, http::EventStream::Framing::Sse, 15000, &exchange);
    if (!browser) {
        const QJsonObject state = stateOf(QStringLiteral("ended"), false, true);
        events->send(QStringLiteral("status"), state);
        events->send(QStringLiteral("end"), state);
        events->close();
        return;
    }
    (new Watch(m_sessions, browser, idOf(exchange), events))->begin();
}

void SessionLiveViewController::input(Exchange &exchange)
{
    SessionBrowser *browser = browserOf(m_sessions, exchange);
    if (!browser)
        throw DomainError(DomainError::Kind::Gone, QStringLiteral("SESSION_ENDED"),
                          QStringLiteral("the browser session has ended"));
    const LiveInput in = liveview::readInput(JsonFields(exchange.request().jsonObject()));
    std::shared_ptr<LiveFrameSource> source(browser->liveFrames(nullptr));
    if (!source)
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("NO_PAGE"),
                          QStringLiteral("the browser session has no page open"));
    QPointer<Exchange> guard(&exchange);
    source->deliver(in, [guard, source](bool ok, const QString &error) mutable {
        QTimer::singleShot(0, [source] {}); // the source goes after its callback returns
        source.reset();
        if (!guard)
            return;
        if (!ok) {
            guard->fail(
                DomainError(DomainError::Kind::Conflict, QStringLiteral("INPUT_FAILED"),
                            QStringLiteral("the page did not take the input: %1").arg(error)));
            return;
        }
        guard->respondJson(200, {{QStringLiteral("ok"), true}});
    });
}

} // namespace ph::sessions
