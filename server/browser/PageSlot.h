#pragma once

#include <QObject>
#include <QString>
#include <QUrl>

class QWebEnginePage;
class QWebEngineProfile;
class QWebEngineUrlRequestInterceptor;

namespace ph {

class PageAgent;

// Internal to the browser area: one isolation scope, an off-the-record profile with one
// page in it. Slots are never reused across leases; the pool discards them.
class PageSlot : public QObject
{
    Q_OBJECT
public:
    PageSlot(const PageAgent &agent, QWebEngineUrlRequestInterceptor *interceptor,
             QObject *parent = nullptr);
    ~PageSlot() override;

    QWebEnginePage *page() const { return m_page; }
    QWebEngineProfile *profile() const { return m_profile; }
    bool crashed() const { return m_crashed; }
    // Starts the renderer ahead of need (loads about:blank); warmed() follows.
    void warm();
    bool isWarming() const { return m_warming; }
    void replacePage();

    // The last download the page's navigation turned into (non-HTML content).
    QString downloadMime;
    QUrl downloadUrl;

Q_SIGNALS:
    void rendererCrashed();
    void downloadSeen();
    void warmed();

private:
    void createPage();

    const PageAgent &m_agent;
    QWebEngineProfile *m_profile = nullptr;
    QWebEnginePage *m_page = nullptr;
    QList<QWebEnginePage *> m_oldPages; // crashed pages awaiting deletion
    bool m_crashed = false;
    bool m_warming = false;
};

} // namespace ph
