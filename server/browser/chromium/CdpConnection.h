#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QSocketNotifier;

namespace ph {

// Internal to the browser area: the DevTools channel to one Chromium, over the pipe its
// `--remote-debugging-pipe` opens (no TCP port, so no other local user or process can
// reach it): Chromium reads commands from its fd 3 and writes answers and events to its
// fd 4, each a JSON text ended by a NUL byte. This end reads and writes the other ends of
// those two pipes, non-blocking, from the event loop. The protocol runs in flat session
// mode (every target session's commands and events travel on the browser's channel, told
// apart by `sessionId`). Commands are answered through their callback; events go to the
// sink registered for their session, or out as browserEvent.
class CdpConnection : public QObject
{
    Q_OBJECT
public:
    // `error` is empty when the command succeeded; then `result` is its result.
    using Reply = std::function<void(const QJsonObject &result, const QString &error)>;
    using Sink = std::function<void(const QString &method, const QJsonObject &params)>;

    explicit CdpConnection(QObject *parent = nullptr);
    ~CdpConnection() override;

    // Takes ownership of the two file descriptors: `readFd` gets Chromium's output (its
    // fd 4), `writeFd` takes our commands (its fd 3). Both are made non-blocking. The
    // channel is open at once (opened() follows from the event loop); closed() when
    // Chromium's end goes (end of file or an error on either pipe).
    void open(int readFd, int writeFd);
    bool isOpen() const { return m_open; }
    void close();

    // Sends a command (to the browser when `sessionId` is empty). `reply` runs once, from
    // the event loop: with the result, or with the protocol's error message, or with
    // "closed" when the connection ends first. Never after `context` is gone.
    void send(const QString &method, const QJsonObject &params, const QString &sessionId,
              QObject *context, Reply reply = {});
    void setSink(const QString &sessionId, Sink sink);
    void removeSink(const QString &sessionId);

    // Why the engine must not open `url` as a document (empty: it may): only http and
    // https, data: and about:blank are opened; file:, chrome:, chrome-untrusted:,
    // devtools:, view-source:, javascript:, blob: and every other scheme are refused. The
    // URL is read as Chromium reads it (spaces and controls around it, tabs and newlines
    // in it, do not hide the scheme). send() refuses Page.navigate and
    // Target.createTarget with such a URL: they never reach the browser.
    static QString targetRefusal(const QString &url);
    // Why a frame may not show the document at `url` (empty: it may): targetRefusal's
    // rule, except a page's own inline documents (blob:, about:srcdoc) and Chromium's error
    // page after a failed load. `url` is as Chromium reports it (canonical).
    static QString landingRefusal(const QString &url);

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
    void onReadable();
    void flush();
    void onMessage(const QByteArray &text);
    void failAll(const QString &error);
    // Closes both pipes; `lost`: Chromium's end went (closed() is emitted).
    void shut(bool lost);

    int m_readFd = -1;
    int m_writeFd = -1;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    QByteArray m_in;       // what arrived after the last complete message
    QByteArray m_out;      // what is still to be written
    qsizetype m_outAt = 0; // how much of m_out is written
    bool m_open = false;
    qint64 m_nextId = 1;
    QHash<qint64, Pending> m_pending;
    QHash<QString, Sink> m_sinks;
};

} // namespace ph
