// The Firecrawl-compatible crawl and batch scrape bodies (firecrawl/CrawlRequest): every
// field read or refused by name, and the crawl's scope judging the links a page could
// hold with the caller's own regular expressions. The input is the body; its `links`
// (strings) are offered to the scope as a page's links.
#include "FuzzInput.h"

#include "core/DomainError.h"
#include "firecrawl/CrawlRequest.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>
#include <QJsonDocument>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using namespace ph::firecrawl;
    using ph::DomainError;
    const QJsonObject input = QJsonDocument::fromJson(bytesOf(data, size)).object();
    for (const bool batch : {false, true}) {
        for (const ApiVersion version : {ApiVersion::V1, ApiVersion::V2}) {
            ph::EgressGrant grant;
            grant.privateTargets = batch;
            try {
                const CrawlRequest r = batch ? readBatchRequest(input, version, grant)
                                             : readCrawlRequest(input, version, grant);
                require(r.limit >= 1 && r.limit <= CrawlRequest::kMaxLimit, "a limit out of range");
                require(r.maxConcurrency >= 0 && r.maxConcurrency <= CrawlRequest::kMaxConcurrency,
                        "a concurrency out of range");
                require(r.delaySeconds >= 0 && r.delaySeconds <= 3600, "a delay out of range");
                require(!r.url.host().isEmpty(), "a start without a host");
                require(!batch || (!r.urls.isEmpty() && r.urls.size() <= CrawlRequest::kMaxLimit),
                        "a batch without URLs, or with too many");
                require(!r.scrape.json, "a json format in a crawl");
                const QString scheme = r.webhook.url.section(QLatin1Char(':'), 0, 0);
                require(!r.webhook.isSet() || scheme == QLatin1String("https") ||
                            scheme == QLatin1String("http"),
                        "a webhook that is not http(s)");
                const CrawlScope scope(r);
                for (const QJsonValue &link : input.value(QStringLiteral("links")).toArray()) {
                    const QUrl url = scope.normalized(link.toString(), r.url);
                    if (url.isEmpty())
                        continue;
                    require(url.scheme() == QLatin1String("http") ||
                                url.scheme() == QLatin1String("https"),
                            "a followed link that is not http(s)");
                    require(url.fragment().isEmpty(), "a followed link with a fragment");
                    scope.refusal(url, 1);
                }
            } catch (const DomainError &e) {
                require(e.kind() == DomainError::Kind::Invalid && !e.field().isEmpty(),
                        "a refusal that is not a 400 naming its field");
            }
        }
    }
    return 0;
}
