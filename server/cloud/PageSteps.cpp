#include "PageSteps.h"

#include "browser/BrowserLease.h"
#include "browser/PageAgent.h"
#include "engine/BrowserTab.h"
#include "engine/PageCapture.h"

#include <QJsonDocument>
#include <QPointer>
#include <QTimer>

namespace ph::cloud {

namespace {

constexpr int kScriptTimeoutMs = 10000;
constexpr int kExtractTimeoutMs = 20000; // as the rule planner's extract

QString kindName(PageStep::Kind kind)
{
    switch (kind) {
    case PageStep::Kind::Pause:
    case PageStep::Kind::WaitFor:
        return QStringLiteral("wait");
    case PageStep::Kind::Click:
        return QStringLiteral("click");
    case PageStep::Kind::Write:
        return QStringLiteral("write");
    case PageStep::Kind::Press:
        return QStringLiteral("press");
    case PageStep::Kind::Scroll:
        return QStringLiteral("scroll");
    case PageStep::Kind::Script:
        return QStringLiteral("executeJavascript");
    case PageStep::Kind::Snapshot:
        return QStringLiteral("scrape");
    case PageStep::Kind::Screenshot:
        return QStringLiteral("screenshot");
    }
    return {};
}

// The page agent's act() for a step: {action, target?, text?, key?, direction?, all?}.
QJsonObject actionFor(const PageStep &step)
{
    QJsonObject a;
    const QJsonObject target{{QStringLiteral("selector"), step.selector}};
    switch (step.kind) {
    case PageStep::Kind::Click:
        a = {{QStringLiteral("action"), QStringLiteral("click")},
             {QStringLiteral("target"), target},
             {QStringLiteral("all"), step.all}};
        break;
    case PageStep::Kind::Write:
        a = {{QStringLiteral("action"), QStringLiteral("write")},
             {QStringLiteral("text"), step.text}};
        break;
    case PageStep::Kind::Press:
        a = {{QStringLiteral("action"), QStringLiteral("press")},
             {QStringLiteral("key"), step.text}};
        break;
    default: // Scroll
        a = {{QStringLiteral("action"), QStringLiteral("scroll")},
             {QStringLiteral("direction"), step.text}};
        if (!step.selector.isEmpty())
            a.insert(QStringLiteral("target"), target);
        break;
    }
    return a;
}

// A caller's script, run as an indirect eval in the page agent's world: the value of
// its last expression comes back as {type, value} (Firecrawl's javascriptReturns).
QString scriptCall(const QString &script)
{
    const QByteArray quoted = QJsonDocument(QJsonArray{script}).toJson(QJsonDocument::Compact);
    const QString source = QString::fromUtf8(quoted.mid(1, quoted.size() - 2));
    return QStringLiteral("(function(){try{const v=(0,eval)(%1);return JSON.stringify({ok:true,"
                          "type:v===null?'null':typeof v,value:v===undefined?null:v});}catch(e){"
                          "return JSON.stringify({ok:false,error:String(e&&e.message||e)});}})()")
        .arg(source);
}

} // namespace

bool PageWork::runsScripts() const
{
    for (const PageStep &s : steps)
        if (s.kind == PageStep::Kind::Script)
            return true;
    return false;
}

QJsonArray PageWork::toJson() const
{
    QJsonArray out;
    for (const PageStep &s : steps)
        out.append(QJsonObject{{QStringLiteral("type"), kindName(s.kind)},
                               {QStringLiteral("selector"), s.selector},
                               {QStringLiteral("text"), s.text},
                               {QStringLiteral("ms"), s.ms},
                               {QStringLiteral("all"), s.all}});
    out.append(QJsonObject{{QStringLiteral("includeTags"), QJsonArray::fromStringList(includeTags)},
                           {QStringLiteral("excludeTags"), QJsonArray::fromStringList(excludeTags)},
                           {QStringLiteral("screenshot"), int(screenshot)},
                           {QStringLiteral("extractSchema"), extractSchema}});
    return out;
}

PageSteps::PageSteps(BrowserLease &lease, PageWork work, int stepTimeoutMs, QObject *parent)
    : QObject(parent)
    , m_tab(engine::LeasedTab::borrow(lease))
    , m_work(std::move(work))
    , m_timeoutMs(qMax(1000, stepTimeoutMs))
{}

PageSteps::~PageSteps() = default;

void PageSteps::start()
{
    next();
}

QJsonObject PageSteps::outputs() const
{
    return {{QStringLiteral("screenshots"), m_screenshots},
            {QStringLiteral("scrapes"), m_scrapes},
            {QStringLiteral("javascriptReturns"), m_returns},
            {QStringLiteral("pdfs"), QJsonArray()}};
}

void PageSteps::next()
{
    if (m_finished)
        return;
    if (m_next >= m_work.steps.size()) {
        if (m_work.screenshot != PageWork::Shot::None && !m_shotTaken) {
            m_shotTaken = true;
            capture(nullptr);
            return;
        }
        if (!m_work.extractSchema.isEmpty() && !m_extractDone) {
            m_extractDone = true;
            extract();
            return;
        }
        filter();
        return;
    }
    run(m_work.steps.at(m_next++));
}

void PageSteps::run(const PageStep &step)
{
    QPointer<PageSteps> self(this);
    // From the event loop: a long list of quick steps must not recurse.
    auto onward = [self] {
        if (self)
            QMetaObject::invokeMethod(self, &PageSteps::next, Qt::QueuedConnection);
    };
    switch (step.kind) {
    case PageStep::Kind::Pause:
        QTimer::singleShot(step.ms, this, &PageSteps::next);
        return;
    case PageStep::Kind::WaitFor:
        m_tab->waitFor(
            {{QStringLiteral("selector"), step.selector}}, m_timeoutMs,
            [self, step, onward](bool ok, const QString &why) {
                if (!self)
                    return;
                if (!ok)
                    self->fail(QStringLiteral("ACTION_FAILED"), step.field,
                               QStringLiteral("the selector \"%1\": %2").arg(step.selector, why));
                else
                    onward();
            });
        return;
    case PageStep::Kind::Script:
        runScript(step);
        return;
    case PageStep::Kind::Snapshot:
        snapshot(step);
        return;
    case PageStep::Kind::Screenshot:
        capture(&step);
        return;
    default:
        break;
    }
    m_tab->act(actionFor(step), m_timeoutMs, [self, step, onward](const engine::ActOutcome &o) {
        if (!self)
            return;
        if (!o.ok) {
            self->fail(QStringLiteral("ACTION_FAILED"), step.field, o.error);
            return;
        }
        if (o.navigated && !o.navigation.ok && !o.navigation.errorCode.isEmpty()) {
            self->fail(QStringLiteral("ACTION_FAILED"), step.field,
                       QStringLiteral("the page it loaded failed: %1")
                           .arg(o.navigation.errorMessage.isEmpty() ? o.navigation.errorCode
                                                                    : o.navigation.errorMessage));
            return;
        }
        onward();
    });
}

void PageSteps::runScript(const PageStep &step)
{
    QPointer<PageSteps> self(this);
    m_tab->lease()->evaluate(
        scriptCall(step.text), kScriptTimeoutMs, [self, step](bool ok, const QVariant &value) {
            if (!self || self->m_finished)
                return;
            const std::optional<QJsonValue> answer =
                ok ? PageAgent::readAnswer(value.toString()) : std::nullopt;
            const QJsonObject r = answer ? answer->toObject() : QJsonObject();
            if (!r.value(QStringLiteral("ok")).toBool()) {
                self->fail(QStringLiteral("ACTION_FAILED"), step.field,
                           r.contains(QStringLiteral("error"))
                               ? QStringLiteral("the script threw: %1")
                                     .arg(r.value(QStringLiteral("error")).toString())
                               : QStringLiteral("the script did not answer in time"));
                return;
            }
            self->m_returns.append(
                QJsonObject{{QStringLiteral("type"), r[QStringLiteral("type")]},
                            {QStringLiteral("value"), r[QStringLiteral("value")]}});
            self->next();
        });
}

void PageSteps::snapshot(const PageStep &step)
{
    QPointer<PageSteps> self(this);
    const QJsonObject options{{QStringLiteral("formats"), QJsonArray{QStringLiteral("html")}},
                              {QStringLiteral("maxNodes"), 1}};
    m_tab->snapshot(options, [self, step](const SnapshotResult &snap) {
        if (!self || self->m_finished)
            return;
        if (!snap.ok) {
            self->fail(QStringLiteral("ACTION_FAILED"), step.field, snap.errorMessage);
            return;
        }
        self->m_scrapes.append(
            QJsonObject{{QStringLiteral("url"), snap.data.value(QStringLiteral("url"))},
                        {QStringLiteral("html"), snap.data.value(QStringLiteral("html"))}});
        self->next();
    });
}

void PageSteps::capture(const PageStep *step)
{
    const QString field = step ? step->field : QStringLiteral("formats");
    if (!m_work.keepImage) {
        fail(QStringLiteral("ACTION_FAILED"), field,
             QStringLiteral("screenshots are not kept for this request"));
        return;
    }
    engine::ScreenshotOptions options;
    options.fullPage = step ? step->all : m_work.screenshot == PageWork::Shot::FullPage;
    const bool isStep = step != nullptr;
    QPointer<PageSteps> self(this);
    engine::capturePage(
        *m_tab->lease(), options, this,
        [self, field, isStep](const QByteArray &png, const QString &error) {
            if (!self || self->m_finished)
                return;
            const QString url = png.isEmpty() ? QString() : self->m_work.keepImage(png);
            if (url.isEmpty()) {
                self->fail(QStringLiteral("ACTION_FAILED"), field,
                           QStringLiteral("the screenshot could not be taken: %1")
                               .arg(error.isEmpty() ? QStringLiteral("it was not stored") : error));
                return;
            }
            if (isStep)
                self->m_screenshots.append(url);
            else
                self->m_screenshot = url;
            QMetaObject::invokeMethod(self, &PageSteps::next, Qt::QueuedConnection);
        });
}

void PageSteps::extract()
{
    QPointer<PageSteps> self(this);
    m_tab->call(
        QStringLiteral("extract"), m_work.extractSchema, kExtractTimeoutMs,
        [self](bool ok, const QJsonValue &result, const QString &error) {
            if (!self || self->m_finished)
                return;
            if (!ok) {
                self->fail(QStringLiteral("ACTION_FAILED"), QStringLiteral("formats"),
                           QStringLiteral("the json format could not be read: %1").arg(error));
                return;
            }
            const QJsonObject r = result.toObject();
            self->m_extracted = {{QStringLiteral("data"), r.value(QStringLiteral("data"))},
                                 {QStringLiteral("missing"), r.value(QStringLiteral("missing"))},
                                 {QStringLiteral("warnings"), r.value(QStringLiteral("warnings"))}};
            self->next();
        });
}

void PageSteps::filter()
{
    if (m_work.includeTags.isEmpty() && m_work.excludeTags.isEmpty()) {
        done();
        return;
    }
    const QJsonObject argument{
        {QStringLiteral("include"), QJsonArray::fromStringList(m_work.includeTags)},
        {QStringLiteral("exclude"), QJsonArray::fromStringList(m_work.excludeTags)}};
    QPointer<PageSteps> self(this);
    m_tab->call(QStringLiteral("filterTags"), argument, kScriptTimeoutMs,
                [self](bool ok, const QJsonValue &result, const QString &error) {
                    if (!self || self->m_finished)
                        return;
                    const QJsonObject r = result.toObject();
                    if (!ok) {
                        self->fail(QStringLiteral("ACTION_FAILED"), QStringLiteral("includeTags"),
                                   error);
                        return;
                    }
                    if (!r.value(QStringLiteral("ok")).toBool()) {
                        const QString selector = r.value(QStringLiteral("selector")).toString();
                        const QString field = self->m_work.excludeTags.contains(selector)
                                                  ? QStringLiteral("excludeTags")
                                                  : QStringLiteral("includeTags");
                        self->fail(QStringLiteral("INVALID_SELECTOR"), field,
                                   r.value(QStringLiteral("error")).toString());
                        return;
                    }
                    self->done();
                });
}

void PageSteps::fail(const QString &code, const QString &field, const QString &message)
{
    if (m_finished)
        return;
    m_error = {{QStringLiteral("code"), code},
               {QStringLiteral("message"), message},
               {QStringLiteral("field"), field}};
    done();
}

void PageSteps::done()
{
    if (m_finished)
        return;
    m_finished = true;
    Q_EMIT finished();
}

} // namespace ph::cloud
