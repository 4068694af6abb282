#include "Demo.h"

#include "Service.h"

#include "core/Store.h"
#include "engine/TrajectoryRepository.h"
#include "http/Exchange.h"
#include "webhooks/WebhookQueue.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QTimer>

namespace ph {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {
// The demo site's configuration: a greeting, two shortcuts, a knowledge entry and voice.
QJsonObject demoSiteConfig()
{
    return QJsonDocument::fromJson(R"({
        "greeting": {"text": "Welcome aboard! Ask me for rope, fenders or a delivery date.",
                     "delay": 2500},
        "shortcuts": [
            {"id": "rope", "label": "Find mooring rope", "prompt": "Show me mooring rope"},
            {"id": "delivery", "label": "When does it arrive?", "kind": "journey",
             "prompt": "When would an order placed now arrive?"}],
        "knowledge": [
            {"id": "returns", "title": "Returns", "kind": "policy",
             "body": "Unused goods can be returned within 30 days."}],
        "voice": {"enabled": true, "language": "en-GB"},
        "aiAccess": {"confirmation": "required", "maxHops": 1}
    })")
        .object();
}
} // namespace

DemoSite::DemoSite(QObject *parent)
    : QObject(parent)
{}

QList<Route> DemoSite::routes()
{
    using C = DemoSite;
    return {
        Route::to("GET", QStringLiteral("/demo/{page}"), AuthPolicy::Public, this, &C::page),
        Route::to("GET", QStringLiteral("/demo/products/{page}"), AuthPolicy::Public, this,
                  &C::page),
        Route::to("POST", QStringLiteral("/demo/hook"), AuthPolicy::Public, this, &C::hook),
    };
}

void DemoSite::page(Exchange &ex)
{
    // The pages of docs/examples, built in; links inside them point at /demo/ too.
    QString path = ex.request().path.mid(int(qstrlen("/demo/")));
    QFile file(QStringLiteral(":/pilothouse/demo/") + path);
    if (path.contains(QLatin1String("..")) || !file.open(QIODevice::ReadOnly)) {
        ex.respond(404, "not found", "text/plain");
        return;
    }
    QByteArray body = file.readAll();
    // Absolute links (the catalogue's) point at this server as the client reached it.
    body.replace("http://127.0.0.1:8000/", "http://" + ex.request().header("host") + "/demo/");
    body.replace("href=\"/", "href=\"/demo/");
    body.replace("action=\"/", "action=\"/demo/");
    body.replace("/demo/demo/", "/demo/");
    const QByteArray type = path.endsWith(QLatin1String(".csv")) ? "text/csv" : "text/html";
    ex.respond(200, body, type + "; charset=utf-8");
}

void DemoSite::hook(Exchange &ex)
{
    ex.respond(200, "ok", "text/plain");
}

DemoSeeder::DemoSeeder(Service &service, QString apiKey, QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_key(std::move(apiKey))
    , m_network(std::make_unique<QNetworkAccessManager>())
{
    m_network->setProxy(QNetworkProxy::NoProxy); // the service itself, on loopback
}

DemoSeeder::~DemoSeeder() = default;

bool DemoSeeder::storeIsEmpty(Service &service)
{
    return service.trajectories().list(QString(), QString(), 1, 0).isEmpty();
}

void DemoSeeder::start()
{
    step(0);
}

void DemoSeeder::call(const QByteArray &method, const QString &path, const QJsonObject &body,
                      const QString &key, int waitSeconds, Next next)
{
    QNetworkRequest request(QUrl(m_service.apiAddress() + path));
    request.setRawHeader("Authorization", "Bearer " + key.toUtf8());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Prefer", "wait=" + QByteArray::number(waitSeconds));
    request.setTransferTimeout(120000);
    QNetworkReply *reply = m_network->sendCustomRequest(
        request, method,
        body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact));
    connect(reply, &QNetworkReply::finished, this, [reply, next] {
        reply->deleteLater();
        next(QJsonDocument::fromJson(reply->readAll()).object());
    });
}

