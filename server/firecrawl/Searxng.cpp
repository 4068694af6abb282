#include "Searxng.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QUrlQuery>

namespace ph::firecrawl {

SearchRequest readSearchRequest(const QJsonObject &object, ApiVersion version)
{
    const JsonFields body(object);
    SearchRequest r;
    r.query = body.requiredString(QStringLiteral("query"));
    r.limit = int(body.optionalInt(QStringLiteral("limit"), 1, 100).value_or(5));
    r.language = body.optionalString(QStringLiteral("lang")).value_or(QString());
    if (const auto sources = body.optionalArray(QStringLiteral("sources"))) {
        for (const QJsonValue &s : *sources) {
            const QString type =
                s.isString() ? s.toString() : s.toObject().value(QStringLiteral("type")).toString();
            if (type != QLatin1String("web"))
                r.warnings << QStringLiteral("source %1 is not searched; only web is").arg(type);
        }
    }
    for (const QString &key :
         {QStringLiteral("tbs"), QStringLiteral("location"), QStringLiteral("categories")}) {
        if (body.has(key))
            r.warnings << QStringLiteral("%1 is not passed to SearXNG").arg(key);
    }
    if (const auto options = body.optionalObject(QStringLiteral("scrapeOptions")))
        r.scrape = readScrapeRequest(options->object(), version, QStringLiteral("scrapeOptions"),
                                     false, {});
    if (r.scrape.json)
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNSUPPORTED_FORMAT"),
                          QStringLiteral("the json format is served by scrape, not by search's "
                                         "scrapeOptions"),
                          QStringLiteral("scrapeOptions.formats"));
    return r;
}

QUrl searxngQuery(const QUrl &base, const QString &query, const QString &language)
{
    QUrl url = base;
    QString path = url.path();
    if (!path.endsWith(QLatin1Char('/')))
        path += QLatin1Char('/');
    url.setPath(path + QStringLiteral("search"));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("q"), query);
    q.addQueryItem(QStringLiteral("format"), QStringLiteral("json"));
    if (!language.isEmpty())
        q.addQueryItem(QStringLiteral("language"), language);
    url.setQuery(q);
    return url;
}

QList<SearchHit> readSearxng(const QByteArray &json, int limit, QString *error)
{
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject() ||
        !doc.object().value(QStringLiteral("results")).isArray()) {
        *error = QStringLiteral("the SearXNG answer is not JSON with a results array (is the "
                                "json format enabled in its settings.yml?)");
        return {};
    }
    QList<SearchHit> hits;
    QSet<QString> seen;
    for (const QJsonValue &v : doc.object().value(QStringLiteral("results")).toArray()) {
        if (hits.size() >= limit)
            break;
        const QJsonObject r = v.toObject();
        const QUrl url(r.value(QStringLiteral("url")).toString(), QUrl::StrictMode);
        const QString scheme = url.scheme().toLower();
        if (!url.isValid() || url.host().isEmpty() ||
            (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
            continue;
        const QString text = url.toString(QUrl::FullyEncoded);
        if (seen.contains(text))
            continue;
        seen.insert(text);
        hits.append({text, r.value(QStringLiteral("title")).toString(),
                     r.value(QStringLiteral("content")).toString()});
    }
    return hits;
}

} // namespace ph::firecrawl
