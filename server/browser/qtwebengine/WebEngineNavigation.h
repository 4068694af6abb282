#pragma once

#include "browser/PageEngine.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <QUrl>

#include <functional>

class QWebEngineLoadingInfo;

namespace ph {

class PageSlot;

// Internal to the qtwebengine engine: one navigation of a slot's page, from load() to its
// result: the load's progress, the optional wait condition after it, a download instead
// of a page, a renderer crash, the deadline. It reports once, then goes; a newer
// navigation supersedes it. (CdpNavigation is its chromium counterpart; what they share
// once the document is in is in browser/PageEngine.h, namespace navigation.)
class WebEngineNavigation : public QObject
{
public:
    using Done = std::function<void(const NavigationResult &)>;

    WebEngineNavigation(PageSlot &slot, QObject *parent, const QUrl &url, NavigateOptions options,
                        Done done);

    void start();
    void fail(const QString &code, const QString &message);

private:
    void onLoading(const QWebEngineLoadingInfo &info);
    // Whether a loading report belongs to this navigation's load.
    bool isOurs(const QWebEngineLoadingInfo &info);
    void onStopped(const QWebEngineLoadingInfo &info);
    void onUrlChanged();
    void onDownload();
    void onDeadline();
    void afterLoad();
    void probe();
    void finish(bool ok);

    PageSlot &m_slot;
    QUrl m_url;
    NavigateOptions m_options;
    Done m_done;
    NavigationResult m_result;
    QElapsedTimer m_clock;
    QTimer m_deadline{this};
    QTimer m_poller{this};
    QString m_probe;
    bool m_started = false;
    bool m_committed = false;
    bool m_settled = false;
    bool m_loaded = false;
};

} // namespace ph
