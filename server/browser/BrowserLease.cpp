#include "BrowserLease.h"

#include "BrowserPool.h"
#include "PageAgent.h"
#include "PageSlot.h"

#include "core/Ids.h"
#include "net/NetworkPolicy.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTimer>
#include <QWebEngineLoadingInfo>
#include <QWebEnginePage>

#include <memory>

Q_LOGGING_CATEGORY(lcNav, "pilothouse.browser.navigation", QtWarningMsg)

namespace ph {

namespace {

QString reasonText(int status)
{
    switch (status) {
    case 400:
        return QStringLiteral("Bad Request");
    case 401:
        return QStringLiteral("Unauthorized");
    case 403:
        return QStringLiteral("Forbidden");
    case 404:
        return QStringLiteral("Not Found");
    case 410:
        return QStringLiteral("Gone");
    case 429:
        return QStringLiteral("Too Many Requests");
    case 500:
        return QStringLiteral("Internal Server Error");
    case 502:
        return QStringLiteral("Bad Gateway");
    case 503:
        return QStringLiteral("Service Unavailable");
    case 504:
        return QStringLiteral("Gateway Timeout");
    default:
        return {};
    }
}

void describeFailure(const QWebEngineLoadingInfo &info, NavigationResult &r)
{
    const int code = info.errorCode();
    r.errorMessage = info.errorString();
    if (code == -311) { // ERR_UNSAFE_REDIRECT: a redirect to file: and the like
        r.errorCode = QStringLiteral("BLOCKED");
        r.errorMessage = QStringLiteral("the page redirected to a URL that is not http(s)");
        return;
    }
    switch (info.errorDomain()) {
    case QWebEngineLoadingInfo::HttpStatusCodeDomain:
        r.errorCode = QStringLiteral("HTTP_STATUS");
        r.httpStatus = code;
        r.errorMessage = QStringLiteral("HTTP %1 %2").arg(code).arg(reasonText(code)).trimmed();
        return;
    case QWebEngineLoadingInfo::ConnectionErrorDomain:
        if (code == -105 || code == -137)
            r.errorCode = QStringLiteral("DNS_FAILURE");
        else if (code == -102)
            r.errorCode = QStringLiteral("CONNECTION_REFUSED");
        else if (code == -118 || code == -7)
            r.errorCode = QStringLiteral("TIMEOUT");
        else
            r.errorCode = QStringLiteral("CONNECTION_FAILED");
        return;
    case QWebEngineLoadingInfo::DnsErrorDomain:
        r.errorCode = QStringLiteral("DNS_FAILURE");
        return;
    case QWebEngineLoadingInfo::CertificateErrorDomain:
        r.errorCode = QStringLiteral("TLS_ERROR");
        return;
    case QWebEngineLoadingInfo::InternalErrorDomain:
        if (code == -20 || code == -27)
            r.errorCode = QStringLiteral("BLOCKED");
        else if (code == -3)
            r.errorCode = QStringLiteral("ABORTED");
        else
            r.errorCode = QStringLiteral("NETWORK_ERROR");
        return;
    default:
        r.errorCode = QStringLiteral("NETWORK_ERROR");
        return;
    }
}

} // namespace

QJsonObject NavigationResult::errorJson() const
{
    QJsonObject o{{QStringLiteral("code"), errorCode}, {QStringLiteral("message"), errorMessage}};
    if (httpStatus > 0)
        o.insert(QStringLiteral("httpStatus"), httpStatus);
    if (!contentType.isEmpty())
        o.insert(QStringLiteral("contentType"), contentType);
    return o;
}

BrowserLease::BrowserLease(BrowserPool *pool, PageSlot *slot, QString label)
    : m_pool(pool)
    , m_slot(slot)
    , m_id(Ids::make(QStringLiteral("lease"), 12))
    , m_label(std::move(label))
{
    m_held.start();
    connect(slot, &PageSlot::rendererCrashed, this, &BrowserLease::rendererCrashed);
    connect(slot->page(), &QWebEnginePage::urlChanged, this, &BrowserLease::urlChanged);
}

BrowserLease::~BrowserLease()
{
    if (m_pool)
        m_pool->release(this);
    else
        delete m_slot;
}

PageSlot *BrowserLease::takeSlot()
{
    PageSlot *slot = m_slot;
    m_slot = nullptr;
    return slot;
}

QWebEnginePage *BrowserLease::page() const
{
    return m_slot ? m_slot->page() : nullptr;
}

QWebEngineProfile *BrowserLease::profile() const
{
    return m_slot ? m_slot->profile() : nullptr;
}

bool BrowserLease::isCrashed() const
{
    return m_slot && m_slot->crashed();
}

void BrowserLease::recover()
{
    if (!m_slot)
        return;
    m_slot->replacePage();
    connect(m_slot->page(), &QWebEnginePage::urlChanged, this, &BrowserLease::urlChanged);
}

quint64 BrowserLease::refusalMark() const
{
    return m_slot ? m_slot->nextRefusalSerial() : 0;
}

QList<Refusal> BrowserLease::refusalsSince(quint64 mark) const
{
    QList<Refusal> out;
    if (!m_slot)
        return out;
    for (const Refusal &r : m_slot->refusals()) {
        if (r.serial >= mark)
            out.append(r);
    }
    return out;
}

namespace {

// A failed load that the network policy caused reports the policy's reason: the
// interceptor refused the main frame, or the proxy refused (or could not resolve) the
// host the load ended on.
bool explainByRefusal(NavigationResult &r, const QList<Refusal> &refusals)
{
    const QString host = r.finalUrl.host().isEmpty() ? r.requestedUrl.host() : r.finalUrl.host();
    const Refusal *match = nullptr;
    for (const Refusal &refusal : refusals) {
        const bool sameHost = refusal.host.compare(host, Qt::CaseInsensitive) == 0;
        if (refusal.mainFrame || sameHost)
            match = &refusal;
        else if (!r.ok && !match && !refusal.unresolved && !refusal.fromPage && r.httpStatus == 0)
            match = &refusal; // a redirect hop the proxy refused
    }
    if (!match)
        return false;
    r.ok = false;
    r.errorCode = match->unresolved ? QStringLiteral("DNS_FAILURE") : QStringLiteral("BLOCKED");
    r.errorMessage = match->unresolved ? match->reason
                                       : QStringLiteral("the network policy refused %1: it %2")
                                             .arg(match->target, match->reason);
    r.httpStatus = 0;
    return true;
}

} // namespace

void BrowserLease::navigate(const QUrl &url, const NavigateOptions &options,
                            std::function<void(const NavigationResult &)> userDone)
{
    if (m_slot && m_slot->crashed())
        recover(); // a fresh page in the same isolation scope
    QWebEnginePage *page = this->page();
    if (!page) {
        NavigationResult r;
        r.requestedUrl = url;
        r.errorCode = QStringLiteral("ABORTED");
        r.errorMessage = QStringLiteral("the browser is shutting down");
        userDone(r);
        return;
    }
    if (const QString refusal = NetworkPolicy::refusal(url, m_slot->grant()); !refusal.isEmpty()) {
        NavigationResult r;
        r.requestedUrl = url;
        r.errorCode = QStringLiteral("BLOCKED");
        r.errorMessage = QStringLiteral("the URL %1").arg(refusal);
        userDone(r);
        return;
    }
    // A failure (or a proxy's 403/502 answer) is checked against the policy's refusals
    // once the proxy's report, posted before its answer, has been delivered.
    const quint64 mark = refusalMark();
    QPointer<BrowserLease> guard(this);
    auto done = [guard, mark, userDone](const NavigationResult &result) {
        const bool suspicious = !result.ok || result.httpStatus == 403 || result.httpStatus == 502;
        if (!suspicious || !guard) {
            userDone(result);
            return;
        }
        QTimer::singleShot(0, guard.data(), [guard, mark, userDone, result] {
            NavigationResult r = result;
            explainByRefusal(r, guard->refusalsSince(mark));
            userDone(r);
        });
    };
    if (m_abortNavigation)
        m_abortNavigation(); // a new navigation supersedes the pending one

    struct State
    {
        NavigationResult result;
        QElapsedTimer clock;
        bool started = false;
        bool committed = false;
        bool settled = false;
        bool loaded = false;
        QList<QMetaObject::Connection> connections;
        QTimer *deadline = nullptr;
        QTimer *poller = nullptr;
    };
    auto st = std::make_shared<State>();
    st->result.requestedUrl = url;
    st->clock.start();
    m_slot->downloadMime.clear();

    auto finish = [this, st, done](bool ok) {
        if (st->settled)
            return;
        st->settled = true;
        m_abortNavigation = nullptr;
        for (const auto &c : std::as_const(st->connections))
            disconnect(c);
        if (st->deadline)
            st->deadline->deleteLater();
        if (st->poller)
            st->poller->deleteLater();
        st->result.ok = ok;
        st->result.elapsedMs = st->clock.elapsed();
        if (QWebEnginePage *p = this->page(); p && st->result.finalUrl.isEmpty())
            st->result.finalUrl = p->url();
        done(st->result);
    };
    auto fail = [st, finish](const QString &code, const QString &message) {
        st->result.errorCode = code;
        st->result.errorMessage = message;
        finish(false);
    };

    // After the document is in (load or DOMContentLoaded), optional wait conditions.
    auto afterLoad = [this, st, options, finish, fail]() {
        QJsonObject condition;
        if (!options.waitForSelector.isEmpty())
            condition.insert(QStringLiteral("selector"), options.waitForSelector);
        else if (!options.waitForText.isEmpty())
            condition.insert(QStringLiteral("text"), options.waitForText);
        if (condition.isEmpty() && options.waitUntil == NavigateOptions::WaitUntil::Load) {
            finish(true);
            return;
        }
        if (condition.isEmpty())
            condition.insert(QStringLiteral("readyState"), true);
        const QString probe =
            QStringLiteral("window.__pilothouse ? window.__pilothouse.probe(%1) : false")
                .arg(QString::fromUtf8(QJsonDocument(condition).toJson(QJsonDocument::Compact)));
        if (!st->poller) {
            st->poller = new QTimer(this);
            st->poller->setInterval(50);
            QPointer<BrowserLease> self(this);
            connect(st->poller, &QTimer::timeout, this, [self, st, probe, finish, fail] {
                if (!self || st->settled || !self->page())
                    return;
                self->page()->runJavaScript(
                    probe, PageAgent::kWorld, [st, finish, fail](const QVariant &v) {
                        if (st->settled)
                            return;
                        if (v.toString() == QLatin1String("invalid-selector"))
                            fail(QStringLiteral("INVALID_SELECTOR"),
                                 QStringLiteral("waitForSelector is not a valid CSS selector"));
                        else if (v.toBool())
                            finish(true);
                    });
            });
            st->poller->start();
        }
    };

    st->connections << connect(
        page, &QWebEnginePage::loadingChanged, this,
        [st, url, options, finish, fail, afterLoad, this](const QWebEngineLoadingInfo &info) {
            qCDebug(lcNav) << "loading" << url << info.status() << info.url() << info.errorDomain()
                           << info.errorCode() << "started" << st->started << "settled"
                           << st->settled;
            if (st->settled)
                return;
            const bool aboutPage = info.url().scheme() == QLatin1String("about") &&
                                   url.scheme() != QLatin1String("about");
            if (info.status() == QWebEngineLoadingInfo::LoadStartedStatus) {
                if (!aboutPage)
                    st->started = true;
                return;
            }
            // Qt reports LoadStarted only when the page goes from idle to loading, so a
            // load issued while an earlier one is still winding down may show only its
            // end. What is not ours: the about:blank warm-up, and the "stopped" tail of a
            // load this one replaced.
            if (aboutPage)
                return;
            if (!st->started && info.status() == QWebEngineLoadingInfo::LoadStoppedStatus &&
                info.url() != url)
                return;
            st->result.finalUrl = info.url();
            if (info.errorDomain() == QWebEngineLoadingInfo::HttpStatusCodeDomain)
                st->result.httpStatus = info.errorCode();
            switch (info.status()) {
            case QWebEngineLoadingInfo::LoadSucceededStatus:
                st->loaded = true;
                afterLoad();
                break;
            case QWebEngineLoadingInfo::LoadFailedStatus:
                describeFailure(info, st->result);
                finish(false);
                break;
            case QWebEngineLoadingInfo::LoadStoppedStatus:
                if (info.errorCode() == -3) {
                    // A navigation that became a download stops with ERR_ABORTED and the
                    // download request follows; give it a moment to arrive.
                    QTimer::singleShot(300, this, [st, fail] {
                        if (!st->settled)
                            fail(QStringLiteral("ABORTED"),
                                 QStringLiteral("the navigation was stopped"));
                    });
                } else {
                    describeFailure(info, st->result);
                    finish(false);
                }
                break;
            default:
                break;
            }
        });
    st->connections << connect(page, &QWebEnginePage::urlChanged, this, [st, options, afterLoad] {
        if (!st->started || st->committed)
            return;
        st->committed = true;
        if (options.waitUntil == NavigateOptions::WaitUntil::DomContentLoaded)
            afterLoad();
    });
    st->connections << connect(m_slot, &PageSlot::downloadSeen, this, [this, st, finish] {
        st->result.contentType = m_slot->downloadMime;
        st->result.errorCode = QStringLiteral("NON_HTML");
        st->result.errorMessage =
            QStringLiteral("the URL serves %1, not a web page").arg(m_slot->downloadMime);
        finish(false);
    });
    st->connections << connect(m_slot, &PageSlot::rendererCrashed, this, [fail] {
        fail(QStringLiteral("RENDERER_CRASHED"), QStringLiteral("the page's renderer crashed"));
    });

    m_abortNavigation = [fail] {
        fail(QStringLiteral("ABORTED"), QStringLiteral("a newer navigation replaced this one"));
    };

    st->deadline = new QTimer(this);
    st->deadline->setSingleShot(true);
    connect(st->deadline, &QTimer::timeout, this, [this, st, options, fail] {
        if (st->settled)
            return;
        if (QWebEnginePage *p = this->page())
            p->triggerAction(QWebEnginePage::Stop);
        const QString what = st->loaded ? QStringLiteral("the wait condition was not met")
                                        : QStringLiteral("the page did not finish loading");
        fail(QStringLiteral("TIMEOUT"),
             QStringLiteral("%1 within %2 ms").arg(what).arg(options.timeoutMs));
    });
    st->deadline->start(options.timeoutMs);

    // A load issued while the slot's about:blank warm-up is still in flight can be
    // swallowed by it; start only once the warm-up is done.
    if (m_slot->isWarming()) {
        st->connections << connect(m_slot, &PageSlot::warmed, this, [this, url, st] {
            if (!st->settled)
                this->page()->load(url);
        });
        return;
    }
    this->page()->load(url);
}

void BrowserLease::evaluate(const QString &script, int timeoutMs,
                            std::function<void(bool, const QVariant &)> done)
{
    QWebEnginePage *page = this->page();
    if (!page || isCrashed()) {
        done(false, QVariant());
        return;
    }
    // The page may answer while it is being destroyed (QtWebEngine then calls pending
    // callbacks with no value): nothing here may outlive the lease unguarded.
    auto settled = std::make_shared<bool>(false);
    QPointer<QTimer> timer = new QTimer(this);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [settled, done, timer] {
        if (timer)
            timer->deleteLater();
        if (*settled)
            return;
        *settled = true;
        done(false, QVariant());
    });
    auto crash = std::make_shared<QMetaObject::Connection>();
    *crash = connect(m_slot, &PageSlot::rendererCrashed, this, [settled, done, timer] {
        if (*settled)
            return;
        *settled = true;
        if (timer) {
            timer->stop();
            timer->deleteLater();
        }
        done(false, QVariant());
    });
    timer->start(timeoutMs);
    QPointer<BrowserLease> self(this);
    page->runJavaScript(script, PageAgent::kWorld,
                        [self, settled, done, timer, crash](const QVariant &value) {
                            QObject::disconnect(*crash);
                            if (*settled)
                                return;
                            *settled = true;
                            if (timer) {
                                timer->stop();
                                timer->deleteLater();
                            }
                            // A callback from a page being torn down is not an answer.
                            done(self != nullptr && self->page() != nullptr, value);
                        });
}

