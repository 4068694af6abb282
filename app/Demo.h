#pragma once

#include "http/Route.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace ph {

class Service;

// Demo mode (`--demo`, docs/demo.md): a small shop under /demo/ served by Pilothouse
// itself (the pages of docs/examples), and a seeder that fills an empty store through
// the real API: runs in every state (one waiting for input keeps its page live),
// delivered and failed callbacks, a site with a pending proposal, a saved tool and a
// trigger. A newcomer sees a living console at once.
class DemoSite : public QObject, public http::Controller
{
    Q_OBJECT
public:
    explicit DemoSite(QObject *parent = nullptr);
    QList<http::Route> routes() override;

private:
    void page(http::Exchange &ex);
    void hook(http::Exchange &ex);
};

class DemoSeeder : public QObject
{
    Q_OBJECT
public:
    // `apiKey` is the owner key's secret (minted at this first start).
    DemoSeeder(Service &service, QString apiKey, QObject *parent = nullptr);
    ~DemoSeeder() override;

    // True when the store holds no run yet (the only time seeding happens).
    static bool storeIsEmpty(Service &service);
    void start();

Q_SIGNALS:
    // Every step was sent; `summary` says what was made.
    void finished(const QString &summary);

private:
    using Next = std::function<void(const QJsonObject &)>;
    void call(const QByteArray &method, const QString &path, const QJsonObject &body,
              const QString &key, int waitSeconds, Next next);
    // The seeding is a chain of steps, each calling the next when its answer came: first
    // kRunSteps runs in their states, then the site, its proposal, the saved tool and the
    // failed callback.
    static constexpr int kRunSteps = 6;
    void step(int index);
    void startRun(int index);
    void seedSite(int index);
    void proposeChange(int index);
    void saveTool(int index);
    void failCallback();

    Service &m_service;
    QString m_key;
    std::unique_ptr<QNetworkAccessManager> m_network;
    QString m_siteId;
    QString m_connectKey;
    QString m_cancelId;
};

} // namespace ph
