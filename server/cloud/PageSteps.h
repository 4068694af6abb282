#pragma once

#include "browser/PageEngine.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QStringList>

#include <functional>
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
    enum class Kind { Pause, WaitFor, Click, Write, Press, Scroll, Script, Snapshot, Screenshot };
    Kind kind = Kind::Pause;
    QString field;    // where the caller asked for it ("actions[2]"): its errors name it
    QString selector; // Click and WaitFor; Scroll's optional element
    QString text;     // Write: the text; Press: the key; Scroll: the direction; Script: it
    int ms = 0;       // Pause
    bool all = false; // Click: every element the selector matches; Screenshot: full page
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
    // Not a step: a picture of the page after the steps, before the tag filters (the
    // Firecrawl API's screenshot format): the result's `screenshot`.
    enum class Shot { None, Viewport, FullPage };
    Shot screenshot = Shot::None;
    // Where pictures go (the screenshot format's, the screenshot steps'): stores the PNG
    // and answers the URL it is served at, or empty when it could not be kept. Unset: the
    // work takes no pictures (a step that would is an error).
    std::function<QString(const QByteArray &png)> keepImage;
    // Not a step: the data shaped like this JSON Schema, read from the page after the steps
    // and the picture, before the tag filters, by the page agent's extract (the rule
    // planner's reading: JSON-LD, microdata, tables, label/value pairs, lists): the
    // result's `json` {data, missing, warnings}. Empty: none.
    QJsonObject extractSchema;

    bool isEmpty() const
    {
        return steps.isEmpty() && includeTags.isEmpty() && excludeTags.isEmpty() &&
               screenshot == Shot::None && extractSchema.isEmpty();
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
    // The screenshot format's picture, as keepImage served it; empty without one.
    const QString &screenshot() const { return m_screenshot; }
    // What extractSchema read: {data, missing, warnings}; empty without one.
    const QJsonObject &extracted() const { return m_extracted; }

Q_SIGNALS:
    void finished();

private:
    void next();
    void run(const PageStep &step);
    void runScript(const PageStep &step);
    void snapshot(const PageStep &step);
    // A picture of the page (a step's, or the format's when `step` is null).
    void capture(const PageStep *step);
    void extract();
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
    QJsonArray m_screenshots;
    QString m_screenshot;
    bool m_shotTaken = false;
    bool m_extractDone = false;
    QJsonObject m_extracted;
};

} // namespace ph::cloud
