// The documentation keeps up with the code: every error code the server can answer is
// explained somewhere under docs/.
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

class tst_Docs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void documentsEveryErrorCode();
    void translatesEveryConsoleString();
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

namespace {
// context + "\n" + source of every message in a .ts file; `finished` only those with a
// non-empty, finished translation.
QSet<QString> messages(const QString &tsPath, bool finished)
{
    QSet<QString> out;
    QFile f(tsPath);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    QXmlStreamReader xml(&f);
    QString context, source;
    bool done = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("name"))
            context = xml.readElementText();
        else if (xml.name() == QLatin1String("source"))
            source = xml.readElementText();
        else if (xml.name() == QLatin1String("translation")) {
            const bool unfinished =
                xml.attributes().value(QLatin1String("type")) == QLatin1String("unfinished");
            const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            done = !unfinished && !text.trimmed().isEmpty();
            if (!finished || done)
                out.insert(context + QLatin1Char('\n') + source);
        }
    }
    return out;
}
} // namespace

// Every tr() string of the console has a finished German translation: lupdate reads
// ui/ afresh, so a new string without a translation fails here.
void tst_Docs::translatesEveryConsoleString()
{
    QTemporaryDir dir;
    const QString fresh = dir.filePath(QStringLiteral("fresh.ts"));
    QProcess lupdate;
    lupdate.start(QStringLiteral(LUPDATE),
                  {QStringLiteral("-silent"), QStringLiteral(SOURCE_DIR "/ui"),
                   QStringLiteral("-ts"), fresh});
    QVERIFY(lupdate.waitForFinished(120000));
    QCOMPARE(lupdate.exitCode(), 0);
    const QSet<QString> wanted = messages(fresh, false);
    QVERIFY(wanted.size() > 100);
    const QSet<QString> translated =
        messages(QStringLiteral(SOURCE_DIR "/translations/pilothouse_de.ts"), true);
    QStringList missing;
    for (const QString &m : wanted) {
        if (!translated.contains(m))
            missing << m;
    }
    missing.sort();
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("%1 untranslated, e.g.\n").arg(missing.size()) +
                        missing.mid(0, 10).join(QStringLiteral("\n---\n"))));
}

QTEST_GUILESS_MAIN(tst_Docs)
#include "tst_docs.moc"
