#include "WebhookOptions.h"

#include "core/DomainError.h"
#include "core/HeaderText.h"
#include "core/HttpUrl.h"
#include "core/JsonFields.h"
#include "net/NetworkPolicy.h"

#include <QUrl>

namespace ph::cloud {

namespace {

const QStringList kEvents = {
    QStringLiteral("svc.execution.succeeded"), QStringLiteral("svc.execution.failed"),
    QStringLiteral("workflow.completed"), QStringLiteral("workflow.failed")};

QString checkTarget(const QString &field, const QString &raw, const EgressGrant &grant)
{
    const QUrl url = HttpUrl::require(raw, field, QStringLiteral("must be an absolute https URL"));
    if (!NetworkPolicy::literalRefusal(url.scheme(), url.host(), url.port(), grant).isEmpty())
        throw DomainError::invalidField(field, QStringLiteral("points at a private address, which "
                                                              "this key may not reach"));
    if (const QString problem = NetworkPolicy::callbackSchemeProblem(url); !problem.isEmpty())
        throw DomainError::invalidField(field, problem);
    return url.toString(QUrl::FullyEncoded);
}

QJsonObject readAuth(const JsonFields &auth)
{
    const auto type = auth.optionalEnum(QStringLiteral("type"),
                                        {QStringLiteral("bearer"), QStringLiteral("basic")});
    if (!type)
        throw DomainError::missingField(auth.path(QStringLiteral("type")));
    if (*type == QLatin1String("bearer")) {
        // Sent as "Authorization: Bearer <token>": it must fit in one header line.
        const QString token = auth.requiredString(QStringLiteral("token"));
        if (const QString problem = HeaderText::valueProblem(token); !problem.isEmpty())
            throw DomainError::invalidField(auth.path(QStringLiteral("token")), problem);
        return {{QStringLiteral("type"), *type}, {QStringLiteral("token"), token}};
    }
    return {{QStringLiteral("type"), *type},
            {QStringLiteral("username"), auth.requiredString(QStringLiteral("username"))},
            {QStringLiteral("password"),
             auth.optionalString(QStringLiteral("password")).value_or(QString())}};
}

QJsonObject readHeaders(const JsonFields &headers)
{
    static const QStringList reserved = {QStringLiteral("content-type"),
                                         QStringLiteral("content-length"),
                                         QStringLiteral("host"),
                                         QStringLiteral("x-svc-signature"),
                                         QStringLiteral("x-svc-timestamp"),
                                         QStringLiteral("x-firecrawl-signature"),
                                         QStringLiteral("transfer-encoding")};
    QJsonObject out;
    const QJsonObject &o = headers.object();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString field = headers.path(it.key());
        if (!HeaderText::isToken(it.key()))
            throw DomainError::invalidField(field, QStringLiteral("is not a valid header name"));
        if (!it.value().isString())
            throw DomainError::invalidField(field, QStringLiteral("must be a string"));
        if (const QString problem = HeaderText::valueProblem(it.value().toString());
            !problem.isEmpty())
            throw DomainError::invalidField(field, problem);
        if (reserved.contains(it.key().toLower()))
            throw DomainError::invalidField(field, QStringLiteral("is set by Pilothouse itself"));
        out.insert(it.key(), it.value());
    }
    return out;
}

} // namespace

QString readCallbackTarget(const QString &field, const QString &raw, const EgressGrant &grant)
{
    return checkTarget(field, raw, grant);
}

QJsonObject readCallbackHeaders(const JsonFields &headers)
{
    return readHeaders(headers);
}

QList<WebhookSubscription> readWebhooks(const JsonFields &body, const EgressGrant &grant)
{
    QList<WebhookSubscription> out;
    if (const auto url = body.optionalString(QStringLiteral("webhookUrl"))) {
        WebhookSubscription s;
        s.url = checkTarget(QStringLiteral("webhookUrl"), *url, grant);
        s.secret = body.optionalString(QStringLiteral("webhookSecret")).value_or(QString());
        if (const auto meta = body.optionalObject(QStringLiteral("webhookMetadata")))
            s.metadata = meta->object();
        out.append(s);
    } else if (body.has(QStringLiteral("webhookSecret"))) {
        throw DomainError::invalidField(QStringLiteral("webhookSecret"),
                                        QStringLiteral("needs webhookUrl"));
    }
    if (const auto list = body.optionalArray(QStringLiteral("webhooks"))) {
        if (list->size() > 10)
            throw DomainError::invalidField(QStringLiteral("webhooks"),
                                            QStringLiteral("may hold at most 10 subscriptions"));
        for (qsizetype i = 0; i < list->size(); ++i) {
            const QString path = QStringLiteral("webhooks[%1]").arg(i);
            if (!list->at(i).isObject())
                throw DomainError::invalidField(path, QStringLiteral("must be an object"));
            const JsonFields item(list->at(i).toObject(), path);
            WebhookSubscription s;
            s.url = checkTarget(item.path(QStringLiteral("url")),
                                item.requiredString(QStringLiteral("url")), grant);
            if (const auto events = item.stringArray(QStringLiteral("events"), false)) {
                for (qsizetype e = 0; e < events->size(); ++e) {
                    if (!kEvents.contains(events->at(e)))
                        throw DomainError::invalidField(
                            QStringLiteral("%1.events[%2]").arg(path).arg(e),
                            QStringLiteral("must be one of %1")
                                .arg(kEvents.join(QStringLiteral(", "))));
                }
                s.events = *events;
            }
            s.secret = item.optionalString(QStringLiteral("secret")).value_or(QString());
            if (const auto auth = item.optionalObject(QStringLiteral("auth")))
                s.auth = readAuth(*auth);
            if (const auto headers = item.optionalObject(QStringLiteral("headers")))
                s.headers = readHeaders(*headers);
            out.append(s);
        }
    }
    return out;
}

} // namespace ph::cloud
