#include "browser/chromium/CdpNavigation.h"

#include "browser/PageRequests.h"

#include <QPointer>

namespace ph {

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

// A failed Page.navigate's net error, as the lease reports it (docs/api/scrape.md).
void describeNetError(const QString &text, NavigationResult &r)
{
    r.errorMessage = text;
    auto is = [&text](const char *code) { return text.contains(QLatin1String(code)); };
    if (is("ERR_NAME_NOT_RESOLVED") || is("ERR_NAME_RESOLUTION_FAILED"))
        r.errorCode = QStringLiteral("DNS_FAILURE");
    else if (is("ERR_CONNECTION_REFUSED"))
        r.errorCode = QStringLiteral("CONNECTION_REFUSED");
    else if (is("ERR_TIMED_OUT") || is("ERR_CONNECTION_TIMED_OUT"))
        r.errorCode = QStringLiteral("TIMEOUT");
    else if (is("ERR_CERT_") || is("ERR_SSL_") || is("ERR_BAD_SSL"))
        r.errorCode = QStringLiteral("TLS_ERROR");
    else if (is("ERR_BLOCKED_BY_CLIENT") || is("ERR_UNSAFE_REDIRECT") || is("ERR_UNSAFE_PORT") ||
             is("ERR_DISALLOWED_URL_SCHEME") || is("ERR_BLOCKED_BY_RESPONSE")) {
        r.errorCode = QStringLiteral("BLOCKED");
        if (is("ERR_UNSAFE_REDIRECT"))
            r.errorMessage = QStringLiteral("the page redirected to a URL that is not http(s)");
    } else if (is("ERR_ABORTED"))
        r.errorCode = QStringLiteral("ABORTED");
    else if (is("ERR_CONNECTION_") || is("ERR_EMPTY_RESPONSE") || is("ERR_ADDRESS_") ||
             is("ERR_TUNNEL_CONNECTION_FAILED") || is("ERR_PROXY_CONNECTION_FAILED"))
        r.errorCode = QStringLiteral("CONNECTION_FAILED");
    else
        r.errorCode = QStringLiteral("NETWORK_ERROR");
}

// What QtWebEngine would not show as a page but hand over as a download.
bool isDownloadType(const QString &mime)
{
    const QString m = mime.toLower();
    if (!m.startsWith(QLatin1String("application/")))
        return false;
    return !(m.contains(QLatin1String("xml")) || m.contains(QLatin1String("json")) ||
             m.contains(QLatin1String("javascript")) || m.contains(QLatin1String("ecmascript")));
}

} // namespace

CdpNavigation::CdpNavigation(CdpPage &page, const QUrl &url, NavigateOptions options, Done done)
    : QObject(&page)
    , m_page(page)
    , m_options(std::move(options))
    , m_done(std::move(done))
{
    m_result.requestedUrl = url;
    m_clock.start();
}

void CdpNavigation::start()
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, &CdpNavigation::onDeadline);
    m_deadline.start(m_options.timeoutMs);
    connect(&m_page, &CdpPage::rendererCrashed, this, [this] {
        if (m_page.engineLost())
            fail(QStringLiteral("ENGINE_CRASHED"), m_page.failure());
        else
            fail(QStringLiteral("RENDERER_CRASHED"), QStringLiteral("the page's renderer crashed"));
    });
    QPointer<CdpNavigation> self(this);
    m_page.send(QStringLiteral("Page.navigate"),
                {{QStringLiteral("url"), m_result.requestedUrl.toString(QUrl::FullyEncoded)}},
                [self](const QJsonObject &r, const QString &error) {
                    if (self)
                        self->navigated(r, error);
                });
}

void CdpNavigation::lifecycle(const QString &loaderId, const QString &name)
{
    if (m_settled || loaderId.isEmpty() || loaderId != m_loader)
        return;
    if (name == QLatin1String("load") ||
        (name == QLatin1String("DOMContentLoaded") &&
         m_options.waitUntil == NavigateOptions::WaitUntil::DomContentLoaded))
        afterLoad();
}

void CdpNavigation::fail(const QString &code, const QString &message)
{
    m_result.errorCode = code;
    m_result.errorMessage = message;
    finish(false);
}

