// NavigationDecision: where a link on a visitor's page may go, a pure function of what
// the page sent, the site key's domains and policy and the block score. No store.
#include "runtime/NavigationDecision.h"

#include <QtTest>

using namespace ph;
using namespace ph::runtime;

Q_DECLARE_METATYPE(ph::runtime::NavigationInput)

namespace {
// The site key of the rows: harbour.example and (registrable scope) its subdomains.
NavigationInput link(const QString &target, const QString &current = QString())
{
    NavigationInput in;
    in.targetUrl = target;
    in.currentUrl = current.isEmpty() ? QStringLiteral("https://shop.harbour.example/") : current;
    in.sessionHost = QStringLiteral("shop.harbour.example");
    in.logicalTabId = QStringLiteral("main");
    in.nextSeq = 5;
    in.hasKey = true;
    in.allowedDomains = {QStringLiteral("harbour.example")};
    in.domainScope = sites::DomainScope::RegistrableDomain;
    in.blockScore = 0.7;
    return in;
}
} // namespace

class tst_RuntimeNavigation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decidesWhereALinkGoes_data();
    void decidesWhereALinkGoes();
    void decidesAnExternalUrl_data();
    void decidesAnExternalUrl();
    void readsAUrlAdversarially_data();
    void readsAUrlAdversarially();
};

void tst_RuntimeNavigation::decidesWhereALinkGoes_data()
{
    QTest::addColumn<NavigationInput>("in");
    QTest::addColumn<QString>("decision");
    QTest::addColumn<QString>("navigationClass");
    QTest::addColumn<QString>("tabId");
    QTest::addColumn<QString>("tabStatus");
    QTest::addColumn<QString>("notice");

    QTest::newRow("a link on the same host navigates in place")
        << link(QStringLiteral("https://shop.harbour.example/cart")) << "allow_same_tab"
        << "same_host_in_scope"
        << "main"
        << "open" << QString();
    QTest::newRow("a link to another allowed domain of the site navigates in place")
        << link(QStringLiteral("https://blog.harbour.example/post")) << "allow_same_tab"
        << "cross_host_in_scope"
        << "main"
        << "open" << QString();
    QTest::newRow("a link to another site opens in a new tab and the site stays where it is")
        << link(QStringLiteral("https://docs.other.example/")) << "open_new_tab"
        << "cross_registrable_external"
        << "tab_5"
        << "open"
        << "docs.other.example opens in a new tab.";
    {
        NavigationInput in = link(QStringLiteral("https://docs.other.example/"));
        in.externalAllowDomains = {QStringLiteral("other.example")};
        QTest::newRow("an external site the policy allows opens in a new tab without a notice")
            << in << "open_new_tab"
            << "cross_registrable_external"
            << "tab_5"
            << "open" << QString();
    }
    {
        NavigationInput in = link(QStringLiteral("https://docs.other.example/"));
        in.externalDenyDomains = {QStringLiteral("other.example")};
        QTest::newRow("an external site the policy denies is blocked and the tab stays")
            << in << "block"
            << "cross_registrable_external"
            << "main"
            << "blocked"
            << "The site does not allow opening docs.other.example.";
    }
    {
        NavigationInput in = link(QStringLiteral("https://blog.harbour.example/"));
        in.externalDenyDomains = {QStringLiteral("harbour.example")};
        QTest::newRow("a deny list does not reach a link inside the site's own domains")
            << in << "allow_same_tab"
            << "cross_host_in_scope"
            << "main"
            << "open" << QString();
    }
    QTest::newRow("a link that is not a web page is blocked")
        << link(QStringLiteral("javascript:alert(1)")) << "block"
        << "cross_registrable_external"
        << "main"
        << "blocked"
        << "Only web pages can be opened.";
    QTest::newRow("a link carrying credentials into a look-alike of the site is blocked as unsafe")
        << link(QStringLiteral("https://user:pw@harbour.example.evil.test/")) << "block"
        << "cross_registrable_external"
        << "main"
        << "blocked"
        << "This link looks unsafe and was blocked.";
    {
        NavigationInput in = link(QStringLiteral("https://shop.harbour.example/cart"));
        in.clientScore = 0.9;
        QTest::newRow("the page's own higher adversarial score blocks a link on the same host")
            << in << "block"
            << "same_host_in_scope"
            << "main"
            << "blocked"
            << "This link looks unsafe and was blocked.";
    }
    {
        NavigationInput in = link(QStringLiteral("https://blog.harbour.example/"));
        in.hasKey = false;
        QTest::newRow("without a site key only the same host stays in the tab")
            << in << "open_new_tab"
            << "cross_registrable_external"
            << "tab_5"
            << "open"
            << "blog.harbour.example opens in a new tab.";
    }
    {
        NavigationInput in = link(QStringLiteral("https://blog.harbour.example/"));
        in.domainScope = sites::DomainScope::ExactHost;
        in.allowedDomains = {QStringLiteral("shop.harbour.example")};
        QTest::newRow("an exact-host key keeps a sibling subdomain out of the tab")
            << in << "open_new_tab"
            << "cross_registrable_external"
            << "tab_5"
            << "open"
            << "blog.harbour.example opens in a new tab.";
    }
    {
        NavigationInput in = link(QStringLiteral("https://shop.harbour.example/a"));
        in.currentUrl = QStringLiteral("about:blank");
        QTest::newRow("a tab on a page with no host counts as on the session's host")
            << in << "allow_same_tab"
            << "same_host_in_scope"
            << "main"
            << "open" << QString();
    }
}

