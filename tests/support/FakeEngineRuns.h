#pragma once

// An EngineRuns for the unit tests of a2w/EngineMirror and its users: it records the
// requests it is given and tells the state the test sets, typed, as the run core would.
#include "a2w/EngineMirror.h"
#include "engine/ResponseBuilder.h"

#include <QHash>
#include <QList>

class FakeEngineRuns : public ph::a2w::EngineRuns
{
public:
    QList<ph::engine::ExecuteRequest> started;
    QStringList cancelled;
    QHash<QString, ph::engine::RunSnapshot> states;
    int next = 0;

    QString start(const ph::engine::ExecuteRequest &request, const QString &) override
    {
        started << request;
        const QString id =
            request.historyContinue ? request.trajectoryId : QStringLiteral("traj_%1").arg(++next);
        // Started or continued, the run executes (until the test moves it on).
        ph::engine::RunSnapshot executing;
        executing.status = ph::engine::RunStatus::Executing;
        executing.steps = states.value(id).steps;
        states.insert(id, executing);
        return id;
    }
    std::optional<ph::engine::RunSnapshot> snapshot(const QString &trajectoryId,
                                                    const QString &) const override
    {
        if (!states.contains(trajectoryId))
            return std::nullopt;
        return states.value(trajectoryId);
    }
    void cancel(const QString &trajectoryId, const QString &, const QString &) override
    {
        cancelled << trajectoryId;
    }
    // The engine run `trajectoryId` moved to `state`, and says so.
    void move(const QString &trajectoryId, const ph::engine::RunSnapshot &state)
    {
        states.insert(trajectoryId, state);
        Q_EMIT changed(trajectoryId);
    }
};

#include "A2wWorld.h"

#include "a2w/Delegations.h"
#include "a2w/ParkedRuns.h"
#include "a2w/SiteCapabilities.h"
#include "core/ApiKeyService.h"
#include "net/NetworkPolicy.h"

// A2wWorld with the parts that follow engine runs: the mirror on a FakeEngineRuns, the
// parked runs and the delegations they use.
struct A2wEngineWorld : A2wWorld
{
    std::unique_ptr<ph::ApiKeyService> keys;
    ph::NetworkPolicy policy;
    std::unique_ptr<ph::a2w::SiteCapabilities> capabilities;
    std::unique_ptr<ph::a2w::Delegations> delegations;
    FakeEngineRuns engine;
    std::unique_ptr<ph::a2w::EngineMirror> mirror;
    std::unique_ptr<ph::a2w::ParkedRuns> parked;

    bool openEngine(const QJsonObject &config = {})
    {
        if (!open(config))
            return false;
        keys = std::make_unique<ph::ApiKeyService>(*store);
        capabilities = std::make_unique<ph::a2w::SiteCapabilities>(*store, *sites);
        delegations =
            std::make_unique<ph::a2w::Delegations>(*store, *repo, *recorder, *capabilities);
        mirror = std::make_unique<ph::a2w::EngineMirror>(*store, *settings, policy, *sites, *keys,
                                                         *repo, *recorder, *delegations, engine);
        parked =
            std::make_unique<ph::a2w::ParkedRuns>(*store, *settings, *repo, *recorder, *mirror);
        return true;
    }
    ~A2wEngineWorld()
    {
        parked.reset();
        mirror.reset();
    }

    // A cloud run started on the fake engine (trajectory traj_1, …).
    ph::a2w::Run started(const QString &task = QStringLiteral("find the cheapest kettle"))
    {
        ph::a2w::Run run = addRun(ph::a2w::Status::pending);
        mirror->start(run, task);
        return *repo->find(run.id);
    }

    static ph::engine::RunSnapshot state(ph::engine::RunStatus status,
                                         const QList<ph::engine::Question> &questions = {},
                                         const QString &text = {}, const QString &error = {})
    {
        ph::engine::RunSnapshot s;
        s.status = status;
        s.questions = questions;
        s.text = text;
        s.error = error;
        return s;
    }
    static ph::engine::Question question(const QString &key, const QString &text)
    {
        ph::engine::Question q;
        q.key = key;
        q.question = text;
        return q;
    }
};
