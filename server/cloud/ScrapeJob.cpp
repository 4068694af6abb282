#include "ScrapeJob.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "net/HostResolver.h"
#include "net/NetworkPolicy.h"

#include <QHostAddress>
#include <QHostInfo>
#include <QJsonDocument>
#include <QTimer>

namespace ph::cloud {

namespace {
constexpr int kSnapshotTimeoutMs = 15000;

QJsonObject error(const QString &code, const QString &message)
{
    return {{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
}
} // namespace

QJsonObject ScrapeOptions::snapshotOptions() const
{
    QJsonObject o{{QStringLiteral("formats"), QJsonArray::fromStringList(formats)},
                  {QStringLiteral("maxNodes"), maxNodes}};
    if (!scope.isEmpty())
        o.insert(QStringLiteral("scope"), scope);
    if (!contentScope.isEmpty())
        o.insert(QStringLiteral("contentScope"), contentScope);
    if (maxTextChars > 0)
        o.insert(QStringLiteral("maxTextChars"), maxTextChars);
    return o;
}

ScrapeJob::ScrapeJob(BrowserPool &pool, const NetworkPolicy &policy, EgressGrant grant,
                     QList<QUrl> urls, ScrapeOptions options, QString label, int parallel,
                     QObject *parent)
    : QObject(parent)
    , m_pool(pool)
    , m_policy(policy)
    , m_grant(std::move(grant))
    , m_urls(std::move(urls))
    , m_options(std::move(options))
    , m_label(std::move(label))
    , m_parallel(qMax(1, parallel))
{
    m_results.resize(m_urls.size());
    m_done.fill(false, m_urls.size());
    m_remaining = int(m_urls.size());
}

ScrapeJob::~ScrapeJob() = default;

void ScrapeJob::start()
{
    for (int i = 0; i < m_parallel; ++i)
        startNext();
}

void ScrapeJob::startNext()
{
    if (m_cancelled || m_nextToStart >= m_urls.size())
        return;
    run(m_nextToStart++);
}

void ScrapeJob::run(int index)
{
    const QUrl url = m_urls.at(index);
    const QString host = url.host();
    // Without the private grant, a name that resolves to a private address is refused
    // before a page is leased (literal addresses were refused with 400 already). The
    // egress proxy checks again at every connection, redirects included, and connects
    // to the address it checked.
    if (!m_grant.privateTargets && QHostAddress(host).isNull()) {
        m_policy.resolver()->lookup(host, this, [this, index, url](const HostResolver::Answer &a) {
            if (m_done.at(index))
                return;
            if (!a.error.isEmpty()) {
                fail(index, error(QStringLiteral("DNS_FAILURE"),
                                  QStringLiteral("the host name could not be resolved")));
                return;
            }
            if (const QString problem = NetworkPolicy::addressRefusal(url, a.addresses, m_grant);
                !problem.isEmpty()) {
                fail(index, error(QStringLiteral("PRIVATE_TARGET"), problem));
                return;
            }
            lease(index);
        });
        return;
    }
    lease(index);
}

void ScrapeJob::lease(int index)
{
    if (m_sessionPages) {
        // A tab of the caller's browser session: its signed-in state, its grant.
        m_sessionPages(m_label, this,
                       [this, index](std::unique_ptr<BrowserLease> l, const QString &why) {
                           if (m_done.at(index))
                               return;
                           if (!l) {
                               fail(index, error(QStringLiteral("SESSION_UNAVAILABLE"), why));
                               return;
                           }
                           m_leases[index] = std::move(l);
                           load(index);
                       });
        return;
    }
    const bool queued = m_pool.acquire(m_label, m_grant, m_options.browser, this,
                                       [this, index](std::unique_ptr<BrowserLease> l) {
                                           if (m_done.at(index))
                                               return;
                                           m_leases[index] = std::move(l);
                                           load(index);
                                       });
    if (!queued)
        fail(index, error(QStringLiteral("BUSY"), QStringLiteral("the browser pool is full")));
}

void ScrapeJob::load(int index)
{
    BrowserLease *lease = m_leases.at(index).get();
    NavigateOptions options;
    options.timeoutMs = m_options.timeoutMs;
    options.waitUntil = m_options.domContentLoaded ? NavigateOptions::WaitUntil::DomContentLoaded
                                                   : NavigateOptions::WaitUntil::Load;
    options.waitForSelector = m_options.waitForSelector;
    options.waitForText = m_options.waitForText;
    options.headers = m_options.page.headers;
    if (m_options.page.mobile && !lease->emulateMobile()) {
        fail(index, QJsonObject{{QStringLiteral("code"), QStringLiteral("UNSUPPORTED_OPTION")},
                                {QStringLiteral("message"),
                                 QStringLiteral("mobile emulation needs the chromium engine, "
                                                "whose page was not ready")},
                                {QStringLiteral("field"), QStringLiteral("mobile")}});
        return;
    }
    ++m_usage.pages;
    lease->navigate(m_urls.at(index), options, [this, index](const NavigationResult &nav) {
        if (m_done.at(index))
            return;
        QJsonObject result{{QStringLiteral("finalUrl"), nav.finalUrl.toString()},
                           {QStringLiteral("redirected"),
                            !nav.finalUrl.isEmpty() && nav.finalUrl != nav.requestedUrl}};
        if (nav.httpStatus > 0)
            result.insert(QStringLiteral("httpStatus"), nav.httpStatus);
        result.insert(QStringLiteral("timing"),
                      QJsonObject{{QStringLiteral("loadMs"), nav.elapsedMs}});
        // An HTTP error page still has a body worth reading; other failures do not.
        if (!nav.ok && nav.errorCode != QLatin1String("HTTP_STATUS")) {
            result.insert(QStringLiteral("error"), nav.errorJson());
            complete(index, result, false);
            return;
        }
        const QJsonObject navError = nav.ok ? QJsonObject() : nav.errorJson();
        if (m_options.waitMs > 0) {
            QTimer::singleShot(m_options.waitMs, this, [this, index, result, navError] {
                if (!m_done.at(index))
                    prepare(index, result, navError);
            });
            return;
        }
        prepare(index, result, navError);
    });
}

void ScrapeJob::prepare(int index, const QJsonObject &loaded, const QJsonObject &navError)
{
    if (m_options.page.isEmpty()) {
        read(index, loaded, navError);
        return;
    }
    auto steps =
        std::make_unique<PageSteps>(*m_leases.at(index), m_options.page, m_options.timeoutMs);
    PageSteps *running = steps.get();
    m_steps[index] = std::move(steps);
    connect(running, &PageSteps::finished, this, [this, index, running, loaded, navError] {
        if (m_done.at(index))
            return;
        QJsonObject result = loaded;
        result.insert(QStringLiteral("actions"), running->outputs());
        if (!running->screenshot().isEmpty())
            result.insert(QStringLiteral("screenshot"), running->screenshot());
        if (!running->extracted().isEmpty())
            result.insert(QStringLiteral("json"), running->extracted());
        if (!running->ok()) {
            result.insert(QStringLiteral("error"), running->error());
            complete(index, result, false);
            return;
        }
        read(index, result, navError);
    });
    running->start();
}

void ScrapeJob::read(int index, const QJsonObject &loaded, const QJsonObject &navError)
{
    QJsonObject result = loaded;
    m_leases.at(index)->snapshot(
        m_options.snapshotOptions(), kSnapshotTimeoutMs,
        [this, index, result, navError](const SnapshotResult &snap) mutable {
            if (m_done.at(index))
                return;
            if (!snap.ok) {
                result.insert(QStringLiteral("error"), error(snap.errorCode, snap.errorMessage));
                complete(index, result, false);
                return;
            }
            QJsonObject data = snap.data;
            QJsonObject timing = result.value(QStringLiteral("timing")).toObject();
            timing.insert(QStringLiteral("extractMs"), data.take(QStringLiteral("extractMs")));
            result.insert(QStringLiteral("timing"), timing);
            data.remove(QStringLiteral("url"));
            data.remove(QStringLiteral("readyState"));
            for (auto it = data.begin(); it != data.end(); ++it)
                result.insert(it.key(), it.value());
            const QString type = data.value(QStringLiteral("contentType")).toString();
            if (type != QLatin1String("text/html") &&
                type != QLatin1String("application/xhtml+xml")) {
                result.insert(
                    QStringLiteral("error"),
                    QJsonObject{{QStringLiteral("code"), QStringLiteral("NON_HTML")},
                                {QStringLiteral("message"),
                                 QStringLiteral("the URL serves %1, not a web page").arg(type)},
                                {QStringLiteral("contentType"), type}});
                complete(index, result, false);
                return;
            }
            if (!navError.isEmpty()) {
                result.insert(QStringLiteral("error"), navError);
                complete(index, result, false);
                return;
            }
            complete(index, result, true);
        });
}

void ScrapeJob::fail(int index, const QJsonObject &err)
{
    complete(index, QJsonObject{{QStringLiteral("error"), err}}, false);
}

void ScrapeJob::releaseLease(int index)
{
    if (auto it = m_steps.find(index); it != m_steps.end()) {
        std::unique_ptr<PageSteps> steps = std::move(it->second);
        m_steps.erase(it);
        // A finished one may be the one reporting now; one still going (a cancel) has
        // nothing of ours on the stack and goes at once, before its lease.
        if (steps->isFinished())
            steps.release()->deleteLater();
    }
    auto it = m_leases.find(index);
    if (it == m_leases.end())
        return;
    m_usage.browserMs += it->second->heldMs();
    m_leases.erase(it); // back to the pool, which discards the page
}

void ScrapeJob::complete(int index, QJsonObject result, bool ok)
{
    if (m_done.at(index))
        return;
    m_done[index] = true;
    releaseLease(index);
    result.insert(QStringLiteral("url"), m_urls.at(index).toString());
    result.insert(QStringLiteral("status"),
                  ok ? QStringLiteral("success") : QStringLiteral("error"));
    m_results[index] = result;
    ok ? ++m_succeeded : ++m_failed;
    if (--m_remaining == 0)
        Q_EMIT finished();
    else // from the event loop: a run of instant failures must not recurse
        QMetaObject::invokeMethod(this, &ScrapeJob::startNext, Qt::QueuedConnection);
}

void ScrapeJob::cancel()
{
    if (m_cancelled)
        return;
    m_cancelled = true;
    for (int i = 0; i < m_urls.size(); ++i) {
        if (!m_done.at(i))
            fail(i,
                 error(QStringLiteral("CANCELLED"), QStringLiteral("the request was cancelled")));
    }
}

QJsonArray ScrapeJob::results() const
{
    QJsonArray out;
    for (const auto &r : m_results)
        out.append(r);
    return out;
}

} // namespace ph::cloud
