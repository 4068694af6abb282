#pragma once

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph {

class Store;
class SecretBox;

// One callback subscription carried by a request (`webhookUrl`/`webhookSecret` or an
// item of `webhooks[]`). Secrets, auth credentials and header values are sealed before
// they are stored.
struct WebhookSubscription
{
    QString url;
    QStringList events;   // empty: the default events (workflow.completed / failed)
    QString secret;       // signing secret, clear only in memory
    QJsonObject auth;     // {type: bearer, token} or {type: basic, username, password}
    QJsonObject headers;  // extra headers sent with each delivery, clear only in memory
    QJsonObject metadata; // webhookMetadata of bridge requests
    // How deliveries are signed with `secret`: Svc (X-Svc-Signature over
    // "<timestamp>.<body>", docs/api/webhooks.md) or Firecrawl (X-Firecrawl-Signature:
    // sha256=<hex HMAC-SHA256 of the raw body>, for the Firecrawl-compatible API).
    enum class Signature { Svc, Firecrawl };
    Signature signature = Signature::Svc;

    // What stands for a header value wherever a request is shown or echoed.
    static const QString kMask;

    // The at-rest form: secret and auth credentials sealed with the SecretBox, the
    // headers sealed together as `sealedHeaders`.
    QJsonObject toSealedJson(const SecretBox &box) const;
    static WebhookSubscription fromSealedJson(const QString &url, const QStringList &events,
                                              const QJsonObject &config, const SecretBox &box);
    // An at-rest config of an older build (headers in clear) in today's form.
    static QJsonObject sealHeadersOf(const QJsonObject &config, const SecretBox &box);
    // A request as it may be stored or echoed (`originalRequest.params`): no
    // `webhookSecret`, no `secret` or `auth` in `webhooks[]` items, and every
    // `webhooks[].headers` value replaced by kMask.
    static QJsonObject redactedRequest(const QJsonObject &request);
};

struct RequestRecord
{
    QString id;
    QString keyId;
    QString endpoint;
    qint64 startedAt = 0;
    std::optional<qint64> finishedAt;
    QString status;
    QJsonObject summary;
};

// The log of billed API requests, with the webhook subscriptions they carried.
class RequestLog : public QObject
{
    Q_OBJECT
public:
    explicit RequestLog(Store &store);

    void begin(const QString &requestId, const QString &keyId, const QString &endpoint);
    void finish(const QString &requestId, const QString &status, const QJsonObject &summary);
    std::optional<RequestRecord> find(const QString &requestId) const;
    // Requests begun and never finished (status "executing"), oldest first.
    QList<RequestRecord> unfinished() const;

    void addSubscriptions(const QString &requestId, const QList<WebhookSubscription> &subs);
    QList<WebhookSubscription> subscriptions(const QString &requestId) const;

Q_SIGNALS:
    // A request was logged as started or finished.
    void requestChanged(const QString &requestId);

private:
    Store &m_store;
};

} // namespace ph
