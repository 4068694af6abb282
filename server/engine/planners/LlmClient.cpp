#include "LlmClient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QTimer>

namespace ph::engine {

LlmClient::LlmClient(QNetworkAccessManager &network, QString baseUrl, QString apiKey, int timeoutMs,
                     QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_baseUrl(std::move(baseUrl))
    , m_apiKey(std::move(apiKey))
    , m_timeoutMs(timeoutMs)
{
    while (m_baseUrl.endsWith(QLatin1Char('/')))
        m_baseUrl.chop(1);
}

void LlmClient::chat(const QJsonObject &body, std::function<void(const ChatResult &)> done)
{
    attempt(body, 1, std::move(done));
}

void LlmClient::attempt(const QJsonObject &body, int number,
                        std::function<void(const ChatResult &)> done)
{
    QNetworkRequest request(QUrl(m_baseUrl + QStringLiteral("/chat/completions")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    if (!m_apiKey.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_apiKey.toUtf8());
    request.setTransferTimeout(m_timeoutMs);
    QNetworkReply *reply =
        m_network.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    QPointer<LlmClient> self(this);
    connect(reply, &QNetworkReply::finished, this, [self, reply, body, number, done] {
        reply->deleteLater();
        if (!self)
            return;
        ChatResult r;
        r.attempts = number;
        r.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray raw = reply->readAll();
        const bool retryable = r.httpStatus == 0 || r.httpStatus == 429 || r.httpStatus >= 500;
        if (reply->error() != QNetworkReply::NoError || r.httpStatus >= 400) {
            QString detail = QString::fromUtf8(raw.left(300)).simplified();
            const QJsonObject err =
                QJsonDocument::fromJson(raw).object().value(QStringLiteral("error")).toObject();
            if (!err.isEmpty())
                detail = err.value(QStringLiteral("message")).toString();
            r.error = r.httpStatus > 0
                          ? QStringLiteral("the model endpoint answered %1: %2")
                                .arg(r.httpStatus)
                                .arg(detail)
                          : QStringLiteral("the model endpoint could not be reached: %1")
                                .arg(reply->errorString());
            if (retryable && number < kAttempts) {
                QTimer::singleShot(number == 1 ? 300 : 1200, self, [self, body, number, done] {
                    if (self)
                        self->attempt(body, number + 1, done);
                });
                return;
            }
            done(r);
            return;
        }
        const QJsonObject doc = QJsonDocument::fromJson(raw).object();
        const QJsonObject choice = doc.value(QStringLiteral("choices")).toArray().at(0).toObject();
        if (choice.isEmpty()) {
            r.error = QStringLiteral("the model endpoint answered without choices");
            done(r);
            return;
        }
        r.ok = true;
        r.message = choice.value(QStringLiteral("message")).toObject();
        r.finishReason = choice.value(QStringLiteral("finish_reason")).toString();
        const QJsonObject usage = doc.value(QStringLiteral("usage")).toObject();
        r.promptTokens = usage.value(QStringLiteral("prompt_tokens")).toInteger();
        r.completionTokens = usage.value(QStringLiteral("completion_tokens")).toInteger();
        r.totalTokens = usage.value(QStringLiteral("total_tokens"))
                            .toInteger(r.promptTokens + r.completionTokens);
        done(r);
    });
}

} // namespace ph::engine
