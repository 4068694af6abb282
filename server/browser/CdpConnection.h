#pragma once

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <functional>

class QWebSocket;

namespace ph {

// Internal to the browser area: one WebSocket to a Chromium's DevTools endpoint, in the
// protocol's flat session mode (every target session's commands and events travel on the
// browser's socket, told apart by `sessionId`). Commands are answered through their
// callback; events go to the sink registered for their session, or out as browserEvent.
class CdpConnection : public QObject
{
    Q_OBJECT
public:
    // `error` is empty when the command succeeded; then `result` is its result.
    using Reply = std::function<void(const QJsonObject &result, const QString &error)>;
    using Sink = std::function<void(const QString &method, const QJsonObject &params)>;

    explicit CdpConnection(QObject *parent = nullptr);
    ~CdpConnection() override;

    void open(const QUrl &url);
    bool isOpen() const { return m_open; }
    void close();

    // Sends a command (to the browser when `sessionId` is empty). `reply` runs once, from
    // the event loop: with the result, or with the protocol's error message, or with
    // "closed" when the connection ends first. Never after `context` is gone.
    void send(const QString &method, const QJsonObject &params, const QString &sessionId,
              QObject *context, Reply reply = {});
    void setSink(const QString &sessionId, Sink sink);
    void removeSink(const QString &sessionId);

Q_SIGNALS:
    void opened();
    void closed();
    void browserEvent(const QString &method, const QJsonObject &params);

private:
    struct Pending
    {
        QPointer<QObject> context;
        bool hasContext = false;
        Reply reply;
    };
    void onMessage(const QString &text);
    void failAll(const QString &error);

    QWebSocket *m_socket;
    bool m_open = false;
    qint64 m_nextId = 1;
    QHash<qint64, Pending> m_pending;
    QHash<QString, Sink> m_sinks;
};

} // namespace ph
