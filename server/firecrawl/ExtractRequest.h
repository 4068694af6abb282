#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QUrl>

namespace ph::firecrawl {

// What POST /firecrawl/v2/extract asks (docs/api/firecrawl.md#extract): the pages to read
// and what to read from each, through an agent run per page.
struct ExtractRequest
{
    QList<QUrl> urls;
    QString prompt; // systemPrompt first, when one was given
    QJsonObject schema;

    // The /agent body (docs/api/agent.md) that extracts from `url`.
    QJsonObject agentRequest(const QUrl &url) const;
};

// What POST /firecrawl/v2/agent asks: one agent run.
struct AgentJobRequest
{
    QList<QUrl> urls; // may be empty: the run then has no page to start from
    QString prompt;
    QJsonObject schema;

    QJsonObject agentRequest() const;
};

// At most this many URLs per extract (each is an agent run of its own).
constexpr int kMaxExtractUrls = 25;

// Read a body; unknown keys (origin, integration …) are ignored. What is malformed is a
// DomainError 400 naming the field; what Pilothouse cannot honour (a /* wildcard, web
// search, an LLM model choice, a spending cap …) is 400 UNSUPPORTED_OPTION naming it,
// never a quiet success without it.
ExtractRequest readExtractRequest(const QJsonObject &body);
AgentJobRequest readAgentJobRequest(const QJsonObject &body);

// The extracts of several pages as one: arrays are joined, objects merged key by key
// (their arrays joined, the first non-empty value kept otherwise).
QJsonValue mergeExtracted(const QJsonValue &first, const QJsonValue &second);

} // namespace ph::firecrawl
