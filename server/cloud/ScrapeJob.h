#pragma once

#include "PageSteps.h"

#include "browser/LeaseOptions.h"
#include "core/CreditLedger.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <map>
#include <memory>

namespace ph {
class BrowserLease;
class BrowserPool;
class NetworkPolicy;
} // namespace ph

namespace ph::cloud {

struct ScrapeOptions
{
    QStringList formats;
    int maxNodes = 2000;
    QString scope;        // the accessibility tree's (accessibilityTree.scope)
    QString contentScope; // text and markdown's (the bridge's scope)
    int timeoutMs = 30000;
    bool domContentLoaded = false;
    QString waitForSelector;
    QString waitForText;
    int waitMs = 0; // a pause after the load (and the wait condition), before the read
    int maxTextChars = 0;
    LeaseOptions browser;   // `browser`: the engine, the polyfills of every page
    QString browserSession; // `browserSession.id`: the pages are that session's tabs
    // What each page does after the load and the wait, before it is read (the Firecrawl
    // API's actions and tag filters; not part of the /scrape body). Its outputs land in
    // the result's `actions`, a failing step is the result's error.
    PageWork page;

    QJsonObject snapshotOptions() const;
};

// Loads a list of URLs in parallel on the pool and reads each back. Every URL ends
// with its own result or its own typed error; one bad URL never fails the others.
// A job keeps at most `parallel` URLs in the pool (leased or queued) at a time and
// feeds it the next one as each finishes, so a long list never floods the pool's queue.
class ScrapeJob : public QObject
{
    Q_OBJECT
public:
    // Every page acts with `grant`; names are resolved through the policy first so a
    // private one is refused with PRIVATE_TARGET before a page is leased.
    ScrapeJob(BrowserPool &pool, const NetworkPolicy &policy, EgressGrant grant, QList<QUrl> urls,
              ScrapeOptions options, QString label, int parallel, QObject *parent = nullptr);
    ~ScrapeJob() override;

    // The pages come from a browser session instead of the pool (before start()).
    void
    setSessionPages(std::function<
                    void(const QString &label, QObject *context,
                         std::function<void(std::unique_ptr<BrowserLease>, const QString &error)>)>
                        opener)
    {
        m_sessionPages = std::move(opener);
    }

    void start();
    // Ends every URL still in progress with CANCELLED and releases its page.
    void cancel();

    QJsonArray results() const;
    const Usage &usage() const { return m_usage; }
    int succeeded() const { return m_succeeded; }
    int failed() const { return m_failed; }
    bool isCancelled() const { return m_cancelled; }

Q_SIGNALS:
    void finished();

private:
    void startNext();
    void run(int index);
    void lease(int index);
    void load(int index);
    // Reads the loaded page back (the snapshot) into `loaded`, the navigation's result.
    void read(int index, const QJsonObject &loaded, const QJsonObject &navError);
    // Does the options' PageWork on the loaded page, then reads it.
    void prepare(int index, const QJsonObject &loaded, const QJsonObject &navError);
    void complete(int index, QJsonObject result, bool ok);
    void fail(int index, const QJsonObject &error);
    void releaseLease(int index);

    BrowserPool &m_pool;
    const NetworkPolicy &m_policy;
    EgressGrant m_grant;
    QList<QUrl> m_urls;
    ScrapeOptions m_options;
    QString m_label;
    QList<QJsonObject> m_results;
    QList<bool> m_done;
    std::map<int, std::unique_ptr<BrowserLease>> m_leases;
    std::map<int, std::unique_ptr<PageSteps>> m_steps; // go before their lease
    std::function<void(const QString &, QObject *,
                       std::function<void(std::unique_ptr<BrowserLease>, const QString &)>)>
        m_sessionPages;
    Usage m_usage;
    int m_remaining = 0;
    int m_parallel = 1;
    int m_nextToStart = 0;
    int m_succeeded = 0;
    int m_failed = 0;
    bool m_cancelled = false;
};

} // namespace ph::cloud