void DemoSeeder::step(int index)
{
    if (index < kRunSteps) {
        startRun(index);
        return;
    }
    switch (index - kRunSteps) {
    case 0: // a site, a Connect AI key, and a pending proposal from it
        seedSite(index);
        return;
    case 1:
        proposeChange(index);
        return;
    case 2: // a saved tool and a trigger that runs it
        saveTool(index);
        return;
    case 3:
        failCallback();
        return;
    default:
        return;
    }
}

void DemoSeeder::startRun(int index)
{
    const QString base = m_service.apiAddress();
    const QString shop = base + QStringLiteral("/demo/shop.html");
    const QJsonObject products = QJsonDocument::fromJson(R"({"type":"object","properties":{
        "products":{"type":"array","items":{"type":"object","properties":{
        "name":{"type":"string"},"price":{"type":"number"}},"required":["name","price"]}}}})")
                                     .object();
    auto then = [this, index](const QJsonObject &) { step(index + 1); };
    switch (index) {
    case 0: // success, with a callback that is delivered
        call("POST", QStringLiteral("/agent"),
             {{QStringLiteral("input"),
               QStringLiteral("List every product on this page with its name and price")},
              {QStringLiteral("urls"), QJsonArray{shop}},
              {QStringLiteral("schema"), products},
              {QStringLiteral("webhookUrl"), base + QStringLiteral("/demo/hook")},
              {QStringLiteral("webhookSecret"), QStringLiteral("demo-secret")}},
             m_key, 60, then);
        return;
    case 1: // a sheets workflow over a CSV of product pages
        call("POST", QStringLiteral("/agent"),
             {{QStringLiteral("input"),
               QStringLiteral("For each row, open the link and get the product name and price")},
              {QStringLiteral("dataInputs"),
               QJsonArray{QJsonObject{
                   {QStringLiteral("description"), QStringLiteral("Catalogue")},
                   {QStringLiteral("url"), base + QStringLiteral("/demo/catalogue.csv")}}}}},
             m_key, 60, then);
        return;
    case 2: // error, with a callback to a receiver that is down
        call("POST", QStringLiteral("/agent"),
             {{QStringLiteral("input"), QStringLiteral("Read the page")},
              {QStringLiteral("urls"), QJsonArray{QStringLiteral("http://127.0.0.1:9/")}},
              {QStringLiteral("webhookUrl"), QStringLiteral("http://127.0.0.1:9/hook")}},
             m_key, 60, then);
        return;
    case 3: // waiting for input: the page stays leased (a live page)
        call("POST", QStringLiteral("/agent"),
             {{QStringLiteral("input"), QStringLiteral("Log in and list my orders")},
              {QStringLiteral("urls"), QJsonArray{base + QStringLiteral("/demo/login.html")}}},
             m_key, 60, then);
        return;
    case 4: // cancelled
        call("POST", QStringLiteral("/agent"),
             {{QStringLiteral("input"), QStringLiteral("wait 20 seconds, then read the page")},
              {QStringLiteral("urls"), QJsonArray{shop}}},
             m_key, 1, [this, index](const QJsonObject &r) {
                 m_cancelId = r.value(QStringLiteral("trajectoryId")).toString();
                 call("DELETE", QStringLiteral("/agent/") + m_cancelId, {}, m_key, 0,
                      [this, index](const QJsonObject &) { step(index + 1); });
             });
        return;
    case 5: // still executing for a few minutes
        call("POST", QStringLiteral("/agent"),
             {{QStringLiteral("input"),
               QStringLiteral("wait 60 seconds, then wait 60 seconds, then wait 60 seconds, "
                              "then list the products")},
              {QStringLiteral("urls"), QJsonArray{shop}}},
             m_key, 1, then);
        return;
    default:
        return;
    }
}

