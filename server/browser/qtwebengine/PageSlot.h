#pragma once

#include "browser/PageEngine.h"
#include "browser/PageRequests.h"

#include "net/EgressProxy.h"
#include "net/NetworkPolicy.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <memory>

class QWebEnginePage;
class QWebEngineProfile;

namespace ph {

class HostResolver;
class PageAgent;
class SlotInterceptor;
class WebEngineNavigation;

// Internal to the browser area: the qtwebengine engine's page (PageEngine). One isolation
// scope, an off-the-record profile with one page in it, its own request interceptor and
// egress identity. Slots are never reused across leases; the pool discards them.
class PageSlot : public PageEngine
{
    Q_OBJECT
public:
    // `polyfills`: whether the page starts with the polyfill script (setPolyfills()).
    PageSlot(const PageAgent &agent, std::shared_ptr<EgressProxy> egress,
             std::shared_ptr<const HostResolver> resolver, bool polyfills = true,
             QObject *parent = nullptr);
    ~PageSlot() override;

    QWebEnginePage *page() const { return m_page; }
    QWebEngineProfile *profile() const { return m_profile; }

    // PageEngine
    QString engineName() const override;
    QWebEnginePage *webEnginePage() const override { return m_page; }
    QWebEngineProfile *webEngineProfile() const override { return m_profile; }
    bool crashed() const override { return m_crashed; }
    QUrl url() const override;
    QString title() const override;
    void whenUsable(QObject *context, std::function<void()> then) override;
    void navigate(const QUrl &url, const NavigateOptions &options,
                  std::function<void(const NavigationResult &)> done) override;
    void evaluate(const QString &script, int timeoutMs,
                  std::function<void(bool ok, const QVariant &value)> done) override;
    void loadHtml(const QString &html, int timeoutMs, std::function<void(bool ok)> done) override;
    void printToPdf(const QPageLayout &layout,
                    std::function<void(const QByteArray &pdf)> done) override;
    std::unique_ptr<LiveFrameSource> screencast(QObject *parent) override;
    void recover() override { replacePage(); }
    void detach() override;

    // Starts the renderer ahead of need (loads about:blank); warmed() follows.
    void warm();
    bool isWarming() const { return m_warming; }
    void replacePage();

    // Adds or removes the polyfill script (PageAgent::polyfills()); documents created
    // from then on have it or not. A replaced page keeps the choice.
    void setPolyfills(bool on);
    bool polyfills() const { return m_polyfills; }

    // What this slot's traffic may reach; set when the slot is leased.
    void setGrant(const EgressGrant &grant) override;
    EgressGrant grant() const override { return m_grant; }
    QString egressUser() const override { return m_identity.user; }

    // Refusals so far (the newest last, at most 64 kept) and the serial the next gets.
    const RefusalLog &refusalLog() const override { return m_log; }
    void noteRefusal(Refusal refusal) override;

    // The caller's extra headers for the page's main-frame requests (the interceptor
    // adds them), set by navigate() and dropped when the lease ends.
    const NavigationHeaders &navigationHeaders() const { return m_headers; }

    // The last download the page's navigation turned into (non-HTML content).
    QString downloadMime;
    QUrl downloadUrl;

Q_SIGNALS:
    void downloadSeen();
    void warmed();

private:
    friend class WebEngineNavigation;
    void createPage();
    void navigationEnded(WebEngineNavigation *navigation);

    const PageAgent &m_agent;
    std::shared_ptr<EgressProxy> m_egress;
    EgressProxy::Identity m_identity;
    EgressGrant m_grant;
    NavigationHeaders m_headers;
    std::unique_ptr<SlotInterceptor> m_interceptor;
    QWebEngineProfile *m_profile = nullptr;
    QWebEnginePage *m_page = nullptr;
    QList<QWebEnginePage *> m_oldPages; // crashed pages awaiting deletion
    RefusalLog m_log;
    bool m_crashed = false;
    bool m_warming = false;
    bool m_polyfills = true;
    // What the current lease started (navigations, evaluation timers) lives here and
    // goes, unheard, when the lease ends (detach()).
    QObject *m_leaseScope = nullptr;
    QPointer<WebEngineNavigation> m_navigation; // the pending navigation, if any
};

} // namespace ph
