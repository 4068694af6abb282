#pragma once

#include "LeaseOptions.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>
#include <memory>

class QPageLayout;
class QWebEnginePage;
class QWebEngineProfile;
class QWebEngineLoadingInfo;

namespace ph {

class BrowserPool;
class CdpPage;
class LiveFrameSource;
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

// One page of the pool, leased to one API call, on one of the pool's engines: QtWebEngine
// (a page in its own off-the-record profile) or `chromium` (a page in its own browser
// context of Debian's Chromium, driven over the DevTools protocol). Either way no cookie,
// storage or cache state is shared with any other lease, and the page goes back to the
// pool, to be discarded, when the lease object is deleted. What a lease offers is the
// same on both engines; only page() (QtWebEngine's page object) is engine-specific.
class BrowserLease : public QObject
{
    Q_OBJECT
public:
    ~BrowserLease() override;

    QString id() const { return m_id; }
    QString label() const { return m_label; }
    // "qtwebengine" or "chromium".
    QString engine() const;
    // QtWebEngine's page and profile; null on the chromium engine.
    QWebEnginePage *page() const;
    QWebEngineProfile *profile() const;
    bool isCrashed() const;
    // The page's address and title now.
    QUrl url() const;
    QString title() const;
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

    // Prints the page to PDF (`done` gets nothing when printing failed).
    void printToPdf(const QPageLayout &layout, std::function<void(const QByteArray &pdf)> done);
    // Frames and input for a live view of a chromium page (Page.startScreencast,
    // Input.dispatch*); null on QtWebEngine, whose page() a frame source shows.
    std::unique_ptr<LiveFrameSource> screencast(QObject *parent = nullptr);

    // Replaces a crashed page with a fresh one in the same isolation scope.
    void recover();

Q_SIGNALS:
    void rendererCrashed();
    void urlChanged(const QUrl &url);
    void titleChanged(const QString &title);
    // A document load of the page began / ended (whoever started it: a navigation, a
    // click, a script). `httpStatus` is set for error statuses.
    void loadStarted();
    void loadFinished(bool ok, const QUrl &url, int httpStatus);

private:
    friend class BrowserPool;
    BrowserLease(BrowserPool *pool, PageSlot *slot, QString label);
    BrowserLease(BrowserPool *pool, CdpPage *page, QString label);
    PageSlot *takeSlot();
    CdpPage *takeCdpPage();
    void connectPage();
    QString egressUser() const;
    void noteRefusal(const Refusal &refusal);
    void navigateNow(const QUrl &url, const NavigateOptions &options,
                     std::function<void(const NavigationResult &)> done);

    QPointer<BrowserPool> m_pool;
    PageSlot *m_slot = nullptr;
    CdpPage *m_cdp = nullptr;
    QString m_id;
    QString m_label;
    LeaseOptions m_options;
    QElapsedTimer m_held;
    friend class Navigation;
    void navigationEnded(Navigation *navigation);
    QPointer<Navigation> m_navigation; // the pending navigation, if any
};

} // namespace ph
