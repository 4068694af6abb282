#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QNetworkReply;

namespace ph::engine {

class RunContext;

// Fetches what a request brings besides its task, before the planner starts:
// image_urls (as data: URLs for the LLM planner), file_urls and dataInputs. Every
// fetch obeys the private-target policy. A failure names the input and its index.
class InputLoader : public QObject
{
    Q_OBJECT
public:
    explicit InputLoader(RunContext &ctx, QObject *parent = nullptr);
    // `done` gets an empty string on success, else the typed problem.
    void load(std::function<void(const QString &error)> done);

    static constexpr qint64 kMaxImageBytes = 10 * 1024 * 1024;
    static constexpr qint64 kMaxFileBytes = 50 * 1024 * 1024;

private:
    void next();
    void fail(const QString &error);
    void fetch(const QString &url, qint64 maxBytes,
               std::function<void(bool ok, const QByteArray &body, const QByteArray &contentType,
                                  const QString &error)>
                   done);

    RunContext &m_ctx;
    std::function<void(const QString &)> m_done;
    QList<std::function<void()>> m_tasks;
    bool m_failed = false;
};

} // namespace ph::engine
