#pragma once

#include "browser/BrowserLease.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QObject>

#include <functional>
#include <memory>

namespace ph::engine {

// What an action on a tab came to.
struct ActOutcome
{
    bool ok = false;
    QString error;
    QJsonObject detail; // the page agent's answer (element acted on, value …)
    bool navigated = false;
    NavigationResult navigation; // when the action led to a new document
};

// The page agent's answer to act(): {"ok": bool, "error": text, …} into `outcome`
// (ok, error, detail). Anything else is a failure with a message.
void readActAnswer(const QJsonValue &answer, ActOutcome *outcome);

// A tab as the engine's tools use it: navigation, the page agent's functions (act,
// extract, snapshot, loginForm, searchBox, nextPage), and waiting for the navigation an
// action may start. LeasedTab is a page of the pool; the runtime's tab is a visitor's
// own page, driven through the embed SDK (runtime/RemoteTab).
class BrowserTab : public QObject
{
    Q_OBJECT
public:
    explicit BrowserTab(QObject *parent = nullptr)
        : QObject(parent)
    {}

    // The pool page behind the tab; null for a tab in a visitor's browser.
    virtual BrowserLease *lease() { return nullptr; }
    virtual QUrl url() const = 0;
    int pagesLoaded() const { return m_pagesLoaded; }

    virtual void navigate(const QUrl &url, int timeoutMs,
                          std::function<void(const NavigationResult &)> done) = 0;
    // Calls window.__pilothouse.<function>(<argument>) in the agent's world; the agent
    // answers with a JSON string, handed back parsed.
    virtual void
    call(const QString &function, const QJsonValue &argument, int timeoutMs,
         std::function<void(bool ok, const QJsonValue &result, const QString &error)> done) = 0;
    // Acts, then waits for the document change the action started, if any.
    virtual void act(const QJsonObject &action, int timeoutMs,
                     std::function<void(const ActOutcome &)> done) = 0;
    // Waits until a CSS selector matches or a text appears.
    virtual void waitFor(const QJsonObject &condition, int timeoutMs,
                         std::function<void(bool ok, const QString &error)> done) = 0;
    virtual void snapshot(const QJsonObject &options,
                          std::function<void(const SnapshotResult &)> done) = 0;

protected:
    int m_pagesLoaded = 0;
};

// A leased page of the pool.
class LeasedTab final : public BrowserTab
{
    Q_OBJECT
public:
    // `defaults`: how every navigation waits (the run's settings.extraction).
    explicit LeasedTab(std::unique_ptr<BrowserLease> lease, NavigateOptions defaults = {},
                       QObject *parent = nullptr);
    ~LeasedTab() override;
    // A tab over a lease someone else keeps (a scrape's page between its load and its
    // read): the lease outlives the tab and is not released with it.
    static std::unique_ptr<LeasedTab> borrow(BrowserLease &lease, QObject *parent = nullptr);

    BrowserLease *lease() override { return m_lease.get(); }
    QUrl url() const override;
    void navigate(const QUrl &url, int timeoutMs,
                  std::function<void(const NavigationResult &)> done) override;
    void call(
        const QString &function, const QJsonValue &argument, int timeoutMs,
        std::function<void(bool ok, const QJsonValue &result, const QString &error)> done) override;
    void act(const QJsonObject &action, int timeoutMs,
             std::function<void(const ActOutcome &)> done) override;
    void waitFor(const QJsonObject &condition, int timeoutMs,
                 std::function<void(bool ok, const QString &error)> done) override;
    void snapshot(const QJsonObject &options,
                  std::function<void(const SnapshotResult &)> done) override;

private:
    std::unique_ptr<BrowserLease> m_lease;
    NavigateOptions m_defaults;
    bool m_borrowed = false;
};

} // namespace ph::engine
