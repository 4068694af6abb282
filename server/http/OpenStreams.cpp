#include "OpenStreams.h"

#include "core/DomainError.h"
#include "core/Settings.h"

namespace ph::http {

namespace {

// A stream is long-lived: asking again at once would not find room.
constexpr int kRetryAfterSeconds = 5;

DomainError tooMany(const QString &scope, int open, int limit, const QString &setting)
{
    DomainError e(DomainError::Kind::TooManyRequests, QStringLiteral("TOO_MANY_STREAMS"),
                  QStringLiteral("this %1 already holds %2 streams and long-polls open; the "
                                 "limit is %3 (%4)")
                      .arg(scope)
                      .arg(open)
                      .arg(limit)
                      .arg(setting),
                  QString(),
                  QJsonObject{{QStringLiteral("scope"), scope},
                              {QStringLiteral("limit"), limit},
                              {QStringLiteral("open"), open},
                              {QStringLiteral("setting"), setting}});
    e.withRetryAfter(kRetryAfterSeconds);
    return e;
}

void drop(QHash<QString, int> &counts, const QString &key)
{
    auto it = counts.find(key);
    if (it != counts.end() && --*it <= 0)
        counts.erase(it);
}

} // namespace

void OpenStreams::acquire(const QString &client, const QString &site)
{
    if (const int open = m_clients.value(client); open >= m_perClient)
        throw tooMany(QStringLiteral("client"), open, m_perClient,
                      SettingKeys::maxStreamsPerClient);
    if (!site.isEmpty()) {
        if (const int open = m_sites.value(site); open >= m_perSite)
            throw tooMany(QStringLiteral("site"), open, m_perSite, SettingKeys::maxStreamsPerSite);
        ++m_sites[site];
    }
    ++m_clients[client];
}

void OpenStreams::release(const QString &client, const QString &site)
{
    drop(m_clients, client);
    if (!site.isEmpty())
        drop(m_sites, site);
}

} // namespace ph::http
