// bench/console: does the operator console stay responsive with 100,000 trajectories and
// 100,000 webhook deliveries in the store?
//
// The parent process seeds a real store (Store + migrations, then one transaction of
// prepared inserts into the real tables: trajectories with their phase, deliveries with
// their attempts, mixed statuses, tasks, events, timestamps, payloads) and serves a
// loopback webhook receiver that answers 200. It then runs itself once per contender and
// panel, each child on a fresh copy of that store with the real Service on port 0:
//
//   pilothouse  the real TrajectoriesDock and DeliveriesDock (their models fetch a page
//               of 200 at a time and apply each change to its row);
//   naive       the usual first version: a QSqlQueryModel on the same columns in a
//               QTableView, `SELECT` of every row with fetchMore until exhausted, and
//               the same full reload on every change signal.
//
// Each child measures, under QT_QPA_PLATFORM=offscreen, the wall time of: opening the
// panel (model, first rows, window shown and its first paint), scrolling down a page at
// a time, applying and clearing filters, a change to one visible row landing (written
// through TrajectoryRepository::update / WebhookQueue::redeliver, as the server does,
// until the view has repainted), a new row arriving (TrajectoryRepository::create /
// WebhookQueue::enqueue), and VmRSS. The parent prints medians, p95 and the ratios.
//
// The Overview (issue 19) is measured in a third child on the same store plus a busy last
// hour (--hour-rows runs, 6,000 by default, with their requests, charges and callbacks):
// the UI-thread time of each refresh (the charts' update from the worker's result and their
// repaint) and the UI thread's longest busy stretch during one, with p50/p95/max against
// 16 ms, beside the worker's query time (off the UI thread) and how many refreshes a burst
// of 100 changes a second causes. --panels picks what to measure.
// Slowness is reported, never an exit status: the exit status is non-zero only when the
// benchmark itself could not run.
#include "Service.h"
#include "common/ConsoleServices.h"
#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/RequestLog.h"
#include "core/Store.h"
#include "deliveries/DeliveriesDock.h"
#include "deliveries/DeliveriesModel.h"
#include "engine/TrajectoryRepository.h"
#include "overview/OverviewChart.h"
#include "overview/OverviewDock.h"
#include "trajectories/TrajectoriesDock.h"
#include "trajectories/TrajectoriesModel.h"
#include "webhooks/WebhookQueue.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QLocale>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlQueryModel>
#include <QTableView>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <unistd.h>

using namespace ph;

namespace {

constexpr int kScrollPages = 5;     // pages scrolled to one at a time (200 -> 1,200 rows)
constexpr int kDeepRows = 10000;    // then fetched on to this many (the last page timed)
constexpr double kInstantMs = 100.; // the usual "feels instant" bar
constexpr int kWindowWidth = 1200;
constexpr int kWindowHeight = 800;
constexpr char kNoSuchRun[] = "traj_Qx7Zk9"; // in no seeded id or task

// ---------------------------------------------------------------- measuring helpers

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

double rssMb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.;
    }
    return 0;
}

// Notes when a widget paints (the views' viewports).
class PaintWatch : public QObject
{
public:
    explicit PaintWatch(QWidget *w)
        : m_widget(w)
    {
        w->installEventFilter(this);
    }
    void reset() { m_painted = false; }
    bool painted() const { return m_painted; }
    // Runs the event loop until the widget painted; false after `timeoutMs`.
    bool wait(int timeoutMs = 5000)
    {
        QElapsedTimer t;
        t.start();
        while (!m_painted && t.elapsed() < timeoutMs)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        return m_painted;
    }

protected:
    bool eventFilter(QObject *o, QEvent *e) override
    {
        if (o == m_widget && e->type() == QEvent::Paint)
            m_painted = true;
        return false;
    }

private:
    QWidget *m_widget;
    bool m_painted = false;
};

void settle(int ms = 20)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

bool waitFor(const std::function<bool()> &done, int timeoutMs = 10000)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    return done();
}

// Samples in ms by measure name, plus single figures (RSS, counts).
struct Results
{
    QJsonObject samples; // name -> [ms, ...]
    QJsonObject figures; // name -> number
    int unpainted = 0;   // interactions after which no repaint came (counted, not timed out)

    void add(const QString &name, double ms)
    {
        QJsonArray a = samples.value(name).toArray();
        a.append(ms);
        samples.insert(name, a);
    }
};

// ---------------------------------------------------------------- the loopback receiver

// Answers every HTTP/1.1 request with 200 "ok", keeping the connection alive: the
// target of the seeded deliveries, so redeliveries and new ones stay on this machine.
class Receiver : public QTcpServer
{
public:
    bool start() { return listen(QHostAddress::LocalHost, 0); }
    QString url(const QString &path) const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(serverPort()).arg(path);
    }
    int received() const { return m_received; }

protected:
    void incomingConnection(qintptr handle) override
    {
        auto *s = new QTcpSocket(this);
        s->setSocketDescriptor(handle);
        auto buffer = std::make_shared<QByteArray>();
        connect(s, &QTcpSocket::readyRead, s, [this, s, buffer] {
            buffer->append(s->readAll());
            for (;;) {
                const qsizetype end = buffer->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                qsizetype length = 0;
                for (const QByteArray &line : buffer->left(end).split('\n')) {
                    if (line.toLower().startsWith("content-length:"))
                        length = line.mid(15).trimmed().toLongLong();
                }
                if (buffer->size() < end + 4 + length)
                    return;
                buffer->remove(0, end + 4 + length);
                ++m_received;
                s->write(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok");
            }
        });
        connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
    }

private:
    int m_received = 0;
};

// ---------------------------------------------------------------- seeding

const QStringList kProducts{QStringLiteral("rope"),         QStringLiteral("fender"),
                            QStringLiteral("sextant"),      QStringLiteral("life jacket"),
                            QStringLiteral("anchor chain"), QStringLiteral("bilge pump"),
                            QStringLiteral("deck shoes"),   QStringLiteral("tide table"),
                            QStringLiteral("VHF radio"),    QStringLiteral("boat hook")};
const QStringList kSites{
    QStringLiteral("harbour-supplies.example"), QStringLiteral("chandlery.example.org"),
    QStringLiteral("marine-parts.example.net"), QStringLiteral("shop.example.com"),
    QStringLiteral("docks.example.io"),         QStringLiteral("crm.example.com")};
const QStringList kTaskTemplates{
    QStringLiteral("Find the price of the %1 on https://%2/ and return it with the currency"),
    QStringLiteral("Extract the first 20 rows of the products table at https://%2/catalogue/%1"),
    QStringLiteral("Sign in to https://%2/ and list my open orders that contain a %1"),
    QStringLiteral("Compare the %1 offers on https://%2/ and pick the cheapest in stock"),
    QStringLiteral("Fill in the contact form on https://%2/contact asking about the %1"),
    QStringLiteral("Check whether the %1 is back in stock on https://%2/ and tell me the date"),
    QStringLiteral("Read the reviews of the %1 at https://%2/ and summarise them in 3 bullets"),
    QStringLiteral("Download the %1 datasheet from https://%2/ and extract its dimensions")};
const QStringList kTools{QStringLiteral("crawl_and_extract_from_tab"),
                         QStringLiteral("act_on_tab"),
                         QStringLiteral("ask_user"),
                         QStringLiteral("sheets_workflow"),
                         QStringLiteral("generate_docs"),
                         QStringLiteral("run_page_script")};
const QStringList kHookPaths{QStringLiteral("/hooks/n8n/runs"), QStringLiteral("/hooks/make/agent"),
                             QStringLiteral("/crm/callbacks"), QStringLiteral("/ci/pilothouse"),
                             QStringLiteral("/zap/incoming")};

