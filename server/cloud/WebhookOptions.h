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

} // namespace ph::cloud
