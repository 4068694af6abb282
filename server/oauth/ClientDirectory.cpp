#include "ClientDirectory.h"

#include "OAuthRepository.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "net/NetworkPolicy.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrl>

namespace ph::oauth {

namespace {
DomainError invalidClient(const QString &message)
{
    return DomainError(DomainError::Kind::Invalid, QStringLiteral("OAUTH_INVALID_CLIENT"), message,
                       QStringLiteral("client_id"));
}

// The grant a metadata fetch uses: nobody's, private targets only where the policy lets
// a loopback install reach them.
EgressGrant fetchGrant(const NetworkPolicy &policy)
{
    EgressGrant grant;
    grant.privateTargets = policy.allowPrivateTargets();
    grant.tenant = QStringLiteral("oauth-client-metadata");
    return grant;
}
} // namespace

ClientDirectory::ClientDirectory(OAuthRepository &repository, NetworkPolicy &policy,
                                 const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_repository(repository)
    , m_policy(policy)
    , m_clock(clock)
{}

ClientDirectory::~ClientDirectory() = default;

bool ClientDirectory::allowsHttpLoopback() const
{
    return m_policy.allowPrivateTargets();
}

std::optional<OAuthClient> ClientDirectory::known(const QString &clientId) const
{
    if (!ClientMetadata::isDocumentUrl(clientId))
        return m_repository.findClient(clientId);
    const auto it = m_cache.constFind(clientId);
    if (it == m_cache.constEnd() || m_clock.nowMs() - it->fetchedAt > kCacheMs)
        return std::nullopt;
    return it->client;
}

void ClientDirectory::resolve(const QString &clientId, Resolved done)
{
    if (clientId.isEmpty()) {
        const DomainError e = DomainError::missingField(QStringLiteral("client_id"));
        done(nullptr, &e);
        return;
    }
    if (const std::optional<OAuthClient> client = known(clientId)) {
        done(&*client, nullptr);
        return;
    }
    if (!ClientMetadata::isDocumentUrl(clientId)) {
        const DomainError e = invalidClient(QStringLiteral("client_id names no registered client"));
        done(nullptr, &e);
        return;
    }
    const QUrl url(clientId, QUrl::StrictMode);
    const QString problem = ClientMetadata::documentUrlProblem(url, allowsHttpLoopback());
    if (!problem.isEmpty()) {
        const DomainError e = invalidClient(QStringLiteral("client_id ") + problem);
        done(nullptr, &e);
        return;
    }
    try {
        NetworkPolicy::requireReachable(url, QStringLiteral("client_id"), fetchGrant(m_policy));
    } catch (const DomainError &e) {
        done(nullptr, &e);
        return;
    }
    fetch(clientId, std::move(done));
}

void ClientDirectory::fetch(const QString &clientId, Resolved done)
{
    // The fetcher carries its grant: made again when the policy's switch has turned.
    const EgressGrant grant = fetchGrant(m_policy);
    if (m_fetcher && m_fetcherPrivate != grant.privateTargets) {
        m_fetcher->deleteLater();
        m_fetcher = nullptr;
    }
    if (!m_fetcher) {
        m_fetcher = m_policy.createFetcher(grant, this);
        m_fetcherPrivate = grant.privateTargets;
    }
    QNetworkRequest request{QUrl(clientId)};
    request.setTransferTimeout(kFetchTimeoutMs);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setRawHeader("Accept", "application/json");
    QNetworkReply *reply = m_fetcher->get(request);
    auto body = std::make_shared<QByteArray>();
    const qsizetype max = ClientMetadata::kMaxDocumentBytes;
    connect(reply, &QNetworkReply::readyRead, this, [reply, body, max] {
        body->append(reply->read(max + 1 - body->size()));
        if (body->size() > max)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, body, clientId, done, max] {
        reply->deleteLater();
        body->append(reply->read(max + 1 - body->size()));
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() != QNetworkReply::NoError || status != 200) {
            const DomainError e = invalidClient(
                QStringLiteral("the client metadata document at client_id could not be fetched "
                               "(%1)")
                    .arg(status ? QStringLiteral("HTTP %1").arg(status) : reply->errorString()));
            done(nullptr, &e);
            return;
        }
        try {
            const OAuthClient client = ClientMetadata::fromDocument(*body, clientId);
            if (m_cache.size() >= kMaxCached)
                m_cache.clear();
            m_cache.insert(clientId, {client, m_clock.nowMs()});
            done(&client, nullptr);
        } catch (const DomainError &e) {
            done(nullptr, &e);
        }
    });
}

} // namespace ph::oauth
