#pragma once

#include "EngineTypes.h"
#include "Planner.h"

#include "data/Sheet.h"
#include "net/NetworkPolicy.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace ph {
class BrowserLease;
class BrowserPool;
class Clock;
class NetworkPolicy;
class Settings;
class Store;
} // namespace ph

namespace ph {
struct NavigateOptions;
}

namespace ph::engine {

class BrowserTab;
class ToolRegistry;
class TrajectoryRepository;

// What runs share: the service's parts the engine works with.
struct EngineServices
{
    Store &store;
    Settings &settings;
    BrowserPool &pool;
    NetworkPolicy &policy;
    QNetworkAccessManager &network;
    ToolRegistry &tools;
    TrajectoryRepository &trajectories;
};

// One phase's working state, handed to the planner and to every tool call: the
// request, the browser tab (leased on first use, kept across steps), the in-memory
// sheets, usage, warnings, generated files and the answers collected so far.
class RunContext : public QObject, public PlanningContext
{
    Q_OBJECT
public:
    RunContext(EngineServices &services, const ExecuteRequest &request, QString trajectoryId,
               int phase, QString keyId, QString requestId, QObject *parent = nullptr);
    ~RunContext() override;

    EngineServices &services() { return m_services; }
    const ExecuteRequest &request() const override { return m_request; }
    QString trajectoryId() const { return m_trajectoryId; }
    int phase() const { return m_phase; }
    QString keyId() const { return m_keyId; }
    QString requestId() const { return m_requestId; }
    // What the run's pages and fetches may reach: its key's grant (NetworkPolicy).
    const EgressGrant &grant() const { return m_grant; }
    // The run's own fetcher for inputs (file_urls, image_urls, dataInputs[].url): its
    // own cookie jar and auth cache, every request and redirect through the egress
    // proxy with the run's grant. Created on first use.
    QNetworkAccessManager &fetcher();

    // The run's tab: leased on first use (`ready` from the event loop), then reused.
    void tab(std::function<void(BrowserTab *tab, const QString &error)> ready);
    BrowserTab *currentTab() const { return m_tab.get(); }
    bool hasTab() const { return m_tab != nullptr; }
    // Gives the page back to the pool, billing its browser time.
    void releaseTab();
    // Billing of browser time stops while the run waits for input and resumes after.
    void pauseClock();
    void resumeClock();

    Usage &usage() { return m_usage; }
    // Usage since the last call, with the tab's browser time up to now.
    Usage takeUsage();
    QStringList &warnings() override { return m_warnings; }
    QList<GeneratedFile> &files() { return m_files; }
    QJsonObject &answers() override { return m_answers; }
    // Texts of file_urls (PDF, text) given to the planner as context.
    QList<QPair<QString, QString>> &documents() override { return m_documents; }
    // image_urls as data: URLs, for the LLM planner.
    QStringList &images() override { return m_images; }
    // The in-memory sheets: dataInputs, tabular file_urls and what the sheet tools made.
    QList<data::Sheet> &sheets() override { return m_sheets; }
    const ToolRegistry &tools() const override { return m_services.tools; }
    // Adds a sheet, its title made unique (" (2)" …); returns its index.
    int addSheet(data::Sheet sheet);
    // The sheet a tool argument names: a title (exact, then case-insensitive) or a
    // 0-based index; null/absent: the first sheet. -1 when there is none such.
    int findSheet(const QJsonValue &ref) const;

    bool isCancelled() const { return m_cancelled; }
    void cancel() { m_cancelled = true; }

    int navigationTimeoutMs() const;
    // How the run's navigations wait (settings.extraction).
    NavigateOptions navigateOptions() const;

private:
    // The run's page arrived (null: it could not be had, for `error`).
    void granted(std::unique_ptr<BrowserLease> lease, const QString &error);

    EngineServices &m_services;
    const ExecuteRequest &m_request;
    QString m_trajectoryId;
    int m_phase;
    QString m_keyId;
    QString m_requestId;
    EgressGrant m_grant;
    QNetworkAccessManager *m_fetcher = nullptr;
    std::unique_ptr<BrowserTab> m_tab;
    bool m_leasing = false;
    QList<std::function<void(BrowserTab *, const QString &)>> m_waiting;
    QElapsedTimer m_tabClock;
    qint64 m_tabMs = 0;
    bool m_clockRunning = false;
    Usage m_usage;
    QStringList m_warnings;
    QList<GeneratedFile> m_files;
    QJsonObject m_answers;
    QList<QPair<QString, QString>> m_documents;
    QStringList m_images;
    QList<data::Sheet> m_sheets;
    bool m_cancelled = false;
};

} // namespace ph::engine