void tst_RuntimeNavigation::decidesWhereALinkGoes()
{
    QFETCH(NavigationInput, in);
    QFETCH(QString, decision);
    QFETCH(QString, navigationClass);
    QFETCH(QString, tabId);
    QFETCH(QString, tabStatus);
    QFETCH(QString, notice);
    const NavigationDecision d = decideNavigation(in);
    QCOMPARE(d.decision, decision);
    QCOMPARE(d.navigationClass, navigationClass);
    QCOMPARE(d.tab.logicalTabId, tabId);
    QCOMPARE(d.tab.status, tabStatus);
    QCOMPARE(d.notice, notice);
    QCOMPARE(d.reason,
             decision == QLatin1String("block") ? QStringLiteral("policy_blocked") : decision);
    QCOMPARE(d.hint, decision == QLatin1String("allow_same_tab")
                         ? QStringLiteral("navigate_same_tab")
                     : decision == QLatin1String("open_new_tab") ? QStringLiteral("open_in_new_tab")
                                                                 : QStringLiteral("stay_on_page"));
    // A new tab is the child of the one the link was in; a blocked tab says why.
    QCOMPARE(d.tab.parentTabId,
             decision == QLatin1String("open_new_tab") ? in.logicalTabId : QString());
    QCOMPARE(d.tab.reason.isEmpty(), decision != QLatin1String("block"));
    QVERIFY(!d.tab.url.contains(QLatin1String("pw@")));
    // Pure: the same input gives the same decision.
    QCOMPARE(decideNavigation(in).tab.logicalTabId, d.tab.logicalTabId);
}

void tst_RuntimeNavigation::decidesAnExternalUrl_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QStringList>("deny");
    QTest::addColumn<QString>("decision");
    QTest::addColumn<QString>("reason");
    QTest::newRow("an external page nobody denies is allowed")
        << "https://docs.other.example/" << QStringList() << "allow" << QString();
    QTest::newRow("an external page on a denied domain is blocked by the policy")
        << "https://docs.other.example/" << QStringList{QStringLiteral("other.example")} << "block"
        << "policy_blocked";
    QTest::newRow("a look-alike of the site is blocked by its score")
        << "https://user:pw@harbour.example.evil.test/" << QStringList() << "block"
        << "adversarial_score";
}

void tst_RuntimeNavigation::decidesAnExternalUrl()
{
    QFETCH(QString, url);
    QFETCH(QStringList, deny);
    QFETCH(QString, decision);
    QFETCH(QString, reason);
    const ExternalDecision d =
        decideExternal(url, QStringLiteral("shop.harbour.example"), deny, 0.7);
    QCOMPARE(d.decision, decision);
    QCOMPARE(d.reason, reason);
}

void tst_RuntimeNavigation::readsAUrlAdversarially_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<double>("score");
    QTest::addColumn<int>("reasons");
    QTest::newRow("a plain https page scores nothing") << "https://docs.other.example/" << 0.0 << 0;
    QTest::newRow("an IP address as host scores a little") << "http://192.0.2.7/" << 0.3 << 1;
    QTest::newRow("a punycode host scores a little")
        << "https://xn--hrbour-bua.example/" << 0.3 << 1;
    QTest::newRow("the site's domain inside another domain scores half")
        << "https://harbour.example.evil.test/" << 0.5 << 1;
    QTest::newRow("a scheme that is not http(s) scores the most")
        << "ftp://files.example/" << 1.0 << 1;
    QTest::newRow("several readings add up to at most one")
        << "ftp://u:p@harbour.example.192.0.2.7.evil.test/" << 1.0 << 3;
}

void tst_RuntimeNavigation::readsAUrlAdversarially()
{
    QFETCH(QString, url);
    QFETCH(double, score);
    QFETCH(int, reasons);
    const AdversarialReading a = assessUrl(url, QStringLiteral("shop.harbour.example"));
    QCOMPARE(a.score, score);
    QCOMPARE(a.reasons.size(), reasons);
}

QTEST_GUILESS_MAIN(tst_RuntimeNavigation)
#include "tst_runtimenavigation.moc"
