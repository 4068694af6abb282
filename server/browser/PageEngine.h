#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QUrl>
#include <QVariant>

#include <functional>
#include <memory>

class QPageLayout;
class QWebEnginePage;
class QWebEngineProfile;

namespace ph {

class LiveFrameSource;
class RefusalLog;
struct EgressGrant;

// Extra request headers (a caller's, already checked: no hop-by-hop, Host or Proxy-*
// header) for the page's main-frame requests to one origin, the origin of the URL the
// caller navigated to: never a redirect's or a link's other host.
using HeaderList = QList<QPair<QByteArray, QByteArray>>;
struct NavigationHeaders
{
    QString origin;
    HeaderList headers;

    // For the main-frame requests to the origin of `url`; empty `list`: none.
    void set(const QUrl &url, const HeaderList &list);
    // What a main-frame request to `url` adds.
    HeaderList forRequest(const QUrl &url) const;
};

struct NavigateOptions
{
    enum class WaitUntil { Load, DomContentLoaded };
    int timeoutMs = 30000;
    WaitUntil waitUntil = WaitUntil::Load;
    QString waitForSelector; // after the load, wait until this CSS selector matches
    QString waitForText;     // after the load, wait until the text appears
    // Extra headers for the page's main-frame requests to the URL's origin (the Firecrawl
    // API's `headers`); the page keeps them for its later navigations there.
    HeaderList headers;
};

// What a navigation came to. `errorCode` is one of: TIMEOUT, DNS_FAILURE,
// CONNECTION_REFUSED, CONNECTION_FAILED, TLS_ERROR, NETWORK_ERROR, HTTP_STATUS,
// NON_HTML, BLOCKED, PROXY_FAILED, ABORTED, RENDERER_CRASHED, INVALID_SELECTOR
// (docs/api/scrape.md).
struct NavigationResult
{
    bool ok = false;
    QString errorCode;
    QString errorMessage;
    int httpStatus = 0; // 0: unknown
    QUrl requestedUrl;
    QUrl finalUrl;
    QString contentType; // known here only for downloads; snapshots report it otherwise
    qint64 elapsedMs = 0;

    QJsonObject errorJson() const;
    // A navigation of `url` that failed before anything loaded (BLOCKED, ABORTED, …).
    static NavigationResult failedAtOnce(const QUrl &url, const QString &code,
                                         const QString &message);
};

// A request the network policy refused for this slot's page: by its request interceptor
// (schemes, literal private hosts, for every request, redirect, frame and socket) or by
// the egress proxy (names by their resolved addresses).
struct Refusal
{
    quint64 serial = 0;
    QString host;
    QString target; // the URL, or host:port for a tunnel
    QString reason;
    bool unresolved = false;   // the host did not resolve (a DNS failure, not a policy block)
    bool proxyFailure = false; // the run's own proxy failed the connection (settings.proxy)
    bool mainFrame = false;    // the interceptor saw a main-frame navigation
    bool fromPage = false;     // the renderer refused a page's own load of a local file

    // The egress proxy's refusal of a connection to `target` (a URL, or host:port for a
    // tunnel), as EgressProxy::refused and proxyFailed report it.
    static Refusal fromProxy(const QString &target, const QString &reason, bool unresolved,
                             bool proxyFailure);
};

struct SnapshotResult
{
    bool ok = false;
    QJsonObject data;
    QString errorCode;
    QString errorMessage;
};

// One isolated page of one engine, as a BrowserLease drives it: its own cookie, storage
// and cache scope, its egress identity, the network policy's refusals of its requests.
// The engines implement it: browser/qtwebengine/PageSlot (a page in its own
// off-the-record profile) and browser/chromium/CdpPage (a page in its own browser context
// of Chromium, over the DevTools protocol). The lease and everything above it see only
// this; the pool alone makes the engines' pages.
class PageEngine : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~PageEngine() override;

    // "qtwebengine" or "chromium".
    virtual QString engineName() const = 0;
    // QtWebEngine's page and profile; null on other engines.
    virtual QWebEnginePage *webEnginePage() const { return nullptr; }
    virtual QWebEngineProfile *webEngineProfile() const { return nullptr; }

    virtual bool crashed() const = 0;
    // The engine's process that held the page ended (only chromium's can: QtWebEngine
    // lives in this one); failure() says why.
    virtual bool engineLost() const { return false; }
    virtual QString failure() const { return {}; }
    virtual QUrl url() const = 0;
    virtual QString title() const = 0;

    virtual void setGrant(const EgressGrant &grant) = 0;
    virtual EgressGrant grant() const = 0;
    virtual QString egressUser() const = 0;
    virtual const RefusalLog &refusalLog() const = 0;
    virtual void noteRefusal(Refusal refusal) = 0;

    // `then` once the page may be loaded: at once, or after a crashed renderer was
    // replaced (same isolation scope). Never after `context` is gone.
    virtual void whenUsable(QObject *context, std::function<void()> then) = 0;
    // Loads `url`, which the lease's policy already allowed; a newer navigation
    // supersedes a pending one (ABORTED). The engine refuses what it never opens.
    virtual void navigate(const QUrl &url, const NavigateOptions &options,
                          std::function<void(const NavigationResult &)> done) = 0;
    // Runs a script in the agent's isolated world; `ok` is false on timeout or crash.
    virtual void evaluate(const QString &script, int timeoutMs,
                          std::function<void(bool ok, const QVariant &value)> done) = 0;
    virtual void loadHtml(const QString &html, int timeoutMs,
                          std::function<void(bool ok)> done) = 0;
    virtual void printToPdf(const QPageLayout &layout,
                            std::function<void(const QByteArray &pdf)> done) = 0;
    // Frames and input for a live view, when the engine makes them itself (chromium's
    // screencast); null when a frame source shows webEnginePage().
    virtual std::unique_ptr<LiveFrameSource> screencast(QObject *parent) = 0;
    // Replaces a crashed page with a fresh one in the same isolation scope.
    virtual void recover() = 0;
    // Makes the page a phone's for its next navigations (a phone's viewport, user agent
    // and touch input: the Firecrawl API's `mobile`). False when the engine cannot:
    // QtWebEngine's pages have no viewport of their own to change.
    virtual bool emulateMobile() { return false; }
    // The lease ends: what it started and has not heard back from reports nothing.
    virtual void detach() {}

Q_SIGNALS:
    void rendererCrashed();
    void urlChanged(const QUrl &url);
    void titleChanged(const QString &title);
    // A document load of the page began / ended (whoever started it: a navigation, a
    // click, a script). `httpStatus` is set for error statuses.
    void loadStarted();
    void loadFinished(bool ok, const QUrl &url, int httpStatus);
    void refused(const ph::Refusal &refusal);
};

// What both engines' navigations share once the document is in.
namespace navigation {
// The script that probes the wait condition of `options` (a selector, a text, or the
// document's readiness for DOMContentLoaded); empty when there is nothing to wait for.
QString waitProbe(const NavigateOptions &options);
// How a probe's answer settles the navigation.
enum class ProbeAnswer { Pending, Met, InvalidSelector };
ProbeAnswer readProbe(const QVariant &answer);
QString invalidSelectorMessage();
// TIMEOUT's message: `loaded` tells whether the document was in.
QString timeoutMessage(bool loaded, int timeoutMs);
// NON_HTML's message: the page's content was `mime`.
QString nonHtmlMessage(const QString &mime);
// "HTTP 404 Not Found".
QString httpStatusMessage(int status);
} // namespace navigation

} // namespace ph
