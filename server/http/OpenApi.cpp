#include "OpenApi.h"

#include "Exchange.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

namespace ph::http {

namespace {

const QString kErrorRef = QStringLiteral("#/components/responses/Error");

QJsonObject readJson(const QString &path, QStringList *problems)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        problems->append(QStringLiteral("%1: cannot be read").arg(path));
        return {};
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    if (!doc.isObject()) {
        problems->append(
            QStringLiteral("%1: %2 at offset %3").arg(path, error.errorString()).arg(error.offset));
        return {};
    }
    return doc.object();
}

QStringList pathParameters(const QString &pattern)
{
    static const QRegularExpression re(QStringLiteral("\\{([^}/]+)\\}"));
    QStringList names;
    for (auto it = re.globalMatch(pattern); it.hasNext();)
        names << it.next().captured(1);
    return names;
}

// getAgentByTrajectoryId for GET /agent/{trajectoryId}.
QString operationIdFor(const Route &route)
{
    QString id = QString::fromLatin1(route.method).toLower();
    for (const QString &segment : route.pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        const bool param = segment.startsWith(QLatin1Char('{'));
        QString word = param ? segment.mid(1, segment.size() - 2) : segment;
        QString camel;
        bool upper = true;
        for (const QChar c : std::as_const(word)) {
            if (!c.isLetterOrNumber()) {
                upper = true;
                continue;
            }
            camel += upper ? c.toUpper() : c;
            upper = false;
        }
        id += (param ? QStringLiteral("By") : QString()) + camel;
    }
    return id;
}

QJsonArray securityFor(AuthPolicy auth)
{
    auto requirement = [](const char *scheme) {
        return QJsonObject{{QLatin1String(scheme), QJsonArray()}};
    };
    switch (auth) {
    case AuthPolicy::Public:
    case AuthPolicy::Anonymous:
        return {};
    case AuthPolicy::AccessToken:
        return {requirement("runAccess"), requirement("runAccessQuery")};
    case AuthPolicy::ApiKey:
        return {requirement("apiKey"), requirement("apiKeyHeader")};
    case AuthPolicy::Owner:
        return {requirement("ownerKey")};
    case AuthPolicy::Workspace:
        return {requirement("ownerKey"), requirement("idToken")};
    case AuthPolicy::SiteAgent:
        return {requirement("ownerKey"), requirement("idToken"), requirement("connectKey")};
    }
    return {};
}

QJsonObject operationFor(const Route &route, QJsonObject op)
{
    if (!op.contains(QStringLiteral("operationId")))
        op.insert(QStringLiteral("operationId"), operationIdFor(route));

    // Path parameters come from the pattern; a description may add query parameters
    // or describe a path parameter further.
    QJsonArray parameters = op.value(QStringLiteral("parameters")).toArray();
    const QStringList names = pathParameters(route.pattern);
    for (const QString &name : names) {
        bool described = false;
        for (const QJsonValue &p : std::as_const(parameters))
            described |= p[QStringLiteral("name")].toString() == name &&
                         p[QStringLiteral("in")].toString() == QLatin1String("path");
        if (!described)
            parameters.append(
                QJsonObject{{QStringLiteral("name"), name},
                            {QStringLiteral("in"), QStringLiteral("path")},
                            {QStringLiteral("required"), true},
                            {QStringLiteral("schema"),
                             QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}});
    }
    if (!parameters.isEmpty())
        op.insert(QStringLiteral("parameters"), parameters);

    op.insert(QStringLiteral("security"), securityFor(route.auth));
    op.insert(QStringLiteral("x-pilothouse-auth"), OpenApi::authName(route.auth));
    if (!route.capability.isEmpty())
        op.insert(QStringLiteral("x-pilothouse-capability"), route.capability);

    // The error answers every route of this shape can give, in the one envelope.
    QJsonObject responses = op.value(QStringLiteral("responses")).toObject();
    if (responses.isEmpty())
        responses.insert(QStringLiteral("200"),
                         QJsonObject{{QStringLiteral("description"), QStringLiteral("OK")}});
    QStringList errors{QStringLiteral("500"), QStringLiteral("503")};
    const bool hasBody = op.contains(QStringLiteral("requestBody"));
    if (hasBody || !parameters.isEmpty())
        errors << QStringLiteral("400");
    if (route.auth != AuthPolicy::Public && route.auth != AuthPolicy::Anonymous &&
        route.auth != AuthPolicy::AccessToken)
        errors << QStringLiteral("401") << QStringLiteral("403");
    if (!names.isEmpty())
        errors << QStringLiteral("404");
    if (hasBody)
        errors << QStringLiteral("413");
    for (const QString &status : std::as_const(errors)) {
        if (!responses.contains(status))
            responses.insert(status, QJsonObject{{QStringLiteral("$ref"), kErrorRef}});
    }
    op.insert(QStringLiteral("responses"), responses);
    return op;
}

} // namespace

