#pragma once

#include "engine/BrowserTab.h"

namespace ph::runtime {

class RuntimeService;

// The tab of a runtime run: the visitor's own page. Every operation is a step the embed
// SDK performs on the live document with the same page agent the pool's pages carry
// (RuntimeService::requestStep), so the engine's tools and planners run unchanged.
class RemoteTab final : public engine::BrowserTab
{
    Q_OBJECT
public:
    RemoteTab(RuntimeService &service, QString sessionId, QString runId, QUrl url,
              QObject *parent = nullptr);

    QUrl url() const override { return m_url; }
    void navigate(const QUrl &url, int timeoutMs,
                  std::function<void(const NavigationResult &)> done) override;
    void call(
        const QString &function, const QJsonValue &argument, int timeoutMs,
        std::function<void(bool ok, const QJsonValue &result, const QString &error)> done) override;
    void act(const QJsonObject &action, int timeoutMs,
             std::function<void(const engine::ActOutcome &)> done) override;
    void waitFor(const QJsonObject &condition, int timeoutMs,
                 std::function<void(bool ok, const QString &error)> done) override;
    void snapshot(const QJsonObject &options,
                  std::function<void(const SnapshotResult &)> done) override;

private:
    void step(QJsonObject step, int timeoutMs,
              std::function<void(bool ok, const QJsonObject &result, const QString &error)> done);

    RuntimeService &m_service;
    QString m_sessionId;
    QString m_runId;
    QUrl m_url;
};

} // namespace ph::runtime
