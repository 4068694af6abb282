#pragma once

#include "LeaseOptions.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>

class QWebEnginePage;
class QWebEngineProfile;
class QWebEngineLoadingInfo;

namespace ph {

class BrowserPool;
class Navigation;
class PageSlot;

struct NavigateOptions
{
    enum class WaitUntil { Load, DomContentLoaded };
    int timeoutMs = 30000;
    WaitUntil waitUntil = WaitUntil::Load;
    QString waitForSelector; // after the load, wait until this CSS selector matches
    QString waitForText;     // after the load, wait until the text appears
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
};

struct SnapshotResult
{
    bool ok = false;
    QJsonObject data;
    QString errorCode;
    QString errorMessage;
};

// One page of the pool, leased to one API call. It lives in its own off-the-record
// profile (no cookie, storage or cache state shared with any other lease) and goes back
// to the pool, to be discarded, when the lease object is deleted.
class BrowserLease : public QObject
{
    Q_OBJECT
public:
    ~BrowserLease() override;

    QString id() const { return m_id; }
    QString label() const { return m_label; }
    QWebEnginePage *page() const;
    QWebEngineProfile *profile() const;
    bool isCrashed() const;
    qint64 heldMs() const { return m_held.elapsed(); }
    // What the request asked of its page (`browser`): the engine, the polyfills.
    const LeaseOptions &options() const { return m_options; }

    // Loads `url`, a URL a caller named: anything but http(s), or a private target the
    // lease's grant lacks, fails at once with BLOCKED and nothing is loaded. A load the
    // network policy refused on the way (a redirect hop, a name resolving to a private
    // address) fails with BLOCKED too, never as a page.
    void navigate(const QUrl &url, const NavigateOptions &options,
                  std::function<void(const NavigationResult &)> done);
    // Network policy refusals of this lease's page: a marker, and those after it.
    quint64 refusalMark() const;
    QList<Refusal> refusalsSince(quint64 mark) const;
    // Calls the page agent's snapshot (formats, maxNodes, scope, maxTextChars).
    void snapshot(const QJsonObject &options, int timeoutMs,
                  std::function<void(const SnapshotResult &)> done);
    // Runs a script in the agent's isolated world; `ok` is false on timeout or crash.
    void evaluate(const QString &script, int timeoutMs,
                  std::function<void(bool ok, const QVariant &value)> done);

    // Shows `html` (no network URL involved) and reports when it has rendered.
    void loadHtml(const QString &html, int timeoutMs, std::function<void(bool ok)> done);

    // Replaces a crashed page with a fresh one in the same isolation scope.
    void recover();

Q_SIGNALS:
    void rendererCrashed();
    void urlChanged(const QUrl &url);

private:
    friend class BrowserPool;
    BrowserLease(BrowserPool *pool, PageSlot *slot, QString label);
    PageSlot *takeSlot();

    QPointer<BrowserPool> m_pool;
    PageSlot *m_slot;
    QString m_id;
    QString m_label;
    LeaseOptions m_options;
    QElapsedTimer m_held;
    friend class Navigation;
    void navigationEnded(Navigation *navigation);
    QPointer<Navigation> m_navigation; // the pending navigation, if any
};

} // namespace ph