QString compact(const QJsonValue &v)
{
    return QString::fromUtf8(v.isArray()
                                 ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                 : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
}

struct SeedSummary
{
    qint64 trajectories = 0;
    qint64 phases = 0;
    qint64 deliveries = 0;
    qint64 attempts = 0;
    double seconds = 0;
    double megabytes = 0;
};

// Fills the store at `dir` (pilothouse.db + secrets.key) with `rows` trajectories (one
// phase each) and `rows` deliveries (their attempts logged), spread over 90 days.
bool seed(const QString &dir, int rows, const Receiver &receiver, SeedSummary *out, QString *error)
{
    QElapsedTimer t;
    t.start();
    SystemClock clock;
    Store store(QDir(dir).filePath(QStringLiteral("pilothouse.db")), clock);
    if (!store.open(error))
        return false;
    const QString owner =
        store.apiKeys().mint(QStringLiteral("owner"), QStringLiteral("owner"), std::nullopt).key.id;
    QStringList keys{owner};
    for (int i = 0; i < 3; ++i)
        keys << store.apiKeys()
                    .mint(QStringLiteral("automation %1").arg(i + 1), QStringLiteral("user"),
                          qint64(500000))
                    .key.id;
    // Sealed subscriptions, as enqueue() stores them (the secret sealed at rest).
    QStringList configs;
    for (const QString &path : kHookPaths) {
        WebhookSubscription s;
        s.url = receiver.url(path);
        s.secret = QStringLiteral("whsec_") + Ids::base62(24);
        configs << compact(s.toSealedJson(store.secrets()));
    }

    auto *rng = QRandomGenerator::global();
    const qint64 now = clock.nowMs();
    const qint64 span = 90LL * 24 * 3600 * 1000;
    try {
        store.transaction([&] {
            Sql trajectory(
                store,
                QStringLiteral("INSERT INTO trajectories (id, key_id, created_at, updated_at,"
                               " status, phase, task, planner, credits_milli, tools_used)"
                               " VALUES (:id, :k, :c, :u, :s, :p, :t, :pl, :cr, :tools)"));
            Sql phase(store,
                      QStringLiteral("INSERT INTO phases (trajectory_id, phase, request_id, status,"
                                     " request, response, state, started_at, finished_at,"
                                     " credits_milli, error) VALUES (:t, :p, :r, :s, :req, :resp,"
                                     " :st, :sa, :f, :c, :e)"));
            for (int i = 0; i < rows; ++i) {
                const qint64 created = now - span + span * i / rows + rng->bounded(30000);
                const int roll = int(rng->bounded(100));
                const QString status = roll < 78   ? QStringLiteral("success")
                                       : roll < 90 ? QStringLiteral("error")
                                       : roll < 96 ? QStringLiteral("cancelled")
                                                   : QStringLiteral("requires_input");
                const qint64 duration =
                    800 + rng->bounded(20000) + (rng->bounded(10) == 0 ? rng->bounded(240000) : 0);
                const QString task = kTaskTemplates.at(rng->bounded(kTaskTemplates.size()))
                                         .arg(kProducts.at(rng->bounded(kProducts.size())),
                                              kSites.at(rng->bounded(kSites.size())));
                QJsonArray tools{kTools.at(0)};
                if (rng->bounded(3) == 0)
                    tools.append(kTools.at(1 + rng->bounded(kTools.size() - 1)));
                const qint64 credits = 1000 + rng->bounded(24000);
                const QString id = Ids::make(QStringLiteral("traj"), 20);
                const QString requestId = Ids::make(QStringLiteral("req"), 20);
                trajectory.bind(QStringLiteral(":id"), id)
                    .bind(QStringLiteral(":k"), keys.at(rng->bounded(keys.size())))
                    .bind(QStringLiteral(":c"), created)
                    .bind(QStringLiteral(":u"), created + duration)
                    .bind(QStringLiteral(":s"), status)
                    .bind(QStringLiteral(":p"), 1)
                    .bind(QStringLiteral(":t"), task)
                    .bind(QStringLiteral(":pl"),
                          rng->bounded(10) < 7 ? QStringLiteral("rule") : QStringLiteral("llm"))
                    .bind(QStringLiteral(":cr"), credits)
                    .bind(QStringLiteral(":tools"), compact(tools))
                    .exec();
                const QJsonObject request{{QStringLiteral("input"), task},
                                          {QStringLiteral("maxSteps"), 12}};
                QJsonObject response{{QStringLiteral("status"), status},
                                     {QStringLiteral("trajectoryId"), id},
                                     {QStringLiteral("requestId"), requestId},
                                     {QStringLiteral("creditsUsed"), credits / 1000.}};
                if (status == QLatin1String("success"))
                    response.insert(QStringLiteral("result"),
                                    QJsonObject{{QStringLiteral("price"), 10 + rng->bounded(90)},
                                                {QStringLiteral("currency"), QStringLiteral("EUR")},
                                                {QStringLiteral("inStock"), rng->bounded(2) == 0}});
                const bool failed = status == QLatin1String("error");
                phase.bind(QStringLiteral(":t"), id)
                    .bind(QStringLiteral(":p"), 1)
                    .bind(QStringLiteral(":r"), requestId)
                    .bind(QStringLiteral(":s"), status)
                    .bind(QStringLiteral(":req"), compact(request))
                    .bind(QStringLiteral(":resp"), compact(response))
                    .bind(QStringLiteral(":st"), QStringLiteral("{}"))
                    .bind(QStringLiteral(":sa"), created)
                    .bind(QStringLiteral(":f"), created + duration)
                    .bind(QStringLiteral(":c"), credits)
                    .bind(QStringLiteral(":e"),
                          failed ? QVariant(QStringLiteral("the page did not load in 30 s"))
                                 : QVariant(QMetaType::fromType<QString>()))
                    .exec();
            }
            out->trajectories = rows;
            out->phases = rows;

            Sql delivery(
                store, QStringLiteral("INSERT INTO webhook_deliveries (id, request_id, key_id, url,"
                                      " event, payload, config, status, attempts, next_attempt_at,"
                                      " created_at, delivered_at, last_status, last_error) VALUES"
                                      " (:id, :r, :k, :u, :e, :p, :c, :s, :a, :n, :ca, :da, :ls,"
                                      " :le)"));
            Sql attempt(store,
                        QStringLiteral("INSERT INTO webhook_attempts (delivery_id, attempt, at,"
                                       " status_code, latency_ms, response, error) VALUES (:d, :a,"
                                       " :at, :s, :l, :r, :e)"));
            const QVariant nullInt(QMetaType::fromType<qint64>());
            const QVariant nullText(QMetaType::fromType<QString>());
            for (int i = 0; i < rows; ++i) {
                const qint64 created = now - span + span * i / rows + rng->bounded(30000);
                // Pending ones are recent and due in the future (an hour or more), so the
                // service's queue leaves them alone while the benchmark runs.
                const bool recent = i >= rows - rows / 100;
                const int roll = int(rng->bounded(100));
                const QString status = recent && roll < 60 ? QStringLiteral("pending")
                                       : roll < 94         ? QStringLiteral("delivered")
                                                           : QStringLiteral("failed");
                const int eventRoll = int(rng->bounded(100));
                const QString event = eventRoll < 70   ? QStringLiteral("workflow.completed")
                                      : eventRoll < 85 ? QStringLiteral("workflow.failed")
                                      : eventRoll < 90 ? QStringLiteral("workflow.input_required")
                                      : eventRoll < 97 ? QStringLiteral("svc.execution.succeeded")
                                                       : QStringLiteral("svc.execution.failed");
                const int target = int(rng->bounded(kHookPaths.size()));
                const QString id = Ids::make(QStringLiteral("dlv"), 20);
                const QString requestId = Ids::make(QStringLiteral("req"), 20);
                const QJsonObject payload{
                    {QStringLiteral("event"), event},
                    {QStringLiteral("timestamp"), Clock::isoUtc(created)},
                    {QStringLiteral("requestId"), requestId},
                    {QStringLiteral("success"), !event.endsWith(QLatin1String("failed"))},
                    {QStringLiteral("data"),
                     QJsonObject{
                         {QStringLiteral("taskCompleted"), true},
                         {QStringLiteral("output"),
                          QJsonObject{{QStringLiteral("summary"),
                                       kTaskTemplates.at(rng->bounded(kTaskTemplates.size()))}}},
                         {QStringLiteral("creditsUsed"), 1 + rng->bounded(25)}}},
                    {QStringLiteral("metadata"),
                     QJsonObject{{QStringLiteral("tool"), QStringLiteral("agent")},
                                 {QStringLiteral("executionTime"), 800 + rng->bounded(20000)}}}};
                int attempts = 1;
                if (status == QLatin1String("failed"))
                    attempts = 5;
                else if (status == QLatin1String("pending"))
                    attempts = 1 + int(rng->bounded(4));
                else if (rng->bounded(10) == 0)
                    attempts = 2 + int(rng->bounded(2));
                qint64 at = created;
                QList<webhooks::AttemptRecord> log; // written after their delivery
                int lastStatus = 0;
                QString lastError;
                for (int a = 1; a <= attempts; ++a) {
                    const bool ok = status == QLatin1String("delivered") && a == attempts;
                    const int code = ok ? 200 : (rng->bounded(3) == 0 ? 0 : 500 + rng->bounded(4));
                    const QString err = ok          ? QString()
                                        : code == 0 ? QStringLiteral("Connection refused")
                                                    : QStringLiteral("HTTP %1").arg(code);
                    const qint64 latency = code == 0 ? 1 : 20 + rng->bounded(400);
                    log.append({a, at, code, latency,
                                ok ? QStringLiteral("ok")
                                   : (code > 0 ? QStringLiteral("<html><body>upstream error</body>")
                                               : QString()),
                                err, QString(), QString()});
                    ++out->attempts;
                    lastStatus = code;
                    lastError = err;
                    if (a < attempts)
                        at += webhooks::WebhookQueue::schedule().at(a);
                }
                const bool delivered = status == QLatin1String("delivered");
                delivery.bind(QStringLiteral(":id"), id)
                    .bind(QStringLiteral(":r"), requestId)
                    .bind(QStringLiteral(":k"), keys.at(rng->bounded(keys.size())))
                    .bind(QStringLiteral(":u"), receiver.url(kHookPaths.at(target)))
                    .bind(QStringLiteral(":e"), event)
                    .bind(QStringLiteral(":p"),
                          QJsonDocument(payload).toJson(QJsonDocument::Compact))
                    .bind(QStringLiteral(":c"), configs.at(target))
                    .bind(QStringLiteral(":s"), status)
                    .bind(QStringLiteral(":a"), attempts)
                    .bind(QStringLiteral(":n"),
                          status == QLatin1String("pending")
                              ? QVariant(now + 3600000 + rng->bounded(3600000))
                              : nullInt)
                    .bind(QStringLiteral(":ca"), created)
                    .bind(QStringLiteral(":da"), delivered ? QVariant(at + 100) : nullInt)
                    .bind(QStringLiteral(":ls"), lastStatus > 0 ? QVariant(lastStatus) : nullInt)
                    .bind(QStringLiteral(":le"),
                          lastError.isEmpty() ? nullText : QVariant(lastError))
                    .exec();
                for (const webhooks::AttemptRecord &a : std::as_const(log)) {
                    attempt.bind(QStringLiteral(":d"), id)
                        .bind(QStringLiteral(":a"), a.attempt)
                        .bind(QStringLiteral(":at"), a.at)
                        .bind(QStringLiteral(":s"),
                              a.statusCode > 0 ? QVariant(a.statusCode) : nullInt)
                        .bind(QStringLiteral(":l"), a.latencyMs)
                        .bind(QStringLiteral(":r"), a.response)
                        .bind(QStringLiteral(":e"),
                              a.error.isEmpty() ? nullText : QVariant(a.error))
                        .exec();
                }
            }
            out->deliveries = rows;
        });
    } catch (const StoreError &e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    store.close();
    out->seconds = double(t.elapsed()) / 1000.;
    out->megabytes =
        double(QFileInfo(QDir(dir).filePath(QStringLiteral("pilothouse.db"))).size()) / 1048576.;
    return true;
}

// ---------------------------------------------------------------- the panels under test

// What a measurement needs of a panel, Pilothouse's or the naive one.
class Panel
{
public:
    virtual ~Panel() = default;
    virtual QWidget *window() = 0;
    virtual QTableView *view() = 0;
    virtual QAbstractItemModel *model() = 0;
    // Shows the panel scrolled down by one more page; Pilothouse's view fetches it.
    virtual void scrollPage(int page) = 0;
    // Filter `variant` (0 .. filters() - 1).
    virtual int filters() const { return 1; }
    virtual void filter(int variant) = 0;
    virtual void clearFilter() = 0;
    // The id of a row on screen (the second one).
    virtual QString visibleId() = 0;
};

// A real console dock: its list scrolled, its model read.
template <class Dock> class DockPanel : public Panel
{
public:
    explicit DockPanel(Service &service)
        : m_dock(new Dock(ui::ConsoleServices::of(service)))
    {}
    ~DockPanel() override { delete m_dock; }
    QWidget *window() override { return m_dock; }
    QTableView *view() override { return m_dock->view(); }
    QAbstractItemModel *model() override { return m_dock->model(); }
    void scrollPage(int) override { m_dock->view()->scrollToBottom(); }
    QString visibleId() override { return m_dock->model()->rowAt(m_dock->model()->index(1, 0)).id; }

protected:
    Dock *m_dock;
};

class PilothouseRuns : public DockPanel<ui::TrajectoriesDock>
{
public:
    using DockPanel::DockPanel;
    // Errors about prices; then a pasted id fragment that matches no run.
    int filters() const override { return 2; }
    void filter(int variant) override
    {
        if (variant == 0) {
            auto *status = m_dock->findChild<QComboBox *>();
            status->setCurrentIndex(status->findData(QStringLiteral("error")));
        }
        // Typed text applies after a pause (TrajectoriesDock::kSearchPauseMs); Enter applies
        // it at once, which times the query and the repaint without the pause.
        auto *search = m_dock->findChild<QLineEdit *>();
        search->setText(variant == 0 ? QStringLiteral("price") : QLatin1String(kNoSuchRun));
        Q_EMIT search->returnPressed();
    }
    void clearFilter() override
    {
        m_dock->findChild<QLineEdit *>()->clear();
        m_dock->findChild<QComboBox *>()->setCurrentIndex(0);
    }
};

class PilothouseDeliveries : public DockPanel<ui::DeliveriesDock>
{
public:
    using DockPanel::DockPanel;
    // The few failed ones, then the many delivered ones.
    int filters() const override { return 2; }
    void filter(int variant) override
    {
        m_dock->statusFilter()->setCurrentIndex(m_dock->statusFilter()->findData(
            variant == 0 ? QStringLiteral("failed") : QStringLiteral("delivered")));
    }
    void clearFilter() override { m_dock->statusFilter()->setCurrentIndex(0); }
};

// The naive panel: every row of the table in a QSqlQueryModel (its own connection to the
// same file), fetched to the end, reloaded the same way on every change signal.
class NaivePanel : public Panel
{
public:
    using Binds = QList<std::pair<QString, QVariant>>;
    NaivePanel(const QString &dbPath, QString select, QString order, QString filterWhere,
               QList<Binds> filterBinds)
        : m_select(std::move(select))
        , m_order(std::move(order))
        , m_filterWhere(std::move(filterWhere))
        , m_filterBinds(std::move(filterBinds))
    {
        m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("naive"));
        m_db.setDatabaseName(dbPath);
        m_db.open();
        m_window = new QWidget;
        auto *layout = new QVBoxLayout(m_window);
        m_view = new QTableView(m_window);
        m_model = new QSqlQueryModel(m_window);
        m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
        m_view->setSelectionMode(QAbstractItemView::SingleSelection);
        m_view->verticalHeader()->hide();
        m_view->setAlternatingRowColors(true);
        layout->addWidget(m_view);
        reload();
        m_view->setModel(m_model);
        m_view->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    }
    ~NaivePanel() override
    {
        delete m_window;
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("naive"));
    }
    void reload()
    {
        QSqlQuery q(m_db);
        QString sql = m_select;
        if (m_variant >= 0)
            sql += QStringLiteral(" WHERE ") + m_filterWhere;
        q.prepare(sql + QStringLiteral(" ORDER BY ") + m_order);
        if (m_variant >= 0) {
            for (const auto &[name, value] : m_filterBinds.at(m_variant))
                q.bindValue(name, value);
        }
        if (!q.exec())
            qFatal("naive query failed: %s", qPrintable(q.lastError().text()));
        m_model->setQuery(std::move(q));
        while (m_model->canFetchMore())
            m_model->fetchMore();
    }
    QWidget *window() override { return m_window; }
    QTableView *view() override { return m_view; }
    QAbstractItemModel *model() override { return m_model; }
    void scrollPage(int page) override
    {
        const int row = qMin(m_model->rowCount(), (page + 2) * 200) - 1;
        m_view->scrollTo(m_model->index(row, 0), QAbstractItemView::PositionAtBottom);
    }
    int filters() const override { return int(m_filterBinds.size()); }
    void filter(int variant) override
    {
        m_variant = variant;
        reload();
    }
    void clearFilter() override
    {
        m_variant = -1;
        reload();
    }
    QString visibleId() override { return m_model->index(1, 0).data().toString(); }

private:
    QSqlDatabase m_db;
    QString m_select;
    QString m_order;
    QString m_filterWhere;
    QList<Binds> m_filterBinds;
    int m_variant = -1; // no filter
    QWidget *m_window;
    QTableView *m_view;
    QSqlQueryModel *m_model;
};

