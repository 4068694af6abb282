#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QUrlQuery>

namespace ph::a2w {

// A create request of an A2W run (POST /v2/a2w/runs, or the GET variant's query),
// checked against the contract: unknown properties, wrong types and conflicting
// selectors are DomainErrors naming the path (docs/api/a2w.md, "Errors").
struct CreateRequest
{
    enum class Kind { Prompt, Shortcut, Playbook };

    QString url;
    QString host;
    Kind kind = Kind::Prompt;
    QString selector; // the prompt, or the shortcut or playbook id
    QString engagementKind;
    QString capabilityId;
    QJsonObject args;
    QJsonObject identity;
    QJsonObject execution;
    QJsonObject accept;
    QJsonObject policy;
    QJsonObject agent;
    // Accepted on POST only; stored without secrets (auth.token), acted on by later work
    // (docs/api/a2w.md, "Fields kept for later").
    QJsonObject subject;
    QJsonObject auth;
    QJsonObject payment;
    QJsonObject commerce;
    QJsonObject confirmationPolicy;
    QJsonArray artifacts;
    QJsonObject target; // v1: {pageId, route, capabilityId, entityId, formId}

    // The requested mode ("cloud", "browser", "auto") from the body, else empty.
    QString executionPreference() const;
    QStringList allowedModes() const;
    // The request as kept in the store: auth's token removed.
    QJsonObject stored() const;

    static QString kindName(Kind kind);
    static CreateRequest fromJson(const QJsonObject &body);
    // The GET variant: url, one selector, engagementKind, execution (cloud|browser).
    // `wait` and `format` are the controller's.
    static CreateRequest fromQuery(const QUrlQuery &query);
    // The files `artifacts` may name (docs/api/a2w.md, "Files"): table.csv, table.json,
    // spreadsheet, document, screenshot.
    static const QStringList &artifactNames();
    // The earlier v1 task shape (docs/api/v1-tasks.md): goal, shortcutId, capabilityId,
    // args, target, identity, execution, accept, policy, agent, with the aliases
    // targetUrl (url), prompt (goal) and shortcut (shortcutId). `extra` names further
    // fields the caller takes out itself (a handoff's).
    static CreateRequest fromV1Json(const QJsonObject &body, const QStringList &extra = {});
};

// A handoff (POST /v2/a2w/runs/{id}/handoffs): the child's create request and what the
// parent passes on. v1 handoffs (POST /v1/tasks/{id}/handoffs) also take `instruction`
// (an alias of goal).
struct HandoffRequest
{
    CreateRequest child;
    QString contextSummary;
    QString expectedOutput;
    QJsonObject lastObservation;
    static HandoffRequest fromJson(const QJsonObject &body);
    static HandoffRequest fromV1Json(const QJsonObject &body);
};

// The body of POST /v2/a2w/runs/{id}: {input} or {answers}. A bare input binds to
// every question key; answers for keys the run did not ask are ignored.
struct ContinueRequest
{
    QString input;
    QJsonObject answers;
    QJsonObject auth; // {mode: delegated_session, token}: a delegated session to act under
    static ContinueRequest fromJson(const QJsonObject &body);
    // Answers keyed by `keys`.
    QJsonObject bind(const QStringList &keys) const;
};

} // namespace ph::a2w
