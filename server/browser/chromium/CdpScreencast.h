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
    explicit CdpScreencast(CdpPage *page, QObject *parent = nullptr);
    ~CdpScreencast() override;

    static constexpr int kWidth = 1280;
    static constexpr int kHeight = 800;

    void capture(std::function<void(const QImage &frame)> done) override;
    QSize frameSize() const override { return {kWidth, kHeight}; }
    void deliver(const LiveInput &input, Done done) override;
    int frameIntervalMs() const override { return 250; }
    QString kind() const override { return QStringLiteral("view"); }

    // Frames seen so far (tests, diagnostics).
    int framesSeen() const { return m_frames; }

private:
    void onEvent(const QString &method, const QJsonObject &params);

    QPointer<CdpPage> m_page;
    QImage m_frame;
    int m_frames = 0;
    QList<std::function<void(const QImage &)>> m_waiting;
};

} // namespace ph
