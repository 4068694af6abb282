#pragma once

#include <QHash>
#include <QString>

namespace ph::http {

// Answers held open (event streams and long-polls), counted per client and per site, so
// no client and no site's visitors can hold them all (http.maxStreamsPerClient,
// http.maxStreamsPerSite; docs/security.md, "Client identity behind a reverse proxy").
// The server shares one with every exchange (Exchange::holdOpen).
class OpenStreams
{
public:
    void setCaps(int perClient, int perSite)
    {
        m_perClient = perClient;
        m_perSite = perSite;
    }
    // Counts one more held answer of `client` (and of `site` unless empty). Throws
    // DomainError 429 TOO_MANY_STREAMS, naming the setting, when a cap is reached; then
    // nothing is counted.
    void acquire(const QString &client, const QString &site);
    void release(const QString &client, const QString &site);
    int ofClient(const QString &client) const { return m_clients.value(client); }
    int ofSite(const QString &site) const { return m_sites.value(site); }

private:
    int m_perClient = 16;
    int m_perSite = 256;
    QHash<QString, int> m_clients;
    QHash<QString, int> m_sites;
};

} // namespace ph::http
