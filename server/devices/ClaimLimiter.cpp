#include "ClaimLimiter.h"

#include "core/Clock.h"
#include "core/DomainError.h"

#include <QJsonObject>

#include <algorithm>

namespace ph::devices {

namespace {

constexpr qint64 kMinuteMs = 60 * 1000;

void dropBefore(QList<qint64> &times, qint64 since)
{
    while (!times.isEmpty() && times.first() <= since)
        times.removeFirst();
}

DomainError limited(const QString &scope, int limit, qint64 oldest, qint64 now)
{
    const int retry = int(std::max<qint64>(1, (oldest + kMinuteMs - now + 999) / 1000));
    return DomainError(DomainError::Kind::TooManyRequests, QStringLiteral("RATE_LIMITED"),
                       QStringLiteral("%1 pairing-code claims a minute per %2 at most; try again "
                                      "in %3 s")
                           .arg(limit)
                           .arg(scope)
                           .arg(retry),
                       QString(),
                       {{QStringLiteral("scope"), scope},
                        {QStringLiteral("limit"), limit},
                        {QStringLiteral("retryable"), true}})
        .withRetryAfter(retry);
}

} // namespace

ClaimLimiter::ClaimLimiter(const Clock &clock, qint64 codeLifetimeMs)
    : m_clock(clock)
    , m_codeLifetimeMs(codeLifetimeMs)
{}

void ClaimLimiter::admit(const QString &client)
{
    const qint64 now = m_clock.nowMs();
    // Clients gone quiet leave empty windows behind: sweep them now and then.
    if (m_byClient.size() > 4096) {
        for (auto it = m_byClient.begin(); it != m_byClient.end();) {
            dropBefore(*it, now - kMinuteMs);
            it = it->isEmpty() ? m_byClient.erase(it) : std::next(it);
        }
    }
    QList<qint64> &mine = m_byClient[client];
    dropBefore(mine, now - kMinuteMs);
    dropBefore(m_all, now - kMinuteMs);
    if (mine.size() >= kPerClientPerMinute)
        throw limited(QStringLiteral("client"), kPerClientPerMinute, mine.first(), now);
    if (m_all.size() >= kPerMinute)
        throw limited(QStringLiteral("service"), kPerMinute, m_all.first(), now);
    mine.append(now);
    m_all.append(now);
}

bool ClaimLimiter::wrongCode()
{
    const qint64 now = m_clock.nowMs();
    dropBefore(m_wrong, now - m_codeLifetimeMs);
    m_wrong.append(now);
    if (m_wrong.size() < kWrongCodes)
        return false;
    m_wrong.clear();
    return true;
}

} // namespace ph::devices
