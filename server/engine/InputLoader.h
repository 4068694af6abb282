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
    QString code;    // INVALID_DATA_INPUT, INPUT_FETCH_FAILED, INPUT_NOT_FOUND, INPUT_TOO_LARGE
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
//
// All inputs of one request share one budget, agent.maxInputBytes: the bytes of each
// input once decoded (HTTP content encoding, base64) plus what its reader decompresses
// (xlsx parts, parquet pages) or extracts (PDF text). The input that crosses it fails
// the request with INPUT_TOO_LARGE naming it; the readers stop as soon as it is spent.
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
    // A fetch that failed: INPUT_TOO_LARGE when it ran into the request's budget, else
    // INPUT_FETCH_FAILED.
    void fetchFailed(const QString &field, int status, const QString &error);
    // Counts `bytes` of `field` against the request's budget; false (and the request
    // failed) when they do not fit.
    bool charge(const QString &field, qint64 bytes);
    void overBudget(const QString &field);
    qint64 remaining() const { return qMax<qint64>(0, m_budget - m_used); }
    // `maxBytes`: the limit of the input's kind; the fetch also stops at the budget.
    void fetch(const QString &url, qint64 maxBytes, Fetched done);

    RunContext &m_ctx;
    std::function<void(const std::optional<InputError> &)> m_done;
    QList<std::function<void()>> m_tasks;
    bool m_failed = false;
    qint64 m_budget = 0;
    qint64 m_used = 0;
};

} // namespace ph::engine