QString OpenApi::key(const Route &route)
{
    return QString::fromLatin1(route.method) + QLatin1Char(' ') + route.pattern;
}

QString OpenApi::authName(AuthPolicy auth)
{
    switch (auth) {
    case AuthPolicy::Public:
        return QStringLiteral("public");
    case AuthPolicy::Anonymous:
        return QStringLiteral("anonymous");
    case AuthPolicy::AccessToken:
        return QStringLiteral("accessToken");
    case AuthPolicy::ApiKey:
        return QStringLiteral("apiKey");
    case AuthPolicy::Owner:
        return QStringLiteral("owner");
    case AuthPolicy::Workspace:
        return QStringLiteral("workspace");
    case AuthPolicy::SiteAgent:
        return QStringLiteral("siteAgent");
    }
    return {};
}

OpenApi::Result OpenApi::build(const QList<Route> &routes, const QJsonObject &base,
                               const QList<QJsonObject> &areas)
{
    Result result;
    QJsonObject components = base.value(QStringLiteral("components")).toObject();
    QJsonObject schemas = components.value(QStringLiteral("schemas")).toObject();
    QHash<QString, QJsonObject> described;
    QSet<QString> optional;
    for (const QJsonObject &area : areas) {
        const QJsonObject areaSchemas = area.value(QStringLiteral("schemas")).toObject();
        for (auto it = areaSchemas.begin(); it != areaSchemas.end(); ++it)
            schemas.insert(it.key(), it.value());
        const QJsonObject areaRoutes = area.value(QStringLiteral("routes")).toObject();
        const QString tag = area.value(QStringLiteral("tag")).toString();
        for (auto it = areaRoutes.begin(); it != areaRoutes.end(); ++it) {
            QJsonObject op = it.value().toObject();
            if (!tag.isEmpty() && !op.contains(QStringLiteral("tags")))
                op.insert(QStringLiteral("tags"), QJsonArray{tag});
            described.insert(it.key(), op);
            if (area.value(QStringLiteral("optional")).toBool())
                optional.insert(it.key());
        }
    }

    QJsonObject paths;
    QSet<QString> routed;
    for (const Route &route : routes) {
        const QString k = key(route);
        routed.insert(k);
        auto found = described.constFind(k);
        if (found == described.constEnd())
            result.undocumented << k;
        QJsonObject item = paths.value(route.pattern).toObject();
        item.insert(QString::fromLatin1(route.method).toLower(),
                    operationFor(route, found == described.constEnd() ? QJsonObject{} : *found));
        paths.insert(route.pattern, item);
    }
    for (auto it = described.constBegin(); it != described.constEnd(); ++it) {
        if (!routed.contains(it.key()) && !optional.contains(it.key()))
            result.stale << it.key();
    }
    result.stale.sort();

    components.insert(QStringLiteral("schemas"), schemas);
    result.document = base;
    result.document.insert(QStringLiteral("components"), components);
    result.document.insert(QStringLiteral("paths"), paths);
    return result;
}

OpenApi::Result OpenApi::describe(const QList<Route> &routes)
{
    QStringList problems;
    const QJsonObject base = readJson(QStringLiteral(":/api/openapi.json"), &problems);
    QList<QJsonObject> areas;
    const QDir dir(QStringLiteral(":/api/paths"));
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        areas << readJson(dir.filePath(name), &problems);
    Result result = build(routes, base, areas);
    result.problems = problems;
    return result;
}

OpenApiController::OpenApiController(RouteSource routes)
    : m_routes(std::move(routes))
{}

QList<Route> OpenApiController::routes()
{
    return {Route::to("GET", QStringLiteral("/openapi.json"), AuthPolicy::Public, this,
                      &OpenApiController::document)};
}

void OpenApiController::document(Exchange &ex)
{
    ex.respondJson(200, OpenApi::describe(m_routes()).document);
}

} // namespace ph::http
