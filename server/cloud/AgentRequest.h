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

// The checks every run request gets however it was made (POST /agent's body, an A2W run,
// which builds its ExecuteRequest directly): `list` (the field `listField`) capped by
// `capSetting` when `settings` is given, each URL http(s), absolute and reachable under
// `grant` (pinned to the run's first URL: pinnedGrant); returned trimmed.
QStringList checkedUrls(const QStringList &list, const QString &listField, const EgressGrant &grant,
                        const Settings *settings = nullptr, const QString &capSetting = {});
// What a key may reach for a run starting at `firstUrl` (NetworkPolicy::pinReach).
EgressGrant pinnedGrant(const EgressGrant &grant, const QString &firstUrl);
// history.answers as the store keeps them: the keys, never the values.
QJsonObject maskedAnswers(const QJsonObject &answers);

} // namespace ph::cloud
