#include "A2wRequest.h"

#include "core/DomainError.h"
#include "core/HttpUrl.h"
#include "core/JsonFields.h"

#include <QUrl>

namespace ph::a2w {

namespace {

const QStringList kEngagementKinds{QStringLiteral("demo"), QStringLiteral("onboarding"),
                                   QStringLiteral("support"), QStringLiteral("task")};
const QStringList kModes{QStringLiteral("cloud"), QStringLiteral("browser")};
// The fields of a run a create and a handoff share (a create adds the POST-only ones).
const QStringList kRunFields{
    QStringLiteral("url"),        QStringLiteral("prompt"),         QStringLiteral("shortcutId"),
    QStringLiteral("playbookId"), QStringLiteral("engagementKind"), QStringLiteral("capabilityId"),
    QStringLiteral("args"),       QStringLiteral("identity"),       QStringLiteral("execution"),
    QStringLiteral("accept"),     QStringLiteral("policy"),         QStringLiteral("agent")};
const QStringList kResultModes{QStringLiteral("text"), QStringLiteral("markdown"),
                               QStringLiteral("json"), QStringLiteral("observation"),
                               QStringLiteral("artifacts")};

// Reads an object field whose own fields are checked by `check`.
QJsonObject nested(const JsonFields &body, const QString &key,
                   const std::function<void(const JsonFields &)> &check)
{
    const std::optional<JsonFields> o = body.optionalObject(key);
    if (!o)
        return {};
    check(*o);
    return o->object();
}

void strings(const JsonFields &o, const QStringList &keys)
{
    o.rejectUnknown(keys);
    for (const QString &k : keys)
        o.optionalString(k);
}

QString checkedUrl(const QString &raw, const QString &field)
{
    const std::optional<QUrl> url = HttpUrl::parse(raw);
    if (!url)
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("INVALID_URL"),
                          QStringLiteral("%1 must be an absolute http(s) URL of a page on an "
                                         "enabled site")
                              .arg(field),
                          field);
    return url->toString(QUrl::FullyEncoded);
}

// Exactly one of prompt, shortcutId, playbookId.
void pickSelector(CreateRequest &r, const std::optional<QString> &prompt,
                  const std::optional<QString> &shortcutId,
                  const std::optional<QString> &playbookId)
{
    QStringList given;
    if (prompt)
        given << QStringLiteral("prompt");
    if (shortcutId)
        given << QStringLiteral("shortcutId");
    if (playbookId)
        given << QStringLiteral("playbookId");
    if (given.isEmpty())
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("SELECTOR_REQUIRED"),
                          QStringLiteral("one of prompt, shortcutId or playbookId is required"),
                          QStringLiteral("prompt"));
    if (given.size() > 1)
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("CONFLICTING_SELECTORS"),
                          QStringLiteral("give only one of prompt, shortcutId or playbookId "
                                         "(got %1)")
                              .arg(given.join(QStringLiteral(", "))),
                          given.at(1),
                          {{QStringLiteral("given"), QJsonArray::fromStringList(given)}});
    const QString value = prompt ? *prompt : shortcutId ? *shortcutId : *playbookId;
    if (value.trimmed().isEmpty())
        throw DomainError::invalidField(given.first(), QStringLiteral("must not be empty"));
    r.kind = prompt       ? CreateRequest::Kind::Prompt
             : shortcutId ? CreateRequest::Kind::Shortcut
                          : CreateRequest::Kind::Playbook;
    r.selector = value;
}

} // namespace

QString CreateRequest::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Prompt:
        return QStringLiteral("prompt");
    case Kind::Shortcut:
        return QStringLiteral("shortcut");
    case Kind::Playbook:
        return QStringLiteral("playbook");
    }
    return {};
}

QString CreateRequest::executionPreference() const
{
    const QString mode = execution.value(QStringLiteral("mode")).toString();
    return mode.isEmpty() ? execution.value(QStringLiteral("preference")).toString() : mode;
}

QStringList CreateRequest::allowedModes() const
{
    QStringList out;
    for (const QJsonValue &v : execution.value(QStringLiteral("allowedModes")).toArray())
        out << v.toString();
    return out.isEmpty() ? kModes : out;
}

