#pragma once

#include "RuntimeRepository.h"
#include "RuntimeTypes.h"

#include "sites/AllowedDomains.h"

#include <QString>
#include <QStringList>

#include <optional>

// Where a link on a visitor's page may go (docs/api/runtime.md, "Tab events"): a pure
// function of what the page sent, the site key's domains and policy and the block score.
// No store, no clock: the caller stores the tab and the event.
namespace ph::runtime {

struct NavigationInput
{
    QString targetUrl;   // the link, as the page sent it (absolute)
    QString currentUrl;  // the page the tab is on ("" or hostless: the session's host)
    QString sessionHost; // the host the session was opened on
    QString logicalTabId = QStringLiteral("main");
    qint64 nextSeq = 1; // the session's next seq: names a tab the decision opens
    // The site key (none when it is gone): its domains and scope.
    bool hasKey = false;
    QStringList allowedDomains;
    sites::DomainScope domainScope = sites::DomainScope::ExactHost;
    // The site policy's external lists (registrable domains).
    QStringList externalDenyDomains;
    QStringList externalAllowDomains;
    std::optional<double> clientScore; // the page's own adversarial score, if it sent one
    double blockScore = 1.0;           // a score at or over it blocks
};

struct NavigationDecision
{
    QString decision; // allow_same_tab | open_new_tab | block
    QString reason;   // the decision, or policy_blocked
    QString hint;     // navigate_same_tab | open_in_new_tab | stay_on_page
    QString notice;   // what the visitor is told, if anything
    QString
        navigationClass; // same_host_in_scope | cross_host_in_scope | cross_registrable_external
    QString currentHost;
    QString targetHost;
    AdversarialReading adversarial;
    Tab tab; // the tab it leaves (updatedAt unset)
};

NavigationDecision decideNavigation(const NavigationInput &in);

// POST /context/external's decision for an external URL: `allow` or `block`, with the
// reason (policy_blocked, adversarial_score) and the reading.
struct ExternalDecision
{
    QString decision;
    QString reason;
    AdversarialReading adversarial;
};
ExternalDecision decideExternal(const QString &url, const QString &sessionHost,
                                const QStringList &externalDenyDomains, double blockScore);

// The server's adversarial reading of a URL, against the site's own host.
AdversarialReading assessUrl(const QString &url, const QString &siteHost);

} // namespace ph::runtime
