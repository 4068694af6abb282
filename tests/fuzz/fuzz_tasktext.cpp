// The rule planner's readers of free text (server/engine/planners/TaskParser, AnswerText): a task
// and a continuation's answers, as anyone may write them. The first line is the task; the
// rest is the answer text. Plans round-trip through JSON; answers only fill questions
// that were asked, never with an empty value.
#include "FuzzInput.h"

#include "engine/AnswerText.h"
#include "engine/EngineTypes.h"
#include "engine/planners/TaskParser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using namespace ph::engine;
    Cursor in(bytesOf(data, size));
    const QString task = QString::fromUtf8(in.until('\n'));
    const QString answers = QString::fromUtf8(in.rest());

    for (const bool schema : {false, true}) {
        TaskContext context;
        context.urls = {QStringLiteral("https://shop.example/")};
        context.hasSchema = schema;
        context.hasData = !schema;
        const TaskPlan plan = parseTask(task, context);
        require(!plan.ops.isEmpty(), "a task with a page planned nothing");
        require(!plan.unfulfillableForm || !plan.unfulfillable.isEmpty(),
                "a form the rules cannot fill is named by no words");
        require(plan.unfulfillable.isEmpty() || !plan.fillForm,
                "a form filled with pdf_filling is also one the rules cannot do");
        for (const TaskOp &op : plan.ops)
            require(TaskOp::fromJson(op.toJson()).toJson() == op.toJson(),
                    "an operation does not round-trip through JSON");
    }
    QList<Question> questions;
    for (const char *key : {"email", "password", "code", "url"}) {
        Question q;
        q.key = QLatin1String(key);
        questions << q;
    }
    const QJsonObject got = answersFromText(answers, questions);
    for (auto it = got.begin(); it != got.end(); ++it) {
        require(it.key() == QLatin1String("email") || it.key() == QLatin1String("password") ||
                    it.key() == QLatin1String("code") || it.key() == QLatin1String("url"),
                "an answer for a question nobody asked");
        require(!it.value().toString().isEmpty(), "an empty answer");
    }
    return 0;
}