QJsonObject CreateRequest::stored() const
{
    const QString selectorKey = kind == Kind::Prompt     ? QStringLiteral("prompt")
                                : kind == Kind::Shortcut ? QStringLiteral("shortcutId")
                                                         : QStringLiteral("playbookId");
    QJsonObject o{{QStringLiteral("url"), url}, {selectorKey, selector}};
    auto put = [&o](const char *key, const QJsonValue &v, bool present) {
        if (present)
            o.insert(QLatin1String(key), v);
    };
    put("engagementKind", engagementKind, !engagementKind.isEmpty());
    put("capabilityId", capabilityId, !capabilityId.isEmpty());
    put("args", args, !args.isEmpty());
    put("identity", identity, !identity.isEmpty());
    put("execution", execution, !execution.isEmpty());
    put("accept", accept, !accept.isEmpty());
    put("policy", policy, !policy.isEmpty());
    put("agent", agent, !agent.isEmpty());
    put("subject", subject, !subject.isEmpty());
    QJsonObject a = auth;
    if (a.contains(QStringLiteral("token")))
        a.insert(QStringLiteral("token"), QStringLiteral("[redacted]"));
    put("auth", a, !a.isEmpty());
    put("payment", payment, !payment.isEmpty());
    put("commerce", commerce, !commerce.isEmpty());
    put("confirmationPolicy", confirmationPolicy, !confirmationPolicy.isEmpty());
    put("artifacts", artifacts, !artifacts.isEmpty());
    put("target", target, !target.isEmpty());
    return o;
}

CreateRequest CreateRequest::fromJson(const QJsonObject &object)
{
    const JsonFields body(object);
    body.rejectUnknown(kRunFields + QStringList{QStringLiteral("subject"), QStringLiteral("auth"),
                                                QStringLiteral("payment"),
                                                QStringLiteral("commerce"),
                                                QStringLiteral("confirmationPolicy"),
                                                QStringLiteral("artifacts")});
    CreateRequest r;
    r.url = checkedUrl(body.requiredString(QStringLiteral("url")), QStringLiteral("url"));
    r.host = QUrl(r.url).host().toLower();
    pickSelector(r, body.optionalString(QStringLiteral("prompt")),
                 body.optionalString(QStringLiteral("shortcutId")),
                 body.optionalString(QStringLiteral("playbookId")));
    r.engagementKind =
        body.optionalEnum(QStringLiteral("engagementKind"), kEngagementKinds).value_or(QString());
    r.capabilityId = body.optionalString(QStringLiteral("capabilityId")).value_or(QString());
    if (const auto args = body.optionalObject(QStringLiteral("args")))
        r.args = args->object();
    r.identity = nested(body, QStringLiteral("identity"), [](const JsonFields &o) {
        o.rejectUnknown({QStringLiteral("userPresent"), QStringLiteral("sessionId"),
                         QStringLiteral("agentKey"), QStringLiteral("memoryKey")});
        o.optionalBool(QStringLiteral("userPresent"));
        for (const char *k : {"sessionId", "agentKey", "memoryKey"})
            o.optionalString(QLatin1String(k));
    });
    r.execution = nested(body, QStringLiteral("execution"), [](const JsonFields &o) {
        o.rejectUnknown({QStringLiteral("preference"), QStringLiteral("mode"),
                         QStringLiteral("allowedModes"), QStringLiteral("userPresent")});
        o.optionalEnum(QStringLiteral("preference"), kModes + QStringList{QStringLiteral("auto")});
        o.optionalEnum(QStringLiteral("mode"), kModes);
        if (const auto modes = o.stringArray(QStringLiteral("allowedModes"), false)) {
            for (qsizetype i = 0; i < modes->size(); ++i)
                if (!kModes.contains(modes->at(i)))
                    throw DomainError::invalidField(o.path(QStringLiteral("allowedModes")) +
                                                        QStringLiteral("[%1]").arg(i),
                                                    QStringLiteral("must be cloud or browser"));
        }
        o.optionalBool(QStringLiteral("userPresent"));
    });
    r.accept = nested(body, QStringLiteral("accept"), [](const JsonFields &o) {
        o.rejectUnknown({QStringLiteral("modes"), QStringLiteral("primary")});
        if (const auto modes = o.stringArray(QStringLiteral("modes"), false)) {
            for (qsizetype i = 0; i < modes->size(); ++i)
                if (!kResultModes.contains(modes->at(i)))
                    throw DomainError::invalidField(
                        o.path(QStringLiteral("modes")) + QStringLiteral("[%1]").arg(i),
                        QStringLiteral("must be one of %1").arg(kResultModes.join(u", ")));
        }
        o.optionalEnum(QStringLiteral("primary"), kResultModes);
    });
    r.policy = nested(body, QStringLiteral("policy"), [](const JsonFields &o) {
        o.rejectUnknown({QStringLiteral("confirmation"), QStringLiteral("crossHost"),
                         QStringLiteral("maxHops")});
        o.optionalEnum(
            QStringLiteral("confirmation"),
            {QStringLiteral("auto"), QStringLiteral("required"), QStringLiteral("site_policy")});
        o.optionalEnum(
            QStringLiteral("crossHost"),
            {QStringLiteral("allow"), QStringLiteral("same_host"), QStringLiteral("site_policy")});
        o.optionalInt(QStringLiteral("maxHops"), 0, 10);
    });
    r.agent = nested(body, QStringLiteral("agent"), [](const JsonFields &o) {
        strings(o, {QStringLiteral("key"), QStringLiteral("displayName"), QStringLiteral("vendor"),
                    QStringLiteral("model"), QStringLiteral("version"), QStringLiteral("homepage"),
                    QStringLiteral("memoryKey"), QStringLiteral("clientId")});
    });
    r.auth = nested(body, QStringLiteral("auth"), [](const JsonFields &o) {
        strings(o, {QStringLiteral("mode"), QStringLiteral("token")});
        o.requiredString(QStringLiteral("mode"));
    });
    auto any = [](const JsonFields &) {};
    r.subject = nested(body, QStringLiteral("subject"), any);
    r.payment = nested(body, QStringLiteral("payment"), any);
    r.commerce = nested(body, QStringLiteral("commerce"), any);
    r.confirmationPolicy = nested(body, QStringLiteral("confirmationPolicy"), any);
    if (body.has(QStringLiteral("artifacts"))) {
        const QStringList names = *body.stringArray(QStringLiteral("artifacts"), true);
        for (qsizetype i = 0; i < names.size(); ++i)
            if (!CreateRequest::artifactNames().contains(names.at(i)))
                throw DomainError::invalidField(
                    QStringLiteral("artifacts[%1]").arg(i),
                    QStringLiteral("must be one of %1")
                        .arg(CreateRequest::artifactNames().join(QStringLiteral(", "))));
        r.artifacts = QJsonArray::fromStringList(names);
    }
    return r;
}

