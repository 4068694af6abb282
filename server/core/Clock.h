#pragma once

#include <QJsonValue>
#include <QString>
#include <QtGlobal>

#include <optional>

class QDateTime;

namespace ph {

// Time source for everything that stores or compares times. Tests inject a
// ManualClock so schedules (expiry, retries) can be checked without waiting.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual qint64 nowMs() const = 0;
    QDateTime now() const;
    static QString isoUtc(qint64 epochMs);
    // The same as JSON, or null when there is no time.
    static QJsonValue isoUtcOrNull(std::optional<qint64> epochMs)
    {
        return epochMs ? QJsonValue(isoUtc(*epochMs)) : QJsonValue();
    }
};

class SystemClock final : public Clock
{
public:
    qint64 nowMs() const override;
};

class ManualClock final : public Clock
{
public:
    explicit ManualClock(qint64 startMs)
        : m_now(startMs)
    {}
    qint64 nowMs() const override { return m_now; }
    void advance(qint64 ms) { m_now += ms; }
    void set(qint64 ms) { m_now = ms; }

private:
    qint64 m_now;
};

} // namespace ph
