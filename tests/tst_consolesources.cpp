// Issue 29, part 4: the console works on typed change signals of the domain services and
// never on the store. Checked on the sources of ui/: no panel listens to
// Store::changed (by SQL table name), reads service.store(), includes core/Store.h, or
// takes the whole Service (only the shell builds ui::ConsoleServices from it).
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

namespace {

struct Rule
{
    const char *name;
    QRegularExpression pattern;
    bool shellMayUse; // ui/shell/ and ui/common/ConsoleServices build from Service
};

const QList<Rule> &rules()
{
    static const QList<Rule> all = {
        {"listens to Store::changed", QRegularExpression(QStringLiteral(R"(Store::changed)")),
         false},
        {"reads the store", QRegularExpression(QStringLiteral(R"(\bstore\(\))")), false},
        {"includes core/Store.h",
         QRegularExpression(QStringLiteral(R"(#include\s+"core/Store\.h")")), false},
        {"takes the whole Service",
         QRegularExpression(QStringLiteral(R"(\bService\s*&|#include\s+"Service\.h")")), true},
    };
    return all;
}

bool isShell(const QString &relativePath)
{
    return relativePath.startsWith(QLatin1String("ui/shell/")) ||
           relativePath.startsWith(QLatin1String("ui/common/ConsoleServices."));
}

// The rules a line of `relativePath` breaks (their names), comments not counted.
QStringList problems(const QString &relativePath, QString line)
{
    const qsizetype comment = line.indexOf(QLatin1String("//"));
    if (comment >= 0)
        line.truncate(comment);
    QStringList out;
    for (const Rule &r : rules()) {
        if (r.shellMayUse && isShell(relativePath))
            continue;
        if (r.pattern.match(line).hasMatch())
            out << QString::fromLatin1(r.name);
    }
    return out;
}

} // namespace

class tst_ConsoleSources : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void judgesLines_data();
    void judgesLines();
    void noPanelReachesTheStoreOrTheWholeService();
};

void tst_ConsoleSources::judgesLines_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("broken");

    QTest::newRow("a panel listening to the store by table name is refused")
        << "ui/keys/KeysModel.cpp"
        << "    connect(&store, &Store::changed, this, &KeysModel::onStoreChanged);"
        << "listens to Store::changed";
    QTest::newRow("a panel reading the store through the service is refused")
        << "ui/keys/KeysDock.cpp"
        << "    const auto key = m_service.store().apiKeys().find(id);"
        << "reads the store";
    QTest::newRow("a panel including the store's header is refused") << "ui/tools/ToolsModel.cpp"
                                                                     << "#include \"core/Store.h\""
                                                                     << "includes core/Store.h";
    QTest::newRow("a dock taking the whole service is refused")
        << "ui/keys/KeysDock.h"
        << "    explicit KeysDock(Service &service, QWidget *parent);"
        << "takes the whole Service";
    QTest::newRow("the main window may build the console's services from the service")
        << "ui/shell/MainWindow.cpp"
        << "MainWindow::MainWindow(Service &service, QWidget *parent)"
        << "";
    QTest::newRow("the console's services may be built from the service")
        << "ui/common/ConsoleServices.h"
        << "    static ConsoleServices of(Service &service);"
        << "";
    QTest::newRow("a panel listening to a service's typed signal is fine")
        << "ui/keys/KeysModel.cpp"
        << "    connect(&m_keys, &ApiKeyService::keyChanged, this, &KeysModel::update);"
        << "";
    QTest::newRow("a comment naming the store is not a use of it")
        << "ui/keys/KeysModel.cpp"
        << "// once listened to Store::changed"
        << "";
}

void tst_ConsoleSources::judgesLines()
{
    QFETCH(QString, path);
    QFETCH(QString, line);
    QFETCH(QString, broken);
    QCOMPARE(problems(path, line).join(QLatin1String(", ")), broken);
}

void tst_ConsoleSources::noPanelReachesTheStoreOrTheWholeService()
{
    const QString root = QStringLiteral(SOURCE_DIR);
    QDirIterator it(root + QStringLiteral("/ui"), {QStringLiteral("*.cpp"), QStringLiteral("*.h")},
                    QDir::Files, QDirIterator::Subdirectories);
    int files = 0;
    QStringList found;
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = path.mid(root.size() + 1);
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        ++files;
        int number = 0;
        for (const QByteArray &raw : f.readAll().split('\n')) {
            ++number;
            for (const QString &p : problems(relative, QString::fromUtf8(raw)))
                found << QStringLiteral("%1:%2: %3").arg(relative).arg(number).arg(p);
        }
    }
    QVERIFY(files > 40);
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(tst_ConsoleSources)
#include "tst_consolesources.moc"