const QStringList &CreateRequest::artifactNames()
{
    static const QStringList names{QStringLiteral("table.csv"), QStringLiteral("table.json"),
                                   QStringLiteral("spreadsheet"), QStringLiteral("document"),
                                   QStringLiteral("screenshot")};
    return names;
}

CreateRequest CreateRequest::fromQuery(const QUrlQuery &query)
{
    static const QStringList known{QStringLiteral("url"),
                                   QStringLiteral("prompt"),
                                   QStringLiteral("shortcutId"),
                                   QStringLiteral("playbookId"),
                                   QStringLiteral("engagementKind"),
                                   QStringLiteral("execution"),
                                   QStringLiteral("wait"),
                                   QStringLiteral("format"),
                                   QStringLiteral("access")};
    QJsonObject body;
    for (const auto &item : query.queryItems(QUrl::FullyDecoded)) {
        if (!known.contains(item.first)) {
            // POST-only fields never ride in a link (they may carry secrets).
            static const QStringList postOnly{QStringLiteral("subject"), QStringLiteral("auth"),
                                              QStringLiteral("payment"),
                                              QStringLiteral("commerce")};
            throw DomainError(
                DomainError::Kind::Invalid,
                postOnly.contains(item.first) ? QStringLiteral("POST_ONLY_FIELD")
                                              : QStringLiteral("UNKNOWN_FIELD"),
                postOnly.contains(item.first)
                    ? QStringLiteral("%1 is accepted only in a POST body").arg(item.first)
                    : QStringLiteral("unknown query parameter %1").arg(item.first),
                item.first);
        }
        if (item.first == QLatin1String("wait") || item.first == QLatin1String("format") ||
            item.first == QLatin1String("access"))
            continue;
        if (item.first == QLatin1String("execution")) {
            if (!kModes.contains(item.second))
                throw DomainError::invalidField(QStringLiteral("execution"),
                                                QStringLiteral("must be cloud or browser"));
            body.insert(QStringLiteral("execution"),
                        QJsonObject{{QStringLiteral("mode"), item.second}});
            continue;
        }
        body.insert(item.first, item.second);
    }
    return fromJson(body);
}

