#include "browser/PageAgent.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace ph {

PageAgent::PageAgent()
{
    QFile file(QStringLiteral(":/pilothouse/pageagent.js"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("the page agent bundle is missing from the resources");
    m_script.setName(QStringLiteral("pilothouse-pageagent"));
    m_script.setSourceCode(QString::fromUtf8(file.readAll()));
    m_script.setWorldId(kWorld);
    m_script.setInjectionPoint(QWebEngineScript::DocumentCreation);
    m_script.setRunsOnSubFrames(false);

    QFile polyfills(QStringLiteral(":/pilothouse/polyfills.js"));
    if (!polyfills.open(QIODevice::ReadOnly))
        qFatal("the polyfill bundle is missing from the resources");
    m_polyfills.setName(QStringLiteral("pilothouse-polyfills"));
    m_polyfills.setSourceCode(QString::fromUtf8(polyfills.readAll()));
    m_polyfills.setWorldId(QWebEngineScript::MainWorld);
    m_polyfills.setInjectionPoint(QWebEngineScript::DocumentCreation);
    m_polyfills.setRunsOnSubFrames(true);
}

} // namespace ph

namespace ph {

std::optional<QJsonValue> PageAgent::readAnswer(const QString &json)
{
    // QJsonDocument reads only arrays and objects at the top: wrap the value in an array
    // and insist on one element, so "1,2" or "1],[2" is not taken for its first part.
    QJsonParseError error{};
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray("[") + json.toUtf8() + QByteArray("]"), &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray() || doc.array().size() != 1)
        return std::nullopt;
    return doc.array().at(0);
}

QJsonObject PageAgent::readSnapshot(const QString &json)
{
    return QJsonDocument::fromJson(json.toUtf8()).object();
}

} // namespace ph
