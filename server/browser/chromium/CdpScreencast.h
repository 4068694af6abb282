#pragma once

#include "browser/LiveFrameSource.h"

#include <QImage>
#include <QList>
#include <QPointer>

namespace ph {

class CdpPage;

// Live view frames of a chromium page: Page.startScreencast's JPEG frames (each one
// acknowledged, so the browser sends the next only when the page changes), and a
// person's input as real events through Input.dispatchMouseEvent / dispatchKeyEvent /
// insertText. The screencast stops when the source is deleted.
class CdpScreencast final : public LiveFrameSource
{
    Q_OBJECT
public:
    // How the screencast sends a command to its page's session; `context` as
    // CdpConnection::send's.
    using Command = std::function<void(
        const QString &method, const QJsonObject &params, QObject *context,
        std::function<void(const QJsonObject &result, const QString &error)> reply)>;

    explicit CdpScreencast(CdpPage *page, QObject *parent = nullptr);
    // Over a DevTools session of its own (a browser session's page): the caller passes the
    // session's events to feed().
    CdpScreencast(Command command, QSize size, QObject *parent = nullptr);
    ~CdpScreencast() override;

    void feed(const QString &method, const QJsonObject &params) { onEvent(method, params); }

    static constexpr int kWidth = 1280;
    static constexpr int kHeight = 800;

    void capture(std::function<void(const QImage &frame)> done) override;
    QSize frameSize() const override { return m_size; }
    void deliver(const LiveInput &input, Done done) override;
    int frameIntervalMs() const override { return 250; }
    QString kind() const override { return QStringLiteral("view"); }

    // Frames seen so far (tests, diagnostics).
    int framesSeen() const { return m_frames; }

private:
    void onEvent(const QString &method, const QJsonObject &params);

    void start();
    bool alive() const { return m_hasPage ? !m_page.isNull() : bool(m_command); }

    QPointer<CdpPage> m_page;
    bool m_hasPage = false;
    Command m_command;
    QSize m_size{kWidth, kHeight};
    QImage m_frame;
    int m_frames = 0;
    QList<std::function<void(const QImage &)>> m_waiting;
};

} // namespace ph