// Counts the signals a view reacts to, so that a change can be timed to its arrival.
struct Landing
{
    explicit Landing(QAbstractItemModel *m)
    {
        auto hit = [this] {
            if (!landed) {
                landed = true;
                ms = msSince(timer);
            }
        };
        for (auto c : {QObject::connect(m, &QAbstractItemModel::dataChanged, m, hit),
                       QObject::connect(m, &QAbstractItemModel::rowsInserted, m, hit),
                       QObject::connect(m, &QAbstractItemModel::modelReset, m, hit)})
            connections << c;
    }
    ~Landing()
    {
        for (const auto &c : std::as_const(connections))
            QObject::disconnect(c);
    }
    void start()
    {
        landed = false;
        timer.start();
    }
    QList<QMetaObject::Connection> connections;
    QElapsedTimer timer;
    bool landed = false;
    double ms = 0;
};

enum class Kind { Runs, Deliveries };

// Times one interaction: `act` starts it; done when `ready` holds and the view painted.
// The time until the model's signal (`landing`) is recorded too when given.
double timeInteraction(
    Results &r, const QString &name, PaintWatch &paint, const std::function<void()> &act,
    const std::function<bool()> &ready = [] { return true; }, Landing *landing = nullptr)
{
    QElapsedTimer t;
    paint.reset();
    if (landing)
        landing->start();
    t.start();
    act();
    waitFor([&] { return ready() && (!landing || landing->landed); });
    if (!paint.wait(2000))
        ++r.unpainted;
    const double ms = msSince(t);
    r.add(name, ms);
    if (landing)
        r.add(name + QStringLiteral(" (signal)"), landing->ms);
    return ms;
}

