#include "browser/chromium/CdpFilter.h"

#include "browser/chromium/CdpConnection.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace ph {

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

// The domains a client's commands may be in (the rest is refused): what Playwright and
// Puppeteer use, and what acts on the session's own pages only. Target, Browser, Storage,
// Network, Page, DOM, Input, IO and Fetch are judged further below.
const QSet<QString> &allowedDomains()
{
    static const QSet<QString> domains{
        QStringLiteral("Accessibility"),
        QStringLiteral("Animation"),
        QStringLiteral("Audits"),
        QStringLiteral("Autofill"),
        QStringLiteral("BackgroundService"),
        QStringLiteral("Browser"),
        QStringLiteral("CSS"),
        QStringLiteral("CacheStorage"),
        QStringLiteral("Console"),
        QStringLiteral("DOM"),
        QStringLiteral("DOMDebugger"),
        QStringLiteral("DOMSnapshot"),
        QStringLiteral("DOMStorage"),
        QStringLiteral("Debugger"),
        QStringLiteral("DeviceOrientation"),
        QStringLiteral("Emulation"),
        QStringLiteral("EventBreakpoints"),
        QStringLiteral("FedCm"),
        QStringLiteral("Fetch"),
        QStringLiteral("HeadlessExperimental"),
        QStringLiteral("HeapProfiler"),
        QStringLiteral("IO"),
        QStringLiteral("IndexedDB"),
        QStringLiteral("Input"),
        QStringLiteral("Inspector"),
        QStringLiteral("LayerTree"),
        QStringLiteral("Log"),
        QStringLiteral("Media"),
        QStringLiteral("Memory"),
        QStringLiteral("Network"),
        QStringLiteral("Overlay"),
        QStringLiteral("Page"),
        QStringLiteral("Performance"),
        QStringLiteral("PerformanceTimeline"),
        QStringLiteral("Preload"),
        QStringLiteral("Profiler"),
        QStringLiteral("Runtime"),
        QStringLiteral("Schema"),
        QStringLiteral("Security"),
        QStringLiteral("ServiceWorker"),
        QStringLiteral("Storage"),
        QStringLiteral("Target"),
        QStringLiteral("Tracing"),
        QStringLiteral("WebAudio"),
        QStringLiteral("WebAuthn"),
    };
    return domains;
}

// Browser.* commands that act on the session's one browser and its windows only.
const QSet<QString> &allowedBrowserCommands()
{
    static const QSet<QString> commands{
        QStringLiteral("Browser.getVersion"),      QStringLiteral("Browser.getWindowForTarget"),
        QStringLiteral("Browser.getWindowBounds"), QStringLiteral("Browser.setWindowBounds"),
        QStringLiteral("Browser.setContentsSize"),
    };
    return commands;
}

// Target.* commands that name a target the client must have been told of.
const QSet<QString> &targetNamingCommands()
{
    static const QSet<QString> commands{
        QStringLiteral("Target.attachToTarget"), QStringLiteral("Target.activateTarget"),
        QStringLiteral("Target.closeTarget"),    QStringLiteral("Target.detachFromTarget"),
        QStringLiteral("Target.getTargetInfo"),
    };
    return commands;
}

// Commands whose result carries a stream handle for IO.read.
const QSet<QString> &streamResults()
{
    static const QSet<QString> commands{
        QStringLiteral("Page.printToPDF"),
        QStringLiteral("Fetch.takeResponseBodyAsStream"),
        QStringLiteral("Network.takeResponseBodyForInterceptionAsStream"),
    };
    return commands;
}

bool isHttp(const QString &url)
{
    const QString lower = url.trimmed().toLower();
    return CdpConnection::targetRefusal(url).isEmpty() &&
           (lower.startsWith(QLatin1String("http:")) || lower.startsWith(QLatin1String("https:")));
}

} // namespace

CdpFilter::CdpFilter(Scope scope)
    : m_scope(std::move(scope))
{}

CdpFilter::Verdict CdpFilter::refuse(const QString &reason)
{
    Verdict v;
    v.kind = Verdict::Kind::Refuse;
    v.reason = reason;
    return v;
}

bool CdpFilter::isOwnContext(const QJsonObject &params) const
{
    const QJsonValue id = params.value(QStringLiteral("browserContextId"));
    return id.isUndefined() || id.isNull() ||
           (id.isString() && (id.toString().isEmpty() || id.toString() == m_scope.contextId));
}

bool CdpFilter::isUpload(const QString &path) const
{
    if (m_scope.uploadDir.isEmpty() || !QDir::isAbsolutePath(path))
        return false;
    // Judged by where the path really leads (links followed, ".." resolved).
    const QString real = QFileInfo(path).canonicalFilePath();
    const QString dir = QFileInfo(m_scope.uploadDir).canonicalFilePath();
    return !real.isEmpty() && !dir.isEmpty() && real.startsWith(dir + QLatin1Char('/'));
}

