// act_on_tab, crawl_and_extract_from_tab and ask_user.
#include "BrowserTools.h"

#include "BrowserTab.h"
#include "RunContext.h"

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
    return NetworkPolicy::refusal(url, ctx.grant());
}

// Adds the page's aria snapshot to a tool result, for planners that read the page.
void observe(BrowserTab *tab, QJsonObject output, std::function<void(QJsonObject)> done)
{
    tab->snapshot({{QStringLiteral("formats"), QJsonArray{QStringLiteral("ariaSnapshot")}},
                   {QStringLiteral("maxNodes"), kObserveMaxNodes}},
                  [output, done](const SnapshotResult &snap) mutable {
                      if (snap.ok) {
                          QString aria = snap.data.value(QStringLiteral("ariaSnapshot")).toString();
                          if (aria.size() > kObserveMaxChars)
                              aria = aria.left(kObserveMaxChars) + QStringLiteral("\n… (cut)");
                          output.insert(QStringLiteral("title"),
                                        snap.data.value(QStringLiteral("title")));
                          output.insert(QStringLiteral("ariaSnapshot"), aria);
                      }
                      done(output);
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

QString ActOnTabTool::name() const
{
    return QStringLiteral("act_on_tab");
}

QString ActOnTabTool::description() const
{
    return QStringLiteral(
        "Act on the browser tab: navigate to a URL, click, type, select an option, check or "
        "uncheck, press a key, scroll, wait for a text or selector, fill the page's search box "
        "(search), or read the page (snapshot, login_form). Targets are element ids from the "
        "snapshot (\"e12\") or accessible names (\"Sign in\"). Returns the page's aria snapshot "
        "after the action unless observe is false.");
}

QJsonObject ActOnTabTool::parameters() const
{
    return schemaOf(R"json({
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
    })json");
}

void ActOnTabTool::run(RunContext &ctx, const QJsonObject &args,
                       std::function<void(ToolResult)> done)
{
    const QString action = args.value(QStringLiteral("action")).toString();
    const bool wantsObservation = args.value(QStringLiteral("observe")).toBool(true);
    QPointer<RunContext> guard(&ctx);
    ctx.tab([guard, args, action, wantsObservation, done](BrowserTab *tab, const QString &error) {
        if (!guard)
            return;
        RunContext &ctx = *guard;
        if (!tab) {
            done(ToolResult::failure(error));
            return;
        }
        const int timeout = ctx.navigationTimeoutMs();
        // Every path ends here: optional observation, then the result.
        auto finish = [tab, wantsObservation, done](QJsonObject output, int pages,
                                                    const QString &summary) {
            auto deliver = [done, pages, summary](QJsonObject out) {
                ToolResult r;
                r.output = out;
                r.summary = summary;
                r.usage.pages = pages;
                done(r);
            };
            if (wantsObservation)
                observe(tab, output, deliver);
            else
                deliver(output);
        };

        if (action == QLatin1String("navigate")) {
            const QUrl url(args.value(QStringLiteral("url")).toString());
            const QString refusal = policyRefusal(ctx, url);
            if (refusal.isEmpty() == false) {
                done(ToolResult::failure(QStringLiteral("the URL %1").arg(refusal)));
                return;
            }
            ctx.usage().pages += 1; // billed when it starts: a cut-off load is still work
            tab->navigate(url, timeout, [finish, done, url](const NavigationResult &nav) {
                if (!nav.ok && nav.errorCode != QLatin1String("HTTP_STATUS")) {
                    ToolResult r = ToolResult::failure(
                        QStringLiteral("%1: %2").arg(nav.errorCode, nav.errorMessage));
                    r.usage.pages = 1;
                    r.output = navigationJson(nav);
                    done(r);
                    return;
                }
                finish(navigationJson(nav), 1,
                       QStringLiteral("opened %1").arg(nav.finalUrl.toString()));
            });
            return;
        }
        if (action == QLatin1String("wait")) {
            QJsonObject condition;
            if (args.contains(QStringLiteral("selector")))
                condition.insert(QStringLiteral("selector"),
                                 args.value(QStringLiteral("selector")));
            else if (args.contains(QStringLiteral("text")))
                condition.insert(QStringLiteral("text"), args.value(QStringLiteral("text")));
            if (condition.isEmpty()) {
                const int ms = qBound(0, args.value(QStringLiteral("ms")).toInt(1000), 60000);
                QTimer::singleShot(ms, tab, [finish, ms] {
                    finish({{QStringLiteral("waitedMs"), ms}}, 0,
                           QStringLiteral("waited %1 ms").arg(ms));
                });
                return;
            }
            tab->waitFor(
                condition, args.value(QStringLiteral("ms")).toInt(timeout),
                [finish, done, condition](bool ok, const QString &err) {
                    if (!ok) {
                        done(ToolResult::failure(err));
                        return;
                    }
                    finish({{QStringLiteral("found"), condition}}, 0, QStringLiteral("found it"));
                });
            return;
        }
        if (action == QLatin1String("snapshot")) {
            finish({{QStringLiteral("url"), tab->url().toString()}}, 0,
                   QStringLiteral("read the page"));
            return;
        }
        if (action == QLatin1String("login_form")) {
            tab->call(QStringLiteral("loginForm"), QJsonValue(), 10000,
                      [done, tab](bool ok, const QJsonValue &form, const QString &err) {
                          if (!ok) {
                              done(ToolResult::failure(err));
                              return;
                          }
                          ToolResult r;
                          r.output = QJsonObject{{QStringLiteral("loginForm"), form},
                                                 {QStringLiteral("url"), tab->url().toString()}};
                          r.summary = form.isNull() ? QStringLiteral("no login form on the page")
                                                    : QStringLiteral("the page has a login form");
                          done(r);
                      });
            return;
        }
        QJsonObject act{{QStringLiteral("action"), action}};
        for (const QString &k :
             {QStringLiteral("text"), QStringLiteral("option"), QStringLiteral("key"),
              QStringLiteral("direction"), QStringLiteral("submit")}) {
            if (args.contains(k))
                act.insert(k, args.value(k));
        }
        if (args.contains(QStringLiteral("target"))) {
            const QString target = args.value(QStringLiteral("target")).toString();
            QJsonObject t = QRegularExpression(QStringLiteral("^e\\d+$")).match(target).hasMatch()
                                ? QJsonObject{{QStringLiteral("id"), target}}
                                : QJsonObject{{QStringLiteral("name"), target}};
            if (args.contains(QStringLiteral("role")))
                t.insert(QStringLiteral("role"), args.value(QStringLiteral("role")));
            act.insert(QStringLiteral("target"), t);
        }
        QPointer<RunContext> ctxGuard(&ctx);
        auto perform = [tab, act, timeout, finish, done, action, ctxGuard](QJsonObject a) {
            tab->act(a, timeout, [finish, done, action, tab, ctxGuard](const ActOutcome &o) {
                if (o.navigated && ctxGuard)
                    ctxGuard->usage().pages += 1;
                if (!o.ok) {
                    done(ToolResult::failure(o.error));
                    return;
                }
                QJsonObject out{{QStringLiteral("ok"), true},
                                {QStringLiteral("url"), tab->url().toString()},
                                {QStringLiteral("navigated"), o.navigated}};
                if (o.detail.contains(QStringLiteral("element")))
                    out.insert(QStringLiteral("element"),
                               o.detail.value(QStringLiteral("element")));
                if (o.detail.contains(QStringLiteral("selected")))
                    out.insert(QStringLiteral("selected"),
                               o.detail.value(QStringLiteral("selected")));
                if (o.navigated && o.navigation.httpStatus > 0)
                    out.insert(QStringLiteral("httpStatus"), o.navigation.httpStatus);
                const QString name = o.detail.value(QStringLiteral("element"))
                                         .toObject()
                                         .value(QStringLiteral("name"))
                                         .toString();
                finish(out, o.navigated ? 1 : 0,
                       QStringLiteral("%1%2%3").arg(
                           action, name.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(name),
                           o.navigated ? QStringLiteral(", now at %1").arg(tab->url().toString())
                                       : QString()));
            });
        };
        if (action == QLatin1String("search")) {
            tab->call(QStringLiteral("searchBox"), QJsonValue(), 10000,
                      [perform, done, args](bool ok, const QJsonValue &box, const QString &err) {
                          if (!ok || !box.isObject()) {
                              done(ToolResult::failure(
                                  ok ? QStringLiteral("the page has no search box") : err));
                              return;
                          }
                          perform({{QStringLiteral("action"), QStringLiteral("type")},
                                   {QStringLiteral("target"),
                                    QJsonObject{{QStringLiteral("id"),
                                                 box.toObject().value(QStringLiteral("id"))}}},
                                   {QStringLiteral("text"), args.value(QStringLiteral("text"))},
                                   {QStringLiteral("submit"), true}});
                      });
            return;
        }
        perform(act);
    });
}

// -------------------------------------------------------- crawl_and_extract_from_tab

QString CrawlAndExtractTool::name() const
{
    return QStringLiteral("crawl_and_extract_from_tab");
}

QString CrawlAndExtractTool::description() const
{
    return QStringLiteral(
        "Read the tab (optionally after opening url): with a JSON schema, extract data shaped "
        "like it from JSON-LD, microdata, meta tags, tables, label/value pairs and repeated "
        "items; without one, return the page's text and markdown. paginate follows the page's "
        "\"next\" control up to maxPages and merges the results.");
}

QJsonObject CrawlAndExtractTool::parameters() const
{
    return schemaOf(R"json({
      "type": "object",
      "properties": {
        "url": {"type": "string"},
        "schema": {"type": "object", "description": "JSON Schema of the data to extract"},
        "paginate": {"type": "boolean"},
        "maxPages": {"type": "integer", "minimum": 1, "maximum": 1000},
        "formats": {"type": "array", "items": {"type": "string", "enum": ["text", "markdown", "ariaSnapshot", "links"]}}
      }
    })json");
}

namespace {

// Merges one page's extraction into the accumulated result: arrays concatenate, and in
// objects array properties concatenate while scalars keep their first value.
QJsonValue mergeData(const QJsonValue &into, const QJsonValue &page)
{
    if (into.isUndefined() || into.isNull())
        return page;
    if (into.isArray() && page.isArray()) {
        QJsonArray a = into.toArray();
        for (const auto &v : page.toArray())
            a.append(v);
        return a;
    }
    if (into.isObject() && page.isObject()) {
        QJsonObject o = into.toObject();
        const QJsonObject p = page.toObject();
        for (auto it = p.begin(); it != p.end(); ++it) {
            if (!o.contains(it.key()))
                o.insert(it.key(), it.value());
            else if (o.value(it.key()).isArray() && it.value().isArray())
                o.insert(it.key(), mergeData(o.value(it.key()), it.value()));
        }
        return o;
    }
    return into;
}

struct Crawl
{
    QJsonObject schema;
    bool paginate = false;
    int maxPages = 1;
    QStringList formats;
    QJsonValue data;
    QJsonArray pages;
    QJsonArray missing;
    QSet<QString> seen;
    QPointer<RunContext> ctx;
    int loaded = 0;
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
    if (crawl->formats.isEmpty())
        crawl->formats = {QStringLiteral("text"), QStringLiteral("markdown")};
    const QUrl start(args.value(QStringLiteral("url")).toString());
    if (!start.isEmpty()) {
        const QString refusal = policyRefusal(ctx, start);
        if (!refusal.isEmpty()) {
            done(ToolResult::failure(QStringLiteral("the URL %1").arg(refusal)));
            return;
        }
    }
    QPointer<RunContext> guard(&ctx);
    ctx.tab([guard, crawl, start, done](BrowserTab *tab, const QString &error) {
        if (!guard)
            return;
        if (!tab) {
            done(ToolResult::failure(error));
            return;
        }
        const int timeout = guard->navigationTimeoutMs();
        auto finish = [crawl, done, tab] {
            ToolResult r;
            QJsonObject out{{QStringLiteral("pages"), crawl->pages},
                            {QStringLiteral("url"), tab->url().toString()}};
            if (!crawl->schema.isEmpty()) {
                out.insert(QStringLiteral("data"), crawl->data);
                out.insert(QStringLiteral("missing"), crawl->missing);
                const int n = crawl->data.isArray() ? int(crawl->data.toArray().size()) : -1;
                const qsizetype p = crawl->pages.size();
                const QString pages =
                    p == 1 ? QStringLiteral("1 page") : QStringLiteral("%1 pages").arg(p);
                r.summary = n >= 0 ? QStringLiteral("extracted %1 items from %2").arg(n).arg(pages)
                                   : QStringLiteral("extracted data from %1").arg(pages);
            } else {
                if (!crawl->text.isEmpty())
                    out.insert(QStringLiteral("text"), crawl->text);
                if (!crawl->markdown.isEmpty())
                    out.insert(QStringLiteral("markdown"), crawl->markdown);
                r.summary = crawl->pages.size() == 1
                                ? QStringLiteral("read 1 page")
                                : QStringLiteral("read %1 pages").arg(crawl->pages.size());
            }
            r.output = out;
            r.usage.pages = crawl->loaded;
            done(r);
        };
        auto step = std::make_shared<std::function<void()>>();
        // Reads the current page, then follows "next" while asked to.
        *step = [crawl, tab, timeout, finish, done, step]() {
            const QString here = tab->url().toString();
            crawl->seen.insert(here);
            auto next = [crawl, tab, timeout, finish, step, done](const QJsonValue &nextControl) {
                if (!crawl->paginate || crawl->pages.size() >= crawl->maxPages ||
                    !nextControl.isObject()) {
                    finish();
                    *step = nullptr;
                    return;
                }
                const QJsonObject control = nextControl.toObject();
                const QString href = control.value(QStringLiteral("href")).toString();
                if (!href.isEmpty()) {
                    if (crawl->seen.contains(href)) {
                        finish();
                        *step = nullptr;
                        return;
                    }
                    ++crawl->loaded;
                    if (crawl->ctx)
                        crawl->ctx->usage().pages += 1;
                    tab->navigate(
                        QUrl(href), timeout,
                        [step, finish, crawl, done](const NavigationResult &nav) {
                            if (nav.errorCode == QLatin1String("BLOCKED")) {
                                // A next link the policy refuses (file:, a
                                // private host) is an error, never a page.
                                ToolResult r = ToolResult::failure(
                                    QStringLiteral("BLOCKED: %1").arg(nav.errorMessage));
                                r.output = QJsonObject{{QStringLiteral("pages"), crawl->pages},
                                                       {QStringLiteral("error"), nav.errorJson()}};
                                r.usage.pages = crawl->loaded;
                                done(r);
                                *step = nullptr;
                                return;
                            }
                            if (!nav.ok && nav.errorCode != QLatin1String("HTTP_STATUS")) {
                                finish();
                                *step = nullptr;
                                return;
                            }
                            (*step)();
                        });
                    return;
                }
                // A script-driven "next" button: click it and read what follows.
                tab->act(
                    {{QStringLiteral("action"), QStringLiteral("click")},
                     {QStringLiteral("target"),
                      QJsonObject{{QStringLiteral("id"), control.value(QStringLiteral("id"))}}}},
                    timeout, [crawl, step, finish](const ActOutcome &o) {
                        if (o.navigated) {
                            ++crawl->loaded;
                            if (crawl->ctx)
                                crawl->ctx->usage().pages += 1;
                        }
                        if (!o.ok) {
                            finish();
                            *step = nullptr;
                            return;
                        }
                        QTimer::singleShot(o.navigated ? 0 : 300, [step] {
                            if (*step)
                                (*step)();
                        });
                    });
            };
            if (!crawl->schema.isEmpty()) {
                tab->call(QStringLiteral("extract"), crawl->schema, 20000,
                          [crawl, next, done, here](bool ok, const QJsonValue &result,
                                                    const QString &err) {
                              if (!ok) {
                                  done(ToolResult::failure(err));
                                  return;
                              }
                              const QJsonObject r = result.toObject();
                              crawl->data = mergeData(crawl->data, r.value(QStringLiteral("data")));
                              crawl->missing = r.value(QStringLiteral("missing")).toArray();
                              crawl->pages.append(QJsonObject{
                                  {QStringLiteral("url"), here},
                                  {QStringLiteral("sources"), r.value(QStringLiteral("sources"))}});
                              next(r.value(QStringLiteral("next")));
                          });
            } else {
                tab->snapshot(
                    {{QStringLiteral("formats"), QJsonArray::fromStringList(crawl->formats)}},
                    [crawl, tab, next, done, here](const SnapshotResult &snap) {
                        if (!snap.ok) {
                            done(ToolResult::failure(snap.errorMessage));
                            return;
                        }
                        const QString sep =
                            crawl->pages.isEmpty() ? QString() : QStringLiteral("\n\n");
                        crawl->text += sep + snap.data.value(QStringLiteral("text")).toString();
                        crawl->markdown +=
                            sep + snap.data.value(QStringLiteral("markdown")).toString();
                        crawl->pages.append(QJsonObject{
                            {QStringLiteral("url"), here},
                            {QStringLiteral("title"), snap.data.value(QStringLiteral("title"))}});
                        if (!crawl->paginate) {
                            next(QJsonValue());
                            return;
                        }
                        tab->call(QStringLiteral("nextPage"), QJsonValue(), 10000,
                                  [next](bool, const QJsonValue &n, const QString &) { next(n); });
                    });
            }
        };
        if (start.isEmpty()) {
            (*step)();
            return;
        }
        ++crawl->loaded;
        guard->usage().pages += 1;
        tab->navigate(start, timeout, [step, done, crawl](const NavigationResult &nav) {
            if (!nav.ok && nav.errorCode != QLatin1String("HTTP_STATUS")) {
                ToolResult r = ToolResult::failure(
                    QStringLiteral("%1: %2").arg(nav.errorCode, nav.errorMessage));
                r.usage.pages = crawl->loaded;
                done(r);
                *step = nullptr;
                return;
            }
            (*step)();
        });
    });
}

// ------------------------------------------------------------------------ run_page_script

QString PageScriptTool::name() const
{
    return QStringLiteral("run_page_script");
}

QString PageScriptTool::description() const
{
    return QStringLiteral("Run a JavaScript function body in the page with `params`; its return "
                          "value (JSON) is the result.");
}

QJsonObject PageScriptTool::parameters() const
{
    return schemaOf(R"json({
      "type": "object",
      "properties": {
        "code": {"type": "string"},
        "params": {"type": "object"},
        "timeoutMs": {"type": "integer", "minimum": 100, "maximum": 120000}
      },
      "required": ["code"]
    })json");
}

void PageScriptTool::run(RunContext &ctx, const QJsonObject &args,
                         std::function<void(ToolResult)> done)
{
    const QString code = args.value(QStringLiteral("code")).toString();
    const QJsonObject params = args.value(QStringLiteral("params")).toObject();
    const int timeoutMs = args.value(QStringLiteral("timeoutMs")).toInt(15000);
    // The body runs as a function of `params`; what it returns comes back as JSON, and
    // a throw comes back as the error's message.
    const QString script =
        QStringLiteral("(function(){try{const __r=(function(params){\n%1\n})(%2);"
                       "return JSON.stringify({ok:true,result:__r===undefined?null:__r});}"
                       "catch(e){return JSON.stringify({ok:false,error:String(e&&e.message||e)});"
                       "}})()")
            .arg(code, QString::fromUtf8(QJsonDocument(params).toJson(QJsonDocument::Compact)));
    QPointer<RunContext> guard(&ctx);
    ctx.tab([guard, script, timeoutMs, done](BrowserTab *tab, const QString &error) {
        if (!guard)
            return;
        if (!tab) {
            done(ToolResult::failure(error));
            return;
        }
        tab->lease().evaluate(script, timeoutMs, [done](bool ok, const QVariant &value) {
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

QString AskUserTool::name() const
{
    return QStringLiteral("ask_user");
}

QString AskUserTool::description() const
{
    return QStringLiteral(
        "Pause and ask the person behind the request for information the task needs (for "
        "example credentials for a login form). The run ends with status requires_input; the "
        "caller continues it with the answers. Mark passwords and codes secret.");
}

QJsonObject AskUserTool::parameters() const
{
    return schemaOf(R"json({
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
    })json");
}

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
