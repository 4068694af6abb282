#pragma once

#include "BrowserLease.h"
#include "PageRequests.h"

#include "net/EgressProxy.h"
#include "net/NetworkPolicy.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>

class QWebEnginePage;
class QWebEngineProfile;

namespace ph {

class HostResolver;
class PageAgent;
class SlotInterceptor;

// Internal to the browser area: one isolation scope, an off-the-record profile with one
// page in it, its own request interceptor and egress identity. Slots are never reused
// across leases; the pool discards them.
class PageSlot : public QObject
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
    bool crashed() const { return m_crashed; }
    // Starts the renderer ahead of need (loads about:blank); warmed() follows.
    void warm();
    bool isWarming() const { return m_warming; }
    void replacePage();

    // Adds or removes the polyfill script (PageAgent::polyfills()); documents created
    // from then on have it or not. A replaced page keeps the choice.
    void setPolyfills(bool on);
    bool polyfills() const { return m_polyfills; }

    // What this slot's traffic may reach; set when the slot is leased.
    void setGrant(const EgressGrant &grant);
    EgressGrant grant() const { return m_grant; }
    QString egressUser() const { return m_identity.user; }

    // Refusals so far (the newest last, at most 64 kept) and the serial the next gets.
    const RefusalLog &refusalLog() const { return m_log; }
    void noteRefusal(Refusal refusal);

    // The last download the page's navigation turned into (non-HTML content).
    QString downloadMime;
    QUrl downloadUrl;

Q_SIGNALS:
    void rendererCrashed();
    void downloadSeen();
    void warmed();
    void refused(const ph::Refusal &refusal);

private:
    void createPage();

    const PageAgent &m_agent;
    std::shared_ptr<EgressProxy> m_egress;
    EgressProxy::Identity m_identity;
    EgressGrant m_grant;
    std::unique_ptr<SlotInterceptor> m_interceptor;
    QWebEngineProfile *m_profile = nullptr;
    QWebEnginePage *m_page = nullptr;
    QList<QWebEnginePage *> m_oldPages; // crashed pages awaiting deletion
    RefusalLog m_log;
    bool m_crashed = false;
    bool m_warming = false;
    bool m_polyfills = true;
};

} // namespace ph
