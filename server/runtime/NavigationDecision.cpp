#include "NavigationDecision.h"

#include "RuntimeCommon.h"

#include <QUrl>

namespace ph::runtime {

namespace {

bool webScheme(const QUrl &url)
{
    return url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https");
}

QString classify(const NavigationInput &in, const QUrl &target, const QString &currentHost,
                 const QString &targetHost)
{
    if (webScheme(target) && targetHost == currentHost)
        return QStringLiteral("same_host_in_scope");
    if (webScheme(target) && in.hasKey &&
        sites::AllowedDomains::allows(in.allowedDomains, in.domainScope, in.targetUrl))
        return QStringLiteral("cross_host_in_scope");
    return QStringLiteral("cross_registrable_external");
}

// The tab the decision leaves: a new external tab, or the one the link was in.
Tab tabOf(const NavigationInput &in, const NavigationDecision &d, const QUrl &target)
{
    Tab tab;
    tab.url = target.toString(QUrl::RemoveUserInfo);
    if (d.decision == QLatin1String("open_new_tab")) {
        tab.logicalTabId = QStringLiteral("tab_%1").arg(in.nextSeq);
        tab.parentTabId = in.logicalTabId;
        tab.scope = QStringLiteral("external");
        tab.status = QStringLiteral("open");
        return tab;
    }
    tab.logicalTabId = in.logicalTabId;
    tab.scope = d.navigationClass == QLatin1String("cross_registrable_external")
                    ? QStringLiteral("external")
                    : QStringLiteral("in_scope");
    const bool blocked = d.decision == QLatin1String("block");
    tab.status = blocked ? QStringLiteral("blocked") : QStringLiteral("open");
    if (blocked)
        tab.reason = d.adversarial.reasons.isEmpty()
                         ? d.reason
                         : d.adversarial.reasons.join(QStringLiteral("; "));
    return tab;
}

} // namespace

NavigationDecision decideNavigation(const NavigationInput &in)
{
    NavigationDecision d;
    const QUrl target(in.targetUrl);
    const bool web = webScheme(target);
    d.currentHost = hostOf(in.currentUrl).isEmpty() ? in.sessionHost : hostOf(in.currentUrl);
    d.targetHost = hostOf(in.targetUrl);
    d.navigationClass = classify(in, target, d.currentHost, d.targetHost);

    // The adversarial score: the server's reading, merged with the client's (the higher).
    d.adversarial = assessUrl(in.targetUrl, in.sessionHost);
    if (in.clientScore && *in.clientScore > d.adversarial.score) {
        d.adversarial.score = *in.clientScore;
        d.adversarial.reasons << QStringLiteral("client score %1").arg(*in.clientScore);
    }
    auto listed = [&](const QStringList &entries) {
        return !entries.isEmpty() && web &&
               sites::AllowedDomains::allows(entries, sites::DomainScope::RegistrableDomain,
                                             in.targetUrl);
    };
    if (!web) {
        d.decision = QStringLiteral("block");
        d.notice = QStringLiteral("Only web pages can be opened.");
    } else if (d.adversarial.score >= in.blockScore) {
        d.decision = QStringLiteral("block");
        d.notice = QStringLiteral("This link looks unsafe and was blocked.");
    } else if (d.navigationClass != QLatin1String("cross_registrable_external")) {
        d.decision = QStringLiteral("allow_same_tab");
    } else if (listed(in.externalDenyDomains)) {
        d.decision = QStringLiteral("block");
        d.notice = QStringLiteral("The site does not allow opening %1.").arg(d.targetHost);
    } else {
        // External and not denied: it opens in a new tab, the site stays where it is.
        d.decision = QStringLiteral("open_new_tab");
        d.notice = listed(in.externalAllowDomains)
                       ? QString()
                       : QStringLiteral("%1 opens in a new tab.").arg(d.targetHost);
    }
    d.reason = d.decision == QLatin1String("block") ? QStringLiteral("policy_blocked") : d.decision;
    d.hint = d.decision == QLatin1String("allow_same_tab") ? QStringLiteral("navigate_same_tab")
             : d.decision == QLatin1String("open_new_tab") ? QStringLiteral("open_in_new_tab")
                                                           : QStringLiteral("stay_on_page");
    d.tab = tabOf(in, d, target);
    return d;
}

ExternalDecision decideExternal(const QString &url, const QString &sessionHost,
                                const QStringList &externalDenyDomains, double blockScore)
{
    ExternalDecision d;
    d.adversarial = assessUrl(url, sessionHost);
    d.decision = QStringLiteral("allow");
    if (!externalDenyDomains.isEmpty() &&
        sites::AllowedDomains::allows(externalDenyDomains, sites::DomainScope::RegistrableDomain,
                                      url)) {
        d.decision = QStringLiteral("block");
        d.reason = QStringLiteral("policy_blocked");
    } else if (d.adversarial.score >= blockScore) {
        d.decision = QStringLiteral("block");
        d.reason = QStringLiteral("adversarial_score");
    }
    return d;
}

AdversarialReading assessUrl(const QString &url, const QString &siteHost)
{
    AdversarialReading a;
    const QUrl u(url);
    auto add = [&a](double s, const QString &why) {
        a.score += s;
        a.reasons << why;
    };
    if (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https"))
        add(1.0, QStringLiteral("scheme %1 is not http(s)").arg(u.scheme()));
    if (!u.userName().isEmpty() || !u.password().isEmpty())
        add(0.5, QStringLiteral("credentials in the URL"));
    const QString host = sites::AllowedDomains::normalizeHost(u.host());
    if (sites::AllowedDomains::isIpAddress(host))
        add(0.3, QStringLiteral("an IP address as host"));
    if (host.startsWith(QLatin1String("xn--")) || host.contains(QLatin1String(".xn--")))
        add(0.3, QStringLiteral("an internationalised (punycode) host"));
    // The site's name inside another registrable domain: shop.example.com.evil.test.
    const QString own = sites::AllowedDomains::registrableDomain(siteHost);
    const QString theirs = sites::AllowedDomains::registrableDomain(host);
    if (!own.isEmpty() && own != theirs && host.contains(own))
        add(0.5, QStringLiteral("the site's domain inside another domain"));
    if (url.size() > 2000)
        add(0.2, QStringLiteral("a very long URL"));
    a.score = qMin(1.0, a.score);
    return a;
}

} // namespace ph::runtime
