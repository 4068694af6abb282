#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace ph {
class DomainError;
}

namespace ph::firecrawl {

// Firecrawl's error body for a DomainError (docs/api/firecrawl.md#errors): always
// {success:false, error}, with Firecrawl's own words where its clients look for them:
//   400  {success:false, code:"BAD_REQUEST", error:"Bad Request: <field>: <why>",
//         details:[{code, path:[…], message}]}   (the field named, as zod reports it)
//   401  {success:false, error:"Unauthorized: <why>"}
//   402  {success:false, error:"Insufficient credits to perform this request. …"}
//   429  {success:false, error:"Rate limit exceeded. …"}
//   500  {success:false, code:"UNKNOWN_ERROR", error:"…"}
// others {success:false, code, error}. Every body carries our `requestId` too.
QJsonObject errorEnvelope(const DomainError &error, const QString &requestId);

// "formats[1].type" -> ["formats", 1, "type"]: a field path as zod's `path`.
QJsonArray fieldPath(const QString &field);

} // namespace ph::firecrawl
