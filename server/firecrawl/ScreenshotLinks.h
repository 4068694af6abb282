#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

namespace ph {
class Store;
}

namespace ph::firecrawl {

// How long a screenshot is kept and its link works: a day, as Firecrawl's hosted
// screenshots and a crawl's results (docs/decisions.md#firecrawl-screenshots).
constexpr qint64 kScreenshotTtlMs = 24LL * 3600 * 1000;

// Where a Firecrawl scrape's pictures go (cloud::PageWork::keepImage): each PNG is a
// stored object of `keyId` (kind "screenshot", expiring with its link), served by the
// storage's signed, expiring link GET /storage/{id}?expires=…&sig=… under `base` (the
// public base URL, or the request's origin; empty: a path). A forged or expired link is
// 403 LINK_INVALID. Answers the link, or empty when the picture could not be stored.
std::function<QString(const QByteArray &png)> screenshotKeeper(Store &store, const QString &keyId,
                                                               QString base);

} // namespace ph::firecrawl
