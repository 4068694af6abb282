#pragma once

#include <QHash>
#include <QList>
#include <QString>

namespace ph {
class Clock;
}

namespace ph::devices {

// How often pairing codes may be tried (POST /devices/claim, docs/api/devices.md): a code
// is 8 characters of 31, so guessing is bounded three ways. Each client address may try
// kPerClientPerMinute times a minute and everyone together kPerMinute times (429
// RATE_LIMITED with Retry-After beyond); and kWrongCodes wrong codes within a code's
// lifetime withdraw every pending code, so no code ever faces more than kWrongCodes
// guesses (docs/decisions.md, "Pairing codes against guessing").
class ClaimLimiter
{
public:
    static constexpr int kPerClientPerMinute = 10;
    static constexpr int kPerMinute = 60;
    static constexpr int kWrongCodes = 10;

    ClaimLimiter(const Clock &clock, qint64 codeLifetimeMs);

    // Counts a claim by `client` (its address; empty for an in-process caller); throws 429
    // RATE_LIMITED with Retry-After when the client's or everyone's minute is full. A
    // refused claim does not count.
    void admit(const QString &client);
    // Counts a wrong (unknown, used or expired) code; true when it is the kWrongCodes-th
    // within a code's lifetime: the caller withdraws the pending codes, the count restarts.
    bool wrongCode();

private:
    const Clock &m_clock;
    qint64 m_codeLifetimeMs;
    QHash<QString, QList<qint64>> m_byClient; // claim times in the last minute, by client
    QList<qint64> m_all;                      // every claim in the last minute
    QList<qint64> m_wrong;                    // wrong codes within a code's lifetime
};

} // namespace ph::devices
