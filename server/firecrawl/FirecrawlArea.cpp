#include "FirecrawlArea.h"

#include "FirecrawlController.h"

#include "cloud/CloudArea.h"

namespace ph::firecrawl {

FirecrawlArea::FirecrawlArea(Store &store, Settings &settings, NetworkPolicy &policy,
                             cloud::CloudArea &cloud, QNetworkAccessManager &network)
    : m_controller(std::make_unique<FirecrawlController>(
          store, settings, policy, cloud.scrapeService(), cloud.runService(), network))
{}

FirecrawlArea::~FirecrawlArea() = default;

QList<http::Controller *> FirecrawlArea::controllers()
{
    return {m_controller.get()};
}

} // namespace ph::firecrawl