namespace {

// One field under its name or its alias: both with different values is a contract error.
std::optional<QString> aliased(const JsonFields &body, const QString &name, const QString &alias)
{
    const std::optional<QString> a = body.optionalString(name);
    const std::optional<QString> b = body.optionalString(alias);
    if (a && b && *a != *b)
        throw DomainError(
            DomainError::Kind::Invalid, QStringLiteral("CONFLICTING_ALIASES"),
            QStringLiteral("%1 and its alias %2 disagree: send one of them").arg(name, alias),
            alias, {{QStringLiteral("canonical"), name}});
    return a ? a : b;
}

HandoffRequest handoffFields(const QJsonObject &object, QJsonObject *rest)
{
    HandoffRequest h;
    const JsonFields body(object);
    h.contextSummary = body.optionalString(QStringLiteral("contextSummary")).value_or(QString());
    h.expectedOutput = body.optionalString(QStringLiteral("expectedOutput")).value_or(QString());
    if (const auto o = body.optionalObject(QStringLiteral("lastObservation")))
        h.lastObservation = o->object();
    if (h.contextSummary.size() > 8000)
        throw DomainError::invalidField(QStringLiteral("contextSummary"),
                                        QStringLiteral("is longer than 8000 characters"));
    if (h.expectedOutput.size() > 2000)
        throw DomainError::invalidField(QStringLiteral("expectedOutput"),
                                        QStringLiteral("is longer than 2000 characters"));
    *rest = object;
    for (const char *k : {"contextSummary", "expectedOutput", "lastObservation"})
        rest->remove(QLatin1String(k));
    return h;
}

} // namespace

CreateRequest CreateRequest::fromV1Json(const QJsonObject &object, const QStringList &extra)
{
    const JsonFields body(object);
    body.rejectUnknown(QStringList{QStringLiteral("url"), QStringLiteral("targetUrl"),
                                   QStringLiteral("goal"), QStringLiteral("prompt"),
                                   QStringLiteral("shortcutId"), QStringLiteral("shortcut"),
                                   QStringLiteral("capabilityId"), QStringLiteral("args"),
                                   QStringLiteral("target"), QStringLiteral("identity"),
                                   QStringLiteral("execution"), QStringLiteral("accept"),
                                   QStringLiteral("policy"), QStringLiteral("agent")} +
                       extra);
    const std::optional<QString> url =
        aliased(body, QStringLiteral("url"), QStringLiteral("targetUrl"));
    if (!url)
        throw DomainError::missingField(QStringLiteral("url"));
    const std::optional<QString> goal =
        aliased(body, QStringLiteral("goal"), QStringLiteral("prompt"));
    const std::optional<QString> shortcut =
        aliased(body, QStringLiteral("shortcutId"), QStringLiteral("shortcut"));
    QJsonObject target;
    if (const auto t = body.optionalObject(QStringLiteral("target"))) {
        strings(*t,
                {QStringLiteral("pageId"), QStringLiteral("route"), QStringLiteral("capabilityId"),
                 QStringLiteral("entityId"), QStringLiteral("formId")});
        target = t->object();
    }
    QString capability = body.optionalString(QStringLiteral("capabilityId")).value_or(QString());
    if (capability.isEmpty())
        capability = target.value(QStringLiteral("capabilityId")).toString();
    if (goal && shortcut)
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("CONFLICTING_SELECTORS"),
                          QStringLiteral("give goal or shortcutId, not both"),
                          QStringLiteral("shortcutId"));
    if (!goal && !shortcut && capability.isEmpty())
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("SELECTOR_REQUIRED"),
                          QStringLiteral("one of goal (prompt), shortcutId (shortcut) or "
                                         "capabilityId is required"),
                          QStringLiteral("goal"));

    // The rest is the A2W shape, checked by the same parser.
    QJsonObject a2w{{QStringLiteral("url"), *url}};
    if (shortcut)
        a2w.insert(QStringLiteral("shortcutId"), *shortcut);
    else
        a2w.insert(QStringLiteral("prompt"), goal ? *goal : capability);
    if (!capability.isEmpty())
        a2w.insert(QStringLiteral("capabilityId"), capability);
    for (const char *k : {"args", "accept", "policy"})
        if (object.contains(QLatin1String(k)))
            a2w.insert(QLatin1String(k), object.value(QLatin1String(k)));
    QJsonObject identity;
    if (const auto o = body.optionalObject(QStringLiteral("identity"))) {
        o->rejectUnknown({QStringLiteral("userPresent"), QStringLiteral("signature"),
                          QStringLiteral("signatureInput"), QStringLiteral("verificationMethod")});
        o->optionalBool(QStringLiteral("userPresent"));
        for (const char *k : {"signature", "signatureInput", "verificationMethod"})
            o->optionalString(QLatin1String(k));
        identity = o->object();
    }
    if (const auto o = body.optionalObject(QStringLiteral("execution"))) {
        o->rejectUnknown({QStringLiteral("mode"), QStringLiteral("userPresent")});
        const auto mode = o->optionalEnum(
            QStringLiteral("mode"),
            {QStringLiteral("auto"), QStringLiteral("browser"), QStringLiteral("cloud")});
        QJsonObject execution;
        if (mode)
            execution.insert(QStringLiteral("preference"), *mode);
        if (const auto present = o->optionalBool(QStringLiteral("userPresent")))
            execution.insert(QStringLiteral("userPresent"), *present);
        a2w.insert(QStringLiteral("execution"), execution);
    }
    if (const auto o = body.optionalObject(QStringLiteral("agent"))) {
        strings(*o,
                {QStringLiteral("key"), QStringLiteral("name"), QStringLiteral("vendor"),
                 QStringLiteral("model"), QStringLiteral("version"), QStringLiteral("homepage")});
        QJsonObject agent = o->object();
        if (agent.contains(QStringLiteral("name")))
            agent.insert(QStringLiteral("displayName"), agent.take(QStringLiteral("name")));
        a2w.insert(QStringLiteral("agent"), agent);
    }
    CreateRequest r = fromJson(a2w);
    if (!goal && !shortcut)
        r.selector.clear(); // a capability alone
    r.identity = identity;
    r.target = target;
    return r;
}

