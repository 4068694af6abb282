#pragma once

#include "cloud/PageSteps.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>

namespace ph {
class DomainError;
struct Principal;
} // namespace ph

namespace ph::firecrawl {

// Which of Firecrawl's API versions a request came in as: v1 and v2 share the code and
// differ in a few shapes (formats as strings or objects, map links as strings).
enum class ApiVersion { V1, V2 };

// What a Firecrawl scrape asks (POST /v2/scrape, or a search's scrapeOptions), read into
// what Pilothouse's /scrape does (docs/api/firecrawl.md#scrape).
struct ScrapeRequest
{
    QUrl url;            // empty inside scrapeOptions
    QStringList formats; // Firecrawl's names: markdown, html, rawHtml, links
    bool onlyMainContent = true;
    int waitMs = 0; // waitFor, plus the `wait` actions' milliseconds when only waits
    QString waitForSelector;
    // Actions other than waits (then every action is a step, in order) and the tag
    // filters: what the page does before it is read.
    cloud::PageWork page;
    bool hasActions = false;
    int actionWaitMs = 0; // the `wait` actions' milliseconds
    int timeoutMs = 0;    // 0: the service's navigation timeout
    qint64 maxAgeMs = 0;  // 0: never answered from the cache
    bool storeInCache = true;
    QStringList warnings; // what was accepted but is not done as Firecrawl does it
    // The json format (v1: json or extract): extracted by an agent run on the page, as
    // POST /agent does it (the rule planner, or the configured model).
    bool json = false;
    QString jsonPrompt;
    QJsonObject jsonSchema; // empty: none

    // The /scrape body (docs/api/scrape.md) that loads `urls` as this request asks.
    QJsonObject cloudRequest(const QList<QUrl> &urls) const;
    // The /agent body (docs/api/agent.md) that extracts the json format from the page.
    QJsonObject agentRequest() const;
    // What decides the answer besides the page: two requests with the same key get the
    // same document from the same page.
    QString cacheKey() const;
    // Whether the page's work takes screenshots (the format, or an action): such documents
    // are not cached, their links expiring (firecrawl/ScreenshotLinks).
    bool takesPictures() const;
};

// Reads a Firecrawl scrape body. `prefix` names fields inside an enclosing object
// ("scrapeOptions"); `needsUrl` reads `url`. Unknown keys are ignored (origin,
// integration …). Throws DomainError naming the field for what is malformed, and for
// what Pilothouse cannot do (UNSUPPORTED_FORMAT, UNSUPPORTED_ACTION, UNSUPPORTED_OPTION)
// rather than answering without it. `defaultFormats` applies when `formats` is absent.
ScrapeRequest readScrapeRequest(const QJsonObject &body, ApiVersion version, const QString &prefix,
                                bool needsUrl, const QStringList &defaultFormats);

// Firecrawl's form of a URL a caller gave: "example.com" means http://example.com, as
// Firecrawl reads it; only http and https. Throws DomainError naming `field`.
QUrl readUrl(const QString &raw, const QString &field);

// Whether a /scrape result (one of its `results`) holds a page to make a document of.
bool hasPage(const QJsonObject &result);
// Firecrawl's document for a /scrape result that holds a page: the formats asked for and
// metadata {title, description, language, sourceURL, url, statusCode, scrapeId,
// contentType, proxyUsed, error?}.
QJsonObject documentFor(const QJsonObject &result, const ScrapeRequest &request,
                        const QString &scrapeId);
// The error a scrape without a page answers: 403 for a refused target, 408 for a
// timeout, 429 for a full pool, else 500 with the page's own code.
DomainError pageError(const QJsonObject &result);

// Throws 403 SCRIPTS_NOT_ALLOWED naming the step when `request` runs its own scripts
// (executeJavascript) and the caller is neither the owner nor granted pageScripts by
// `grant` (Service wires sites::SitesArea::scriptGrant; unset: nobody but the owner).
void requireScriptGrant(const Principal &caller, const ScrapeRequest &request,
                        const std::function<bool(const QString &keyId)> &grant);

} // namespace ph::firecrawl
