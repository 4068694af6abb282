#pragma once

#include "engine/EngineTypes.h"

#include <QJsonObject>

namespace ph {
struct EgressGrant;
}

namespace ph::cloud {

// Reads and validates an ExecuteRequest (POST /agent, /execute). Every problem is an
// ApiError 400 naming the field; `stored` is the body with its secrets removed.
// `grant`: what the caller's key may reach (NetworkPolicy::grantFor); URLs it may not
// are typed 400s naming the field.
engine::ExecuteRequest readExecuteRequest(const QJsonObject &body, const EgressGrant &grant);

} // namespace ph::cloud
