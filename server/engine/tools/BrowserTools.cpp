// act_on_tab, crawl_and_extract_from_tab and ask_user.
#include "BrowserTools.h"

#include "engine/BrowserTab.h"
#include "engine/RunContext.h"

#include "browser/BrowserLease.h"
#include "core/Settings.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QRegularExpression>
#include <QSet>
#include <QTimer>

#include <memory>

namespace ph::engine {

namespace {

constexpr int kObserveMaxNodes = 800;
constexpr int kObserveMaxChars = 12000;

QString policyRefusal(RunContext &ctx, const QUrl &url)
{
    const QString sameOrigin = ctx.request().sameOrigin;
    if (!sameOrigin.isEmpty() && NetworkPolicy::originOf(url) != sameOrigin)
        return QStringLiteral("%1 leaves %2: the crossHost policy (same_host) keeps this run "
                              "on that origin")
            .arg(url.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery), sameOrigin);
    return NetworkPolicy::refusal(url, ctx.grant());
}

// Adds the page's aria snapshot to a tool result, for planners that read the page.
// The tree's caps and scope come from the run's settings.extraction.accessibilityTree.
void observe(BrowserTab *tab, const ExtractionConfig &extraction, QJsonObject output,
             std::function<void(QJsonObject)> done)
{
    QJsonObject options{{QStringLiteral("formats"), QJsonArray{QStringLiteral("ariaSnapshot")}},
                        {QStringLiteral("maxNodes"),
                         extraction.treeMaxNodes > 0 ? extraction.treeMaxNodes : kObserveMaxNodes}};
    if (!extraction.treeScope.isEmpty())
        options.insert(QStringLiteral("scope"), extraction.treeScope);
    QPointer<BrowserTab> guard(tab);
    // A scoped tree narrows what the planner is shown: the page's structures then stay out.
    const bool scoped = !extraction.treeScope.isEmpty();
    tab->snapshot(options, [guard, scoped, output, done](const SnapshotResult &snap) mutable {
        if (snap.ok) {
            QString aria = snap.data.value(QStringLiteral("ariaSnapshot")).toString();
            if (aria.size() > kObserveMaxChars)
                aria = aria.left(kObserveMaxChars) + QStringLiteral("\n… (cut)");
            output.insert(QStringLiteral("title"), snap.data.value(QStringLiteral("title")));
            output.insert(QStringLiteral("ariaSnapshot"), aria);
        }
        if (!snap.ok || !guard || scoped) {
            done(output);
            return;
        }
        // The repeated structures the page agent finds (lists, tables, cards …), one line
        // each: what a planner reading the page can extract (issue 33).
        guard->call(QStringLiteral("structures"), QJsonValue(), 10000,
                    [output, done](bool ok, const QJsonValue &found, const QString &) mutable {
                        if (ok && found.isArray() && !found.toArray().isEmpty())
                            output.insert(QStringLiteral("structures"), found);
                        done(output);
                    });
    });
}

QJsonObject navigationJson(const NavigationResult &nav)
{
    QJsonObject o{{QStringLiteral("url"), nav.finalUrl.toString()}};
    if (nav.httpStatus > 0)
        o.insert(QStringLiteral("httpStatus"), nav.httpStatus);
    if (!nav.ok && !nav.errorCode.isEmpty())
        o.insert(QStringLiteral("error"), nav.errorJson());
    return o;
}

} // namespace

// ------------------------------------------------------------------------ act_on_tab

ActOnTabTool::ActOnTabTool()
    : Tool({QStringLiteral("act_on_tab"),
            QStringLiteral(
                "Act on the browser tab: navigate to a URL, click, type, select an option, "
                "check or uncheck, press a key, scroll, wait for a text or selector, fill the "
                "page's search box (search), or read the page (snapshot, login_form). Targets "
                "are element ids from the snapshot (\"e12\") or accessible names (\"Sign in\"). "
                "Returns the page's aria snapshot after the action unless observe is false."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "action": {"type": "string", "enum": ["navigate", "click", "type", "select", "check", "uncheck",
                   "press", "scroll", "wait", "search", "submit", "snapshot", "login_form"]},
        "target": {"description": "element id (e12) or accessible name", "type": "string"},
        "role": {"type": "string", "description": "narrow a name target to a role (button, link, textbox …)"},
        "url": {"type": "string"},
        "text": {"type": "string", "description": "text to type, text to wait for, or the search query"},
        "option": {"type": "string"},
        "key": {"type": "string", "description": "Enter, Tab, Escape, ArrowDown …"},
        "direction": {"type": "string", "enum": ["down", "up", "top", "bottom"]},
        "selector": {"type": "string", "description": "CSS selector to wait for"},
        "ms": {"type": "integer", "minimum": 0, "maximum": 60000},
        "submit": {"type": "boolean", "description": "press Enter after typing"},
        "observe": {"type": "boolean", "description": "return the page's aria snapshot afterwards (default true)"}
      },
      "required": ["action"]
    })json"),
            Tool::Uses::Tab})
{}

