#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>

namespace ph::http {

class Exchange;

// Holds a request open until something it waits for happens or the wait runs out
// (`Prefer: wait=N`). `ready` is asked at once and again on every wake(); the first
// time it returns true, or when the time is up, `answer` writes the response. The
// object deletes itself when done or when the client leaves. While the client (or the
// exchange's site) holds its cap of open streams (Exchange::holdOpen), the answer is
// written at once instead of waiting.
//
//   auto *poll = LongPoll::hold(ex, 10000, [&] { return run.isTerminal(); },
//                               [&](Exchange &ex) { ex.respondJson(200, run.toJson()); });
//   connect(&runs, &Runs::changed, poll, &LongPoll::wake);
class LongPoll : public QObject
{
    Q_OBJECT
public:
    static LongPoll *hold(Exchange &exchange, int waitMs, std::function<bool()> ready,
                          std::function<void(Exchange &)> answer);

public Q_SLOTS:
    void wake();

private:
    LongPoll(Exchange &exchange, std::function<bool()> ready,
             std::function<void(Exchange &)> answer);
    void finish();

    QPointer<Exchange> m_exchange;
    std::function<bool()> m_ready;
    std::function<void(Exchange &)> m_answer;
    QTimer m_timer;
    bool m_done = false;
};

} // namespace ph::http
