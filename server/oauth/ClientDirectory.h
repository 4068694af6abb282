#pragma once

#include "ClientMetadata.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>

class QNetworkAccessManager;

namespace ph {
class Clock;
class DomainError;
class NetworkPolicy;
} // namespace ph

namespace ph::oauth {

class OAuthRepository;

// Who a client_id names: a registered client (RFC 7591, looked up in the store) or the
// URL of a client ID metadata document, fetched through the network policy (the URL is
// the caller's: no private target unless the policy lets this install reach one, no
// redirects, at most ClientMetadata::kMaxDocumentBytes), checked and cached for
// kCacheMs.
class ClientDirectory : public QObject
{
    Q_OBJECT
public:
    static constexpr int kFetchTimeoutMs = 5000;
    static constexpr qint64 kCacheMs = 5 * 60 * 1000;
    static constexpr int kMaxCached = 256;

    // `allowHttpLoopback`: a metadata document on http://127.0.0.1 is accepted (a
    // loopback install whose policy allows private targets).
    ClientDirectory(OAuthRepository &repository, NetworkPolicy &policy, const Clock &clock,
                    QObject *parent = nullptr);
    ~ClientDirectory() override;

    // The client, or the refusal (400 OAUTH_INVALID_CLIENT naming client_id, or the
    // document's OAUTH_INVALID_CLIENT_METADATA), now or after a fetch.
    using Resolved = std::function<void(const OAuthClient *client, const DomainError *error)>;
    void resolve(const QString &clientId, Resolved done);
    // A client known now (registered or cached), else nothing.
    std::optional<OAuthClient> known(const QString &clientId) const;
    bool allowsHttpLoopback() const;

private:
    void fetch(const QString &clientId, Resolved done);

    struct Cached
    {
        OAuthClient client;
        qint64 fetchedAt = 0;
    };
    OAuthRepository &m_repository;
    NetworkPolicy &m_policy;
    const Clock &m_clock;
    QHash<QString, Cached> m_cache;
    QNetworkAccessManager *m_fetcher = nullptr;
    bool m_fetcherPrivate = false;
};

} // namespace ph::oauth
