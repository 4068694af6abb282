#pragma once

#include <QJsonObject>
#include <QString>

namespace ph::engine {

// Honest outcomes (docs/api/agent.md, "Honest outcomes"): what a run did, gathered step by
// step, judges whether a planner's "finished" stands. A run ends success only when
//  - the page it last read did not answer an HTTP error (a 404 page read back as the
//    answer is no answer), and
//  - a task whose verb asks for an action ("Place the order", "Book a table", "Sende das
//    Formular ab") performed one: a click, a key press or a submit on the page, or a tool
//    that writes. Reading the page is not placing the order.
// The verb alone never fails a run: only a verb together with steps that did no such thing.
// One judge for every caller (POST /agent, A2W, v1 tasks): AgentRun consults it before it
// settles a finish.
class RunOutcome
{
public:
    // One tool call and what it came to (the live output, before it is cut for storage).
    void observe(const QString &tool, const QJsonObject &args, bool ok, const QJsonObject &output);

    // Empty when the finish stands; else why the run did not do what `task` asked.
    QString verdict(const QString &task) const;

    // The action `task` asks for in its own words ("place the order"), or empty when it
    // asks for none (reading, listing, searching, signing in).
    static QString requestedAction(const QString &task);

    int lastHttpStatus() const { return m_httpStatus; }
    bool acted() const { return m_acted; }

private:
    int m_httpStatus = 0; // of the page the run read last (0: not known, or no error)
    QString m_url;
    bool m_acted = false;
};

} // namespace ph::engine
