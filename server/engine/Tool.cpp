#include "Tool.h"

#include <QJsonDocument>

namespace ph::engine {

QJsonObject schemaOf(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

ToolRegistry::ToolRegistry() = default;
ToolRegistry::~ToolRegistry() = default;

void ToolRegistry::add(std::unique_ptr<Tool> tool)
{
    m_tools.append(std::shared_ptr<Tool>(std::move(tool)));
}

Tool *ToolRegistry::find(const QString &name) const
{
    for (const auto &t : m_tools) {
        if (t->name() == name)
            return t.get();
    }
    return nullptr;
}

QList<Tool *> ToolRegistry::all() const
{
    QList<Tool *> out;
    for (const auto &t : m_tools)
        out.append(t.get());
    return out;
}

QJsonArray ToolRegistry::functionSchemas(const QStringList &names) const
{
    QJsonArray out;
    for (const QString &n : names) {
        const Tool *t = find(n);
        if (!t)
            continue;
        out.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("function")},
                               {QStringLiteral("function"),
                                QJsonObject{{QStringLiteral("name"), t->name()},
                                            {QStringLiteral("description"), t->description()},
                                            {QStringLiteral("parameters"), t->parameters()}}}});
    }
    return out;
}

namespace AdditionalTools {

QStringList all()
{
    return {askQuestions, generateDocs,   generateWebsites, generatePdfs,
            pdfFilling,   generateSheets, screenshot};
}

QStringList unavailable()
{
    return {};
}

} // namespace AdditionalTools

} // namespace ph::engine
