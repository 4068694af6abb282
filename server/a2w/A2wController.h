#pragma once

#include "http/Request.h"
#include "http/Route.h"

#include <QObject>

#include <functional>

namespace ph {
class Settings;
namespace http {
class Authenticator;
}
} // namespace ph

namespace ph::a2w {

class A2wService;
class WebBotAuth;
struct Caller;
struct Run;

// The visiting agent's contract at /v2/a2w (docs/api/a2w.md): parse, call A2wService,
// answer in JSON, markdown, SSE or NDJSON.
class A2wController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    A2wController(A2wService &service, WebBotAuth &trust, Settings &settings,
                  QObject *parent = nullptr);
    QList<http::Route> routes() override;
    // Who may approve a delegated session on the verify page: the workspace's owner
    // credentials (the owner's API key or ID token), checked by this authenticator.
    void setAuthenticator(http::Authenticator *auth) { m_auth = auth; }

    // The run resource as the caller holding `token` sees it.
    // `workflowToken` is known on create only: then `workflow` carries it.
    static QJsonObject resource(const Run &run, const QString &token, const QString &base,
                                const QString &receipt, const QString &workflowToken = {});
    static QString markdown(const Run &run, const QString &token, const QString &base,
                            const QString &receipt);
    // The workflow resource (docs/api/a2w.md, "Workflows"): every run of the lineage
    // with its parent and hop, the workflow's status, and the final result once known.
    static QJsonObject workflowSnapshot(const QString &workflowId, const QList<Run> &runs);

    // Verifies the request's Web Bot Auth signature (if any), then calls `then` with the
    // caller; a signature that does not hold is answered 401 naming why. `then` may
    // throw DomainError: it is answered like any handler's.
    static void withCaller(http::Exchange &ex, WebBotAuth &trust,
                           const std::function<void(const Caller &)> &then);
    // The access token of a run or workflow call: query `access`, else Bearer.
    static QString tokenOf(const http::Request &request);
    // `Prefer: execution=cloud|browser|auto`, or empty.
    static QString preferredExecution(const http::Request &request);

private:
    void create(http::Exchange &ex);
    void createFromQuery(http::Exchange &ex);
    void read(http::Exchange &ex);
    void answer(http::Exchange &ex);
    void authInput(http::Exchange &ex);
    void cancel(http::Exchange &ex);
    void artifacts(http::Exchange &ex);
    void workflow(http::Exchange &ex);
    void handoff(http::Exchange &ex);
    void capabilities(http::Exchange &ex);
    void open(http::Exchange &ex);
    void confirmationPage(http::Exchange &ex);
    void confirm(http::Exchange &ex);
    void verificationPage(http::Exchange &ex);
    void verify(http::Exchange &ex);

    void stream(http::Exchange &ex, const Run &run, int framing);
    void holdThenAnswer(http::Exchange &ex, const Run &run, const QString &token, int waitMs,
                        bool asMarkdown, int status, const QString &workflowToken = {});
    QString base() const;
    int waitCapSeconds() const;

    A2wService &m_service;
    WebBotAuth &m_trust;
    Settings &m_settings;
    http::Authenticator *m_auth = nullptr;
};

} // namespace ph::a2w
