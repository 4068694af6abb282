// The Firecrawl-compatible API's request readers (server/firecrawl: readScrapeRequest with
// its actions and tag filters, readExtractRequest, readAgentJobRequest) and the merge of
// extracted data. First byte: which reader (0 scrape v2, 1 scrape v1, 2 scrapeOptions,
// 3 extract, 4 agent); the rest the JSON body. Every refusal is a 400 naming its field.
#include "FuzzInput.h"

#include "core/DomainError.h"
#include "firecrawl/ExtractRequest.h"
#include "firecrawl/FirecrawlScrape.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

using namespace ph::firecrawl;

void checkScrape(const ScrapeRequest &r)
{
    using ph::fuzz::require;
    require(r.waitMs >= 0 && r.waitMs + (r.hasActions ? r.actionWaitMs : 0) <= 60000,
            "waits over a minute");
    require(r.timeoutMs == 0 || (r.timeoutMs >= 100 && r.timeoutMs <= 120000),
            "a navigation timeout out of range");
    require(r.hasActions || r.page.steps.isEmpty(), "steps without actions");
    for (const ph::cloud::PageStep &s : r.page.steps) {
        require(s.field.startsWith(QLatin1String("actions[")), "a step that names no action");
        require(s.kind != ph::cloud::PageStep::Kind::Click || !s.selector.isEmpty(),
                "a click without a selector");
        require(s.ms >= 0 && s.ms <= 60000, "a pause out of range");
    }
    for (const QString &t : r.page.includeTags + r.page.excludeTags)
        require(!t.trimmed().isEmpty(), "an empty tag selector");
    (void)r.cloudRequest({r.url});
    (void)r.cacheKey();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::DomainError;
    if (size < 1)
        return 0;
    const int which = data[0] % 5;
    const QJsonObject body = QJsonDocument::fromJson(bytesOf(data + 1, size - 1)).object();
    try {
        switch (which) {
        case 0:
        case 1:
            checkScrape(readScrapeRequest(body, which == 0 ? ApiVersion::V2 : ApiVersion::V1,
                                          QString(), true, {QStringLiteral("markdown")}));
            break;
        case 2:
            checkScrape(readScrapeRequest(body, ApiVersion::V2, QStringLiteral("scrapeOptions"),
                                          false, {}));
            break;
        case 3: {
            const ExtractRequest r = readExtractRequest(body);
            require(!r.urls.isEmpty() && r.urls.size() <= kMaxExtractUrls,
                    "an extract of no or too many pages");
            require(!r.prompt.trimmed().isEmpty() || !r.schema.isEmpty(),
                    "an extract that asks for nothing");
            QJsonValue merged;
            for (const QUrl &u : r.urls) {
                require(u.scheme() == QLatin1String("http") || u.scheme() == QLatin1String("https"),
                        "a page of another scheme");
                merged = mergeExtracted(merged, r.agentRequest(u));
            }
            require(merged.isObject(), "the merge of objects is not an object");
            break;
        }
        default: {
            const AgentJobRequest r = readAgentJobRequest(body);
            require(!r.prompt.trimmed().isEmpty(), "an agent without a prompt");
            (void)r.agentRequest();
            // The merge of what a caller's pages gave, with itself.
            (void)mergeExtracted(body.value(QStringLiteral("schema")),
                                 body.value(QStringLiteral("schema")));
            break;
        }
        }
    } catch (const DomainError &e) {
        require(e.kind() == DomainError::Kind::Invalid && !e.field().isEmpty(),
                "a refusal that is not a 400 naming its field");
    }
    return 0;
}
