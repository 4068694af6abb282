#pragma once

#include "TestService.h"

#include "core/ApiKeyRepository.h"
#include "core/ObjectStore.h"
#include "core/Store.h"
#include "engine/EngineTypes.h"
#include "engine/ResponseBuilder.h"
#include "engine/RunContext.h"
#include "engine/Tool.h"
#include "engine/tools/BuiltinTools.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QTimer>

#include <memory>

namespace ph::test {

// One tool called directly, outside a run: the service's store, settings, pool and
// network policy, a run context for a key of the service (the owner's unless given),
// and the tool's result once it calls back.
class ToolHarness
{
public:
    explicit ToolHarness(TestService &ph, engine::ExecuteRequest request = {},
                         const QString &keySecret = {})
        : m_tools(engine::builtinTools())
        , m_services{ph.service().store(),
                     ph.service().settings(),
                     ph.service().pool(),
                     ph.service().policy(),
                     m_network,
                     *m_tools,
                     ph.service().trajectories()}
        , m_request(std::move(request))
    {
        const auto key = ph.service().store().apiKeys().findBySecret(
            keySecret.isEmpty() ? ph.ownerKey() : keySecret);
        m_ctx = std::make_unique<engine::RunContext>(
            m_services, m_request, QStringLiteral("traj_harness"), 1, key ? key->id : QString(),
            QStringLiteral("req_harness"));
    }

    engine::RunContext &context() { return *m_ctx; }

    engine::ToolResult run(const QString &tool, const QJsonObject &args, int timeoutMs = 60000)
    {
        engine::ToolResult result = engine::ToolResult::failure(QStringLiteral("timed out"));
        engine::Tool *t = m_tools->find(tool);
        if (!t)
            return engine::ToolResult::failure(QStringLiteral("no tool ") + tool);
        QEventLoop loop;
        bool finished = false;
        t->run(*m_ctx, args, [&](engine::ToolResult r) {
            result = std::move(r);
            finished = true;
            loop.quit();
        });
        if (!finished) {
            QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
            loop.exec();
        }
        return result;
    }

    // The signed link of a generated file, as a response lists it.
    QString downloadUrl(const engine::GeneratedFile &f)
    {
        return engine::ResponseBuilder::storageRef(m_services.store.objects(), m_services.settings,
                                                   f.objectId, f.name, f.contentType, f.sizeBytes)
            .value(QStringLiteral("downloadUrl"))
            .toString();
    }

private:
    QNetworkAccessManager m_network;
    std::unique_ptr<engine::ToolRegistry> m_tools;
    engine::EngineServices m_services;
    engine::ExecuteRequest m_request;
    std::unique_ptr<engine::RunContext> m_ctx;
};

} // namespace ph::test