namespace {

// One act_on_tab call with its tab: every action ends in finish() (the output, with the
// page's aria snapshot unless observe is false) or in a failure.
struct TabCall
{
    QPointer<RunContext> ctx;
    BrowserTab *tab = nullptr;
    QJsonObject args;
    QString action;
    int timeout = 0;
    bool wantsObservation = true;
    std::function<void(ToolResult)> done;

    void fail(const QString &error) const { done(ToolResult::failure(error)); }
    void finish(const QJsonObject &output, int pages, const QString &summary) const
    {
        auto deliver = [done = done, pages, summary](QJsonObject out) {
            ToolResult r;
            r.output = out;
            r.summary = summary;
            r.usage.pages = pages;
            done(r);
        };
        if (wantsObservation && ctx)
            observe(tab, ctx->request().runSettings.extraction, output, deliver);
        else
            deliver(output);
    }
};
using Call = std::shared_ptr<const TabCall>;

void navigateAction(const Call &c)
{
    const QUrl url(c->args.value(QStringLiteral("url")).toString());
    if (const QString refusal = policyRefusal(*c->ctx, url); !refusal.isEmpty()) {
        c->fail(QStringLiteral("the URL %1").arg(refusal));
        return;
    }
    c->ctx->usage().pages += 1; // billed when it starts: a cut-off load is still work
    c->tab->navigate(url, c->timeout, [c](const NavigationResult &nav) {
        if (!nav.ok && nav.errorCode != QLatin1String("HTTP_STATUS")) {
            ToolResult r =
                ToolResult::failure(QStringLiteral("%1: %2").arg(nav.errorCode, nav.errorMessage));
            r.usage.pages = 1;
            r.output = navigationJson(nav);
            c->done(r);
            return;
        }
        c->finish(navigationJson(nav), 1, QStringLiteral("opened %1").arg(nav.finalUrl.toString()));
    });
}

void waitAction(const Call &c)
{
    QJsonObject condition;
    if (c->args.contains(QStringLiteral("selector")))
        condition.insert(QStringLiteral("selector"), c->args.value(QStringLiteral("selector")));
    else if (c->args.contains(QStringLiteral("text")))
        condition.insert(QStringLiteral("text"), c->args.value(QStringLiteral("text")));
    if (condition.isEmpty()) {
        const int ms = qBound(0, c->args.value(QStringLiteral("ms")).toInt(1000), 60000);
        QTimer::singleShot(ms, c->tab, [c, ms] {
            c->finish({{QStringLiteral("waitedMs"), ms}}, 0,
                      QStringLiteral("waited %1 ms").arg(ms));
        });
        return;
    }
    c->tab->waitFor(
        condition, c->args.value(QStringLiteral("ms")).toInt(c->timeout),
        [c, condition](bool ok, const QString &err) {
            if (!ok)
                c->fail(err);
            else
                c->finish({{QStringLiteral("found"), condition}}, 0, QStringLiteral("found it"));
        });
}

void snapshotAction(const Call &c)
{
    c->finish({{QStringLiteral("url"), c->tab->url().toString()}}, 0,
              QStringLiteral("read the page"));
}

void loginFormAction(const Call &c)
{
    c->tab->call(QStringLiteral("loginForm"), QJsonValue(), 10000,
                 [c](bool ok, const QJsonValue &form, const QString &err) {
                     if (!ok) {
                         c->fail(err);
                         return;
                     }
                     ToolResult r;
                     r.output = QJsonObject{{QStringLiteral("loginForm"), form},
                                            {QStringLiteral("url"), c->tab->url().toString()}};
                     r.summary = form.isNull() ? QStringLiteral("no login form on the page")
                                               : QStringLiteral("the page has a login form");
                     c->done(r);
                 });
}

// The page agent's act() for an element action, and what it came to.
void perform(const Call &c, const QJsonObject &act)
{
    const QUrl before = c->tab->url();
    c->tab->act(act, c->timeout, [c, before](const ActOutcome &o) {
        if (o.navigated && c->ctx)
            c->ctx->usage().pages += 1;
        if (!o.ok) {
            c->fail(o.error);
            return;
        }
        // A link or form that took the run to another host, under same_host: the step
        // fails and the tab goes back to where it was.
        if (o.navigated && c->ctx) {
            const QString refusal = policyRefusal(*c->ctx, c->tab->url());
            if (!refusal.isEmpty()) {
                c->tab->navigate(before, c->timeout, [c, refusal](const NavigationResult &) {
                    c->fail(QStringLiteral("the action's target %1").arg(refusal));
                });
                return;
            }
        }
        QJsonObject out{{QStringLiteral("ok"), true},
                        {QStringLiteral("url"), c->tab->url().toString()},
                        {QStringLiteral("navigated"), o.navigated}};
        for (const QString &key : {QStringLiteral("element"), QStringLiteral("selected")}) {
            if (o.detail.contains(key))
                out.insert(key, o.detail.value(key));
        }
        if (o.navigated && o.navigation.httpStatus > 0)
            out.insert(QStringLiteral("httpStatus"), o.navigation.httpStatus);
        const QString name = o.detail.value(QStringLiteral("element"))
                                 .toObject()
                                 .value(QStringLiteral("name"))
                                 .toString();
        c->finish(out, o.navigated ? 1 : 0,
                  QStringLiteral("%1%2%3").arg(
                      c->action, name.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(name),
                      o.navigated ? QStringLiteral(", now at %1").arg(c->tab->url().toString())
                                  : QString()));
    });
}

void personGate(const Call &c, const QJsonObject &act);
void confirmedAction(const Call &c, const QJsonObject &act);

// click, type, select, check, uncheck, press, scroll, submit: on the element the target
// names (an element id "e12", else an accessible name, narrowed by role).
void elementAction(const Call &c)
{
    QJsonObject act{{QStringLiteral("action"), c->action}};
    for (const QString &k :
         {QStringLiteral("text"), QStringLiteral("option"), QStringLiteral("key"),
          QStringLiteral("direction"), QStringLiteral("submit")}) {
        if (c->args.contains(k))
            act.insert(k, c->args.value(k));
    }
    if (c->args.contains(QStringLiteral("target"))) {
        const QString target = c->args.value(QStringLiteral("target")).toString();
        QJsonObject t = QRegularExpression(QStringLiteral("^e\\d+$")).match(target).hasMatch()
                            ? QJsonObject{{QStringLiteral("id"), target}}
                            : QJsonObject{{QStringLiteral("name"), target}};
        if (c->args.contains(QStringLiteral("role")))
            t.insert(QStringLiteral("role"), c->args.value(QStringLiteral("role")));
        act.insert(QStringLiteral("target"), t);
    }
    const bool mightSubmit =
        c->action == QLatin1String("click") || c->action == QLatin1String("press") ||
        c->action == QLatin1String("submit") ||
        (c->action == QLatin1String("type") && c->args.value(QStringLiteral("submit")).toBool());
    // A visiting agent's run (A2W) looks first at what the page asks of a person.
    if (mightSubmit && c->ctx && c->ctx->request().browser.isVisitor()) {
        personGate(c, act);
        return;
    }
    confirmedAction(c, act);
}

// The page's gate (pageagent gates.js: human verification, a payment step, terms, an
// account to link, an offer to claim) before an action that may submit: the run waits
// for a person (question key "gate_<reason>", answered "done" once they have acted),
// then goes on where it was. Nothing is solved or accepted for them.
void personGate(const Call &c, const QJsonObject &act)
{
    c->tab->call(QStringLiteral("gate"), QJsonValue(), 10000,
                 [c, act](bool ok, const QJsonValue &v, const QString &) {
                     const QJsonObject gate = v.toObject();
                     const QString reason = gate.value(QStringLiteral("reason")).toString();
                     if (!c->ctx || !ok || reason.isEmpty()) {
                         confirmedAction(c, act);
                         return;
                     }
                     const QString key = QStringLiteral("gate_") + reason;
                     QJsonObject &answers = c->ctx->answers();
                     if (answers.value(key).toString() == QLatin1String("done")) {
                         answers.remove(key);
                         perform(c, act); // the person took this step: no second confirmation
                         return;
                     }
                     Question q;
                     q.key = key;
                     q.question = gate.value(QStringLiteral("message")).toString().left(500);
                     q.options = {QStringLiteral("done")};
                     ToolResult r;
                     // confirmationRequired: the step did nothing, a replay skips it (AgentRun).
                     r.output = QJsonObject{{QStringLiteral("confirmationRequired"), true},
                                            {QStringLiteral("gate"), gate}};
                     r.summary = QStringLiteral("waiting for a person: %1").arg(reason);
                     r.pause = true;
                     r.questions = {q};
                     c->done(r);
                 });
}

void confirmedAction(const Call &c, const QJsonObject &act)
{
    const bool mightSubmit =
        c->action == QLatin1String("click") || c->action == QLatin1String("press") ||
        c->action == QLatin1String("submit") ||
        (c->action == QLatin1String("type") && c->args.value(QStringLiteral("submit")).toBool());
    if (!mightSubmit || !c->ctx || !c->ctx->request().confirmSubmits) {
        perform(c, act);
        return;
    }
    // The confirmation gate: a form sent by POST (an order, a booking, a message) waits
    // for a person, once per action. The page decides what the form is, never the
    // planner's arguments: a sign-in form (a password or one-time code field) passes.
    c->tab->call(QStringLiteral("submitTarget"), act, 10000,
                 [c, act](bool ok, const QJsonValue &v, const QString &) {
                     const QJsonObject s = v.toObject();
                     if (!c->ctx || !ok || !s.value(QStringLiteral("submits")).toBool() ||
                         s.value(QStringLiteral("signIn")).toBool() ||
                         s.value(QStringLiteral("method")).toString() == QLatin1String("get")) {
                         perform(c, act);
                         return;
                     }
                     QJsonObject &answers = c->ctx->answers();
                     if (answers.value(QStringLiteral("confirm_action")).toString() ==
                         QLatin1String("confirm")) {
                         answers.remove(QStringLiteral("confirm_action"));
                         perform(c, act);
                         return;
                     }
                     Question q;
                     q.key = QStringLiteral("confirm_action");
                     q.question = QStringLiteral("Confirm: \"%1\" on %2 sends a form to %3.")
                                      .arg(s.value(QStringLiteral("label")).toString(),
                                           s.value(QStringLiteral("title")).toString(),
                                           s.value(QStringLiteral("action")).toString());
                     q.options = {QStringLiteral("confirm")};
                     ToolResult r;
                     r.output = QJsonObject{{QStringLiteral("confirmationRequired"), true},
                                            {QStringLiteral("submit"), s}};
                     r.summary = QStringLiteral("waiting for a person to confirm \"%1\"")
                                     .arg(s.value(QStringLiteral("label")).toString());
                     r.pause = true;
                     r.questions = {q};
                     c->done(r);
                 });
}

// search: type the text into the page's own search box and submit it.
void searchAction(const Call &c)
{
    c->tab->call(QStringLiteral("searchBox"), QJsonValue(), 10000,
                 [c](bool ok, const QJsonValue &box, const QString &err) {
                     if (!ok || !box.isObject()) {
                         c->fail(ok ? QStringLiteral("the page has no search box") : err);
                         return;
                     }
                     perform(c, {{QStringLiteral("action"), QStringLiteral("type")},
                                 {QStringLiteral("target"),
                                  QJsonObject{{QStringLiteral("id"),
                                               box.toObject().value(QStringLiteral("id"))}}},
                                 {QStringLiteral("text"), c->args.value(QStringLiteral("text"))},
                                 {QStringLiteral("submit"), true}});
                 });
}

} // namespace