void measurePanel(Kind kind, bool naive, Service &service, int repeat, Results &r)
{
    const QString dbPath = QDir(service.dataDir()).filePath(QStringLiteral("pilothouse.db"));
    const QString keyId = service.store().apiKeys().activeOwnerId();
    auto &queue = service.webhooks();
    QHash<QString, int> changes; // deliveryChanged per id
    QObject guard;
    QObject::connect(&queue, &webhooks::WebhookQueue::deliveryChanged, &guard,
                     [&](const QString &id) { ++changes[id]; });
    WebhookSubscription subscription;
    {
        // The seeded rows point at the parent's receiver; new ones go there too.
        const auto any = queue.list(QString(), QString(), 1, QString());
        subscription.url = any.isEmpty() ? QString() : any.first().url;
        subscription.secret = QStringLiteral("whsec_bench_console");
    }
    for (int rep = 0; rep < repeat; ++rep) {
        // Open: model (first page, or every row for the naive one), window, first paint.
        const double rssBefore = rssMb();
        QElapsedTimer t;
        t.start();
        std::unique_ptr<Panel> panel;
        std::unique_ptr<QObject> reloader; // the naive panel's full reload on each change
        if (!naive) {
            if (kind == Kind::Runs)
                panel = std::make_unique<PilothouseRuns>(service);
            else
                panel = std::make_unique<PilothouseDeliveries>(service);
        } else {
            NaivePanel *p = nullptr;
            if (kind == Kind::Runs) {
                p = new NaivePanel(
                    dbPath,
                    QStringLiteral("SELECT id, status, task, created_at, updated_at, credits_milli,"
                                   " tools_used FROM trajectories"),
                    QStringLiteral("updated_at DESC"),
                    QStringLiteral("(:s = '' OR status = :s) AND (task LIKE :q OR id LIKE :q)"),
                    {{{QStringLiteral(":s"), QStringLiteral("error")},
                      {QStringLiteral(":q"), QStringLiteral("%price%")}},
                     {{QStringLiteral(":s"), QString(QLatin1String(""))},
                      {QStringLiteral(":q"),
                       QStringLiteral("%%1%").arg(QLatin1String(kNoSuchRun))}}});
            } else {
                p = new NaivePanel(
                    dbPath,
                    QStringLiteral("SELECT id, event, url, status, attempts, last_status,"
                                   " next_attempt_at, created_at FROM webhook_deliveries"),
                    QStringLiteral("created_at DESC, id DESC"), QStringLiteral("status = :s"),
                    {{{QStringLiteral(":s"), QStringLiteral("failed")}},
                     {{QStringLiteral(":s"), QStringLiteral("delivered")}}});
            }
            panel.reset(p);
            reloader = std::make_unique<QObject>();
            if (kind == Kind::Runs) {
                QObject::connect(&service.store(), &Store::changed, reloader.get(),
                                 [p](const QString &table, const QString &) {
                                     if (table == QLatin1String("trajectories") ||
                                         table == QLatin1String("phases"))
                                         p->reload();
                                 });
            } else {
                QObject::connect(&queue, &webhooks::WebhookQueue::deliveryChanged, reloader.get(),
                                 [p](const QString &) { p->reload(); });
            }
        }
        PaintWatch paint(panel->view()->viewport());
        panel->window()->resize(kWindowWidth, kWindowHeight);
        panel->window()->show();
        if (!paint.wait())
            ++r.unpainted;
        r.add(QStringLiteral("open"), msSince(t));
        settle();
        if (rep == 0) {
            r.figures.insert(QStringLiteral("rss open"), rssMb());
            r.figures.insert(QStringLiteral("rss open delta"), rssMb() - rssBefore);
            r.figures.insert(QStringLiteral("rows open"), panel->model()->rowCount());
        }

        // Scroll down a page at a time (Pilothouse's view fetches the next 200 each time).
        QAbstractItemModel *model = panel->model();
        for (int page = 0; page < kScrollPages; ++page) {
            const int before = model->rowCount();
            timeInteraction(
                r, QStringLiteral("scroll"), paint, [&] { panel->scrollPage(page); },
                [&] { return naive || model->rowCount() > before || !model->canFetchMore({}); });
        }
        if (rep == 0)
            r.figures.insert(QStringLiteral("rows scrolled"), model->rowCount());
        // On to kDeepRows loaded rows: the last page's fetch.
        if (!naive) {
            double last = -1;
            while (model->rowCount() < kDeepRows && model->canFetchMore({})) {
                QElapsedTimer f;
                f.start();
                model->fetchMore({});
                last = msSince(f);
            }
            if (last >= 0)
                r.add(QStringLiteral("deep page"), last);
            settle();
            if (rep == 0) {
                r.figures.insert(QStringLiteral("rss deep"), rssMb());
                r.figures.insert(QStringLiteral("rows deep"), model->rowCount());
            }
        }
        panel->view()->scrollToTop();
        settle();

        // One change to a row on screen, written as the server writes it.
        Landing landing(model);
        const QString id = panel->visibleId();
        if (kind == Kind::Runs) {
            timeInteraction(
                r, QStringLiteral("change"), paint,
                [&] {
                    service.trajectories().update(
                        id, rep % 2 ? QStringLiteral("success") : QStringLiteral("error"), 1,
                        QStringLiteral("rule"), 250,
                        {QStringLiteral("crawl_and_extract_from_tab"), QStringLiteral("ask_user")});
                },
                [] { return true; }, &landing);
            settle();
            const QString fresh = Ids::make(QStringLiteral("traj"), 20);
            timeInteraction(
                r, QStringLiteral("new row"), paint,
                [&] {
                    service.trajectories().create(
                        fresh, keyId,
                        QStringLiteral(
                            "Find the price of the sextant on https://shop.example.com/"),
                        QStringLiteral("rule"));
                },
                [] { return true; }, &landing);
        } else {
            const int seen = changes.value(id);
            timeInteraction(
                r, QStringLiteral("change"), paint, [&] { queue.redeliver(id); },
                [] { return true; }, &landing);
            // Its attempt goes to the receiver; the outcome lands before the next step.
            if (!waitFor([&] { return changes.value(id) >= seen + 2 && queue.inFlight() == 0; },
                         60000))
                qWarning("bench_console: the redelivery's outcome did not arrive");
            settle();
            QStringList ids;
            const QJsonObject payload{
                {QStringLiteral("event"), QStringLiteral("workflow.completed")},
                {QStringLiteral("requestId"), Ids::make(QStringLiteral("req"), 20)},
                {QStringLiteral("success"), true}};
            timeInteraction(
                r, QStringLiteral("new row"), paint,
                [&] {
                    ids = queue.enqueue(Ids::make(QStringLiteral("req"), 20), keyId, {subscription},
                                        {{QStringLiteral("workflow.completed"), payload}});
                },
                [] { return true; }, &landing);
            if (!waitFor(
                    [&] {
                        return !ids.isEmpty() && changes.value(ids.first()) >= 2 &&
                               queue.inFlight() == 0;
                    },
                    60000))
                qWarning("bench_console: the new delivery's outcome did not arrive");
        }
        settle();

        // Filters (runs: status error and "price" in the text, then an id fragment that
        // matches nothing; deliveries: failed, then delivered), each followed by going back
        // to everything.
        for (int variant = 0; variant < panel->filters(); ++variant) {
            const QString name = variant == 0 ? QStringLiteral("filter")
                                              : QStringLiteral("filter %1").arg(variant + 1);
            timeInteraction(r, name, paint, [&] { panel->filter(variant); });
            if (rep == 0)
                r.figures.insert(QStringLiteral("rows ") + name, model->rowCount());
            settle();
            timeInteraction(r, QStringLiteral("clear filter"), paint,
                            [&] { panel->clearFilter(); });
            settle();
        }
        reloader.reset();
        panel.reset();
        settle();
    }
}

