#pragma once

#include "browser/LeaseOptions.h"
#include "browser/PageEngine.h"

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

namespace ph {

class BrowserPool;
class LiveFrameSource;

// One page of the pool, leased to one API call, on one of the pool's engines: QtWebEngine
// (a page in its own off-the-record profile) or `chromium` (a page in its own browser
// context of Debian's Chromium, driven over the DevTools protocol). Either way no cookie,
// storage or cache state is shared with any other lease, and the page goes back to the
// pool, to be discarded, when the lease object is deleted. What a lease offers is the
// same on both engines; only page() (QtWebEngine's page object) is engine-specific. The
// lease drives its page through PageEngine only, and knows neither engine.
class BrowserLease : public QObject
{
    Q_OBJECT
public:
    ~BrowserLease() override;
    // A lease of `page` (taken over) outside any pool: the page goes with the lease
    // (tests drive the lease's decisions with a page of their own).
    static std::unique_ptr<BrowserLease> adopt(PageEngine *page, const QString &label,
                                               const LeaseOptions &options = LeaseOptions());
    // A lease of `page` outside the pool whose owner takes the page back when the lease
    // ends (`released` gets it; a browser session's own pages: ChromiumSession::openPage).
    static std::unique_ptr<BrowserLease> adopt(PageEngine *page, const QString &label,
                                               const LeaseOptions &options,
                                               std::function<void(PageEngine *page)> released);

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
    // A phone's viewport, user agent and touch input for the next navigations; false when
    // the engine cannot (PageEngine::emulateMobile).
    bool emulateMobile();

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
    BrowserLease(BrowserPool *pool, PageEngine *page, QString label);
    PageEngine *takePage();
    QString egressUser() const;
    void noteRefusal(const Refusal &refusal);
    void navigateNow(const QUrl &url, const NavigateOptions &options,
                     std::function<void(const NavigationResult &)> done);

    QPointer<BrowserPool> m_pool;
    PageEngine *m_page = nullptr;
    QString m_engine;
    QString m_id;
    QString m_label;
    LeaseOptions m_options;
    QElapsedTimer m_held;
    std::function<void(PageEngine *)> m_released;
};

} // namespace ph
