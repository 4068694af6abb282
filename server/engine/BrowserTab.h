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

// A leased browser page as the engine's tools use it: navigation, the page agent's
// functions (act, extract, snapshot, loginForm, searchBox, nextPage), and waiting for
// the navigation an action may start.
class BrowserTab : public QObject
{
    Q_OBJECT
public:
    explicit BrowserTab(std::unique_ptr<BrowserLease> lease, QObject *parent = nullptr);
    ~BrowserTab() override;

    BrowserLease &lease() { return *m_lease; }
    QUrl url() const;
    int pagesLoaded() const { return m_pagesLoaded; }

    void navigate(const QUrl &url, int timeoutMs,
                  std::function<void(const NavigationResult &)> done);
    // Calls window.__pilothouse.<function>(<argument>) in the agent's world; the agent
    // answers with a JSON string, handed back parsed.
    void call(const QString &function, const QJsonValue &argument, int timeoutMs,
              std::function<void(bool ok, const QJsonValue &result, const QString &error)> done);
    // Acts, then waits for the document change the action started, if any.
    void act(const QJsonObject &action, int timeoutMs,
             std::function<void(const ActOutcome &)> done);
    // Waits until a CSS selector matches or a text appears.
    void waitFor(const QJsonObject &condition, int timeoutMs,
                 std::function<void(bool ok, const QString &error)> done);
    void snapshot(const QJsonObject &options, std::function<void(const SnapshotResult &)> done);

private:
    std::unique_ptr<BrowserLease> m_lease;
    int m_pagesLoaded = 0;
};

} // namespace ph::engine