void CdpNavigation::navigated(const QJsonObject &r, const QString &error)
{
    if (m_settled)
        return;
    if (!error.isEmpty()) {
        if (m_page.engineLost())
            fail(QStringLiteral("ENGINE_CRASHED"), m_page.failure());
        else
            fail(QStringLiteral("NETWORK_ERROR"), error);
        return;
    }
    m_loader = str(r, "loaderId");
    const CdpPage::Document doc = m_page.m_documents.value(m_loader);
    applyResponse(doc);
    const QString errorText = str(r, "errorText");
    if (!errorText.isEmpty()) {
        if (errorText.contains(QLatin1String("ERR_HTTP_RESPONSE_CODE_FAILURE")) &&
            doc.status >= 400) {
            failHttpStatus(doc.status);
            return;
        }
        if (errorText.contains(QLatin1String("ERR_ABORTED")) && isDownloadType(doc.mimeType)) {
            nonHtml(doc.mimeType);
            return;
        }
        describeNetError(errorText, m_result);
        finish(false);
        return;
    }
    if (isDownloadType(doc.mimeType)) {
        nonHtml(doc.mimeType);
        return;
    }
    if (m_loader.isEmpty()) { // the same document (a fragment): nothing loads
        afterLoad();
        return;
    }
    if (doc.loaded ||
        (doc.domContent && m_options.waitUntil == NavigateOptions::WaitUntil::DomContentLoaded))
        afterLoad();
}

void CdpNavigation::applyResponse(const CdpPage::Document &doc)
{
    if (!doc.url.isEmpty())
        m_result.finalUrl = doc.url;
    if (doc.status > 0)
        m_result.httpStatus = doc.status;
}

void CdpNavigation::failHttpStatus(int status)
{
    m_result.httpStatus = status;
    fail(QStringLiteral("HTTP_STATUS"), navigation::httpStatusMessage(status));
}

void CdpNavigation::nonHtml(const QString &mime)
{
    m_result.contentType = mime;
    fail(QStringLiteral("NON_HTML"), navigation::nonHtmlMessage(mime));
}

void CdpNavigation::onDeadline()
{
    if (m_settled)
        return;
    m_page.send(QStringLiteral("Page.stopLoading"), {});
    fail(QStringLiteral("TIMEOUT"), navigation::timeoutMessage(m_loaded, m_options.timeoutMs));
}

void CdpNavigation::afterLoad()
{
    if (m_loaded)
        return;
    m_loaded = true;
    applyResponse(m_page.m_documents.value(m_loader));
    if (m_result.httpStatus >= 400) {
        failHttpStatus(m_result.httpStatus);
        return;
    }
    m_probe = navigation::waitProbe(m_options);
    if (m_probe.isEmpty()) {
        finish(true);
        return;
    }
    probe();
}

void CdpNavigation::probe()
{
    if (m_settled)
        return;
    QPointer<CdpNavigation> self(this);
    m_page.evaluate(m_probe, 5000, [self](bool ok, const QVariant &v) {
        if (!self || self->m_settled)
            return;
        const navigation::ProbeAnswer answer =
            ok ? navigation::readProbe(v) : navigation::ProbeAnswer::Pending;
        if (answer == navigation::ProbeAnswer::InvalidSelector) {
            self->fail(QStringLiteral("INVALID_SELECTOR"), navigation::invalidSelectorMessage());
            return;
        }
        if (answer == navigation::ProbeAnswer::Met) {
            self->finish(true);
            return;
        }
        QTimer::singleShot(50, self, [self] {
            if (self)
                self->probe();
        });
    });
}

void CdpNavigation::finish(bool ok)
{
    if (m_settled)
        return;
    m_settled = true;
    m_deadline.stop();
    disconnect(&m_page, nullptr, this, nullptr);
    m_result.ok = ok;
    m_result.elapsedMs = m_clock.elapsed();
    if (m_result.finalUrl.isEmpty())
        m_result.finalUrl = ok ? m_page.url() : m_result.requestedUrl;
    const Done done = std::move(m_done);
    const NavigationResult result = m_result;
    deleteLater();
    done(result);
}

} // namespace ph