void ActOnTabTool::run(RunContext &ctx, const QJsonObject &args,
                       std::function<void(ToolResult)> done)
{
    QPointer<RunContext> guard(&ctx);
    ctx.tab([guard, args, done](BrowserTab *tab, const QString &error) {
        if (!guard)
            return;
        if (!tab) {
            done(ToolResult::failure(error));
            return;
        }
        auto call = std::make_shared<TabCall>();
        call->ctx = guard;
        call->tab = tab;
        call->args = args;
        call->action = args.value(QStringLiteral("action")).toString();
        call->timeout = guard->navigationTimeoutMs();
        call->wantsObservation = args.value(QStringLiteral("observe")).toBool(true);
        call->done = done;
        static const QHash<QString, void (*)(const Call &)> actions = {
            {QStringLiteral("navigate"), navigateAction},
            {QStringLiteral("wait"), waitAction},
            {QStringLiteral("snapshot"), snapshotAction},
            {QStringLiteral("login_form"), loginFormAction},
            {QStringLiteral("search"), searchAction},
        };
        actions.value(call->action, elementAction)(call);
    });
}

// -------------------------------------------------------- crawl_and_extract_from_tab

CrawlAndExtractTool::CrawlAndExtractTool()
    : Tool({QStringLiteral("crawl_and_extract_from_tab"),
            QStringLiteral(
                "Read the tab (optionally after opening url): with a JSON schema, extract data "
                "shaped like it from JSON-LD, microdata, meta tags, tables, label/value pairs "
                "and repeated items; without one, return the page's text and markdown. paginate "
                "follows the page's \"next\" control up to maxPages and merges the results."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "url": {"type": "string"},
        "schema": {"type": "object", "description": "JSON Schema of the data to extract"},
        "paginate": {"type": "boolean"},
        "maxPages": {"type": "integer", "minimum": 1, "maximum": 1000},
        "formats": {"type": "array", "items": {"type": "string", "enum": ["text", "markdown", "ariaSnapshot", "links"]}}
      }
    })json"),
            Tool::Uses::Tab})
{}

