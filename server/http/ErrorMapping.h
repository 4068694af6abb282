#pragma once

#include "core/DomainError.h"

#include <QJsonObject>
#include <QString>

namespace ph::http {

// The one place where a DomainError becomes HTTP: its status, and the standard envelope
// {success:false, error, code, field?, details?, retryAfter?, requestId} (areas with an
// envelope of their own name it in their routes: Route::envelope).
int statusOf(DomainError::Kind kind);
QJsonObject errorBody(const DomainError &error, const QString &requestId);

} // namespace ph::http
