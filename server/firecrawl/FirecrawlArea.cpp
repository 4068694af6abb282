#include "FirecrawlArea.h"

#include "ExtractController.h"
#include "FirecrawlController.h"

#include "cloud/CloudArea.h"

namespace ph::firecrawl {

FirecrawlArea::FirecrawlArea(Store &store, Settings &settings, NetworkPolicy &policy,
                             cloud::CloudArea &cloud, QNetworkAccessManager &network)
    : m_controller(std::make_unique<FirecrawlController>(
          store, settings, policy, cloud.scrapeService(), cloud.runService(), network))
    , m_extract(std::make_unique<ExtractController>(store, settings, policy, cloud.runService()))
{}

FirecrawlArea::~FirecrawlArea() = default;

void FirecrawlArea::setScriptGrant(std::function<bool(const QString &)> grant)
{
    m_controller->setScriptGrant(std::move(grant));
}

QList<http::Controller *> FirecrawlArea::controllers()
{
    return {m_controller.get(), m_extract.get()};
}

} // namespace ph::firecrawl
