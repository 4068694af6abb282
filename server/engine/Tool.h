#pragma once

#include "EngineTypes.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <memory>

namespace ph::engine {

class RunContext;

// A tool's parameter schema from JSON text (a literal in the tool's source).
QJsonObject schemaOf(const char *json);

// A tool the planners call. Tools are never callable by clients directly; the planner
// decides, the run executes and records each call as a step. A tool declares what it is
// once, in its constructor: name, description, parameter schema (also the function
// schema shown to an LLM) and what run state it uses.
class Tool
{
public:
    enum class Uses {
        Nothing,
        // It drives the run's browser tab (replayed when a paused run resumes without
        // its page).
        Tab,
        // It adds or changes in-memory sheets (replayed to rebuild them when a run
        // continues in a new process).
        Sheets,
    };
    struct Spec
    {
        QString name;
        QString description;
        QJsonObject parameters;
        Uses uses = Uses::Nothing;
    };

    explicit Tool(Spec spec)
        : m_spec(std::move(spec))
    {}
    virtual ~Tool() = default;
    const QString &name() const { return m_spec.name; }
    const QString &description() const { return m_spec.description; }
    const QJsonObject &parameters() const { return m_spec.parameters; }
    bool usesTab() const { return m_spec.uses == Uses::Tab; }
    bool changesSheets() const { return m_spec.uses == Uses::Sheets; }
    virtual void run(RunContext &ctx, const QJsonObject &args,
                     std::function<void(ToolResult)> done) = 0;

private:
    Spec m_spec;
};

// The tools a run may call, by name. It holds no implementation of its own: the
// built-in set is registered by engine/tools/BuiltinTools (registerBuiltinTools).
class ToolRegistry
{
public:
    ToolRegistry();
    ~ToolRegistry();
    void add(std::unique_ptr<Tool> tool);
    Tool *find(const QString &name) const;
    QList<Tool *> all() const;
    // OpenAI "tools" entries for the named tools.
    QJsonArray functionSchemas(const QStringList &names) const;

private:
    QList<std::shared_ptr<Tool>> m_tools;
};

// Names of the optional tools of `tools.enableAdditionalTools`.
namespace AdditionalTools {
inline const QString askQuestions = QStringLiteral("ask_questions");
inline const QString generateDocs = QStringLiteral("generate_docs");
inline const QString generateWebsites = QStringLiteral("generate_websites");
inline const QString generatePdfs = QStringLiteral("generate_pdfs");
inline const QString pdfFilling = QStringLiteral("pdf_filling");
inline const QString generateSheets = QStringLiteral("generate_sheets");
// Ours: a picture of the tab (A2W runs that accept artifacts ask for it).
inline const QString screenshot = QStringLiteral("screenshot");
QStringList all();
QStringList unavailable(); // accepted names without an implementation here
} // namespace AdditionalTools

} // namespace ph::engine
