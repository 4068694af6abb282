#include "ScrapeCache.h"

#include "core/Clock.h"

namespace ph::firecrawl {

ScrapeCache::ScrapeCache(const Clock &clock, int capacity)
    : m_clock(clock)
    , m_capacity(qMax(0, capacity))
{}

void ScrapeCache::setCapacity(int capacity)
{
    m_capacity = qMax(0, capacity);
    for (auto it = m_keys.begin(); it != m_keys.end(); ++it)
        trim(*it);
}

std::optional<ScrapeCache::Entry> ScrapeCache::find(const QString &keyId, const QString &request,
                                                    qint64 maxAgeMs) const
{
    if (maxAgeMs <= 0)
        return std::nullopt;
    const auto k = m_keys.constFind(keyId);
    if (k == m_keys.constEnd())
        return std::nullopt;
    const auto e = k->entries.constFind(request);
    if (e == k->entries.constEnd() || m_clock.nowMs() - e->storedAtMs > maxAgeMs)
        return std::nullopt;
    return *e;
}

void ScrapeCache::store(const QString &keyId, const QString &request, const QJsonObject &document)
{
    if (m_capacity == 0)
        return;
    PerKey &k = m_keys[keyId];
    if (k.entries.contains(request))
        k.order.removeOne(request);
    k.entries.insert(request, Entry{document, m_clock.nowMs()});
    k.order.append(request);
    trim(k);
}

int ScrapeCache::size(const QString &keyId) const
{
    return int(m_keys.value(keyId).entries.size());
}

void ScrapeCache::trim(PerKey &k) const
{
    while (k.order.size() > m_capacity)
        k.entries.remove(k.order.takeFirst());
}

} // namespace ph::firecrawl