namespace {

// A page's data added to what the crawl has: items already collected (a page read
// again, a "load more" that repeats, an infinite scroll) are not added twice. `added`
// counts the items that were new.
QJsonValue mergeData(const QJsonValue &into, const QJsonValue &page, int *added)
{
    if (into.isUndefined() || into.isNull()) {
        *added += page.isArray() ? int(page.toArray().size()) : (page.isNull() ? 0 : 1);
        return page;
    }
    if (into.isArray() && page.isArray()) {
        QJsonArray a = into.toArray();
        for (const auto &v : page.toArray()) {
            if (a.contains(v))
                continue;
            a.append(v);
            ++*added;
        }
        return a;
    }
    if (into.isObject() && page.isObject()) {
        QJsonObject o = into.toObject();
        const QJsonObject p = page.toObject();
        for (auto it = p.begin(); it != p.end(); ++it) {
            if (!o.contains(it.key())) {
                o.insert(it.key(), it.value());
                ++*added;
            } else if (o.value(it.key()).isArray() && it.value().isArray()) {
                o.insert(it.key(), mergeData(o.value(it.key()), it.value(), added));
            }
        }
        return o;
    }
    return into;
}

// One crawl_and_extract_from_tab call: read the page (extract with the schema, or
// snapshot as text and markdown), then, while paginating, follow the page's "next" (a
// link, or a script-driven button) until the page cap, a page seen before, or no next.
// It ends once, in done().
class Crawl : public std::enable_shared_from_this<Crawl>
{
public:
    QJsonObject schema;
    bool paginate = false;
    int maxPages = 1;
    QStringList formats;
    int maxTextChars = 0; // settings.extraction.maxTextChars: the text and markdown cut here
    QPointer<RunContext> ctx;
    BrowserTab *tab = nullptr;
    int timeout = 0;
    std::function<void(ToolResult)> done;

