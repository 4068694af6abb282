#include "RunFetch.h"

#include "RunContext.h"

#include "core/ObjectStore.h"
#include "net/NetworkPolicy.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QUrlQuery>

namespace ph::engine {

namespace {
constexpr int kFetchTimeoutMs = 30000;

FetchResult failed(QString error, int status = 0, bool tooLarge = false)
{
    FetchResult f;
    f.error = std::move(error);
    f.httpStatus = status;
    f.tooLarge = tooLarge;
    return f;
}
} // namespace

void fetchForRun(RunContext &ctx, const QString &raw, qint64 maxBytes, QObject *receiver,
                 std::function<void(const FetchResult &)> done)
{
    const QUrl url(raw);
    const QString refusal = NetworkPolicy::refusal(url, ctx.grant());
    if (!refusal.isEmpty()) {
        done(failed(QStringLiteral("the URL %1").arg(refusal)));
        return;
    }
    // The run's own fetcher: every request and redirect hop passes the egress proxy,
    // which resolves the host, checks each address against the run's grant and
    // connects to the address it checked. Nothing is shared with other keys' fetches.
    QNetworkRequest request(url);
    request.setTransferTimeout(kFetchTimeoutMs);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setMaximumRedirectsAllowed(5);
    QNetworkReply *reply = ctx.fetcher().get(request);
    QObject::connect(reply, &QNetworkReply::downloadProgress, reply,
                     [reply, maxBytes](qint64 received, qint64) {
                         if (received > maxBytes)
                             reply->abort();
                     });
    QObject::connect(reply, &QNetworkReply::finished, receiver, [reply, maxBytes, done] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->readAll();
        if (reply->error() == QNetworkReply::OperationCanceledError || body.size() > maxBytes) {
            done(failed(QStringLiteral("larger than %1 bytes").arg(maxBytes), 0, true));
            return;
        }
        // The egress proxy's refusal (403 with its reason) or failure to resolve (502).
        if (reply->error() == QNetworkReply::ProxyConnectionRefusedError ||
            reply->error() == QNetworkReply::ProxyNotFoundError ||
            reply->error() == QNetworkReply::UnknownProxyError ||
            reply->error() == QNetworkReply::ProxyAuthenticationRequiredError ||
            (reply->error() != QNetworkReply::NoError && status == 0 &&
             reply->errorString().contains(QLatin1String("proxy"), Qt::CaseInsensitive))) {
            done(failed(QStringLiteral("the network policy refused the URL or a "
                                       "redirect hop (%1)")
                            .arg(reply->errorString())));
            return;
        }
        if (body.startsWith("Pilothouse network policy: ") && (status == 403 || status == 502)) {
            done(failed(QString::fromUtf8(body.mid(27))));
            return;
        }
        if (status >= 400) {
            done(failed(QStringLiteral("the server answered HTTP %1").arg(status), status));
            return;
        }
        if (reply->error() != QNetworkReply::NoError) {
            done(failed(reply->errorString()));
            return;
        }
        FetchResult f;
        f.ok = true;
        f.body = body;
        f.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
        f.httpStatus = status;
        done(f);
    });
}

QString ownObjectId(const QString &downloadUrl, const ObjectStore &objects)
{
    const QUrl url(downloadUrl);
    const QString path = url.path();
    const qsizetype at = path.lastIndexOf(QLatin1String("/storage/"));
    if (at < 0)
        return {};
    const QString id = path.mid(at + 9);
    const QUrlQuery q(url);
    if (objects.verify(id, q.queryItemValue(QStringLiteral("expires")).toLongLong(),
                       q.queryItemValue(QStringLiteral("sig"))))
        return id;
    return {};
}

} // namespace ph::engine
