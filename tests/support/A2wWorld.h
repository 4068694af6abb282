#pragma once

// What the unit tests of A2wService's parts (tst_a2w<part>) share: a real store in a
// temporary directory on a manual clock, an enabled site (shop.test) with its
// configuration, the A2W repository and the recorder every part changes runs through.
#include "a2w/A2wRepository.h"
#include "a2w/A2wRequest.h"
#include "a2w/RunRecorder.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "sites/AnalyticsRepository.h"
#include "sites/SiteRepository.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <memory>

struct A2wWorld
{
    QTemporaryDir dir;
    ph::ManualClock clock{1'800'000'000'000};
    std::unique_ptr<ph::Store> store;
    std::unique_ptr<ph::Settings> settings;
    std::unique_ptr<ph::sites::SiteRepository> sites;
    std::unique_ptr<ph::sites::AnalyticsRepository> analytics;
    std::unique_ptr<ph::a2w::A2wRepository> repo;
    std::unique_ptr<ph::a2w::RunRecorder> recorder;
    QString siteId;
    QList<ph::a2w::Event> events;

    // `config`: the site's stored configuration (merged over the defaults).
    bool open(const QJsonObject &config = {})
    {
        store = std::make_unique<ph::Store>(dir.filePath(QStringLiteral("a2w.db")), clock);
        QString error;
        if (!store->open(&error)) {
            qWarning() << error;
            return false;
        }
        settings = std::make_unique<ph::Settings>(*store);
        sites = std::make_unique<ph::sites::SiteRepository>(*store);
        analytics = std::make_unique<ph::sites::AnalyticsRepository>(*store, *sites);
        repo = std::make_unique<ph::a2w::A2wRepository>(*store);
        recorder = std::make_unique<ph::a2w::RunRecorder>(*store, *repo, *analytics);
        QObject::connect(recorder.get(), &ph::a2w::RunRecorder::eventAdded,
                         [this](const QString &, const ph::a2w::Event &e) { events << e; });
        siteId = sites->createSite(QStringLiteral("Shop"), QStringLiteral("owner")).id;
        ph::sites::SiteRepository::NewKey key;
        key.siteId = siteId;
        key.label = QStringLiteral("web");
        key.environment = QStringLiteral("production");
        key.allowedDomains = {QStringLiteral("shop.test")};
        sites->createKey(key);
        sites->writeConfig(siteId, config, QStringLiteral("owner"));
        return true;
    }

    static QJsonObject json(const char *text)
    {
        return QJsonDocument::fromJson(QByteArray(text)).object();
    }

    // A run of the site stored with `status` (and its tokens; its browser receipt made
    // by `receiptOf` from the run's id when given).
    ph::a2w::Run addRun(const QString &status, const QString &execution = QStringLiteral("cloud"),
                        const std::function<QString(const QString &)> &receiptOf = {})
    {
        ph::a2w::Run run;
        run.id = ph::Ids::make(QStringLiteral("a2w"));
        run.workflowId = ph::Ids::make(QStringLiteral("wf"));
        run.siteId = siteId;
        run.url = QStringLiteral("https://shop.test/");
        run.host = QStringLiteral("shop.test");
        run.kind = QStringLiteral("prompt");
        run.selector = QStringLiteral("find the cheapest kettle");
        run.execution = execution;
        run.clientAddress = QStringLiteral("192.0.2.1");
        run.status = status;
        run.trust = ph::a2w::Trust::anonymous;
        run.contract = QStringLiteral("a2w");
        run.createdAt = run.updatedAt = clock.nowMs();
        store->transaction([&] {
            repo->insertWorkflow(run.workflowId, ph::a2w::hashToken(run.id + QStringLiteral("w")),
                                 run.id);
            repo->insertRun(
                run, ph::a2w::hashToken(run.id + QStringLiteral("t")),
                ph::a2w::hashToken(receiptOf ? receiptOf(run.id) : run.id + QStringLiteral("r")));
        });
        return run;
    }

    QStringList eventTypes() const
    {
        QStringList out;
        for (const ph::a2w::Event &e : events)
            out << e.type;
        return out;
    }
};
