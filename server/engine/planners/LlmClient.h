#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>

class QNetworkAccessManager;

namespace ph::engine {

struct ChatResult
{
    bool ok = false;
    QString error;
    int httpStatus = 0;
    QJsonObject message; // choices[0].message
    QString finishReason;
    qint64 promptTokens = 0;
    qint64 completionTokens = 0;
    qint64 totalTokens = 0;
    int attempts = 0;
};

// POST {baseUrl}/chat/completions of any OpenAI-compatible server (a local model
// server or a hosted one). Network failures, timeouts, 429 and 5xx are retried twice
// with backoff; other 4xx are final.
class LlmClient : public QObject
{
    Q_OBJECT
public:
    LlmClient(QNetworkAccessManager &network, QString baseUrl, QString apiKey, int timeoutMs,
              QObject *parent = nullptr);
    void chat(const QJsonObject &body, std::function<void(const ChatResult &)> done);

    static constexpr int kAttempts = 3;

private:
    void attempt(const QJsonObject &body, int number, std::function<void(const ChatResult &)> done);

    QNetworkAccessManager &m_network;
    QString m_baseUrl;
    QString m_apiKey;
    int m_timeoutMs;
};

} // namespace ph::engine
