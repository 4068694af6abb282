#include "RunContext.h"

#include "BrowserTab.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "core/Settings.h"

#include <QNetworkAccessManager>

#include <QTimer>

#include <algorithm>

namespace ph::engine {

RunContext::RunContext(EngineServices &services, const ExecuteRequest &request,
                       QString trajectoryId, int phase, QString keyId, QString requestId,
                       QObject *parent)
    : QObject(parent)
    , m_services(services)
    , m_request(request)
    , m_trajectoryId(std::move(trajectoryId))
    , m_phase(phase)
    , m_keyId(std::move(keyId))
    , m_requestId(std::move(requestId))
    , m_grant(services.policy.grantFor(m_keyId))
{
    // The run's own proxy (settings.proxy) carries its pages and its fetches.
    m_grant.upstream = request.runSettings.proxy;
    // Work a visitor started reaches the site's own hosts on the scheme and port it
    // started on (a run rebuilt after a restart starts on the same stored URL), and
    // under same_host its pages land on that origin only.
    m_grant = NetworkPolicy::pinReach(
        m_grant, request.reachStart.isValid() ? request.reachStart : QUrl(request.urls.value(0)));
    m_grant.navigationOrigin = request.sameOrigin;
}

QNetworkAccessManager &RunContext::fetcher()
{
    if (!m_fetcher)
        m_fetcher = m_services.policy.createFetcher(m_grant, this);
    return *m_fetcher;
}

RunContext::~RunContext()
{
    releaseTab();
}

int RunContext::addSheet(data::Sheet sheet)
{
    if (sheet.title.trimmed().isEmpty())
        sheet.title = QStringLiteral("Sheet %1").arg(m_sheets.size() + 1);
    const QString base = sheet.title;
    for (int n = 2;; ++n) {
        const bool taken = std::any_of(m_sheets.cbegin(), m_sheets.cend(), [&](const auto &s) {
            return s.title.compare(sheet.title, Qt::CaseInsensitive) == 0;
        });
        if (!taken)
            break;
        sheet.title = QStringLiteral("%1 (%2)").arg(base).arg(n);
    }
    m_sheets.append(std::move(sheet));
    return int(m_sheets.size() - 1);
}

int RunContext::findSheet(const QJsonValue &ref) const
{
    if (ref.isUndefined() || ref.isNull())
        return m_sheets.isEmpty() ? -1 : 0;
    if (ref.isDouble()) {
        const int i = ref.toInt(-1);
        return i >= 0 && i < m_sheets.size() ? i : -1;
    }
    const QString title = ref.toString().trimmed();
    for (int i = 0; i < m_sheets.size(); ++i) {
        if (m_sheets.at(i).title == title)
            return i;
    }
    for (int i = 0; i < m_sheets.size(); ++i) {
        if (m_sheets.at(i).title.compare(title, Qt::CaseInsensitive) == 0)
            return i;
    }
    return -1;
}

int RunContext::navigationTimeoutMs() const
{
    const int asked = m_request.runSettings.extraction.timeoutMs;
    return asked > 0 ? asked : m_services.settings.intValue(SettingKeys::navigationTimeoutMs);
}

NavigateOptions RunContext::navigateOptions() const
{
    const ExtractionConfig &e = m_request.runSettings.extraction;
    NavigateOptions o;
    o.timeoutMs = navigationTimeoutMs();
    if (e.waitUntil == QLatin1String("domcontentloaded"))
        o.waitUntil = NavigateOptions::WaitUntil::DomContentLoaded;
    o.waitForSelector = e.waitForSelector;
    o.waitForText = e.waitForText;
    return o;
}

void RunContext::tab(std::function<void(BrowserTab *, const QString &)> ready)
{
    if (m_tab) {
        QTimer::singleShot(0, this, [this, ready] { ready(m_tab.get(), QString()); });
        return;
    }
    if (m_request.remoteTab) {
        // A run on a visitor's own page (the embedded runtime): its tab is that page.
        m_tab = m_request.remoteTab();
        m_tabClock.start();
        m_clockRunning = true;
        QTimer::singleShot(0, this, [this, ready] { ready(m_tab.get(), QString()); });
        return;
    }
    m_waiting.append(std::move(ready));
    if (m_leasing)
        return;
    m_leasing = true;
    if (m_request.sessionPage) {
        // A run inside a browser session: its tab is a tab of the session's browser.
        m_request.sessionPage(m_trajectoryId, this,
                              [this](std::unique_ptr<BrowserLease> lease, const QString &error) {
                                  granted(std::move(lease), error);
                              });
        return;
    }
    const bool queued = m_services.pool.acquire(
        m_trajectoryId, m_grant, m_request.browser, this,
        [this](std::unique_ptr<BrowserLease> lease) { granted(std::move(lease), QString()); });
    if (!queued) {
        m_leasing = false;
        const auto waiting = std::exchange(m_waiting, {});
        QTimer::singleShot(0, this, [waiting] {
            for (const auto &w : waiting)
                w(nullptr, QStringLiteral("the browser pool is full; no page is free"));
        });
    }
}

void RunContext::granted(std::unique_ptr<BrowserLease> lease, const QString &error)
{
    m_leasing = false;
    if (m_cancelled || !lease) {
        // The run ended while it waited for the page: the page goes straight back.
        lease.reset();
        const QString why = m_cancelled ? QStringLiteral("the run was cancelled") : error;
        const auto waiting = std::exchange(m_waiting, {});
        for (const auto &w : waiting)
            w(nullptr, why);
        return;
    }
    m_tab = std::make_unique<LeasedTab>(std::move(lease), navigateOptions());
    m_tabClock.start();
    m_clockRunning = true;
    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &w : waiting)
        w(m_tab.get(), QString());
}

void RunContext::pauseClock()
{
    if (m_tab && m_clockRunning) {
        m_tabMs += m_tabClock.elapsed();
        m_clockRunning = false;
    }
}

void RunContext::resumeClock()
{
    if (m_tab && !m_clockRunning) {
        m_tabClock.restart();
        m_clockRunning = true;
    }
}

Usage RunContext::takeUsage()
{
    if (m_tab && m_clockRunning)
        m_tabMs += m_tabClock.restart();
    Usage u = m_usage;
    u.browserMs += m_tabMs;
    m_tabMs = 0;
    m_usage = Usage();
    return u;
}

void RunContext::releaseTab()
{
    if (!m_tab)
        return;
    pauseClock();
    m_usage.browserMs += m_tabMs;
    m_tabMs = 0;
    m_tab.reset();
}

} // namespace ph::engine
