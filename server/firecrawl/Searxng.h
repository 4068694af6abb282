#pragma once

#include "FirecrawlScrape.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

namespace ph::firecrawl {

// One web result of a search.
struct SearchHit
{
    QString url;
    QString title;
    QString description;
};

// What a search asks (POST /v2/search): unknown keys ignored; the sources beyond `web`
// and Firecrawl's search operators that SearXNG has no word for are named in `warnings`.
struct SearchRequest
{
    QString query;
    int limit = 5;
    QString language;
    ScrapeRequest scrape; // scrapeOptions; no formats: the results are not scraped
    QStringList warnings;
};
SearchRequest readSearchRequest(const QJsonObject &body, ApiVersion version);

// SearXNG's JSON API (GET <base>/search?q=…&format=json), which self-hosted Firecrawl
// uses too: the query URL, and its answer read into hits.
QUrl searxngQuery(const QUrl &base, const QString &query, const QString &language);
// The `results` of a SearXNG answer: http(s) URLs only, each once, at most `limit`.
// Anything that is not a JSON object with a `results` array sets `*error`.
QList<SearchHit> readSearxng(const QByteArray &json, int limit, QString *error);

} // namespace ph::firecrawl
