#include "LiveViewController.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "engine/liveview/LiveViews.h"
#include "http/EventStream.h"
#include "http/Exchange.h"

#include <QCryptographicHash>
#include <QFile>
#include <QPointer>
#include <QTimer>

namespace ph::cloud {

using engine::LiveViewer;
using engine::LiveViewTicket;
using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

// Frames wait while a viewer's connection has this much unsent; the newest goes when
// it has drained, so a slow viewer sees fewer frames, never old ones.
constexpr qint64 kMaxUnsentBytes = 2 * 1024 * 1024;
constexpr int kRetryMs = 250;

struct PageText
{
    QByteArray html;
    QByteArray csp;
};

QByteArray between(const QByteArray &html, const QByteArray &open, const QByteArray &close)
{
    const qsizetype start = html.indexOf(open);
    if (start < 0)
        return {};
    const qsizetype from = start + open.size();
    const qsizetype end = html.indexOf(close, from);
    return end < 0 ? QByteArray() : html.mid(from, end - from);
}

QByteArray sha256Source(const QByteArray &text)
{
    return "'sha256-" + QCryptographicHash::hash(text, QCryptographicHash::Sha256).toBase64() + "'";
}

// The page (resources/liveview/liveview.html) and its policy: its one script and one
// style allowed by their hashes, frames as data: images, requests to this origin only.
const PageText &pageText()
{
    static const PageText text = [] {
        PageText t;
        QFile file(QStringLiteral(":/pilothouse/liveview/liveview.html"));
        if (file.open(QIODevice::ReadOnly))
            t.html = file.readAll();
        t.csp = "default-src 'none'; script-src " +
                sha256Source(between(t.html, "<script>", "</script>")) + "; style-src " +
                sha256Source(between(t.html, "<style>", "</style>")) +
                "; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
                "frame-ancestors 'none'";
        return t;
    }();
    return text;
}

LiveViewTicket ticketOf(const engine::LiveViews &views, const Exchange &ex)
{
    return views.verify(ex.request().param(QStringLiteral("trajectoryId")),
                        ex.request().queryValue(QStringLiteral("token")));
}

double requiredNumber(const JsonFields &body, const QString &key, double min, double max)
{
    if (!body.has(key))
        throw DomainError::missingField(body.path(key));
    return *body.optionalNumber(key, min, max);
}

LiveInput readInput(const JsonFields &body)
{
    static const QStringList kinds = {QStringLiteral("click"), QStringLiteral("type"),
                                      QStringLiteral("key"), QStringLiteral("scroll")};
    if (!body.has(QStringLiteral("type")))
        throw DomainError::missingField(QStringLiteral("type"));
    const QString type = *body.optionalEnum(QStringLiteral("type"), kinds);
    LiveInput in;
    if (type == QLatin1String("click") || type == QLatin1String("scroll")) {
        in.kind = type == QLatin1String("click") ? LiveInput::Kind::Click : LiveInput::Kind::Scroll;
        in.at = QPointF(requiredNumber(body, QStringLiteral("x"), -1e6, 1e6),
                        requiredNumber(body, QStringLiteral("y"), -1e6, 1e6));
        in.delta = QPointF(body.optionalNumber(QStringLiteral("deltaX"), -1e5, 1e5).value_or(0),
                           body.optionalNumber(QStringLiteral("deltaY"), -1e5, 1e5).value_or(0));
    } else if (type == QLatin1String("type")) {
        in.kind = LiveInput::Kind::Type;
        in.text = body.requiredString(QStringLiteral("text"));
        if (in.text.isEmpty() || in.text.size() > 10000)
            throw DomainError::invalidField(QStringLiteral("text"),
                                            QStringLiteral("must hold 1 to 10000 characters"));
    } else {
        in.kind = LiveInput::Kind::Key;
        if (!body.has(QStringLiteral("key")))
            throw DomainError::missingField(QStringLiteral("key"));
        in.key = *body.optionalEnum(QStringLiteral("key"), LiveInput::keyNames());
    }
    return in;
}

const http::HeaderList &pageHeaders()
{
    static const http::HeaderList headers{{"Content-Security-Policy", pageText().csp},
                                          {"X-Content-Type-Options", "nosniff"},
                                          {"X-Frame-Options", "DENY"},
                                          {"Referrer-Policy", "no-referrer"},
                                          {"X-Robots-Tag", "noindex, nofollow, noarchive"},
                                          {"Cache-Control", "no-store"}};
    return headers;
}

} // namespace