// ---------------------------------------------------------------- the Overview

// A busy last hour on top of the seeded store (whose 100,000 runs spread over 90 days put
// only a few in any hour): `hourRows` runs finished in the last 60 minutes with their
// requests and charges, a quarter as many scrapes, half as many callbacks. Written in one
// transaction through the store's connection, as the seed is; not timed.
void seedBusyHour(Service &service, int hourRows)
{
    Store &store = service.store();
    QRandomGenerator *rng = QRandomGenerator::global();
    const qint64 now = service.clock().nowMs();
    const QString keyId = store.apiKeys().activeOwnerId();
    store.transaction([&] {
        Sql run(store, QStringLiteral("INSERT INTO trajectories (id, key_id, created_at,"
                                      " updated_at, status, phase, task, planner, credits_milli,"
                                      " tools_used) VALUES (:id, :k, :c, :u, :s, 1, :t, 'rule',"
                                      " :cr, '[]')"));
        Sql request(store, QStringLiteral("INSERT INTO api_requests (id, key_id, endpoint,"
                                          " started_at, finished_at, status) VALUES (:id, :k, :e,"
                                          " :s, :f, :st)"));
        Sql charge(store, QStringLiteral("INSERT INTO credit_ledger (key_id, at, request_id,"
                                         " endpoint, pages, credits_milli) VALUES (:k, :at, :r,"
                                         " :e, 1, :c)"));
        Sql delivery(store, QStringLiteral("INSERT INTO webhook_deliveries (id, request_id, key_id,"
                                           " url, event, payload, config, status, attempts,"
                                           " created_at) VALUES (:id, :r, :k,"
                                           " 'http://127.0.0.1:9/hook', 'workflow.completed',"
                                           " '{}', '{}', :s, 1, :c)"));
        const int scrapes = hourRows / 4;
        for (int i = 0; i < hourRows + scrapes; ++i) {
            const bool isRun = i < hourRows;
            const qint64 finished = now - 3600000 + rng->bounded(3600000);
            const qint64 duration = 800 + rng->bounded(isRun ? 30000 : 4000);
            const QString requestId = Ids::make(QStringLiteral("req"), 20);
            const int roll = int(rng->bounded(100));
            const QString status = roll < 80   ? QStringLiteral("success")
                                   : roll < 92 ? QStringLiteral("error")
                                               : QStringLiteral("cancelled");
            if (isRun) {
                run.bind(QStringLiteral(":id"), Ids::make(QStringLiteral("traj"), 20))
                    .bind(QStringLiteral(":k"), keyId)
                    .bind(QStringLiteral(":c"), finished - duration)
                    .bind(QStringLiteral(":u"), finished)
                    .bind(QStringLiteral(":s"), status)
                    .bind(QStringLiteral(":t"), QStringLiteral("Find the price of the rope"))
                    .bind(QStringLiteral(":cr"), 1000 + rng->bounded(9000))
                    .exec();
            }
            const QString endpoint = isRun ? QStringLiteral("/agent") : QStringLiteral("/scrape");
            request.bind(QStringLiteral(":id"), requestId)
                .bind(QStringLiteral(":k"), keyId)
                .bind(QStringLiteral(":e"), endpoint)
                .bind(QStringLiteral(":s"), finished - duration)
                .bind(QStringLiteral(":f"), finished)
                .bind(QStringLiteral(":st"), status)
                .exec();
            charge.bind(QStringLiteral(":k"), keyId)
                .bind(QStringLiteral(":at"), finished)
                .bind(QStringLiteral(":r"), requestId)
                .bind(QStringLiteral(":e"), endpoint)
                .bind(QStringLiteral(":c"), 1000 + rng->bounded(9000))
                .exec();
            if (isRun && i % 2 == 0) {
                delivery.bind(QStringLiteral(":id"), Ids::make(QStringLiteral("dlv"), 20))
                    .bind(QStringLiteral(":r"), requestId)
                    .bind(QStringLiteral(":k"), keyId)
                    .bind(QStringLiteral(":s"), rng->bounded(20) == 0 ? QStringLiteral("failed")
                                                                      : QStringLiteral("delivered"))
                    .bind(QStringLiteral(":c"), finished)
                    .exec();
            }
        }
    });
}