HandoffRequest HandoffRequest::fromJson(const QJsonObject &object)
{
    // A handoff carries the create fields of a run, never the POST-only secrets.
    const JsonFields body(object);
    body.rejectUnknown(kRunFields + QStringList{QStringLiteral("contextSummary"),
                                                QStringLiteral("expectedOutput"),
                                                QStringLiteral("lastObservation")});
    QJsonObject rest;
    HandoffRequest h = handoffFields(object, &rest);
    h.child = CreateRequest::fromJson(rest);
    return h;
}

HandoffRequest HandoffRequest::fromV1Json(const QJsonObject &object)
{
    QJsonObject rest;
    HandoffRequest h = handoffFields(object, &rest);
    // instruction: one more name for the goal.
    if (rest.contains(QStringLiteral("instruction"))) {
        const QJsonValue instruction = rest.take(QStringLiteral("instruction"));
        if (!instruction.isString())
            throw DomainError::invalidField(QStringLiteral("instruction"),
                                            QStringLiteral("must be a string"));
        if (!rest.contains(QStringLiteral("goal")) && !rest.contains(QStringLiteral("prompt")))
            rest.insert(QStringLiteral("goal"), instruction);
        else if (rest.value(QStringLiteral("goal"))
                     .toString(rest.value(QStringLiteral("prompt")).toString()) !=
                 instruction.toString())
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("CONFLICTING_ALIASES"),
                              QStringLiteral("goal and its alias instruction disagree: send one "
                                             "of them"),
                              QStringLiteral("instruction"),
                              {{QStringLiteral("canonical"), QStringLiteral("goal")}});
    }
    h.child = CreateRequest::fromV1Json(rest);
    return h;
}

ContinueRequest ContinueRequest::fromJson(const QJsonObject &object)
{
    const JsonFields body(object);
    body.rejectUnknown(
        {QStringLiteral("input"), QStringLiteral("answers"), QStringLiteral("auth")});
    ContinueRequest r;
    if (const auto auth = body.optionalObject(QStringLiteral("auth"))) {
        strings(*auth, {QStringLiteral("mode"), QStringLiteral("token")});
        if (auth->requiredString(QStringLiteral("mode")) != QLatin1String("delegated_session"))
            throw DomainError::invalidField(auth->path(QStringLiteral("mode")),
                                            QStringLiteral("must be delegated_session"));
        if (auth->requiredString(QStringLiteral("token")).isEmpty())
            throw DomainError::invalidField(auth->path(QStringLiteral("token")),
                                            QStringLiteral("must not be empty"));
        r.auth = auth->object();
    }
    r.input = body.optionalString(QStringLiteral("input")).value_or(QString());
    if (const auto answers = body.optionalObject(QStringLiteral("answers"))) {
        for (auto it = answers->object().begin(); it != answers->object().end(); ++it) {
            if (!it.value().isString())
                throw DomainError::invalidField(answers->path(it.key()),
                                                QStringLiteral("must be a string"));
        }
        r.answers = answers->object();
    }
    if (r.input.isEmpty() && r.answers.isEmpty() && r.auth.isEmpty())
        throw DomainError::missingField(QStringLiteral("input"));
    return r;
}

QJsonObject ContinueRequest::bind(const QStringList &keys) const
{
    QJsonObject out;
    for (const QString &key : keys) {
        if (answers.contains(key))
            out.insert(key, answers.value(key));
        else if (!input.isEmpty())
            out.insert(key, input);
    }
    return out;
}

} // namespace ph::a2w
