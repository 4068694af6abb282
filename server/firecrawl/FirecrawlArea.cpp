#include "FirecrawlArea.h"

#include "CrawlController.h"
#include "CrawlService.h"
#include "ExtractController.h"
#include "FirecrawlController.h"

#include "cloud/CloudArea.h"

namespace ph::firecrawl {

FirecrawlArea::FirecrawlArea(Store &store, Settings &settings, NetworkPolicy &policy,
                             cloud::CloudArea &cloud, QNetworkAccessManager &network,
                             webhooks::WebhookQueue &webhooks)
    : m_controller(std::make_unique<FirecrawlController>(
          store, settings, policy, cloud.scrapeService(), cloud.runService(), network))
    , m_extract(std::make_unique<ExtractController>(store, settings, policy, cloud.runService()))
    , m_crawls(
          std::make_unique<CrawlService>(store, settings, policy, cloud.scrapeService(), webhooks))
    , m_crawlController(std::make_unique<CrawlController>(settings, policy, *m_crawls))
{}

FirecrawlArea::~FirecrawlArea() = default;

void FirecrawlArea::setScriptGrant(std::function<bool(const QString &)> grant)
{
    m_crawlController->setScriptGrant(grant);
    m_controller->setScriptGrant(std::move(grant));
}

QList<http::Controller *> FirecrawlArea::controllers()
{
    return {m_controller.get(), m_extract.get(), m_crawlController.get()};
}

void FirecrawlArea::resume()
{
    m_crawls->resume();
}

void FirecrawlArea::shutdown()
{
    m_crawls->shutdown();
}

} // namespace ph::firecrawl
