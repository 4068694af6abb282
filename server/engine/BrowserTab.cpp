#include "BrowserTab.h"

#include "browser/PageAgent.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QTimer>
#include <QWebEnginePage>

#include <memory>

namespace ph::engine {

namespace {
constexpr int kNavigationGraceMs = 400; // how long an action may take to start a load
constexpr int kSnapshotTimeoutMs = 15000;

QString jsonArgument(const QJsonValue &v)
{
    if (v.isUndefined() || v.isNull())
        return QString();
    const QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}
} // namespace

void readActAnswer(const QJsonValue &answer, ActOutcome *outcome)
{
    const QJsonObject r = answer.toObject();
    outcome->ok = r.value(QStringLiteral("ok")).toBool();
    outcome->error = r.value(QStringLiteral("error")).toString();
    if (!outcome->ok && outcome->error.isEmpty())
        outcome->error = QStringLiteral("the page agent could not perform the action");
    outcome->detail = r;
}

LeasedTab::LeasedTab(std::unique_ptr<BrowserLease> lease, NavigateOptions defaults, QObject *parent)
    : BrowserTab(parent)
    , m_lease(std::move(lease))
    , m_defaults(std::move(defaults))
{}

LeasedTab::~LeasedTab()
{
    if (m_borrowed)
        (void)m_lease.release(); // its owner keeps it
}

std::unique_ptr<LeasedTab> LeasedTab::borrow(BrowserLease &lease, QObject *parent)
{
    auto tab = std::make_unique<LeasedTab>(std::unique_ptr<BrowserLease>(&lease), NavigateOptions(),
                                           parent);
    tab->m_borrowed = true;
    return tab;
}

QUrl LeasedTab::url() const
{
    return m_lease->url();
}

void LeasedTab::navigate(const QUrl &url, int timeoutMs,
                         std::function<void(const NavigationResult &)> done)
{
    NavigateOptions o = m_defaults;
    o.timeoutMs = timeoutMs;
    ++m_pagesLoaded;
    m_lease->navigate(url, o, std::move(done));
}

void LeasedTab::call(const QString &function, const QJsonValue &argument, int timeoutMs,
                     std::function<void(bool, const QJsonValue &, const QString &)> done)
{
    const QString script = QStringLiteral("window.__pilothouse ? window.__pilothouse.%1(%2) : null")
                               .arg(function, jsonArgument(argument));
    QPointer<LeasedTab> self(this);
    m_lease->evaluate(script, timeoutMs, [self, done](bool ok, const QVariant &value) {
        if (!self) {
            done(false, {}, QStringLiteral("the page was released"));
            return;
        }
        if (!ok) {
            done(false, {},
                 self->m_lease->isCrashed() ? QStringLiteral("the page's renderer crashed")
                                            : QStringLiteral("the page did not answer in time"));
            return;
        }
        if (value.typeId() != QMetaType::QString) {
            done(false, {}, QStringLiteral("the page agent is not present in this document"));
            return;
        }
        const std::optional<QJsonValue> answer = PageAgent::readAnswer(value.toString());
        if (!answer) {
            done(false, {}, QStringLiteral("the page agent answered something that is not JSON"));
            return;
        }
        done(true, *answer, QString());
    });
}

void LeasedTab::act(const QJsonObject &action, int timeoutMs,
                    std::function<void(const ActOutcome &)> done)
{
    if (m_lease->engine() == QLatin1String("qtwebengine") && !m_lease->page()) {
        ActOutcome o;
        o.error = QStringLiteral("the browser page is gone");
        done(o);
        return;
    }
    // Watch for a document load the action starts (link click, form submit).
    struct Watch
    {
        bool started = false;
        bool finished = false;
        bool acted = false;
        ActOutcome outcome;
        QMetaObject::Connection connection;
        QMetaObject::Connection finishedConnection;
        NavigationResult nav;
    };
    auto w = std::make_shared<Watch>();
    // A navigation the action started that the network policy refused (a link to a
    // private host, a form posting to file:) is a BLOCKED error, never a page.
    const quint64 mark = m_lease->refusalMark();
    QPointer<LeasedTab> guard(this);
    auto settle = [w, done, guard, mark] {
        QObject::disconnect(w->connection);
        QObject::disconnect(w->finishedConnection);
        if (guard) {
            for (const Refusal &r : guard->m_lease->refusalsSince(mark)) {
                if (!r.mainFrame && !r.fromPage &&
                    !(w->outcome.navigated && !w->outcome.navigation.ok))
                    continue;
                w->outcome.ok = false;
                w->outcome.error = QStringLiteral("BLOCKED: the network policy refused %1: it %2")
                                       .arg(r.target, r.reason);
                w->outcome.navigation.ok = false;
                w->outcome.navigation.errorCode = QStringLiteral("BLOCKED");
                w->outcome.navigation.errorMessage = w->outcome.error;
                break;
            }
        }
        done(w->outcome);
    };
    const QUrl before = m_lease->url();
    w->connection =
        connect(m_lease.get(), &BrowserLease::loadStarted, this, [w] { w->started = true; });
    w->finishedConnection =
        connect(m_lease.get(), &BrowserLease::loadFinished, this,
                [this, w, settle, before](bool ok, const QUrl &url, int httpStatus) {
                    if (!w->started)
                        return;
                    w->finished = true;
                    w->outcome.navigated = true;
                    ++m_pagesLoaded;
                    w->outcome.navigation.ok = ok;
                    w->outcome.navigation.finalUrl = url;
                    w->outcome.navigation.requestedUrl = before;
                    if (httpStatus > 0)
                        w->outcome.navigation.httpStatus = httpStatus;
                    if (w->acted)
                        settle();
                });
    QPointer<LeasedTab> self(this);
    call(QStringLiteral("act"), action, 10000,
         [self, w, settle, timeoutMs](bool ok, const QJsonValue &result, const QString &error) {
             w->acted = true;
             if (!self) {
                 w->outcome.ok = false;
                 w->outcome.error = error;
                 settle();
                 return;
             }
             if (!ok) {
                 // A click that navigated away may tear the old document down before it
                 // answers: that is success, not failure.
                 if (!w->started) {
                     w->outcome.error = error;
                     settle();
                     return;
                 }
                 w->outcome.ok = true;
             } else {
                 readActAnswer(result, &w->outcome);
             }
             if (!w->outcome.ok || w->finished) {
                 settle();
                 return;
             }
             // Give the action a moment to start a load; if it does, wait for its end.
             QTimer::singleShot(kNavigationGraceMs, self, [self, w, settle, timeoutMs] {
                 if (!self || w->finished)
                     return;
                 if (!w->started) {
                     settle();
                     return;
                 }
                 QTimer::singleShot(timeoutMs, self, [w, settle] {
                     if (w->finished)
                         return;
                     w->finished = true;
                     w->outcome.navigated = true;
                     w->outcome.navigation.errorCode = QStringLiteral("TIMEOUT");
                     settle();
                 });
             });
         });
}

void LeasedTab::waitFor(const QJsonObject &condition, int timeoutMs,
                        std::function<void(bool, const QString &)> done)
{
    auto deadline = std::make_shared<QElapsedTimer>();
    deadline->start();
    auto poll = std::make_shared<std::function<void()>>();
    QPointer<LeasedTab> self(this);
    *poll = [self, condition, timeoutMs, done, deadline, poll] {
        if (!self)
            return;
        self->m_lease->evaluate(
            QStringLiteral("window.__pilothouse ? window.__pilothouse.probe(%1) : false")
                .arg(jsonArgument(condition)),
            5000, [self, timeoutMs, done, deadline, poll](bool ok, const QVariant &v) {
                if (!self)
                    return;
                if (ok && v.toString() == QLatin1String("invalid-selector")) {
                    done(false, QStringLiteral("not a valid CSS selector"));
                    *poll = nullptr;
                    return;
                }
                if (ok && v.toBool()) {
                    done(true, QString());
                    *poll = nullptr;
                    return;
                }
                if (deadline->elapsed() >= timeoutMs) {
                    done(false, QStringLiteral("waited %1 ms in vain").arg(timeoutMs));
                    *poll = nullptr;
                    return;
                }
                QTimer::singleShot(100, self, [poll] {
                    if (*poll)
                        (*poll)();
                });
            });
    };
    (*poll)();
}

void LeasedTab::snapshot(const QJsonObject &options,
                         std::function<void(const SnapshotResult &)> done)
{
    m_lease->snapshot(options, kSnapshotTimeoutMs, std::move(done));
}

} // namespace ph::engine
