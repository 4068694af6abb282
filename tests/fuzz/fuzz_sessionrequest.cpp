// The POST /sessions body (sessions/SessionRequest): strict reading of every field, the
// profile name rule and the settings.proxy it shares with /agent. The input is the body.
#include "FuzzInput.h"

#include "core/DomainError.h"
#include "net/NetworkPolicy.h"
#include "sessions/SessionRequest.h"

#include <QJsonDocument>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::DomainError;
    using ph::sessions::CreateSessionRequest;
    const QJsonObject input = QJsonDocument::fromJson(bytesOf(data, size)).object();
    for (const bool privateTargets : {false, true}) {
        ph::EgressGrant grant;
        grant.privateTargets = privateTargets;
        try {
            const CreateSessionRequest r = CreateSessionRequest::read(input, grant);
            require(r.engine == QLatin1String("chromium"), "a session on another engine");
            require(r.profile.isEmpty() || CreateSessionRequest::isProfileName(r.profile),
                    "a profile name that could leave the profiles directory");
            require(r.width >= 320 && r.width <= 3840 && r.height >= 240 && r.height <= 2160,
                    "a viewport out of range");
            require(r.timeoutSeconds >= 10 && r.timeoutSeconds <= 86400 &&
                        r.idleTimeoutSeconds >= 10 && r.idleTimeoutSeconds <= 86400,
                    "a timeout out of range");
            require(r.userAgent.size() <= 512, "a user agent over 512 characters");
            require(!r.proxy || (!r.proxy->host.isEmpty() && r.proxy->port != 0),
                    "a proxy without an address");
        } catch (const DomainError &e) {
            require(e.kind() == DomainError::Kind::Invalid && !e.field().isEmpty(),
                    "a refusal that is not a 400 naming its field");
        }
    }
    return 0;
}
