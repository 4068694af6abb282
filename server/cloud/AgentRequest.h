#pragma once

#include "engine/EngineTypes.h"

#include <QJsonObject>

namespace ph {
class NetworkPolicy;
}

namespace ph::cloud {

// Reads and validates an ExecuteRequest (POST /agent, /execute). Every problem is an
// ApiError 400 naming the field; `stored` is the body with its secrets removed.
engine::ExecuteRequest readExecuteRequest(const QJsonObject &body, const NetworkPolicy &policy);

} // namespace ph::cloud