// The Overview's work per refresh, split by thread: the worker's read of the hour (the
// queries, off the UI thread), and the UI thread's part (the six charts' series set from
// the result, then their repaint, timed together as the "UI-thread time"); the longest
// stretch the UI thread was busy between a change and its charts repainted (the event
// loop's longest gap, the store's write aside); opening the panel; and how many refreshes
// a burst of changes causes (the throttle allows two a second, one read at a time).
void measureOverview(Service &service, int repeat, int hourRows, Results &r)
{
    QElapsedTimer seeding;
    seeding.start();
    seedBusyHour(service, hourRows);
    r.figures.insert(QStringLiteral("hour rows"), hourRows);
    r.figures.insert(QStringLiteral("hour seconds"), double(seeding.elapsed()) / 1000.);
    const QString keyId = service.store().apiKeys().activeOwnerId();
    for (int rep = 0; rep < repeat; ++rep) {
        QElapsedTimer t;
        t.start();
        auto dock = std::make_unique<ui::OverviewDock>(ui::ConsoleServices::of(service));
        dock->resize(kWindowWidth, kWindowHeight);
        PaintWatch paint(dock->chart(ui::OverviewDock::Chart::Runs)->viewport());
        dock->show();
        if (!waitFor([&] { return dock->refreshCount() > 0; }) || !paint.wait())
            ++r.unpainted;
        r.add(QStringLiteral("open"), msSince(t));
        settle(100);
        // As the charts are updated (on the UI thread): the charts' deferred work (Qt
        // Charts lays out on posted events) and their repaint, at once.
        bool measuring = false;
        QObject::connect(dock.get(), &ui::OverviewDock::refreshed, dock.get(), [&] {
            if (!measuring)
                return;
            QElapsedTimer p;
            p.start();
            QCoreApplication::sendPostedEvents();
            dock->widget()->repaint();
            r.add(QStringLiteral("query"), dock->lastQueryMs());
            r.add(QStringLiteral("apply"), dock->lastRefreshMs());
            r.add(QStringLiteral("ui"), dock->lastRefreshMs() + msSince(p));
            r.add(QStringLiteral("latency"), dock->lastLatencyMs() + msSince(p));
        });
        // The UI thread's longest stretch busy: how late a 1 ms timer fires, from the
        // change to its charts repainted (the event loop waits, not spins, meanwhile).
        double stall = 0;
        QElapsedTimer sinceProbe;
        QTimer probe;
        probe.setTimerType(Qt::PreciseTimer);
        probe.setInterval(1);
        QObject::connect(&probe, &QTimer::timeout, [&] {
            stall = qMax(stall, msSince(sinceProbe) - 1.);
            sinceProbe.start();
        });
        // Changes as the server makes them, one at a time: each lands through the throttle.
        for (int i = 0; i < 10; ++i) {
            const QString id = Ids::make(QStringLiteral("traj"), 20);
            service.trajectories().create(id, keyId, QStringLiteral("Overview bench"),
                                          QStringLiteral("rule"));
            service.trajectories().update(id, QStringLiteral("success"), 1, QStringLiteral("rule"),
                                          250, {});
            const int before = dock->refreshCount();
            measuring = true;
            stall = 0;
            sinceProbe.start();
            probe.start();
            QElapsedTimer limit;
            limit.start();
            while (dock->refreshCount() == before && limit.elapsed() < 10000)
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
            QCoreApplication::processEvents(); // the charts' paint, if still pending
            probe.stop();
            measuring = false;
            if (dock->refreshCount() == before)
                qWarning("bench_console: the Overview did not refresh");
            r.add(QStringLiteral("stall"), stall);
            settle(ui::OverviewDock::kMinRefreshMs + 20);
        }
        if (rep == 0) {
            // A burst: 100 changes a second for 3 s.
            const int before = dock->refreshCount();
            QElapsedTimer b;
            b.start();
            for (int i = 0; i < 300; ++i) {
                const QString id = Ids::make(QStringLiteral("traj"), 20);
                service.trajectories().create(id, keyId, QStringLiteral("Overview burst"),
                                              QStringLiteral("rule"));
                while (b.elapsed() < 10 * (i + 1))
                    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
            }
            settle(ui::OverviewDock::kMinRefreshMs + 50);
            r.figures.insert(QStringLiteral("burst changes"), 300);
            r.figures.insert(QStringLiteral("burst seconds"), double(b.elapsed()) / 1000.);
            r.figures.insert(QStringLiteral("burst refreshes"), dock->refreshCount() - before);
        }
        dock.reset();
        settle();
    }
}

int runChild(const QString &mode, const QString &panelName, const QString &dataDir, int repeat,
             int hourRows)
{
    const bool naive = mode == QLatin1String("naive");
    const Kind kind = panelName == QLatin1String("runs") ? Kind::Runs : Kind::Deliveries;
    ServiceConfig config;
    config.dataDir = dataDir;
    config.port = 0;
    // No browser pages prepared in advance: nothing here loads a page.
    config.settingOverrides = {QStringLiteral("pool.standby=0")};
    Service service(config);
    QString error;
    if (!service.start(&error)) {
        std::fprintf(stderr, "bench_console: the service did not start: %s\n", qPrintable(error));
        return 2;
    }
    settle(300);
    const double rssService = rssMb();
    Results r;
    if (panelName == QLatin1String("overview"))
        measureOverview(service, repeat, hourRows, r);
    else
        measurePanel(kind, naive, service, repeat, r);
    QJsonObject out = r.figures;
    out.insert(QStringLiteral("rss service"), rssService);
    out.insert(QStringLiteral("samples"), r.samples);
    out.insert(QStringLiteral("unpainted"), r.unpainted);
    std::fputs(QJsonDocument(out).toJson(QJsonDocument::Compact).constData(), stdout);
    std::fputs("\n", stdout);
    std::fflush(stdout);
    return 0;
}

// ---------------------------------------------------------------- the parent: report

struct Stat
{
    double p50 = -1;
    double p95 = -1;
    int n = 0;
};

Stat stat(const QJsonObject &panel, const QString &name)
{
    QList<double> v;
    for (const QJsonValue &x :
         panel.value(QStringLiteral("samples")).toObject().value(name).toArray())
        v << x.toDouble();
    Stat s;
    s.n = int(v.size());
    if (v.isEmpty())
        return s;
    std::sort(v.begin(), v.end());
    auto rank = [&](double p) {
        return v.at(qBound<qsizetype>(0, qsizetype(std::ceil(p * v.size())) - 1, v.size() - 1));
    };
    s.p50 = rank(0.5);
    s.p95 = rank(0.95);
    return s;
}

QString ms(double x)
{
    if (x < 0)
        return QStringLiteral("—");
    return x < 10    ? QString::number(x, 'f', 2)
           : x < 100 ? QString::number(x, 'f', 1)
                     : QString::number(x, 'f', 0);
}

QString thousands(qint64 n)
{
    return QLocale(QLocale::English).toString(n);
}

