#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace ph::test {

// A file of tests/fixtures/data (the readers' and the agent's inputs).
inline QByteArray fixture(const char *name)
{
    QFile f(QStringLiteral(DATA_FIXTURES "/%1").arg(QLatin1String(name)));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", name);
    return f.readAll();
}

// An input a fuzz target once crashed on: tests/fuzz/crashers/<target>/<name>.
inline QByteArray crasher(const char *target, const char *name)
{
    QFile f(QStringLiteral(FUZZ_CRASHERS "/%1/%2").arg(QLatin1String(target), QLatin1String(name)));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing crasher %s/%s", target, name);
    return f.readAll();
}

} // namespace ph::test
