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

} // namespace ph::test
