#include "browser/qtwebengine/WebEngineNavigation.h"

#include "browser/PageAgent.h"
#include "browser/qtwebengine/PageSlot.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QWebEngineLoadingInfo>
#include <QWebEnginePage>

Q_LOGGING_CATEGORY(lcNav, "pilothouse.browser.navigation", QtWarningMsg)

namespace ph {

namespace {

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
        r.errorMessage = navigation::httpStatusMessage(code);
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

WebEngineNavigation::WebEngineNavigation(PageSlot &slot, QObject *parent, const QUrl &url,
                                         NavigateOptions options, Done done)
    : QObject(parent)
    , m_slot(slot)
    , m_url(url)
    , m_options(std::move(options))
    , m_done(std::move(done))
{
    m_result.requestedUrl = url;
    m_clock.start();
    m_slot.downloadMime.clear();
}

void WebEngineNavigation::start()
{
    QWebEnginePage *page = m_slot.page();
    connect(page, &QWebEnginePage::loadingChanged, this, &WebEngineNavigation::onLoading);
    connect(page, &QWebEnginePage::urlChanged, this, &WebEngineNavigation::onUrlChanged);
    connect(&m_slot, &PageSlot::downloadSeen, this, &WebEngineNavigation::onDownload);
    connect(&m_slot, &PageSlot::rendererCrashed, this, [this] {
        fail(QStringLiteral("RENDERER_CRASHED"), QStringLiteral("the page's renderer crashed"));
    });
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, &WebEngineNavigation::onDeadline);
    m_deadline.start(m_options.timeoutMs);
    // A load issued while the slot's about:blank warm-up is still in flight can be
    // swallowed by it; start only once the warm-up is done.
    if (m_slot.isWarming()) {
        connect(&m_slot, &PageSlot::warmed, this, [this] {
            if (!m_settled)
                m_slot.page()->load(m_url);
        });
        return;
    }
    page->load(m_url);
}

void WebEngineNavigation::fail(const QString &code, const QString &message)
{
    m_result.errorCode = code;
    m_result.errorMessage = message;
    finish(false);
}

bool WebEngineNavigation::isOurs(const QWebEngineLoadingInfo &info)
{
    const bool aboutPage =
        info.url().scheme() == QLatin1String("about") && m_url.scheme() != QLatin1String("about");
    if (info.status() == QWebEngineLoadingInfo::LoadStartedStatus) {
        if (!aboutPage)
            m_started = true;
        return false;
    }
    // Qt reports LoadStarted only when the page goes from idle to loading, so a load
    // issued while an earlier one is still winding down may show only its end. What is
    // not ours: the about:blank warm-up, and the "stopped" tail of a load this one
    // replaced.
    if (aboutPage)
        return false;
    return m_started || info.status() != QWebEngineLoadingInfo::LoadStoppedStatus ||
           info.url() == m_url;
}

void WebEngineNavigation::onLoading(const QWebEngineLoadingInfo &info)
{
    qCDebug(lcNav) << "loading" << m_url << info.status() << info.url() << info.errorDomain()
                   << info.errorCode() << "started" << m_started << "settled" << m_settled;
    if (m_settled || !isOurs(info))
        return;
    m_result.finalUrl = info.url();
    if (info.errorDomain() == QWebEngineLoadingInfo::HttpStatusCodeDomain)
        m_result.httpStatus = info.errorCode();
    switch (info.status()) {
    case QWebEngineLoadingInfo::LoadSucceededStatus:
        m_loaded = true;
        afterLoad();
        break;
    case QWebEngineLoadingInfo::LoadFailedStatus:
        describeFailure(info, m_result);
        finish(false);
        break;
    case QWebEngineLoadingInfo::LoadStoppedStatus:
        onStopped(info);
        break;
    default:
        break;
    }
}

void WebEngineNavigation::onStopped(const QWebEngineLoadingInfo &info)
{
    if (info.errorCode() != -3) {
        describeFailure(info, m_result);
        finish(false);
        return;
    }
    // A navigation that became a download stops with ERR_ABORTED and the download
    // request follows; give it a moment to arrive.
    QTimer::singleShot(300, this, [this] {
        if (!m_settled)
            fail(QStringLiteral("ABORTED"), QStringLiteral("the navigation was stopped"));
    });
}

void WebEngineNavigation::onUrlChanged()
{
    if (!m_started || m_committed)
        return;
    m_committed = true;
    if (m_options.waitUntil == NavigateOptions::WaitUntil::DomContentLoaded)
        afterLoad();
}

void WebEngineNavigation::onDownload()
{
    m_result.contentType = m_slot.downloadMime;
    fail(QStringLiteral("NON_HTML"), navigation::nonHtmlMessage(m_slot.downloadMime));
}

void WebEngineNavigation::onDeadline()
{
    if (m_settled)
        return;
    if (QWebEnginePage *p = m_slot.page())
        p->triggerAction(QWebEnginePage::Stop);
    fail(QStringLiteral("TIMEOUT"), navigation::timeoutMessage(m_loaded, m_options.timeoutMs));
}

// After the document is in (load or DOMContentLoaded): the optional wait condition,
// probed every 50 ms.
void WebEngineNavigation::afterLoad()
{
    const QString probe = navigation::waitProbe(m_options);
    if (probe.isEmpty()) {
        finish(true);
        return;
    }
    if (m_poller.isActive())
        return;
    m_probe = probe;
    connect(&m_poller, &QTimer::timeout, this, &WebEngineNavigation::probe);
    m_poller.start(50);
}

void WebEngineNavigation::probe()
{
    QWebEnginePage *page = m_slot.page();
    if (m_settled || !page)
        return;
    QPointer<WebEngineNavigation> self(this);
    page->runJavaScript(m_probe, PageAgent::kWorld, [self](const QVariant &v) {
        if (!self || self->m_settled)
            return;
        switch (navigation::readProbe(v)) {
        case navigation::ProbeAnswer::InvalidSelector:
            self->fail(QStringLiteral("INVALID_SELECTOR"), navigation::invalidSelectorMessage());
            break;
        case navigation::ProbeAnswer::Met:
            self->finish(true);
            break;
        case navigation::ProbeAnswer::Pending:
            break;
        }
    });
}

void WebEngineNavigation::finish(bool ok)
{
    if (m_settled)
        return;
    m_settled = true;
    m_deadline.stop();
    m_poller.stop();
    disconnect(m_slot.page(), nullptr, this, nullptr);
    disconnect(&m_slot, nullptr, this, nullptr);
    m_result.ok = ok;
    m_result.elapsedMs = m_clock.elapsed();
    if (QWebEnginePage *p = m_slot.page(); p && m_result.finalUrl.isEmpty())
        m_result.finalUrl = p->url();
    const Done done = std::move(m_done);
    const NavigationResult result = m_result;
    deleteLater();
    m_slot.navigationEnded(this);
    done(result);
}

} // namespace ph
