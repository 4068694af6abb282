#pragma once

// Console tests of browser sessions without a browser: a SessionBrowser that starts and
// stops at once, has a page whose frames are grey and whose inputs are recorded, and
// can "crash". Given to SessionService through its browser factory.

#include "browser/BrowserLease.h"
#include "browser/LiveFrameSource.h"
#include "browser/SessionBrowser.h"

#include <QImage>
#include <QJsonObject>
#include <QList>
#include <QTimer>

#include <memory>

namespace ph::test {

// The page of a pretend session: a grey frame; every input it is handed, recorded.
class RecordingFrames final : public LiveFrameSource
{
public:
    RecordingFrames(std::shared_ptr<QList<LiveInput>> inputs, QObject *parent)
        : LiveFrameSource(parent)
        , m_inputs(std::move(inputs))
    {}
    void capture(std::function<void(const QImage &)> done) override
    {
        QImage frame(frameSize(), QImage::Format_RGB32);
        frame.fill(Qt::gray);
        done(frame);
    }
    QSize frameSize() const override { return {1280, 800}; }
    void deliver(const LiveInput &input, Done done) override
    {
        m_inputs->append(input);
        QTimer::singleShot(0, this, [done] { done(true, {}); });
    }
    int frameIntervalMs() const override { return 50; }
    QString kind() const override { return QStringLiteral("view"); }

private:
    std::shared_ptr<QList<LiveInput>> m_inputs;
};

class PretendSessionBrowser final : public SessionBrowser
{
public:
    // `inputs`: where its page records what it is handed (null: it has no page).
    explicit PretendSessionBrowser(std::shared_ptr<QList<LiveInput>> inputs = {})
        : m_inputs(std::move(inputs))
    {}
    void start(std::function<void(const QString &)> ready) override
    {
        m_running = true;
        QTimer::singleShot(0, this, [ready] { ready({}); });
    }
    bool isRunning() const override { return m_running; }
    void attachClient(std::unique_ptr<QWebSocket>) override {}
    int clientCount() const override { return 0; }
    QJsonObject version() const override { return {}; }
    qint64 processId() const override { return 0; }
    void
    openPage(const QString &, QObject *context,
             std::function<void(std::unique_ptr<BrowserLease>, const QString &)> granted) override
    {
        QTimer::singleShot(0, context, [granted] { granted(nullptr, QStringLiteral("pretend")); });
    }
    std::unique_ptr<LiveFrameSource> liveFrames(QObject *parent) override
    {
        if (!m_inputs)
            return nullptr;
        return std::make_unique<RecordingFrames>(m_inputs, parent);
    }
    void stop(std::function<void()> done) override
    {
        m_running = false;
        QTimer::singleShot(0, this, [done] { done(); });
    }
    // The process ends by itself: a crash.
    void crash()
    {
        m_running = false;
        Q_EMIT ended(QStringLiteral("the browser process was killed"));
    }

private:
    std::shared_ptr<QList<LiveInput>> m_inputs;
    bool m_running = false;
};

} // namespace ph::test
