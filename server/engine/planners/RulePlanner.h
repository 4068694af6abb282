#pragma once

#include "engine/Planner.h"
#include "engine/planners/TaskParser.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

namespace ph::engine {

// The built-in planner: deterministic, offline, no model. It reads the task into
// operations (TaskParser: open, click, type, select, press, wait, scroll, search,
// sign-in, extraction with pagination, a sheet workflow, generated files, a PDF form to
// fill) and drives the tools through them. It asks the user (requires_input) for what a
// login form needs and the task does not give. docs/api/agent.md lists the task forms.
class RulePlanner final : public Planner
{
public:
    RulePlanner(const QString &input, const TaskContext &context, const QJsonObject &schema);

    // Whether the task is one the rule planner understands beyond "open and read"
    // (otherwise it is open-ended: the LLM planner takes it when one is configured).
    static bool understood(const QString &input, const TaskContext &context, bool hasSchema);

    QString name() const override;
    void next(PlanningContext &ctx, const ToolResult *last,
              std::function<void(Decision)> decide) override;
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject &state) override;
    void resumeWithAnswers(PlanningContext &ctx) override;

    const TaskPlan &plan() const { return m_plan; }

private:
    enum class Expect {
        Nothing,
        Step,
        LoginForm,
        LoginStep,
        LoginSubmit,
        Extract,
        Workflow,
        ReadSheets,
        Generate,
        Answers
    };
    bool takeResult(PlanningContext &ctx, const ToolResult &last,
                    std::function<void(Decision)> &decide);
    void lookForLoginForm(std::function<void(Decision)> &decide);
    void fillLoginForm(PlanningContext &ctx, std::function<void(Decision)> &decide);
    void followSignInLink(PlanningContext &ctx, std::function<void(Decision)> &decide);
    // next() in named steps: what the last call came to (take*), then the next call.
    bool takeLoginForm(const QJsonObject &out, std::function<void(Decision)> &decide);
    void takeExtract(const QJsonObject &out);
    void takeWorkflow(const QJsonObject &out, const QString &summary);
    void takeSheets(PlanningContext &ctx, const QJsonObject &out);
    void startOp(PlanningContext &ctx, const TaskOp &op, std::function<void(Decision)> &decide);
    void actOnPage(const TaskOp &op, std::function<void(Decision)> &decide);
    void startLogin(std::function<void(Decision)> &decide);
    void startExtract(const TaskOp &op, std::function<void(Decision)> &decide);
    void startReadSheets(std::function<void(Decision)> &decide);
    void startWorkflow(PlanningContext &ctx, std::function<void(Decision)> &decide);
    void startGenerate(PlanningContext &ctx, const TaskOp &op,
                       std::function<void(Decision)> &decide);
    void askForPage(PlanningContext &ctx, std::function<void(Decision)> &decide);
    QString valueFor(PlanningContext &ctx, const QString &key) const;
    void applyExtract(const QJsonObject &out);
    void finish(PlanningContext &ctx, std::function<void(Decision)> &decide);

    TaskPlan m_plan;
    QJsonObject m_schema;
    int m_index = 0;
    Expect m_expect = Expect::Nothing;
    QString m_lastTool;
    QString m_lastSummary;
    QJsonObject m_login;
    int m_loginField = 0;
    bool m_loginSubmitted = false;
    QString m_loginKind;  // password, otp, magic_link: the sign-in step under way
    int m_loginSteps = 0; // sign-in steps taken (a password, then a code …), at most 3
    bool m_loggedIn = false;
    bool m_pendingLoginCheck = false;
    bool m_triedLoginForData = false;
    bool m_retryExtract = false;
    int m_extractIndex = 0;
    QJsonObject m_lastExtract;
    QJsonValue m_data;
    // Records of earlier pages, each its own JSON answer (a record schema read on
    // several pages); m_data is the last.
    QJsonArray m_records;
    QJsonArray m_missing;
    QJsonArray m_valueWarnings; // values read that did not fit their schema field
    QString m_text;
    int m_pages = 0;
    QStringList m_generated;
    bool m_workflowDone = false;
};

} // namespace ph::engine
