#pragma once

// Tests of browser sessions without a browser: a SessionBrowser whose start, clients,
// activity and crash the test drives, which writes into its profile directory the way a
// browser keeps its state (a cookie file, and a cache that must not be sealed), and whose
// page (when given somewhere to record inputs) shows grey frames and records its inputs.

#include "browser/BrowserLease.h"
#include "browser/LiveFrameSource.h"
#include "browser/SessionBrowser.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QTimer>

#include <memory>

namespace ph::test {

// The page of a fake session: a grey frame; every input it is handed, recorded.
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

class FakeSessionBrowser final : public SessionBrowser
{
public:
    // `inputs`: where its page records what it is handed (null: it has no page).
    explicit FakeSessionBrowser(SessionBrowserSpec spec = {}, bool startsAtOnce = true,
                                std::shared_ptr<QList<LiveInput>> inputs = {})
        : m_spec(std::move(spec))
        , m_startsAtOnce(startsAtOnce)
        , m_inputs(std::move(inputs))
    {}

    const SessionBrowserSpec &spec() const { return m_spec; }
    // What the profile held when the browser started (its "Cookies" file).
    QByteArray cookiesAtStart() const { return m_cookiesAtStart; }
    bool cacheAtStart() const { return m_cacheAtStart; }
    bool stopped() const { return m_stopped; }

    void start(std::function<void(const QString &)> ready) override
    {
        m_ready = std::move(ready);
        if (!m_spec.userDataDir.isEmpty()) {
            QFile cookies(QDir(m_spec.userDataDir).filePath(QStringLiteral("Default/Cookies")));
            if (cookies.open(QIODevice::ReadOnly))
                m_cookiesAtStart = cookies.readAll();
            m_cacheAtStart =
                QFile::exists(QDir(m_spec.userDataDir).filePath(QStringLiteral("Default/Cache/c")));
        }
        if (m_startsAtOnce)
            QTimer::singleShot(0, this, [this] { answer({}); });
    }
    // Ends a start that waits: empty `error` when it runs.
    void answer(const QString &error)
    {
        if (!m_ready)
            return;
        m_running = error.isEmpty();
        std::exchange(m_ready, nullptr)(error);
    }
    // The browser keeps a cookie (and fills its cache) in its profile.
    void keepCookie(const QByteArray &value)
    {
        const QDir dir(m_spec.userDataDir);
        dir.mkpath(QStringLiteral("Default/Cache"));
        QFile cookies(dir.filePath(QStringLiteral("Default/Cookies")));
        if (cookies.open(QIODevice::WriteOnly))
            cookies.write(value);
        QFile cache(dir.filePath(QStringLiteral("Default/Cache/c")));
        if (cache.open(QIODevice::WriteOnly))
            cache.write("cached");
    }
    void setClients(int count)
    {
        m_clients = count;
        Q_EMIT clientsChanged(count);
    }
    void act() { Q_EMIT activity(); }
    // The process ends by itself.
    void crash(const QString &reason = QStringLiteral("the browser process was killed"))
    {
        m_running = false;
        Q_EMIT ended(reason);
    }

    bool isRunning() const override { return m_running; }
    void attachClient(std::unique_ptr<QWebSocket>) override {}
    int clientCount() const override { return m_clients; }
    QJsonObject version() const override
    {
        return {{QStringLiteral("Browser"), QStringLiteral("FakeChrome/1.0")}};
    }
    qint64 processId() const override { return m_running ? 4242 : 0; }
    void
    openPage(const QString &, QObject *context,
             std::function<void(std::unique_ptr<BrowserLease>, const QString &)> granted) override
    {
        QTimer::singleShot(0, context, [granted] { granted(nullptr, QStringLiteral("fake")); });
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
        m_stopped = true;
        QTimer::singleShot(0, this, [done] { done(); });
    }

private:
    SessionBrowserSpec m_spec;
    bool m_startsAtOnce = true;
    std::shared_ptr<QList<LiveInput>> m_inputs;
    std::function<void(const QString &)> m_ready;
    QByteArray m_cookiesAtStart;
    bool m_cacheAtStart = false;
    bool m_running = false;
    bool m_stopped = false;
    int m_clients = 0;
};

} // namespace ph::test
