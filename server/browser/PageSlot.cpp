#include "PageSlot.h"

#include "PageAgent.h"

#include <QRegularExpression>

#include <QWebEngineDownloadRequest>
#include <QWebEnginePage>
#include <QWebEngineProfile>
#include <QWebEngineScriptCollection>
#include <QWebEngineSettings>
#include <memory>

namespace ph {

PageSlot::PageSlot(const PageAgent &agent, QWebEngineUrlRequestInterceptor *interceptor,
                   QObject *parent)
    : QObject(parent)
    , m_agent(agent)
{
    // An off-the-record profile: cookies, storage and cache live in memory and die with it.
    m_profile = new QWebEngineProfile();
    // The interceptor costs a hop to the UI thread per request; it is installed only
    // when the policy has something to refuse (private targets off).
    if (interceptor)
        m_profile->setUrlRequestInterceptor(interceptor);
    m_profile->setPersistentCookiesPolicy(QWebEngineProfile::NoPersistentCookies);
    m_profile->setHttpUserAgent(m_profile->httpUserAgent().replace(
        QRegularExpression(QStringLiteral("QtWebEngine/[^ ]+")),
        QStringLiteral("Pilothouse/") + QStringLiteral(PILOTHOUSE_VERSION)));
    auto *settings = m_profile->settings();
    // PDFs and other non-HTML content become downloads, which the slot reports and
    // cancels; nothing is ever written to disk.
    settings->setAttribute(QWebEngineSettings::PdfViewerEnabled, false);
    settings->setAttribute(QWebEngineSettings::PluginsEnabled, false);
    settings->setAttribute(QWebEngineSettings::JavascriptCanOpenWindows, false);
    settings->setAttribute(QWebEngineSettings::LocalContentCanAccessFileUrls, false);
    settings->setAttribute(QWebEngineSettings::ScreenCaptureEnabled, false);
    settings->setAttribute(QWebEngineSettings::PlaybackRequiresUserGesture, true);
    settings->setAttribute(QWebEngineSettings::ErrorPageEnabled, false);
    connect(m_profile, &QWebEngineProfile::downloadRequested, this,
            [this](QWebEngineDownloadRequest *download) {
                downloadMime = download->mimeType();
                downloadUrl = download->url();
                download->cancel();
                Q_EMIT downloadSeen();
            });
    createPage();
}

PageSlot::~PageSlot()
{
    // Pages must go before their profile.
    qDeleteAll(m_oldPages);
    delete m_page;
    delete m_profile;
}

void PageSlot::createPage()
{
    m_page = new QWebEnginePage(m_profile);
    m_page->scripts().insert(m_agent.script());
    m_crashed = false;
    connect(m_page, &QWebEnginePage::renderProcessTerminated, this,
            [this](QWebEnginePage::RenderProcessTerminationStatus status, int) {
                if (status == QWebEnginePage::NormalTerminationStatus)
                    return;
                m_crashed = true;
                Q_EMIT rendererCrashed();
            });
}

void PageSlot::warm()
{
    m_warming = true;
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(m_page, &QWebEnginePage::loadFinished, this, [this, connection] {
        disconnect(*connection);
        m_warming = false;
        Q_EMIT warmed();
    });
    m_page->setUrl(QUrl(QStringLiteral("about:blank")));
}

void PageSlot::replacePage()
{
    // The old page may be inside one of its own signals: it is kept until the slot
    // goes, which is never long after a crash.
    QWebEnginePage *old = m_page;
    old->disconnect(this);
    m_oldPages.append(old);
    createPage();
}

} // namespace ph
