#include "Store.h"

#include "ApiKeyRepository.h"
#include "Clock.h"
#include "CreditLedger.h"
#include "Ids.h"
#include "ObjectStore.h"
#include "RequestLog.h"
#include "SecretBox.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

namespace ph {

namespace {

struct Migration
{
    int version;
    QString name;
    QString path;
};

QList<Migration> migrations()
{
    QList<Migration> list;
    const QDir dir(QStringLiteral(":/pilothouse/migrations"));
    static const QRegularExpression pattern(QStringLiteral("^(\\d{4})_(.+)\\.sql$"));
    for (const QString &file : dir.entryList({QStringLiteral("*.sql")}, QDir::Files, QDir::Name)) {
        const auto match = pattern.match(file);
        if (match.hasMatch())
            list.append({match.captured(1).toInt(), match.captured(2), dir.filePath(file)});
    }
    return list;
}

// Splits a migration file into statements at semicolons that end a line. Migrations
// do not use triggers with bodies, so this is all the parsing they need.
QStringList statements(const QString &script)
{
    QStringList out;
    QString current;
    for (const QString &line : script.split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        if (trimmed.startsWith(QLatin1String("--")) || trimmed.isEmpty())
            continue;
        current += line + QLatin1Char('\n');
        if (trimmed.endsWith(QLatin1Char(';'))) {
            out.append(current.trimmed());
            current.clear();
        }
    }
    if (!current.trimmed().isEmpty())
        out.append(current.trimmed());
    return out;
}

} // namespace

Store::Store(QString path, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_connectionName(Ids::make(QStringLiteral("db"), 12))
    , m_clock(clock)
{}

Store::~Store()
{
    close();
}

bool Store::open(QString *error, int targetVersion)
{
    m_secrets = std::make_unique<SecretBox>();
    if (!m_secrets->open(QFileInfo(m_path).dir().filePath(QStringLiteral("secrets.key")), error))
        return false;
    auto db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    db.setDatabaseName(m_path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open()) {
        if (error)
            *error = QStringLiteral("cannot open %1: %2").arg(m_path, db.lastError().text());
        return false;
    }
    try {
        for (const char *pragma : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL",
                                   "PRAGMA foreign_keys=ON", "PRAGMA temp_store=MEMORY"}) {
            Sql(*this, QString::fromLatin1(pragma)).exec();
        }
        if (!migrate(targetVersion, error))
            return false;
    } catch (const StoreError &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
    m_apiKeys = std::make_unique<ApiKeyRepository>(*this);
    m_credits = std::make_unique<CreditLedger>(*this);
    m_requests = std::make_unique<RequestLog>(*this);
    m_objects = std::make_unique<ObjectStore>(*this);
    return true;
}

void Store::close()
{
    m_objects.reset();
    m_requests.reset();
    m_credits.reset();
    m_apiKeys.reset();
    if (QSqlDatabase::contains(m_connectionName)) {
        {
            auto db = QSqlDatabase::database(m_connectionName, false);
            if (db.isOpen()) {
                // Fold the WAL back into the main file so a closed store is one file.
                QSqlQuery(db).exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
                db.close();
            }
        }
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

bool Store::isOpen() const
{
    return QSqlDatabase::contains(m_connectionName) && database().isOpen();
}

QSqlDatabase Store::database() const
{
    return QSqlDatabase::database(m_connectionName, false);
}

int Store::latestSchemaVersion()
{
    const auto list = migrations();
    return list.isEmpty() ? 0 : list.last().version;
}

int Store::schemaVersion() const
{
    Sql q(*this, QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_version"));
    q.exec();
    return q.next() ? q.value(0).toInt() : 0;
}

bool Store::migrate(int targetVersion, QString *error)
{
    Sql(*this, QStringLiteral("CREATE TABLE IF NOT EXISTS schema_version ("
                              " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                              " applied_at INTEGER NOT NULL)"))
        .exec();
    const int latest = latestSchemaVersion();
    const int target = targetVersion < 0 ? latest : qMin(targetVersion, latest);
    const int current = schemaVersion();
    if (current > latest) {
        if (error)
            *error = QStringLiteral("the store at %1 has schema version %2, newer than this "
                                    "build supports (%3); refusing to open it")
                         .arg(m_path)
                         .arg(current)
                         .arg(latest);
        return false;
    }
    // Every migration not yet recorded is applied, in order; a number below the
    // newest applied one still runs (areas developed side by side number theirs apart).
    QSet<int> applied;
    {
        Sql q(*this, QStringLiteral("SELECT version FROM schema_version"));
        q.exec();
        while (q.next())
            applied.insert(q.value(0).toInt());
    }
    for (const Migration &m : migrations()) {
        if (applied.contains(m.version) || m.version > target)
            continue;
        QFile file(m.path);
        if (!file.open(QIODevice::ReadOnly)) {
            if (error)
                *error = QStringLiteral("migration %1 is unreadable").arg(m.path);
            return false;
        }
        const QString script = QString::fromUtf8(file.readAll());
        try {
            transaction([&] {
                for (const QString &statement : statements(script))
                    Sql(*this, statement).exec();
                Sql(*this, QStringLiteral("INSERT INTO schema_version (version, name, applied_at)"
                                          " VALUES (:v, :n, :t)"))
                    .bind(QStringLiteral(":v"), m.version)
                    .bind(QStringLiteral(":n"), m.name)
                    .bind(QStringLiteral(":t"), m_clock.nowMs())
                    .exec();
            });
        } catch (const StoreError &e) {
            if (error)
                *error = QStringLiteral("migration %1 (%2) failed: %3")
                             .arg(m.version)
                             .arg(m.name, QString::fromUtf8(e.what()));
            return false;
        }
    }
    return true;
}

void Store::transaction(const std::function<void()> &work)
{
    auto db = database();
    if (m_transactionDepth == 0 && !db.transaction())
        throw StoreError("BEGIN failed: " + db.lastError().text().toStdString());
    ++m_transactionDepth;
    try {
        work();
    } catch (...) {
        if (--m_transactionDepth == 0)
            db.rollback();
        throw;
    }
    if (--m_transactionDepth == 0 && !db.commit()) {
        const auto message = db.lastError().text().toStdString();
        db.rollback();
        throw StoreError("COMMIT failed: " + message);
    }
}

ApiKeyRepository &Store::apiKeys()
{
    Q_ASSERT(m_apiKeys);
    return *m_apiKeys;
}

CreditLedger &Store::credits()
{
    Q_ASSERT(m_credits);
    return *m_credits;
}

const SecretBox &Store::secrets() const
{
    Q_ASSERT(m_secrets);
    return *m_secrets;
}

ObjectStore &Store::objects()
{
    Q_ASSERT(m_objects);
    return *m_objects;
}

RequestLog &Store::requests()
{
    Q_ASSERT(m_requests);
    return *m_requests;
}

void Store::notifyChanged(const QString &table, const QString &id)
{
    Q_EMIT changed(table, id);
}

// --- Sql ---------------------------------------------------------------------------------

Sql::Sql(const Store &store, const QString &statement)
    : m_query(std::make_unique<QSqlQuery>(store.database()))
    , m_statement(statement)
{
    if (!m_query->prepare(statement))
        throw StoreError("prepare failed: " + m_query->lastError().text().toStdString() +
                         " in: " + statement.left(200).toStdString());
}

Sql::~Sql() = default;

Sql &Sql::bind(const QString &placeholder, const QVariant &value)
{
    m_query->bindValue(placeholder, value);
    return *this;
}

Sql &Sql::exec()
{
    if (!m_query->exec())
        throw StoreError("statement failed: " + m_query->lastError().text().toStdString() +
                         " in: " + m_statement.left(200).toStdString());
    return *this;
}

bool Sql::next()
{
    return m_query->next();
}

QVariant Sql::value(int column) const
{
    return m_query->value(column);
}

QVariant Sql::value(const QString &name) const
{
    return m_query->value(name);
}

int Sql::rowsAffected() const
{
    return m_query->numRowsAffected();
}

QVariant Sql::lastInsertId() const
{
    return m_query->lastInsertId();
}

} // namespace ph
