#pragma once

#include "browser/PageEngine.h"
#include "browser/PageRequests.h"

#include "net/EgressProxy.h"
#include "net/NetworkPolicy.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QUrl>
#include <QVariant>

#include <functional>
#include <memory>

class QPageLayout;

namespace ph {

class ChromiumEngine;
class CdpConnection;
class CdpNavigation;
class HostResolver;

// Internal to the browser area: one isolation scope of the `chromium` engine — a browser
// context of its own (Target.createBrowserContext: no cookie, storage or cache shared),
// one page target in it and its flat DevTools session. The context is disposed with the
// object; like a PageSlot it serves one lease and is never reused.
//
// The page agent is added with Page.addScriptToEvaluateOnNewDocument into the isolated
// world "pilothouse", so it exists from document creation and the page's own scripts do
// not see it. Every request the page makes pauses in Fetch.requestPaused, where the
// network policy judges it (the scheme, literal private hosts, and names by their
// resolved addresses), and the context's connections go through the egress proxy, which
// judges each connection again and connects to the address it checked.
//
// It is the chromium engine's page (PageEngine).
class CdpPage : public PageEngine
{
    Q_OBJECT
public:
    CdpPage(ChromiumEngine &engine, QString agentSource, std::shared_ptr<EgressProxy> egress,
            std::shared_ptr<const HostResolver> resolver, QObject *parent = nullptr);
    ~CdpPage() override;

    // The user agent the page sends and shows; empty: the browser's own (before prepare()).
    void setUserAgent(const QString &userAgent) { m_userAgent = userAgent; }
    bool emulateMobile() override;

    // Where the page's target opens (before prepare()). By default (the pool's pages) in a
    // browser context of its own, made with the page and disposed with it. A browser
    // session's own pages (ChromiumSession::openPage) are tabs of the browser's default
    // context instead: they share the session's cookies and storage, the context is
    // neither made nor disposed, and the tab is closed with the page. The browser itself
    // then sends every connection to the egress proxy (its command line).
    struct Placement
    {
        bool defaultContext = false;
        int width = 1280; // the viewport
        int height = 800;
    };
    void setPlacement(const Placement &placement) { m_placement = placement; }
    const Placement &placement() const { return m_placement; }

    // Starts the engine if need be and opens the context, the target and its session;
    // ready() or failed() follow.
    void prepare();
    bool isReady() const { return !m_sessionId.isEmpty() && !m_preparing; }
    bool isPreparing() const { return m_preparing; }
    QString failure() const override { return m_failure; }
    // `done` once prepared (error empty) or failed; at once when already settled.
    void whenReady(QObject *context, std::function<void(const QString &error)> done);

    bool crashed() const override { return m_crashed; }
    bool engineLost() const override { return m_engineLost; }
    // The engine process that held this page ended: everything pending fails.
    void loseEngine(const QString &reason);

    // PageEngine
    QString engineName() const override;
    void setGrant(const EgressGrant &grant) override;
    EgressGrant grant() const override { return m_grant; }
    QString egressUser() const override { return m_identity.user; }
    const RefusalLog &refusalLog() const override { return m_log; }
    void noteRefusal(Refusal refusal) override;
    // After a renderer crash: a fresh page target first (not when the engine is gone).
    void whenUsable(QObject *context, std::function<void()> then) override;
    void navigate(const QUrl &url, const NavigateOptions &options,
                  std::function<void(const NavigationResult &)> done) override;
    void evaluate(const QString &script, int timeoutMs,
                  std::function<void(bool ok, const QVariant &value)> done) override;
    void loadHtml(const QString &html, int timeoutMs, std::function<void(bool ok)> done) override;
    void printToPdf(const QPageLayout &layout,
                    std::function<void(const QByteArray &pdf)> done) override;
    // The screencast (Page.startScreencast, Input.dispatch*).
    std::unique_ptr<LiveFrameSource> screencast(QObject *parent) override;
    // A fresh page target in the same browser context (after a renderer crash).
    void recover() override;

    QUrl url() const override { return m_url; }
    QString title() const override { return m_title; }

    // No navigation, script or print of a caller is under way: none of their callbacks is
    // still to come (a browser session keeps such a page warm for its next lease).
    bool isIdle() const { return m_userCalls == 0; }

    // A command on this page's session (live views: screencast, input).
    void command(const QString &method, const QJsonObject &params, QObject *context,
                 std::function<void(const QJsonObject &result, const QString &error)> reply = {});

Q_SIGNALS:
    void ready();
    void failed(const QString &error);
    // Every event of the session (the screencast's frames among them).
    void event(const QString &method, const QJsonObject &params);

private:
    friend class CdpNavigation;
    struct Document
    {
        int status = 0;
        QString mimeType;
        QUrl url;
        bool domContent = false;
        bool loaded = false;
    };

    void openContext();
    void openTarget();
    void setUpSession();
    void settlePreparation(const QString &error);
    void onEvent(const QString &method, const QJsonObject &params);
    void onRequestPaused(const QJsonObject &params);
    // A paused document request at a URL the engine does not open is failed (true).
    bool refuseForeignDocument(const QJsonObject &params);
    // A frame that came to a URL the engine does not open is emptied (about:blank).
    void stopForeignLanding(const QJsonObject &frame);
    void refuseRequest(const QString &requestId, const Refusal &refusal,
                       const QString &errorReason);
    // `headers` (Fetch's [{name, value}]): all of the request's headers; empty: its own.
    void continueRequest(const QString &requestId, const QJsonArray &headers = {});
    // The request's headers with the caller's extra ones for a main-frame request (the
    // Firecrawl API's `headers`); empty when nothing is added.
    QJsonArray withExtraHeaders(const QJsonObject &params, bool mainFrame) const;
    void readTitle();
    // The agent's world of the main frame's document, created if it is not there yet.
    void withWorld(std::function<void(qint64 contextId, const QString &error)> done);
    void send(const QString &method, const QJsonObject &params,
              std::function<void(const QJsonObject &, const QString &)> reply = {});

    // `done`, counted among the callers' calls under way until it has run (isIdle()).
    template <typename... Args>
    std::function<void(Args...)> counted(std::function<void(Args...)> done);

    // The engine's channel, or null once the engine is gone (a browser session's page
    // may outlive the session's engine in a run that still holds its lease).
    CdpConnection *engineConnection() const;

    QPointer<ChromiumEngine> m_engine;
    int m_userCalls = 0;
    QString m_agentSource;
    QString m_userAgent;
    Placement m_placement;
    std::shared_ptr<EgressProxy> m_egress;
    std::shared_ptr<const HostResolver> m_resolver;
    EgressProxy::Identity m_identity;
    EgressGrant m_grant;
    NavigationHeaders m_headers;
    RefusalLog m_log;

    QString m_contextId;
    QString m_targetId;
    QString m_sessionId;
    bool m_preparing = false;
    bool m_crashed = false;
    bool m_engineLost = false;
    QString m_failure;
    struct Waiter
    {
        QPointer<QObject> context;
        bool hasContext = false;
        std::function<void(const QString &)> done;
    };
    QList<Waiter> m_waiters;

    qint64 m_worldContext = 0;
    QUrl m_url;
    QString m_title;
    QHash<QString, Document> m_documents; // by loader id (the main frame's navigations)
    QString m_currentLoader;
    QSet<QString> m_documentRequests; // the main frame's document requests under way
    QPointer<CdpNavigation> m_navigation;
};

} // namespace ph
