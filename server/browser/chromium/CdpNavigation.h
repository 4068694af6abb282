#pragma once

#include "browser/PageEngine.h"
#include "browser/chromium/CdpPage.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <functional>

namespace ph {

// Internal to the chromium engine: one navigation of a CdpPage, from Page.navigate to its
// result: the document's response, its lifecycle (DOMContentLoaded, load), the optional
// wait condition, a renderer crash, the deadline. It reports once, then goes; a newer
// navigation supersedes it. (WebEngineNavigation is its qtwebengine counterpart; what
// they share once the document is in is in browser/PageEngine.h, namespace navigation.)
class CdpNavigation : public QObject
{
public:
    using Done = std::function<void(const NavigationResult &)>;

    CdpNavigation(CdpPage &page, const QUrl &url, NavigateOptions options, Done done);

    void start();
    void lifecycle(const QString &loaderId, const QString &name);
    void fail(const QString &code, const QString &message);

private:
    void navigated(const QJsonObject &r, const QString &error);
    void applyResponse(const CdpPage::Document &doc);
    // An error status fails the navigation as HTTP_STATUS (the page is there to be read).
    void failHttpStatus(int status);
    void nonHtml(const QString &mime);
    void onDeadline();
    void afterLoad();
    void probe();
    void finish(bool ok);

    CdpPage &m_page;
    NavigateOptions m_options;
    Done m_done;
    NavigationResult m_result;
    QElapsedTimer m_clock;
    QTimer m_deadline{this};
    QString m_loader;
    QString m_probe;
    bool m_loaded = false;
    bool m_settled = false;
};

} // namespace ph
