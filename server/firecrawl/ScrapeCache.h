#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace ph {
class Clock;
}

namespace ph::firecrawl {

// Recent Firecrawl-compatible scrapes, per API key, in memory (maxAge): a document is
// answered again only to the key that paid for it, only while younger than the age the
// request allows, and at most `capacity` per key are kept (the oldest go first). Lost
// at restart by design (docs/decisions.md, "The Firecrawl-compatible scrape cache").
class ScrapeCache
{
public:
    struct Entry
    {
        QJsonObject document;
        qint64 storedAtMs = 0;
    };

    explicit ScrapeCache(const Clock &clock, int capacity = 256);
    void setCapacity(int capacity);
    int capacity() const { return m_capacity; }

    std::optional<Entry> find(const QString &keyId, const QString &request, qint64 maxAgeMs) const;
    void store(const QString &keyId, const QString &request, const QJsonObject &document);
    int size(const QString &keyId) const;

private:
    struct PerKey
    {
        QHash<QString, Entry> entries;
        QList<QString> order; // oldest first
    };
    void trim(PerKey &k) const;

    const Clock &m_clock;
    int m_capacity;
    QHash<QString, PerKey> m_keys;
};

} // namespace ph::firecrawl