    // Loads `start` (when given) and reads from there.
    void begin(const QUrl &start)
    {
        if (start.isEmpty()) {
            readPage();
            return;
        }
        ++loaded;
        ctx->usage().pages += 1;
        auto self = shared_from_this();
        tab->navigate(start, timeout, [self](const NavigationResult &nav) {
            if (!nav.ok && nav.errorCode != QLatin1String("HTTP_STATUS")) {
                self->fail(QStringLiteral("%1: %2").arg(nav.errorCode, nav.errorMessage));
                return;
            }
            self->startStatus = nav.httpStatus; // an error page is read, and said to be one
            self->readPage();
        });
    }

private:
    void readPage()
    {
        const QString here = tab->url().toString();
        seen.insert(here);
        auto self = shared_from_this();
        if (!schema.isEmpty()) {
            // A later page is read like the first: its list of the same kind, even when
            // it holds a single record.
            const bool later = !like.isEmpty();
            tab->call(later ? QStringLiteral("extractMore") : QStringLiteral("extract"),
                      later ? QJsonValue(QJsonObject{{QStringLiteral("schema"), schema},
                                                     {QStringLiteral("like"), like}})
                            : QJsonValue(schema),
                      20000, [self, here](bool ok, const QJsonValue &result, const QString &err) {
                          if (!ok) {
                              self->fail(err);
                              return;
                          }
                          const QJsonObject r = result.toObject();
                          int added = 0;
                          const bool first = self->pages.isEmpty();
                          self->data =
                              mergeData(self->data, r.value(QStringLiteral("data")), &added);
                          self->missing = r.value(QStringLiteral("missing")).toArray();
                          for (const QJsonValue &w : r.value(QStringLiteral("warnings")).toArray())
                              if (!self->warnings.contains(w) && self->warnings.size() < 50)
                                  self->warnings.append(w);
                          self->pages.append(QJsonObject{
                              {QStringLiteral("url"), here},
                              {QStringLiteral("sources"), r.value(QStringLiteral("sources"))}});
                          if (first)
                              self->like = r.value(QStringLiteral("sources"))
                                               .toArray()
                                               .first()
                                               .toObject()
                                               .value(QStringLiteral("source"))
                                               .toString();
                          // A page that brought nothing new ends the pagination.
                          if (!first && added == 0) {
                              self->pages.removeLast(); // not counted as a page read
                              self->finish();
                              return;
                          }
                          self->followNext(r.value(QStringLiteral("next")));
                      });
            return;
        }
        tab->snapshot(
            {{QStringLiteral("formats"), QJsonArray::fromStringList(formats)}},
            [self, here](const SnapshotResult &snap) {
                if (!snap.ok) {
                    self->fail(snap.errorMessage);
                    return;
                }
                const QString sep = self->pages.isEmpty() ? QString() : QStringLiteral("\n\n");
                self->text += sep + snap.data.value(QStringLiteral("text")).toString();
                self->markdown += sep + snap.data.value(QStringLiteral("markdown")).toString();
                self->pages.append(QJsonObject{
                    {QStringLiteral("url"), here},
                    {QStringLiteral("title"), snap.data.value(QStringLiteral("title"))}});
                if (!self->paginate) {
                    self->followNext(QJsonValue());
                    return;
                }
                // Text pages follow links and next buttons only: a "load more" or a scroll
                // would read the same text again.
                self->tab->call(QStringLiteral("nextPage"), QJsonValue(), 10000,
                                [self](bool, const QJsonValue &n, const QString &) {
                                    const QString kind =
                                        n.toObject().value(QStringLiteral("kind")).toString();
                                    self->followNext(kind == QLatin1String("more") ||
                                                             kind == QLatin1String("scroll")
                                                         ? QJsonValue()
                                                         : n);
                                });
            });
    }

