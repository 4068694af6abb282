#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace ph::test {

// A node script of the tests (tests/mcp/…, browser tests) run to its end while this
// thread's event loop keeps turning, so the service under test, on this thread, answers
// it. The script prints its result as JSON on its last line of standard output.
struct NodeResult
{
    bool finished = false; // ended on its own within the time given
    int exitCode = -1;
    QByteArray out;
    QByteArray err;

    bool ok() const { return finished && exitCode == 0; }
    // The last line of standard output, as JSON.
    QJsonObject result() const;
    // What to show when it failed: the exit, then standard error and output.
    QString diagnostics() const;
};

NodeResult runNodeScript(const QString &directory, const QStringList &arguments, int timeoutMs);

} // namespace ph::test