void BrowserLease::snapshot(const QJsonObject &options, int timeoutMs,
                            std::function<void(const SnapshotResult &)> done)
{
    const QString script =
        QStringLiteral("window.__pilothouse ? window.__pilothouse.snapshot(%1) : null")
            .arg(QString::fromUtf8(QJsonDocument(options).toJson(QJsonDocument::Compact)));
    QPointer<BrowserLease> self(this);
    evaluate(script, timeoutMs, [self, done](bool ok, const QVariant &value) {
        SnapshotResult r;
        if (!self) {
            r.errorCode = QStringLiteral("ABORTED");
            r.errorMessage = QStringLiteral("the page was released");
            done(r);
            return;
        }
        const bool crashed = self->isCrashed();
        if (!ok) {
            r.errorCode =
                crashed ? QStringLiteral("RENDERER_CRASHED") : QStringLiteral("SNAPSHOT_TIMEOUT");
            r.errorMessage = crashed ? QStringLiteral("the page's renderer crashed")
                                     : QStringLiteral("the page did not answer in time");
        } else if (value.typeId() != QMetaType::QString) {
            r.errorCode = QStringLiteral("AGENT_UNAVAILABLE");
            r.errorMessage = QStringLiteral("the page agent is not present in this document");
        } else {
            r.data = QJsonDocument::fromJson(value.toString().toUtf8()).object();
            r.ok = true;
        }
        done(r);
    });
}

} // namespace ph

namespace ph {

void BrowserLease::loadHtml(const QString &html, int timeoutMs, std::function<void(bool)> done)
{
    if (!m_slot) {
        done(false);
        return;
    }
    if (m_slot->isWarming()) {
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = connect(m_slot, &PageSlot::warmed, this, [this, once, html, timeoutMs, done] {
            disconnect(*once);
            loadHtml(html, timeoutMs, done);
        });
        return;
    }
    auto settled = std::make_shared<bool>(false);
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection =
        connect(page(), &QWebEnginePage::loadFinished, this, [settled, connection, done](bool ok) {
            disconnect(*connection);
            if (*settled)
                return;
            *settled = true;
            done(ok);
        });
    QTimer::singleShot(timeoutMs, this, [settled, connection, done] {
        if (*settled)
            return;
        *settled = true;
        disconnect(*connection);
        done(false);
    });
    page()->setHtml(html, QUrl(QStringLiteral("about:blank")));
}

} // namespace ph