    void followNext(const QJsonValue &nextControl)
    {
        if (!paginate || pages.size() >= maxPages || !nextControl.isObject()) {
            finish();
            return;
        }
        const QJsonObject control = nextControl.toObject();
        const QString href = control.value(QStringLiteral("href")).toString();
        auto self = shared_from_this();
        if (control.value(QStringLiteral("scroll")).toBool()) {
            // Infinite scroll: to the bottom, a moment for the page to load more, read.
            tab->act({{QStringLiteral("action"), QStringLiteral("scroll")},
                      {QStringLiteral("direction"), QStringLiteral("bottom")}},
                     timeout, [self](const ActOutcome &) {
                         QTimer::singleShot(700, [self] { self->readPage(); });
                     });
            return;
        }
        if (!href.isEmpty()) {
            if (seen.contains(href)) {
                finish();
                return;
            }
            ++loaded;
            if (ctx)
                ctx->usage().pages += 1;
            tab->navigate(QUrl(href), timeout, [self](const NavigationResult &nav) {
                if (nav.errorCode == QLatin1String("BLOCKED")) {
                    // A next link the policy refuses (file:, a private host) is an
                    // error, never a page.
                    ToolResult r =
                        ToolResult::failure(QStringLiteral("BLOCKED: %1").arg(nav.errorMessage));
                    r.output = QJsonObject{{QStringLiteral("pages"), self->pages},
                                           {QStringLiteral("error"), nav.errorJson()}};
                    r.usage.pages = self->loaded;
                    self->done(r);
                    return;
                }
                // A next page that fails, or answers an HTTP error, ends the pagination:
                // its error page is no page of the list.
                if ((!nav.ok && nav.errorCode != QLatin1String("HTTP_STATUS")) ||
                    nav.httpStatus >= 400) {
                    self->finish();
                    return;
                }
                self->readPage();
            });
            return;
        }
        // A script-driven "next" button: click it and read what follows.
        tab->act({{QStringLiteral("action"), QStringLiteral("click")},
                  {QStringLiteral("target"),
                   QJsonObject{{QStringLiteral("id"), control.value(QStringLiteral("id"))}}}},
                 timeout, [self](const ActOutcome &o) {
                     if (o.navigated) {
                         ++self->loaded;
                         if (self->ctx)
                             self->ctx->usage().pages += 1;
                     }
                     if (!o.ok) {
                         self->finish();
                         return;
                     }
                     QTimer::singleShot(o.navigated ? 0 : 300, [self] { self->readPage(); });
                 });
    }

