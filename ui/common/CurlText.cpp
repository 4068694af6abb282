#include "CurlText.h"

#include <QJsonDocument>

namespace ph::ui {

QString shellQuote(const QString &text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString curlCommand(const QString &method, const QString &url,
                    const QList<std::pair<QString, QString>> &headers, const QString &body)
{
    QStringList parts{QStringLiteral("curl -sS -X %1 %2").arg(method, shellQuote(url))};
    for (const auto &[name, value] : headers) {
        const QString line = name + QStringLiteral(": ") + value;
        // "$NAME" is expanded by the shell; nothing else in such a line may be.
        const bool variable = value.contains(QLatin1Char('$')) &&
                              !line.contains(QLatin1Char('"')) &&
                              !line.contains(QLatin1Char('`')) && !line.contains(QLatin1Char('\\'));
        parts << QStringLiteral("-H ") +
                     (variable ? QLatin1Char('"') + line + QLatin1Char('"') : shellQuote(line));
    }
    if (!body.isEmpty())
        parts << QStringLiteral("--data-binary ") + shellQuote(body);
    return parts.join(QStringLiteral(" \\\n  "));
}

QString runCurl(const QString &apiAddress, const QString &endpoint, const QJsonObject &request)
{
    QJsonObject body = request;
    body.remove(QStringLiteral("source"));
    QString path = endpoint.startsWith(QLatin1Char('/')) ? endpoint : QStringLiteral("/agent");
    return curlCommand(QStringLiteral("POST"), apiAddress + path,
                       {{QStringLiteral("Authorization"),
                         QStringLiteral("Bearer $") + QLatin1String(kApiKeyVariable)},
                        {QStringLiteral("Content-Type"), QStringLiteral("application/json")}},
                       QString::fromUtf8(QJsonDocument(body).toJson(QJsonDocument::Compact)));
}

} // namespace ph::ui
