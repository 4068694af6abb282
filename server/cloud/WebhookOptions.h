#pragma once

#include "core/RequestLog.h"

#include <QList>

namespace ph {
class JsonFields;
struct EgressGrant;
} // namespace ph

namespace ph::cloud {

// Reads the callback fields a request may carry: `webhookUrl` (+ `webhookSecret`,
// `webhookMetadata` on the bridge) and `webhooks[]` (url, events, secret, auth, headers).
// Typed 400s name the field. A target must be https, or plain http to a loopback or
// private address while private targets are allowed.
QList<WebhookSubscription> readWebhooks(const JsonFields &body, const EgressGrant &grant);

// The same checks for other callback shapes (the Firecrawl-compatible API's `webhook`):
// a target URL as `webhookUrl` takes it, returned encoded; headers as `webhooks[].headers`.
QString readCallbackTarget(const QString &field, const QString &raw, const EgressGrant &grant);
QJsonObject readCallbackHeaders(const JsonFields &headers);

} // namespace ph::cloud
