#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace ph::engine {

class RunContext;

// Why an input could not be used: the typed error of POST /agent (400), naming the
// input by its JSON path ("dataInputs[2]", "file_urls[0]", "image_urls[1]").
struct InputError
{
    QString code;    // INVALID_DATA_INPUT, INPUT_FETCH_FAILED, INPUT_NOT_FOUND
    QString field;   // the input's path
    QString message; // "<field>: what is wrong"
    QJsonObject details;
};

// Loads what a request brings besides its task, before the planner starts:
// image_urls (as data: URLs for the LLM planner), file_urls (CSV and other tables
// become sheets; PDF and text become documents) and dataInputs (inline, url or
// storageRef; each an in-memory sheet titled by its description). Fetches obey the
// private-target policy; parsing runs on a worker thread so no run blocks the event
// loop. Nothing is written anywhere: sheets live in the run's memory.
class InputLoader : public QObject
{
    Q_OBJECT
public:
    explicit InputLoader(RunContext &ctx, QObject *parent = nullptr);
    // `done` gets nullopt when every input loaded, else the first problem.
    void load(std::function<void(const std::optional<InputError> &error)> done);

    static constexpr qint64 kMaxImageBytes = 10 * 1024 * 1024;
    static constexpr qint64 kMaxFileBytes = 50 * 1024 * 1024;

private:
    using Fetched =
        std::function<void(bool ok, const QByteArray &body, const QByteArray &contentType,
                           int httpStatus, const QString &error)>;
    void queueImage(qsizetype index, const QString &url);
    void queueFile(qsizetype index, const QString &url);
    void queueData(qsizetype index, const QJsonObject &item);
    // Parses on a worker thread, then adds the sheets (or fails with `field`).
    void parseData(const QString &field, const QByteArray &bytes, const QString &formatName,
                   const QString &nameHint, const QString &contentType, const QString &title);
    void next();
    void fail(const QString &code, const QString &field, const QString &problem,
              const QJsonObject &details = {});
    void fetch(const QString &url, qint64 maxBytes, Fetched done);

    RunContext &m_ctx;
    std::function<void(const std::optional<InputError> &)> m_done;
    QList<std::function<void()>> m_tasks;
    bool m_failed = false;
};

} // namespace ph::engine