LiveViewController::LiveViewController(engine::LiveViews &views, QObject *parent)
    : QObject(parent)
    , m_views(views)
{}

QByteArray LiveViewController::contentSecurityPolicy()
{
    return pageText().csp;
}

QList<Route> LiveViewController::routes()
{
    using C = LiveViewController;
    return {
        Route::to("GET", QStringLiteral("/live/{trajectoryId}"), AuthPolicy::Public, this,
                  &C::page),
        Route::to("GET", QStringLiteral("/live/{trajectoryId}/stream"), AuthPolicy::Public, this,
                  &C::stream),
        Route::to("POST", QStringLiteral("/live/{trajectoryId}/input"), AuthPolicy::Public, this,
                  &C::input),
    };
}

void LiveViewController::page(Exchange &exchange)
{
    ticketOf(m_views, exchange);
    if (pageText().html.isEmpty())
        throw DomainError::internal(QStringLiteral("the live view page is missing from the build"));
    exchange.respond(200, pageText().html, "text/html; charset=utf-8", pageHeaders());
}

void LiveViewController::stream(Exchange &exchange)
{
    const LiveViewTicket ticket = ticketOf(m_views, exchange);
    // status (now and on every change), frame {width, height, jpeg} as the page changes,
    // end with the last status; then the stream closes.
    auto *events =
        new http::EventStream(exchange, http::EventStream::Framing::Sse, 15000, &exchange);
    LiveViewer *viewer = m_views.watch(ticket, events);
    auto sendFrame = [events, viewer] {
        const QByteArray jpeg = viewer->lastFrame();
        if (jpeg.isEmpty())
            return true;
        if (events->unsentBytes() > kMaxUnsentBytes)
            return false;
        events->send(QStringLiteral("frame"),
                     {{QStringLiteral("width"), viewer->lastFrameSize().width()},
                      {QStringLiteral("height"), viewer->lastFrameSize().height()},
                      {QStringLiteral("jpeg"), QString::fromLatin1(jpeg.toBase64())}});
        return true;
    };
    auto *retry = new QTimer(events);
    retry->setInterval(kRetryMs);
    connect(retry, &QTimer::timeout, events, [retry, sendFrame] {
        if (sendFrame())
            retry->stop();
    });
    connect(viewer, &LiveViewer::frame, events, [retry, sendFrame] {
        if (sendFrame())
            retry->stop();
        else if (!retry->isActive())
            retry->start();
    });
    connect(viewer, &LiveViewer::stateChanged, events,
            [events](const QJsonObject &state) { events->send(QStringLiteral("status"), state); });
    connect(viewer, &LiveViewer::ended, events, [events](const QJsonObject &state) {
        events->send(QStringLiteral("end"), state);
        events->close();
    });
    const QJsonObject state = viewer->state();
    events->send(QStringLiteral("status"), state);
    if (state.value(QStringLiteral("ended")).toBool()) {
        events->send(QStringLiteral("end"), state);
        events->close();
        return;
    }
    sendFrame();
}

void LiveViewController::input(Exchange &exchange)
{
    const LiveViewTicket ticket = ticketOf(m_views, exchange);
    const LiveInput in = readInput(JsonFields(exchange.request().jsonObject()));
    QPointer<Exchange> guard(&exchange);
    QPointer<LiveViewController> self(this);
    m_views.input(ticket, in, [guard, self, ticket](const std::optional<DomainError> &error) {
        if (!guard || !self)
            return;
        if (error) {
            guard->fail(*error);
            return;
        }
        guard->respondJson(200, {{QStringLiteral("ok"), true},
                                 {QStringLiteral("state"), self->m_views.state(ticket)}});
    });
}

} // namespace ph::cloud
