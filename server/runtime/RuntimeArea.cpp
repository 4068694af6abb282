#include "RuntimeArea.h"

#include "RuntimeController.h"
#include "RuntimeRunner.h"
#include "RuntimeService.h"

#include "a2w/A2wService.h"
#include "cloud/CloudArea.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"

namespace ph::runtime {

namespace {

// A2W browser runs: offered to the visitor, run only once they accept, and their result
// sent to the agent only as the visitor shares it.
RuntimeService::A2wClaimer claimerOf(a2w::A2wService &a2w)
{
    return
        [a2w = &a2w](const QString &receipt, const QString &siteId, RuntimeService::A2wClaim what) {
            using Claim = RuntimeService::A2wClaim;
            if (what == Claim::Decline) {
                a2w->declineBrowserRun(receipt, siteId);
                return RuntimeService::A2wOffer();
            }
            const a2w::A2wService::Claimed c = what == Claim::Accept
                                                   ? a2w->claimBrowserRun(receipt, siteId)
                                                   : a2w->offerBrowserRun(receipt, siteId);
            return RuntimeService::A2wOffer{c.runId, c.task,      c.siteName, c.host,
                                            c.url,   c.agentName, c.trust,    c.signatureAgent};
        };
}

} // namespace

RuntimeArea::RuntimeArea(Store &store, Settings &settings, BrowserPool &pool, NetworkPolicy &policy,
                         sites::SitesArea &sites, cloud::CloudArea &cloud, a2w::A2wService &a2w)
    : m_service(std::make_unique<RuntimeService>(store, settings, sites.sites(), sites.analytics()))
    , m_controller(std::make_unique<RuntimeController>(*m_service, settings))
    , m_runner(std::make_unique<RuntimeRunner>(*m_service, cloud.runService(), cloud.runs(), a2w,
                                               sites.sites(), policy, settings))
{
    m_service->setA2wClaimer(claimerOf(a2w));
    m_service->setA2wReviewer(
        [a2w = &a2w](const QString &a2wRunId, bool share, const QJsonObject &result) {
            a2w->shareBrowserResult(a2wRunId, share, result);
        });
    m_controller->setExternalActor(
        [runner = m_runner.get()](const QString &siteId, const QString &pageUrl, const QString &url,
                                  const QString &task, int timeoutMs, QObject *context,
                                  std::function<void(QJsonObject)> done) {
            runner->actExternally(siteId, pageUrl, url, task, timeoutMs, context, std::move(done));
        });
    m_controller->setCloudBrowser(
        &pool, &policy, [a2w = &a2w, repo = &sites.sites()](const QString &siteId) {
            const std::optional<sites::Site> site = repo->findSite(siteId);
            return site ? a2w->accountFor(site->id, site->name) : QString();
        });
}

RuntimeArea::~RuntimeArea() = default;

QList<http::Controller *> RuntimeArea::controllers()
{
    return {m_controller.get()};
}

QStringList RuntimeArea::crossOriginPrefixes()
{
    return {QStringLiteral("/v2/runtime/"), QStringLiteral("/embed.js")};
}

} // namespace ph::runtime
