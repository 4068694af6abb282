#pragma once

// Unit tests of SessionService without a browser: a SessionBrowser whose start, clients,
// activity and crash the test drives, and which writes into its profile directory the
// way a browser keeps its state (a cookie file, and a cache that must not be sealed).

#include "browser/BrowserLease.h"
#include "browser/LiveFrameSource.h"
#include "browser/SessionBrowser.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QPointer>
#include <QTimer>

#include <memory>

namespace ph::test {

class FakeSessionBrowser final : public SessionBrowser
{
public:
    explicit FakeSessionBrowser(SessionBrowserSpec spec, bool startsAtOnce = true)
        : m_spec(std::move(spec))
        , m_startsAtOnce(startsAtOnce)
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
    void crash(const QString &reason)
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
    std::unique_ptr<LiveFrameSource> liveFrames(QObject *) override { return nullptr; }
    void stop(std::function<void()> done) override
    {
        m_running = false;
        m_stopped = true;
        QTimer::singleShot(0, this, [done] { done(); });
    }

private:
    SessionBrowserSpec m_spec;
    bool m_startsAtOnce = true;
    std::function<void(const QString &)> m_ready;
    QByteArray m_cookiesAtStart;
    bool m_cacheAtStart = false;
    bool m_running = false;
    bool m_stopped = false;
    int m_clients = 0;
};

} // namespace ph::test
