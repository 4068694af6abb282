#include "NodeScript.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QProcess>
#include <QTimer>

namespace ph::test {

QJsonObject NodeResult::result() const
{
    return QJsonDocument::fromJson(out.trimmed().split('\n').last()).object();
}

QString NodeResult::diagnostics() const
{
    return QStringLiteral("node %1 (exit code %2)\n%3\n%4")
        .arg(finished ? QStringLiteral("ended") : QStringLiteral("did not end in time"))
        .arg(exitCode)
        .arg(QString::fromUtf8(err), QString::fromUtf8(out));
}

NodeResult runNodeScript(const QString &directory, const QStringList &arguments, int timeoutMs)
{
    NodeResult r;
    QProcess node;
    node.setWorkingDirectory(directory);
    node.setProcessChannelMode(QProcess::SeparateChannels);
    QEventLoop loop;
    QObject::connect(&node, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&node, &QProcess::errorOccurred, &loop, [&loop, &node] {
        if (node.state() == QProcess::NotRunning)
            loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    node.start(QStringLiteral(PILOTHOUSE_NODE), arguments);
    if (node.state() != QProcess::NotRunning)
        loop.exec();
    if (node.state() != QProcess::NotRunning) {
        node.kill();
        node.waitForFinished(5000);
    } else {
        r.finished =
            node.exitStatus() == QProcess::NormalExit && node.error() != QProcess::FailedToStart;
        r.exitCode = node.exitCode();
    }
    r.out = node.readAllStandardOutput();
    r.err = node.readAllStandardError();
    if (node.error() == QProcess::FailedToStart)
        r.err.prepend(node.errorString().toUtf8() + '\n');
    return r;
}

} // namespace ph::test