CdpFilter::Verdict CdpFilter::judge(const QString &method, const QJsonObject &params,
                                    const QString &sessionId) const
{
    const qsizetype dot = method.indexOf(QLatin1Char('.'));
    const QString domain = dot > 0 ? method.left(dot) : QString();
    if (!allowedDomains().contains(domain))
        return refuse(QStringLiteral("%1 is not available in a browser session: the %2 domain "
                                     "acts outside the session's pages")
                          .arg(method, domain.isEmpty() ? QStringLiteral("unnamed") : domain));
    if (domain == QLatin1String("Target"))
        return judgeTarget(method, params);
    if (domain == QLatin1String("Browser"))
        return judgeBrowser(method, params);
    if (domain == QLatin1String("Storage") && !isOwnContext(params))
        return refuse(
            QStringLiteral("%1 refused: the browser context is not this session's").arg(method));
    if (method == QLatin1String("Page.navigate")) {
        if (const QString why = CdpConnection::targetRefusal(str(params, "url")); !why.isEmpty())
            return refuse(QStringLiteral("Page.navigate refused: the URL %1").arg(why));
        return allow();
    }
    if (method == QLatin1String("Network.loadNetworkResource") && !isHttp(str(params, "url")))
        return refuse(QStringLiteral("Network.loadNetworkResource refused: only http(s) URLs"));
    if (method == QLatin1String("Fetch.continueRequest") &&
        params.contains(QStringLiteral("url")) && !isHttp(str(params, "url")))
        return refuse(QStringLiteral("Fetch.continueRequest refused: a request may be sent on "
                                     "to http(s) URLs only"));
    if (method == QLatin1String("Fetch.disable") && !m_fetchSessions.contains(sessionId))
        return refuse(QStringLiteral("Fetch.disable refused: this client has not enabled Fetch "
                                     "here (the session's own request checks stay on)"));
    if (method == QLatin1String("IO.read") || method == QLatin1String("IO.close")) {
        if (!m_streams.contains(str(params, "handle")))
            return refuse(
                QStringLiteral("%1 refused: the stream was not given to this client").arg(method));
        return allow();
    }
    if (method == QLatin1String("Page.setDownloadBehavior"))
        return judgeDownloads(method, params);
    return judgeFiles(method, params);
}

CdpFilter::Verdict CdpFilter::judgeFiles(const QString &method, const QJsonObject &params) const
{
    QJsonArray files;
    if (method == QLatin1String("DOM.setFileInputFiles"))
        files = params.value(QStringLiteral("files")).toArray();
    else if (method == QLatin1String("Input.dispatchDragEvent") ||
             method == QLatin1String("Input.setInterceptDrags"))
        files = params.value(QStringLiteral("data"))
                    .toObject()
                    .value(QStringLiteral("files"))
                    .toArray();
    for (const QJsonValue &f : std::as_const(files)) {
        if (!f.isString() || !isUpload(f.toString()))
            return refuse(QStringLiteral("%1 refused: only files in the session's upload "
                                         "directory can be given to a page")
                              .arg(method));
    }
    return allow();
}

CdpFilter::Verdict CdpFilter::judgeTarget(const QString &method, const QJsonObject &params) const
{
    if (method == QLatin1String("Target.createBrowserContext") ||
        method == QLatin1String("Target.disposeBrowserContext"))
        return refuse(QStringLiteral("%1 refused: a browser session has exactly one browser "
                                     "context (its profile); open pages in it")
                          .arg(method));
    if (method == QLatin1String("Target.createTarget")) {
        if (!isOwnContext(params))
            return refuse(QStringLiteral("Target.createTarget refused: the browser context is "
                                         "not this session's"));
        const QString url = str(params, "url");
        if (const QString why = CdpConnection::targetRefusal(url); !why.isEmpty())
            return refuse(QStringLiteral("Target.createTarget refused: the URL %1").arg(why));
        return allow();
    }
    if (method == QLatin1String("Target.exposeDevToolsProtocol") ||
        method == QLatin1String("Target.setRemoteLocations") ||
        method == QLatin1String("Target.openDevTools") ||
        method == QLatin1String("Target.sendMessageToTarget") ||
        method == QLatin1String("Target.attachToBrowserTarget"))
        return refuse(QStringLiteral("%1 is not available in a browser session (the relay "
                                     "speaks flat sessions; no page gets raw DevTools)")
                          .arg(method));
    if (method == QLatin1String("Target.setAutoAttach") &&
        !params.value(QStringLiteral("flatten")).toBool())
        return refuse(QStringLiteral("Target.setAutoAttach refused: only with flatten: true"));
    if (method == QLatin1String("Target.attachToTarget") &&
        params.contains(QStringLiteral("flatten")) &&
        !params.value(QStringLiteral("flatten")).toBool())
        return refuse(QStringLiteral("Target.attachToTarget refused: only with flatten: true"));
    if (targetNamingCommands().contains(method) && params.contains(QStringLiteral("targetId")) &&
        !m_targets.contains(str(params, "targetId")))
        return refuse(QStringLiteral("%1 refused: no target with the given id").arg(method));
    return allow();
}

