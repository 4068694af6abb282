#include "LongPoll.h"

#include "Exchange.h"

namespace ph::http {

LongPoll *LongPoll::hold(Exchange &exchange, int waitMs, std::function<bool()> ready,
                         std::function<void(Exchange &)> answer)
{
    auto *poll = new LongPoll(exchange, std::move(ready), std::move(answer));
    if (waitMs <= 0 || poll->m_ready()) {
        poll->finish();
        return poll;
    }
    // Over a cap on open streams (http.maxStreamsPerClient, …PerSite) the answer does
    // not wait: it is written now, as when the wait runs out. A wait is a preference
    // (RFC 7240), and the request may have started work (an /agent run) that a 429
    // would orphan.
    if (!exchange.holdOpen(false)) {
        poll->finish();
        return poll;
    }
    poll->m_timer.setSingleShot(true);
    connect(&poll->m_timer, &QTimer::timeout, poll, &LongPoll::finish);
    poll->m_timer.start(waitMs);
    return poll;
}

LongPoll::LongPoll(Exchange &exchange, std::function<bool()> ready,
                   std::function<void(Exchange &)> answer)
    : m_exchange(&exchange)
    , m_ready(std::move(ready))
    , m_answer(std::move(answer))
{
    connect(&exchange, &Exchange::finished, this, [this] {
        m_done = true;
        m_timer.stop();
        deleteLater();
    });
}

void LongPoll::wake()
{
    if (!m_done && m_ready())
        finish();
}

void LongPoll::finish()
{
    if (m_done)
        return;
    m_done = true;
    m_timer.stop();
    if (m_exchange && !m_exchange->isAnswered())
        m_answer(*m_exchange);
    deleteLater();
}

} // namespace ph::http