    void fail(const QString &error)
    {
        ToolResult r = ToolResult::failure(error);
        r.usage.pages = loaded;
        done(r);
    }

    void finish()
    {
        ToolResult r;
        QJsonObject out{{QStringLiteral("pages"), pages},
                        {QStringLiteral("url"), tab->url().toString()}};
        if (startStatus > 0)
            out.insert(QStringLiteral("httpStatus"), startStatus);
        if (!schema.isEmpty()) {
            out.insert(QStringLiteral("data"), data);
            out.insert(QStringLiteral("missing"), missing);
            if (!warnings.isEmpty())
                out.insert(QStringLiteral("warnings"), warnings);
            const int n = data.isArray() ? int(data.toArray().size()) : -1;
            const qsizetype p = pages.size();
            const QString read =
                p == 1 ? QStringLiteral("1 page") : QStringLiteral("%1 pages").arg(p);
            r.summary = n >= 0 ? QStringLiteral("extracted %1 items from %2").arg(n).arg(read)
                               : QStringLiteral("extracted data from %1").arg(read);
        } else {
            if (maxTextChars > 0 &&
                (text.size() > maxTextChars || markdown.size() > maxTextChars)) {
                out.insert(QStringLiteral("textTruncated"), true);
                out.insert(QStringLiteral("textLength"), qMax(text.size(), markdown.size()));
                text.truncate(maxTextChars);
                markdown.truncate(maxTextChars);
            }
            if (!text.isEmpty())
                out.insert(QStringLiteral("text"), text);
            if (!markdown.isEmpty())
                out.insert(QStringLiteral("markdown"), markdown);
            r.summary = pages.size() == 1 ? QStringLiteral("read 1 page")
                                          : QStringLiteral("read %1 pages").arg(pages.size());
        }
        r.output = out;
        r.usage.pages = loaded;
        done(r);
    }

    QJsonValue data;
    QJsonArray pages;
    QJsonArray missing;
    QJsonArray warnings; // values that did not fit their field, on any page
    QSet<QString> seen;
    int loaded = 0;
    int startStatus = 0; // the HTTP status of the page the crawl opened itself
    QString like;        // the source the first page was read from (a list's kind)
    QString text;
    QString markdown;
};

} // namespace

void CrawlAndExtractTool::run(RunContext &ctx, const QJsonObject &args,
                              std::function<void(ToolResult)> done)
{
    auto crawl = std::make_shared<Crawl>();
    crawl->ctx = &ctx;
    crawl->schema = args.value(QStringLiteral("schema")).toObject();
    crawl->paginate = args.value(QStringLiteral("paginate")).toBool();
    crawl->maxPages = crawl->paginate
                          ? args.value(QStringLiteral("maxPages"))
                                .toInt(ctx.services().settings.intValue(SettingKeys::agentMaxPages))
                          : 1;
    for (const auto &f : args.value(QStringLiteral("formats")).toArray())
        crawl->formats << f.toString();
    const ExtractionConfig &extraction = ctx.request().runSettings.extraction;
    if (crawl->formats.isEmpty())
        crawl->formats = {QStringLiteral("text"), QStringLiteral("markdown")};
    // The whole page, as the request's settings ask: its visible text, not the article.
    if (!extraction.mainContentOnly)
        crawl->formats = {QStringLiteral("text")};
    crawl->maxTextChars = extraction.maxTextChars;
    crawl->done = std::move(done);
    const QUrl start(args.value(QStringLiteral("url")).toString());
    if (!start.isEmpty()) {
        if (const QString refusal = policyRefusal(ctx, start); !refusal.isEmpty()) {
            crawl->done(ToolResult::failure(QStringLiteral("the URL %1").arg(refusal)));
            return;
        }
    }
    ctx.tab([crawl, start](BrowserTab *tab, const QString &error) {
        if (!crawl->ctx)
            return;
        if (!tab) {
            crawl->done(ToolResult::failure(error));
            return;
        }
        crawl->tab = tab;
        crawl->timeout = crawl->ctx->navigationTimeoutMs();
        crawl->begin(start);
    });
}

