#pragma once

#include "engine/EngineTypes.h"

#include <QJsonObject>

namespace ph {
struct EgressGrant;
class Settings;
} // namespace ph

namespace ph::cloud {

// Reads and validates an ExecuteRequest (POST /agent, /execute). Every problem is an
// DomainError 400 naming the field; `stored` is the body with its secrets removed.
// `grant`: what the caller's key may reach (NetworkPolicy::grantFor); URLs it may not
// are typed 400s naming the field. The number of urls, file_urls, image_urls and
// dataInputs is capped by settings (agent.maxUrls …): over a cap, 400 TOO_MANY_URLS /
// TOO_MANY_DATA_INPUTS naming it.
engine::ExecuteRequest readExecuteRequest(const QJsonObject &body, const EgressGrant &grant,
                                          const Settings &settings);

} // namespace ph::cloud
