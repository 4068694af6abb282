#pragma once

#include "browser/PageEngine.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QStringList>

#include <memory>

namespace ph {
class BrowserLease;
namespace engine {
class LeasedTab;
}
} // namespace ph

namespace ph::cloud {

// One thing a scrape's page does between its load and its read: Firecrawl's actions
// (docs/api/firecrawl.md#actions), done through the page agent's act() as the engine's
// tools do them.
struct PageStep
{
    enum class Kind { Pause, WaitFor, Click, Write, Press, Scroll, Script, Snapshot };
    Kind kind = Kind::Pause;
    QString field;    // where the caller asked for it ("actions[2]"): its errors name it
    QString selector; // Click and WaitFor; Scroll's optional element
    QString text;     // Write: the text; Press: the key; Scroll: the direction; Script: it
    int ms = 0;       // Pause
    bool all = false; // Click: every element the selector matches
};

// What a page does before it is read: the steps in order, then the tag filters
// (Firecrawl's includeTags / excludeTags: CSS selectors applied to the document).
struct PageWork
{
    QList<PageStep> steps;
    QStringList includeTags;
    QStringList excludeTags;
    // Not a step: extra request headers for the page's navigation (NavigateOptions).
    HeaderList headers;
    // Not a step: the page is a phone's (BrowserLease::emulateMobile) before it loads.
    bool mobile = false;

    bool isEmpty() const
    {
        return steps.isEmpty() && includeTags.isEmpty() && excludeTags.isEmpty();
    }
    // Whether the steps run a caller's script (which needs a grant).
    bool runsScripts() const;
    // A stable text of the work, for cache keys.
    QJsonArray toJson() const;
};

// Does a PageWork on a loaded page, step after step, and stops at the first step that
// fails: a selector that matches nothing is an error naming the step, never a skip.
// The lease stays its owner's (ScrapeJob); the owner deletes this object before it
// releases the lease.
class PageSteps : public QObject
{
    Q_OBJECT
public:
    // `stepTimeoutMs`: how long a step may wait (for its selector, for the load it started).
    PageSteps(BrowserLease &lease, PageWork work, int stepTimeoutMs, QObject *parent = nullptr);
    ~PageSteps() override;

    void start();
    bool ok() const { return m_error.isEmpty(); }
    bool isFinished() const { return m_finished; }
    // {code: ACTION_FAILED or INVALID_SELECTOR, message, field}; empty when all went well.
    const QJsonObject &error() const { return m_error; }
    // Firecrawl's data.actions: {screenshots, scrapes: [{url, html}], javascriptReturns:
    // [{type, value}], pdfs}.
    QJsonObject outputs() const;

Q_SIGNALS:
    void finished();

private:
    void next();
    void run(const PageStep &step);
    void runScript(const PageStep &step);
    void snapshot(const PageStep &step);
    void filter();
    void fail(const QString &code, const QString &field, const QString &message);
    void done();

    std::unique_ptr<engine::LeasedTab> m_tab;
    PageWork m_work;
    int m_timeoutMs;
    int m_next = 0;
    bool m_finished = false;
    QJsonObject m_error;
    QJsonArray m_scrapes;
    QJsonArray m_returns;
};

} // namespace ph::cloud