void DemoSeeder::seedSite(int index)
{
    call(
        "POST", QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Harbour Supplies")},
         {QStringLiteral("label"), QStringLiteral("website embed")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("harbour.example")}}},
        m_key, 0, [this, index](const QJsonObject &r) {
            m_siteId = r.value(QStringLiteral("siteId")).toString();
            const QString keyId =
                r.value(QStringLiteral("key")).toObject().value(QStringLiteral("keyId")).toString();
            // A configuration for the Sites panel's editor to show.
            call("POST", QStringLiteral("/upsertSiteConfig"),
                 {{QStringLiteral("keyId"), keyId},
                  {QStringLiteral("siteConfig"), demoSiteConfig()}},
                 m_key, 0, [this, index](const QJsonObject &) {
                     call("POST", QStringLiteral("/createConnectKey"),
                          {{QStringLiteral("siteId"), m_siteId},
                           {QStringLiteral("label"), QStringLiteral("owner's assistant")}},
                          m_key, 0, [this, index](const QJsonObject &k) {
                              m_connectKey = k.value(QStringLiteral("key")).toString();
                              step(index + 1);
                          });
                 });
        });
}

void DemoSeeder::proposeChange(int index)
{
    auto then = [this, index](const QJsonObject &) { step(index + 1); };
    call("POST", QStringLiteral("/config/v1/sites/%1/changes").arg(m_siteId),
         {{QStringLiteral("patch"),
           QJsonObject{{QStringLiteral("greeting"),
                        QJsonObject{{QStringLiteral("text"),
                                     QStringLiteral("Ahoy! Looking for rope or fenders?")}}}}},
          {QStringLiteral("title"), QStringLiteral("A warmer greeting")},
          {QStringLiteral("description"),
           QStringLiteral("Visitors who are greeted by name of what they look for stay "
                          "longer.")},
          {QStringLiteral("clientRequestId"), QStringLiteral("demo-greeting")}},
         m_connectKey, 0, then);
}

void DemoSeeder::saveTool(int index)
{
    const QString shop = m_service.apiAddress() + QStringLiteral("/demo/shop.html");
    call("POST", QStringLiteral("/tools"),
         {{QStringLiteral("name"), QStringLiteral("shop_prices")},
          {QStringLiteral("description"), QStringLiteral("Products and prices of the shop")},
          {QStringLiteral("parameters"),
           QJsonDocument::fromJson(QStringLiteral(R"({"type":"object","properties":{
               "page":{"type":"string","default":"%1"}}})")
                                       .arg(shop)
                                       .toUtf8())
               .object()},
          {QStringLiteral("steps"),
           QJsonDocument::fromJson(R"([{"tool":"act_on_tab","args":{"action":"navigate",
               "url":"{{page}}"}},{"tool":"crawl_and_extract_from_tab","args":{}}])")
               .array()}},
         m_key, 0, [this, index](const QJsonObject &) {
             call("POST", QStringLiteral("/triggers"),
                  {{QStringLiteral("label"), QStringLiteral("nightly prices")},
                   {QStringLiteral("tool"), QStringLiteral("shop_prices")}},
                  m_key, 0, [this, index](const QJsonObject &) { step(index + 1); });
         });
}

void DemoSeeder::failCallback()
{
    // The callback to the receiver that is down: one more attempt now fails it for good.
    webhooks::WebhookQueue &queue = m_service.webhooks();
    for (const auto &d : queue.list(QString(), QStringLiteral("pending"), 50, QString())) {
        if (d.url.contains(QLatin1String("127.0.0.1:9/")))
            queue.redeliver(d.id);
    }
    QTimer::singleShot(1500, this, [this] {
        Q_EMIT finished(QStringLiteral("6 runs (success, workflow, error, waiting for input, "
                                       "cancelled, executing), callbacks delivered and "
                                       "failed, a site with a pending proposal, a saved tool "
                                       "and a trigger"));
    });
}

} // namespace ph
