// The documentation keeps up with the code: every error code the server can answer is
// explained somewhere under docs/.
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

class tst_Docs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void documentsEveryErrorCode();
};

namespace {
QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}
} // namespace

void tst_Docs::documentsEveryErrorCode()
{
    QString docs;
    QDirIterator d(QStringLiteral(SOURCE_DIR "/docs"), {QStringLiteral("*.md")}, QDir::Files,
                   QDirIterator::Subdirectories);
    while (d.hasNext())
        docs += readAll(d.next());
    QVERIFY(docs.size() > 10000);
    // Codes are UPPER_SNAKE_CASE string literals in the server's sources.
    static const QRegularExpression code(
        QStringLiteral("QStringLiteral\\(\"([A-Z][A-Z0-9_]{3,})\"\\)"));
    static const QStringList notCodes{QStringLiteral("QSQLITE")}; // the Qt SQL driver's name
    QStringList missing;
    QDirIterator s(QStringLiteral(SOURCE_DIR "/server"), {QStringLiteral("*.cpp")}, QDir::Files,
                   QDirIterator::Subdirectories);
    int seen = 0;
    while (s.hasNext()) {
        const QString path = s.next();
        auto it = code.globalMatch(readAll(path));
        while (it.hasNext()) {
            const QString c = it.next().captured(1);
            ++seen;
            if (!notCodes.contains(c) && !docs.contains(QLatin1Char('`') + c + QLatin1Char('`')) &&
                !missing.contains(c))
                missing << c;
        }
    }
    QVERIFY(seen > 50);
    QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("undocumented: ") + missing.join(u' ')));
}

QTEST_GUILESS_MAIN(tst_Docs)
#include "tst_docs.moc"