// ------------------------------------------------------------------------ run_page_script

PageScriptTool::PageScriptTool()
    : Tool({QStringLiteral("run_page_script"),
            QStringLiteral(
                "Run a JavaScript function body in the page with `params`; its return value "
                "(JSON) is the result."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "code": {"type": "string"},
        "params": {"type": "object"},
        "timeoutMs": {"type": "integer", "minimum": 100, "maximum": 120000}
      },
      "required": ["code"]
    })json"),
            Tool::Uses::Tab})
{}

void PageScriptTool::run(RunContext &ctx, const QJsonObject &args,
                         std::function<void(ToolResult)> done)
{
    const QString code = args.value(QStringLiteral("code")).toString();
    const QJsonObject params = args.value(QStringLiteral("params")).toObject();
    const int timeoutMs = args.value(QStringLiteral("timeoutMs")).toInt(15000);
    // The body runs as a function of `params`; what it returns comes back as JSON, and
    // a throw comes back as the error's message.
    const QString script =
        QStringLiteral("(function(){try{const __r=(function(params){\n%1\n})(%2);return "
                       "JSON.stringify({ok:true,result:__r===undefined?null:__r});}catch(e){return "
                       "JSON.stringify({ok:false,error:String(e&&e.message||e)});}})()")
            .arg(code, QString::fromUtf8(QJsonDocument(params).toJson(QJsonDocument::Compact)));
    QPointer<RunContext> guard(&ctx);
    ctx.tab([guard, script, timeoutMs, done](BrowserTab *tab, const QString &error) {
        if (!guard)
            return;
        if (!tab) {
            done(ToolResult::failure(error));
            return;
        }
        if (!tab->lease()) {
            done(ToolResult::failure(
                QStringLiteral("scripts do not run on a visitor's page (embedded runtime)")));
            return;
        }
        tab->lease()->evaluate(script, timeoutMs, [done](bool ok, const QVariant &value) {
            if (!ok) {
                done(ToolResult::failure(QStringLiteral("the script did not finish in time")));
                return;
            }
            const QJsonObject answer = QJsonDocument::fromJson(value.toString().toUtf8()).object();
            if (!answer.value(QStringLiteral("ok")).toBool()) {
                done(ToolResult::failure(QStringLiteral("the script threw: %1")
                                             .arg(answer.value(QStringLiteral("error"))
                                                      .toString(QStringLiteral("no answer")))));
                return;
            }
            ToolResult r;
            r.output =
                QJsonObject{{QStringLiteral("result"), answer.value(QStringLiteral("result"))}};
            r.summary = QStringLiteral("ran the page script");
            done(r);
        });
    });
}

// ------------------------------------------------------------------------ ask_user

AskUserTool::AskUserTool()
    : Tool({QStringLiteral("ask_user"),
            QStringLiteral(
                "Pause and ask the person behind the request for information the task needs "
                "(for example credentials for a login form). The run ends with status "
                "requires_input; the caller continues it with the answers. Mark passwords and "
                "codes secret."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "questions": {"type": "array", "minItems": 1, "items": {
          "type": "object",
          "properties": {
            "key": {"type": "string", "description": "short identifier of the answer, e.g. email"},
            "question": {"type": "string"},
            "secret": {"type": "boolean"},
            "options": {"type": "array", "items": {"type": "string"}}
          },
          "required": ["key", "question"]}}
      },
      "required": ["questions"]
    })json")})
{}

void AskUserTool::run(RunContext &, const QJsonObject &args, std::function<void(ToolResult)> done)
{
    const QJsonArray list = args.value(QStringLiteral("questions")).toArray();
    if (list.isEmpty()) {
        done(ToolResult::failure(QStringLiteral("ask_user needs at least one question")));
        return;
    }
    ToolResult r;
    QJsonArray out;
    QSet<QString> keys;
    for (const auto &v : list) {
        Question q = Question::fromJson(v.toObject());
        if (q.key.isEmpty() || q.question.isEmpty()) {
            done(ToolResult::failure(QStringLiteral("every question needs a key and a question")));
            return;
        }
        while (keys.contains(q.key))
            q.key += QLatin1Char('_');
        keys.insert(q.key);
        r.questions.append(q);
        out.append(q.toJson());
    }
    r.pause = true;
    r.output = QJsonObject{{QStringLiteral("questions"), out}};
    r.summary = QStringLiteral("asked %1 question(s)").arg(out.size());
    done(r);
}

} // namespace ph::engine
