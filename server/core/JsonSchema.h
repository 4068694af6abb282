#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

// The subset of JSON Schema the tools' parameters use (type, enum, min/maxLength,
// minimum/maximum, items/maxItems, properties/required/additionalProperties). The MCP
// servers check tool arguments with it, and so do the cloud's saved tools and bridge.
namespace ph::JsonSchema {

// Checks `value` against `schema`; returns an empty string or a sentence naming the
// offending path (`path` prefixes it; empty: "arguments").
QString check(const QJsonObject &schema, const QJsonValue &value, const QString &path = {});

} // namespace ph::JsonSchema
