#include "InputLoader.h"

#include "RunContext.h"

#include "browser/NetworkPolicy.h"

#include <QHostAddress>
#include <QHostInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QTimer>

namespace ph::engine {

namespace {
constexpr int kFetchTimeoutMs = 30000;

QString sniffImage(const QByteArray &head)
{
    if (head.startsWith("\x89PNG"))
        return QStringLiteral("image/png");
    if (head.startsWith("\xff\xd8\xff"))
        return QStringLiteral("image/jpeg");
    return {};
}
} // namespace

InputLoader::InputLoader(RunContext &ctx, QObject *parent)
    : QObject(parent)
    , m_ctx(ctx)
{}

void InputLoader::load(std::function<void(const QString &)> done)
{
    m_done = std::move(done);
    const ExecuteRequest &r = m_ctx.request();
    for (qsizetype i = 0; i < r.imageUrls.size(); ++i) {
        const QString url = r.imageUrls.at(i);
        m_tasks.append([this, url, i] {
            fetch(url, kMaxImageBytes,
                  [this, i](bool ok, const QByteArray &body, const QByteArray &type,
                            const QString &error) {
                      if (!ok) {
                          fail(QStringLiteral("image_urls[%1]: %2").arg(i).arg(error));
                          return;
                      }
                      QString mime = sniffImage(body.left(8));
                      if (mime.isEmpty()) {
                          fail(QStringLiteral("image_urls[%1]: not a JPG or PNG image (%2)")
                                   .arg(i)
                                   .arg(QString::fromLatin1(type)));
                          return;
                      }
                      m_ctx.images().append(QStringLiteral("data:%1;base64,%2")
                                                .arg(mime, QString::fromLatin1(body.toBase64())));
                      next();
                  });
        });
    }
    next();
}

void InputLoader::next()
{
    if (m_failed)
        return;
    if (m_tasks.isEmpty()) {
        auto done = std::exchange(m_done, nullptr);
        if (done)
            done(QString());
        return;
    }
    const auto task = m_tasks.takeFirst();
    task();
}

void InputLoader::fail(const QString &error)
{
    if (m_failed)
        return;
    m_failed = true;
    auto done = std::exchange(m_done, nullptr);
    if (done)
        done(error);
}

void InputLoader::fetch(
    const QString &raw, qint64 maxBytes,
    std::function<void(bool, const QByteArray &, const QByteArray &, const QString &)> done)
{
    const QUrl url(raw);
    const QString refusal = m_ctx.services().policy.refusal(url);
    if (!refusal.isEmpty()) {
        done(false, {}, {}, QStringLiteral("the URL %1").arg(refusal));
        return;
    }
    auto send = [this, url, maxBytes, done] {
        QNetworkRequest request(url);
        request.setTransferTimeout(kFetchTimeoutMs);
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                             QNetworkRequest::NoLessSafeRedirectPolicy);
        request.setMaximumRedirectsAllowed(5);
        QNetworkReply *reply = m_ctx.services().network.get(request);
        QPointer<InputLoader> self(this);
        connect(reply, &QNetworkReply::downloadProgress, reply,
                [reply, maxBytes](qint64 received, qint64) {
                    if (received > maxBytes)
                        reply->abort();
                });
        connect(reply, &QNetworkReply::finished, this, [self, reply, maxBytes, done] {
            reply->deleteLater();
            if (!self)
                return;
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QByteArray body = reply->readAll();
            if (reply->error() == QNetworkReply::OperationCanceledError || body.size() > maxBytes) {
                done(false, {}, {}, QStringLiteral("larger than %1 bytes").arg(maxBytes));
                return;
            }
            if (status >= 400) {
                done(false, {}, {}, QStringLiteral("the server answered HTTP %1").arg(status));
                return;
            }
            if (reply->error() != QNetworkReply::NoError) {
                done(false, {}, {}, reply->errorString());
                return;
            }
            done(true, body, reply->header(QNetworkRequest::ContentTypeHeader).toByteArray(),
                 QString());
        });
    };
    // With private targets off, a name that resolves to a private address is refused too.
    if (!m_ctx.services().policy.allowPrivateTargets() && QHostAddress(url.host()).isNull()) {
        QHostInfo::lookupHost(url.host(), this, [url, send, done](const QHostInfo &info) {
            for (const QHostAddress &a : info.addresses()) {
                if (NetworkPolicy::isPrivateAddress(a)) {
                    done(false, {}, {},
                         QStringLiteral("%1 resolves to a private address").arg(url.host()));
                    return;
                }
            }
            if (info.error() != QHostInfo::NoError) {
                done(false, {}, {}, QStringLiteral("%1 could not be resolved").arg(url.host()));
                return;
            }
            send();
        });
        return;
    }
    send();
}

} // namespace ph::engine
