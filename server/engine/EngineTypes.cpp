#include "EngineTypes.h"

namespace ph::engine {

QString toString(RunStatus status)
{
    switch (status) {
    case RunStatus::Executing:
        return QStringLiteral("executing");
    case RunStatus::Success:
        return QStringLiteral("success");
    case RunStatus::Error:
        return QStringLiteral("error");
    case RunStatus::Cancelled:
        return QStringLiteral("cancelled");
    case RunStatus::RequiresInput:
        return QStringLiteral("requires_input");
    }
    return QStringLiteral("error");
}

RunStatus runStatusFromString(const QString &status)
{
    if (status == QLatin1String("executing"))
        return RunStatus::Executing;
    if (status == QLatin1String("success"))
        return RunStatus::Success;
    if (status == QLatin1String("cancelled"))
        return RunStatus::Cancelled;
    if (status == QLatin1String("requires_input"))
        return RunStatus::RequiresInput;
    return RunStatus::Error;
}

QJsonObject Question::toJson() const
{
    QJsonObject o{{QStringLiteral("key"), key}, {QStringLiteral("question"), question}};
    if (!label.isEmpty())
        o.insert(QStringLiteral("label"), label);
    if (secret)
        o.insert(QStringLiteral("secret"), true);
    if (!options.isEmpty())
        o.insert(QStringLiteral("options"), QJsonArray::fromStringList(options));
    return o;
}

Question Question::fromJson(const QJsonObject &o)
{
    Question q;
    q.key = o.value(QStringLiteral("key")).toString();
    q.question = o.value(QStringLiteral("question")).toString();
    q.label = o.value(QStringLiteral("label")).toString();
    q.secret = o.value(QStringLiteral("secret")).toBool();
    for (const auto &v : o.value(QStringLiteral("options")).toArray())
        q.options << v.toString();
    return q;
}

} // namespace ph::engine