CdpFilter::Verdict CdpFilter::judgeBrowser(const QString &method, const QJsonObject &params) const
{
    if (allowedBrowserCommands().contains(method))
        return allow();
    if (method == QLatin1String("Browser.setDownloadBehavior"))
        return judgeDownloads(method, params);
    if (method == QLatin1String("Browser.grantPermissions") ||
        method == QLatin1String("Browser.resetPermissions") ||
        method == QLatin1String("Browser.setPermission") ||
        method == QLatin1String("Browser.cancelDownload")) {
        if (!isOwnContext(params))
            return refuse(QStringLiteral("%1 refused: the browser context is not this session's")
                              .arg(method));
        return allow();
    }
    if (method == QLatin1String("Browser.close")) {
        // The session ends by its owner (DELETE /sessions/{id}) or its expiry; a client
        // closing "the browser" closes its own connection.
        Verdict v;
        v.kind = Verdict::Kind::Answer;
        v.closeClient = true;
        return v;
    }
    return refuse(QStringLiteral("%1 is not available in a browser session").arg(method));
}

CdpFilter::Verdict CdpFilter::judgeDownloads(const QString &method, const QJsonObject &params) const
{
    if (!isOwnContext(params))
        return refuse(
            QStringLiteral("%1 refused: the browser context is not this session's").arg(method));
    const QString behavior = str(params, "behavior");
    if (behavior == QLatin1String("deny") || behavior == QLatin1String("default")) {
        QJsonObject p = params;
        p.remove(QStringLiteral("downloadPath"));
        Verdict v;
        v.kind = p == params ? Verdict::Kind::Allow : Verdict::Kind::Rewrite;
        v.params = p;
        return v;
    }
    if (behavior != QLatin1String("allow") && behavior != QLatin1String("allowAndName"))
        return refuse(QStringLiteral("%1 refused: unknown behavior").arg(method));
    if (m_scope.downloadDir.isEmpty())
        return refuse(QStringLiteral("%1 refused: this session keeps no downloads").arg(method));
    // Downloads go to the session's own directory, never to a path the caller names.
    Verdict v;
    v.kind = Verdict::Kind::Rewrite;
    v.params = params;
    v.params.insert(QStringLiteral("downloadPath"), m_scope.downloadDir);
    return v;
}

void CdpFilter::observeEvent(const QString &method, const QJsonObject &params)
{
    if (method == QLatin1String("Target.targetCreated") ||
        method == QLatin1String("Target.targetInfoChanged") ||
        method == QLatin1String("Target.attachedToTarget")) {
        const QString id = str(params.value(QStringLiteral("targetInfo")).toObject(), "targetId");
        if (!id.isEmpty())
            m_targets.insert(id);
    } else if (method == QLatin1String("Target.targetDestroyed")) {
        m_targets.remove(str(params, "targetId"));
    } else if (method == QLatin1String("Tracing.tracingComplete")) {
        const QString stream = str(params, "stream");
        if (!stream.isEmpty())
            m_streams.insert(stream);
    }
}

void CdpFilter::observeResult(const QString &method, const QJsonObject &params,
                              const QString &sessionId, const QJsonObject &result)
{
    if (method == QLatin1String("Target.createTarget")) {
        m_targets.insert(str(result, "targetId"));
    } else if (method == QLatin1String("Target.getTargets")) {
        for (const QJsonValue &t : result.value(QStringLiteral("targetInfos")).toArray())
            m_targets.insert(str(t.toObject(), "targetId"));
    } else if (method == QLatin1String("Target.getTargetInfo")) {
        m_targets.insert(str(result.value(QStringLiteral("targetInfo")).toObject(), "targetId"));
    } else if (streamResults().contains(method)) {
        const QString stream = str(result, "stream");
        if (!stream.isEmpty())
            m_streams.insert(stream);
    } else if (method == QLatin1String("IO.resolveBlob")) {
        const QString uuid = str(result, "uuid");
        if (!uuid.isEmpty())
            m_streams.insert(QStringLiteral("blob:") + uuid);
    } else if (method == QLatin1String("IO.close")) {
        m_streams.remove(str(params, "handle"));
    } else if (method == QLatin1String("Fetch.enable")) {
        m_fetchSessions.insert(sessionId);
    } else if (method == QLatin1String("Fetch.disable")) {
        m_fetchSessions.remove(sessionId);
    }
    m_targets.remove(QString());
}

} // namespace ph