bool runContender(const QString &mode, const QString &panel, const QString &seedDir,
                  const QString &workDir, int repeat, QJsonObject *out, int hourRows = 0)
{
    QDir().mkpath(workDir);
    for (const char *name : {"pilothouse.db", "secrets.key"}) {
        const QString from = QDir(seedDir).filePath(QLatin1String(name));
        const QString to = QDir(workDir).filePath(QLatin1String(name));
        QFile::remove(to);
        if (!QFile::copy(from, to)) {
            std::fprintf(stderr, "bench_console: cannot copy %s\n", qPrintable(from));
            return false;
        }
    }
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QEventLoop loop; // the parent's receiver answers while the child runs
    QObject::connect(&child, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&child, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
    child.start(QCoreApplication::applicationFilePath(),
                {QStringLiteral("--child"), mode, QStringLiteral("--panel"), panel,
                 QStringLiteral("--data-dir"), workDir, QStringLiteral("--repeat"),
                 QString::number(repeat), QStringLiteral("--hour-rows"),
                 QString::number(hourRows)});
    loop.exec();
    if (child.exitStatus() != QProcess::NormalExit || child.exitCode() != 0) {
        std::fprintf(stderr, "bench_console: the %s %s run failed (exit %d)\n", qPrintable(mode),
                     qPrintable(panel), child.exitCode());
        return false;
    }
    const QList<QByteArray> lines = child.readAllStandardOutput().trimmed().split('\n');
    *out = QJsonDocument::fromJson(lines.last()).object();
    QDir(workDir).removeRecursively(); // each run starts from the same seeded store
    return !out->isEmpty();
}

// The Overview's figures: its refresh's UI-thread time against a 60 Hz frame (16 ms).
bool reportOverview(const QJsonObject &o, qint64 trajectories)
{
    constexpr double kFrameMs = 16.;
    auto maxOf = [&](const QString &name) {
        double m = -1;
        for (const QJsonValue &x :
             o.value(QStringLiteral("samples")).toObject().value(name).toArray())
            m = qMax(m, x.toDouble());
        return m;
    };
    std::printf("\nOverview panel, %s trajectories in the store, %s of them (+%s scrapes, "
                "their requests and charges, %s callbacks) in the last hour; times in ms, the "
                "16 ms frame budget applies to the UI thread's\n",
                qPrintable(thousands(trajectories + o.value(QStringLiteral("hour rows")).toInt())),
                qPrintable(thousands(o.value(QStringLiteral("hour rows")).toInt())),
                qPrintable(thousands(o.value(QStringLiteral("hour rows")).toInt() / 4)),
                qPrintable(thousands(o.value(QStringLiteral("hour rows")).toInt() / 2)));
    std::printf("%-52s | %7s %7s %7s | %s\n", "", "p50", "p95", "max", "max <= 16 ms");
    std::printf("%s\n", QByteArray(52 + 3 + 23 + 3 + 12, '-').constData());
    struct Line
    {
        const char *key;
        const char *label;
        bool budget;
    };
    // Only the UI thread's share counts against the frame; the worker's read is shown
    // beside it, and how long the charts lag a change.
    const Line lines[] = {
        {"ui", "UI thread per refresh: charts' update + repaint", true},
        {"apply", "  of which the charts' series from the result", true},
        {"stall", "UI thread's longest stretch busy (1 ms timer late)", true},
        {"query", "worker: the hour's queries (ActivityStats)", false},
        {"latency", "a read's start to its charts repainted", false},
        {"open", "open the panel (first refresh and paint)", false},
    };
    bool within = true;
    for (const Line &l : lines) {
        const Stat st = stat(o, QLatin1String(l.key));
        const double mx = maxOf(QLatin1String(l.key));
        if (st.n == 0)
            continue;
        const bool ok = mx <= kFrameMs;
        if (l.budget && !ok)
            within = false;
        std::printf("%-52s | %7s %7s %7s | %s\n", l.label, qPrintable(ms(st.p50)),
                    qPrintable(ms(st.p95)), qPrintable(ms(mx)),
                    l.budget ? (ok ? "yes" : "NO") : "(no limit)");
    }
    const double seconds = o.value(QStringLiteral("burst seconds")).toDouble();
    const int refreshes = o.value(QStringLiteral("burst refreshes")).toInt();
    std::printf("  throttle: %d changes in %.1f s gave %d refreshes (%.1f a second; at most 2)\n",
                o.value(QStringLiteral("burst changes")).toInt(), seconds, refreshes,
                seconds > 0 ? refreshes / seconds : 0.);
    std::printf("verdict: %s\n", within ? "the UI thread's part of every Overview refresh fits "
                                          "in 16 ms"
                                        : "the UI thread's part of an Overview refresh took "
                                          "over 16 ms");
    return within;
}

int runParent(int rows, int repeat, const QString &seedOnly, const QStringList &panels,
              int hourRows)
{
    if (!seedOnly.isEmpty()) {
        // Just the store, to look at with sqlite3 (EXPLAIN QUERY PLAN, .timer on).
        Receiver receiver;
        receiver.start();
        SeedSummary seeded;
        QString error;
        if (!QDir().mkpath(seedOnly) || !seed(seedOnly, rows, receiver, &seeded, &error)) {
            std::fprintf(stderr, "bench_console: seeding failed: %s\n", qPrintable(error));
            return 2;
        }
        std::printf("seeded %s in %.1f s\n", qPrintable(seedOnly), seeded.seconds);
        return 0;
    }
    QTemporaryDir tmp;
    Receiver receiver;
    if (!tmp.isValid() || !receiver.start()) {
        std::fprintf(stderr, "bench_console: no temporary directory or receiver\n");
        return 2;
    }
    const QString seedDir = tmp.filePath(QStringLiteral("seed"));
    QDir().mkpath(seedDir);
    std::printf("bench/console: seeding %s trajectories and %s webhook deliveries...\n",
                qPrintable(thousands(rows)), qPrintable(thousands(rows)));
    std::fflush(stdout);
    SeedSummary seeded;
    QString error;
    if (!seed(seedDir, rows, receiver, &seeded, &error)) {
        std::fprintf(stderr, "bench_console: seeding failed: %s\n", qPrintable(error));
        return 2;
    }
    std::printf("  %s trajectories (+%s phases), %s deliveries (+%s attempts): %.0f MB store, "
                "seeded in %.1f s\n",
                qPrintable(thousands(seeded.trajectories)), qPrintable(thousands(seeded.phases)),
                qPrintable(thousands(seeded.deliveries)), qPrintable(thousands(seeded.attempts)),
                seeded.megabytes, seeded.seconds);
    QJsonObject results[2];
    const QString modes[2] = {QStringLiteral("pilothouse"), QStringLiteral("naive")};
    for (int i = 0; i < 2; ++i) {
        for (const QString &panel : {QStringLiteral("runs"), QStringLiteral("deliveries")}) {
            if (!panels.contains(panel))
                continue;
            // A process per contender and panel: its memory is its own, its store fresh.
            std::printf("  measuring %s, %s panel (%d repetitions)...", qPrintable(modes[i]),
                        qPrintable(panel), repeat);
            std::fflush(stdout);
            QElapsedTimer t;
            t.start();
            QJsonObject out;
            if (!runContender(modes[i], panel, seedDir, tmp.filePath(modes[i] + u'-' + panel),
                              repeat, &out))
                return 2;
            results[i].insert(panel, out);
            std::printf(" %.0f s\n", double(t.elapsed()) / 1000.);
        }
    }
    if (panels.contains(QStringLiteral("overview"))) {
        std::printf("  measuring the Overview (%d repetitions)...", repeat);
        std::fflush(stdout);
        QElapsedTimer t;
        t.start();
        QJsonObject overview;
        if (!runContender(QStringLiteral("pilothouse"), QStringLiteral("overview"), seedDir,
                          tmp.filePath(QStringLiteral("overview")), repeat, &overview, hourRows))
            return 2;
        std::printf(" %.0f s\n", double(t.elapsed()) / 1000.);
        reportOverview(overview, seeded.trajectories);
    }
    if (!panels.contains(QStringLiteral("runs")) || !panels.contains(QStringLiteral("deliveries")))
        return 0; // the comparison below needs both lists
    const QJsonObject &ph = results[0];
    const QJsonObject &nv = results[1];

    std::printf("\nPilothouse: the real TrajectoriesDock / DeliveriesDock (pages of 200, changes "
                "applied to their row)\n"
                "naive:      QSqlQueryModel with every row (fetchMore to the end) in a QTableView, "
                "reloaded on every change\n"
                "both with the real service on the store above, QT_QPA_PLATFORM=%s; times in ms "
                "from the action to the view's repaint\n",
                qgetenv("QT_QPA_PLATFORM").constData());
    struct Line
    {
        const char *key;
        const char *label;
        bool ratio;
    };
    const Line lines[] = {
        {"open", "open the panel (model, first rows, first paint)", true},
        {"scroll", "scroll down a page (fetchMore + paint)", false},
        {"deep page", "fetch the last page to 10,000 rows", false},
        {"filter", "apply a filter", true},
        {"filter 2", "apply a filter", true},
        {"clear filter", "clear the filter", true},
        {"change", "one change lands (write -> repaint)", true},
        {"new row", "a new row arrives (write -> repaint)", true},
    };
    QStringList slow;
    bool faster = true;
    for (const char *panelKey : {"runs", "deliveries"}) {
        const QJsonObject p = ph.value(QLatin1String(panelKey)).toObject();
        const QJsonObject n = nv.value(QLatin1String(panelKey)).toObject();
        const bool runs = QLatin1String(panelKey) == QLatin1String("runs");
        std::printf("\n%-46s | %-17s | %-17s | %-9s | %s\n",
                    runs ? qPrintable(QStringLiteral("runs panel, %1 trajectories")
                                          .arg(thousands(seeded.trajectories)))
                         : qPrintable(QStringLiteral("deliveries panel, %1 deliveries")
                                          .arg(thousands(seeded.deliveries))),
                    "Pilothouse p50/p95", "naive p50/p95", "naive/PH", "PH p95 < 100 ms");
        std::printf("%s\n", QByteArray(46 + 3 + 17 + 3 + 17 + 3 + 9 + 3 + 15, '-').constData());
        for (const Line &l : lines) {
            const Stat a = stat(p, QLatin1String(l.key));
            const Stat b = stat(n, QLatin1String(l.key));
            if (a.n == 0 && b.n == 0)
                continue;
            QString label = QLatin1String(l.label);
            if (QLatin1String(l.key) == QLatin1String("filter"))
                label = runs ? QStringLiteral("filter: status error + text \"price\"")
                             : QStringLiteral("filter: status failed");
            if (QLatin1String(l.key) == QLatin1String("filter 2"))
                label = runs ? QStringLiteral("filter: text \"%1\", no match")
                                   .arg(QLatin1String(kNoSuchRun))
                             : QStringLiteral("filter: status delivered");
            const QString ratio = l.ratio && a.p50 > 0 && b.p50 > 0
                                      ? QStringLiteral("%1x").arg(b.p50 / a.p50, 0, 'f', 1)
                                      : QStringLiteral("");
            const bool instant = a.n > 0 && a.p95 < kInstantMs;
            if (a.n > 0 && !instant)
                slow << QStringLiteral("%1: %2 (p95 %3 ms)")
                            .arg(QLatin1String(panelKey), label, ms(a.p95));
            if (l.ratio && a.p50 > 0 && b.p50 > 0 && b.p50 < a.p50)
                faster = false;
            std::printf("%-46s | %7s %9s | %7s %9s | %9s | %s\n", qPrintable(label),
                        qPrintable(ms(a.p50)), qPrintable(ms(a.p95)), qPrintable(ms(b.p50)),
                        qPrintable(ms(b.p95)), qPrintable(ratio),
                        a.n == 0 ? "" : (instant ? "yes" : "NO"));
        }
        const Stat sig = stat(p, QStringLiteral("change (signal)"));
        const Stat sigNew = stat(p, QStringLiteral("new row (signal)"));
        std::printf(
            "  Pilothouse write -> model signal, p50/p95: change %s/%s ms, new row %s/%s ms\n",
            qPrintable(ms(sig.p50)), qPrintable(ms(sig.p95)), qPrintable(ms(sigNew.p50)),
            qPrintable(ms(sigNew.p95)));
        QString filtered = thousands(p.value(QStringLiteral("rows filter")).toInt());
        QString naiveFiltered = thousands(n.value(QStringLiteral("rows filter")).toInt());
        if (p.contains(QStringLiteral("rows filter 2"))) {
            filtered += u'/' + thousands(p.value(QStringLiteral("rows filter 2")).toInt());
            naiveFiltered += u'/' + thousands(n.value(QStringLiteral("rows filter 2")).toInt());
        }
        std::printf("  rows in the model: Pilothouse %s at open, %s after %d pages, %s deep, %s "
                    "filtered; naive %s at open, %s filtered\n",
                    qPrintable(thousands(p.value(QStringLiteral("rows open")).toInt())),
                    qPrintable(thousands(p.value(QStringLiteral("rows scrolled")).toInt())),
                    kScrollPages,
                    qPrintable(thousands(p.value(QStringLiteral("rows deep")).toInt())),
                    qPrintable(filtered),
                    qPrintable(thousands(n.value(QStringLiteral("rows open")).toInt())),
                    qPrintable(naiveFiltered));
        std::printf("  memory (VmRSS): Pilothouse %.0f MB with the panel open (+%.1f MB over the "
                    "service's %.0f MB), %.0f MB at %s rows; naive %.0f MB (+%.1f MB)\n",
                    p.value(QStringLiteral("rss open")).toDouble(),
                    p.value(QStringLiteral("rss open delta")).toDouble(),
                    p.value(QStringLiteral("rss service")).toDouble(),
                    p.value(QStringLiteral("rss deep")).toDouble(),
                    qPrintable(thousands(p.value(QStringLiteral("rows deep")).toInt())),
                    n.value(QStringLiteral("rss open")).toDouble(),
                    n.value(QStringLiteral("rss open delta")).toDouble());
        const int unpainted = p.value(QStringLiteral("unpainted")).toInt() +
                              n.value(QStringLiteral("unpainted")).toInt();
        if (unpainted > 0)
            std::printf("  (%d interactions were not followed by a repaint within 2 s)\n",
                        unpainted);
    }
    std::printf("\nverdict: %s; the naive full reload is %s.\n",
                slow.isEmpty() ? "every Pilothouse interaction is under 100 ms at p95 (feels "
                                 "instant)"
                               : qPrintable(QStringLiteral("over 100 ms at p95: ") +
                                            slow.join(QStringLiteral("; "))),
                faster ? "slower on every compared interaction"
                       : "faster on some interaction (see the ratios)");
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    // As app/main.cpp and the tests: offscreen without a display, QtWebEngine's needs.
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (::geteuid() == 0 && !qEnvironmentVariableIsSet("QTWEBENGINE_DISABLE_SANDBOX"))
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");
    if (!qEnvironmentVariableIsSet("QT_LOGGING_RULES"))
        qputenv("QT_LOGGING_RULES",
                "qt.webenginecontext.info=false;js.warning=false;pilothouse.*.debug=false");
    // The offscreen platform's and QStandardPaths' notes are noise in the figures.
    static const QtMessageHandler standard = qInstallMessageHandler(
        [](QtMsgType type, const QMessageLogContext &context, const QString &message) {
            if (message.contains(QLatin1String("propagateSizeHints")) ||
                message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR")))
                return;
            standard(type, context, message);
        });
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The console's runs and deliveries panels over a store of many rows, beside a naive "
        "full-reload model."));
    parser.addHelpOption();
    const QCommandLineOption rowsOption(
        QStringLiteral("rows"), QStringLiteral("Trajectories and deliveries to seed (100000)."),
        QStringLiteral("n"), qEnvironmentVariable("BENCH_ROWS", QStringLiteral("100000")));
    const QCommandLineOption repeatOption(
        QStringLiteral("repeat"), QStringLiteral("Repetitions of each measurement (10)."),
        QStringLiteral("n"), qEnvironmentVariable("BENCH_REPEAT", QStringLiteral("10")));
    const QCommandLineOption childOption(QStringLiteral("child"),
                                         QStringLiteral("Internal: measure one contender."),
                                         QStringLiteral("pilothouse|naive"));
    const QCommandLineOption seedOnlyOption(
        QStringLiteral("seed-only"),
        QStringLiteral("Only seed a store in <dir> (to inspect it with sqlite3), measure nothing."),
        QStringLiteral("dir"));
    const QCommandLineOption panelOption(QStringLiteral("panel"),
                                         QStringLiteral("Internal: the panel to measure."),
                                         QStringLiteral("runs|deliveries|overview"));
    const QCommandLineOption dirOption(QStringLiteral("data-dir"),
                                       QStringLiteral("Internal: the seeded store."),
                                       QStringLiteral("dir"));
    const QCommandLineOption panelsOption(
        QStringLiteral("panels"),
        QStringLiteral("The panels to measure, comma-separated (runs,deliveries,overview)."),
        QStringLiteral("list"),
        qEnvironmentVariable("BENCH_PANELS", QStringLiteral("runs,deliveries,overview")));
    const QCommandLineOption hourRowsOption(
        QStringLiteral("hour-rows"),
        QStringLiteral("Runs in the Overview's last hour, on top of --rows (6000)."),
        QStringLiteral("n"), qEnvironmentVariable("BENCH_HOUR_ROWS", QStringLiteral("6000")));
    parser.addOptions({rowsOption, repeatOption, seedOnlyOption, childOption, panelOption,
                       dirOption, panelsOption, hourRowsOption});
    parser.process(app);
    const int rows = parser.value(rowsOption).toInt();
    const int repeat = parser.value(repeatOption).toInt();
    if (rows < 1000 || repeat < 1) {
        std::fprintf(stderr, "bench_console: --rows must be >= 1000 and --repeat >= 1\n");
        return 2;
    }
    if (parser.isSet(childOption))
        return runChild(parser.value(childOption), parser.value(panelOption),
                        parser.value(dirOption), repeat, parser.value(hourRowsOption).toInt());
    return runParent(rows, repeat, parser.value(seedOnlyOption),
                     parser.value(panelsOption).split(QLatin1Char(','), Qt::SkipEmptyParts),
                     parser.value(hourRowsOption).toInt());
}
