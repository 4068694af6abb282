// The DevTools relay's filter (browser/chromium/CdpFilter): a client's command as it
// arrives on the session's WebSocket ({id, method, params, sessionId}), judged, then what
// the client is shown of it observed. The input is the message's JSON text.
#include "FuzzInput.h"

#include "browser/chromium/CdpConnection.h"
#include "browser/chromium/CdpFilter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::CdpFilter;
    const QJsonObject message = QJsonDocument::fromJson(bytesOf(data, size)).object();
    const QString method = message.value(QStringLiteral("method")).toString();
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    const QString sessionId = message.value(QStringLiteral("sessionId")).toString();

    CdpFilter filter({QStringLiteral("CTX"), QStringLiteral("/nonexistent/downloads"),
                      QStringLiteral("/nonexistent/uploads")});
    const CdpFilter::Verdict v = filter.judge(method, params, sessionId);
    using Kind = CdpFilter::Verdict::Kind;
    if (v.kind == Kind::Refuse)
        require(!v.reason.isEmpty(), "a refusal without a reason");
    const QJsonObject sent = v.kind == Kind::Rewrite ? v.params : params;
    if (v.kind == Kind::Allow || v.kind == Kind::Rewrite) {
        // What reaches the browser never opens a URL the engine does not open, never
        // names another browser context, never downloads to a caller's path.
        if (method == QLatin1String("Target.createTarget") ||
            method == QLatin1String("Page.navigate"))
            require(ph::CdpConnection::targetRefusal(sent.value(QStringLiteral("url")).toString())
                        .isEmpty(),
                    "a foreign URL was let through");
        if (method == QLatin1String("Target.createBrowserContext"))
            require(false, "a second browser context was let through");
        const QJsonValue context = sent.value(QStringLiteral("browserContextId"));
        if (method.startsWith(QLatin1String("Browser.")) ||
            method.startsWith(QLatin1String("Storage.")))
            require(context.isUndefined() || context.isNull() || context.toString().isEmpty() ||
                        context.toString() == QLatin1String("CTX"),
                    "another browser context was let through");
        if (method.endsWith(QLatin1String(".setDownloadBehavior")) &&
            sent.contains(QStringLiteral("downloadPath")))
            require(sent.value(QStringLiteral("downloadPath")).toString() ==
                        QLatin1String("/nonexistent/downloads"),
                    "a download path of the caller's was let through");
        if (method == QLatin1String("DOM.setFileInputFiles"))
            require(sent.value(QStringLiteral("files")).toArray().isEmpty(),
                    "a file outside the (missing) upload directory was let through");
    }
    filter.observeEvent(method, params);
    filter.observeResult(method, params, sessionId,
                         message.value(QStringLiteral("result")).toObject());
    filter.judge(method, params, sessionId);
    return 0;
}
