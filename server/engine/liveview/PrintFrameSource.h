#pragma once

#include "browser/LiveFrameSource.h"

#include <QPointer>

namespace ph::engine {

// Live view frames without a screen (the headless-only build, where no Widgets view can
// show the page): the page printed to PDF at a 1280 × 800 px page, its first page
// rendered by poppler — the top of the document in its print layout — about once a
// second. Input goes through the DOM, hit-tested in that same layout
// (LiveFrameSource::deliverByScript).
class PrintFrameSource final : public LiveFrameSource
{
public:
    explicit PrintFrameSource(QWebEnginePage *page, QObject *parent = nullptr);

    static constexpr int kWidth = 1280;
    static constexpr int kHeight = 800;

    void capture(std::function<void(const QImage &frame)> done) override;
    QSize frameSize() const override { return {kWidth, kHeight}; }
    void deliver(const LiveInput &input, Done done) override;
    int frameIntervalMs() const override { return 1000; }
    QString kind() const override { return QStringLiteral("print"); }

private:
    QPointer<QWebEnginePage> m_page;
};

} // namespace ph::engine
