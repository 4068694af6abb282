#pragma once

#include <QObject>

class QSocketNotifier;

namespace ph {

// Turns SIGTERM, SIGINT and SIGHUP into a Qt signal through a self-pipe, so shutdown
// runs on the event loop instead of inside a signal handler.
class SignalWatcher : public QObject
{
    Q_OBJECT
public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

Q_SIGNALS:
    void terminationRequested(int signal);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace ph
