#pragma once

#include "engine/EngineTypes.h"

#include <QJsonObject>

namespace ph {
class NetworkPolicy;
class Settings;
} // namespace ph

namespace ph::cloud {

// Reads and validates an ExecuteRequest (POST /agent, /execute). Every problem is an
// ApiError 400 naming the field; `stored` is the body with its secrets removed. The
// number of urls, file_urls, image_urls and dataInputs is capped by settings
// (agent.maxUrls …): over a cap, 400 TOO_MANY_URLS / TOO_MANY_DATA_INPUTS naming it.
engine::ExecuteRequest readExecuteRequest(const QJsonObject &body, const NetworkPolicy &policy,
                                          const Settings &settings);

} // namespace ph::cloud
