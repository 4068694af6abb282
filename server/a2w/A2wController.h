#pragma once

#include "http/Route.h"

#include <QObject>

namespace ph {
class Settings;
}

namespace ph::a2w {

class A2wService;
struct Run;

// The visiting agent's contract at /v2/a2w (docs/api/a2w.md): parse, call A2wService,
// answer in JSON, markdown, SSE or NDJSON.
class A2wController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    A2wController(A2wService &service, Settings &settings, QObject *parent = nullptr);
    QList<http::Route> routes() override;

    // The run resource as the caller holding `token` sees it.
    // `workflowToken` is known on create only: then `workflow` carries it.
    static QJsonObject resource(const Run &run, const QString &token, const QString &base,
                                const QString &receipt, const QString &workflowToken = {});
    static QString markdown(const Run &run, const QString &token, const QString &base,
                            const QString &receipt);

private:
    void create(http::Exchange &ex);
    void createFromQuery(http::Exchange &ex);
    void read(http::Exchange &ex);
    void answer(http::Exchange &ex);
    void authInput(http::Exchange &ex);
    void cancel(http::Exchange &ex);
    void artifacts(http::Exchange &ex);
    void workflow(http::Exchange &ex);
    void open(http::Exchange &ex);
    void confirmationPage(http::Exchange &ex);
    void confirm(http::Exchange &ex);

    void stream(http::Exchange &ex, const Run &run, int framing);
    void holdThenAnswer(http::Exchange &ex, const Run &run, const QString &token, int waitMs,
                        bool asMarkdown, int status, const QString &workflowToken = {});
    QString base() const;
    int waitCapSeconds() const;

    A2wService &m_service;
    Settings &m_settings;
};

} // namespace ph::a2w
