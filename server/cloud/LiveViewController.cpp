#include "LiveViewController.h"

#include "browser/LiveViewPage.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "engine/liveview/LiveViews.h"
#include "http/EventStream.h"
#include "http/Exchange.h"

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

LiveViewTicket ticketOf(const engine::LiveViews &views, const Exchange &ex)
{
    return views.verify(ex.request().param(QStringLiteral("trajectoryId")),
                        ex.request().queryValue(QStringLiteral("token")));
}

} // namespace

LiveViewController::LiveViewController(engine::LiveViews &views, QObject *parent)
    : QObject(parent)
    , m_views(views)
{}

QByteArray LiveViewController::contentSecurityPolicy()
{
    return liveview::contentSecurityPolicy();
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
    if (liveview::pageHtml().isEmpty())
        throw DomainError::internal(QStringLiteral("the live view page is missing from the build"));
    exchange.respond(200, liveview::pageHtml(), "text/html; charset=utf-8",
                     liveview::pageHeaders());
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
    const LiveInput in = liveview::readInput(JsonFields(exchange.request().jsonObject()));
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
