#include "Route.h"

#include <QUrl>

namespace ph::http {

namespace {
QStringList split(const QString &path)
{
    return path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
}
} // namespace

QString Router::add(const Route &route)
{
    const QStringList segments = split(route.pattern);
    auto shape = [](const QStringList &s) {
        QStringList out;
        for (const QString &segment : s)
            out << (segment.startsWith(QLatin1Char('{')) ? QStringLiteral("{}") : segment);
        return out;
    };
    for (const Compiled &c : std::as_const(m_routes)) {
        if (c.route.method == route.method && shape(c.segments) == shape(segments))
            return QStringLiteral("%1 %2 is routed twice (already as %1 %3)")
                .arg(QString::fromLatin1(route.method), route.pattern, c.route.pattern);
    }
    m_routes.append({route, segments});
    return {};
}

Router::Match Router::match(const QByteArray &method, const QString &path) const
{
    Match result;
    const QStringList segments = split(path);
    for (const Compiled &c : m_routes) {
        if (c.segments.size() != segments.size())
            continue;
        QHash<QString, QString> params;
        bool ok = true;
        for (qsizetype i = 0; i < segments.size() && ok; ++i) {
            const QString &pattern = c.segments.at(i);
            if (pattern.startsWith(QLatin1Char('{')) && pattern.endsWith(QLatin1Char('}')))
                params.insert(pattern.mid(1, pattern.size() - 2),
                              QUrl::fromPercentEncoding(segments.at(i).toUtf8()));
            else
                ok = pattern == segments.at(i);
        }
        if (!ok)
            continue;
        if (c.route.method == method || (method == "HEAD" && c.route.method == "GET")) {
            result.route = &c.route;
            result.params = params;
            return result;
        }
        const QString allowed = QString::fromLatin1(c.route.method);
        if (!result.allowedMethods.contains(allowed))
            result.allowedMethods.append(allowed);
    }
    return result;
}

QList<Route> Router::routes() const
{
    QList<Route> out;
    out.reserve(m_routes.size());
    for (const Compiled &c : m_routes)
        out.append(c.route);
    return out;
}

} // namespace ph::http
