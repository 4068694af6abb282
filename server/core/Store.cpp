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
#include <QHash>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcStore, "pilothouse.store")

namespace ph {

namespace {

// SQLite's `synchronous` in WAL mode for the store's commits (credits, runs and the
// callbacks they owe, keys, settings): FULL, so that a commit is on disk before anything
// that depends on it leaves the process (docs/security.md, Durability; bench/store).
// Store::Sync::Normal transactions relax it for themselves.
constexpr char kSynchronous[] = "FULL";

// Tightens `path` to `mode` when it grants more (group or others), and says so. A missing
// file is fine. False only when the file is there and cannot be changed.
bool tighten(const QString &path, mode_t mode, QString *error)
{
    struct stat st;
    const QByteArray native = QFile::encodeName(path);
    if (::lstat(native.constData(), &st) != 0)
        return true;
    const mode_t current = st.st_mode & 07777;
    if ((current & ~mode) == 0)
        return true;
    if (::chmod(native.constData(), mode) != 0) {
        if (error)
            *error = QStringLiteral("%1 has mode %2 and cannot be changed to %3")
                         .arg(path, QString::number(current, 8), QString::number(mode, 8));
        return false;
    }
    qCWarning(lcStore).noquote() << QStringLiteral("%1 had mode %2; changed to %3")
                                        .arg(path, QString::number(current, 8),
                                             QString::number(mode, 8));
    return true;
}

// Migrations that SQL alone cannot express, run inside the transaction of the migration
// with the same number, after its statements.
void sealWebhookHeaders(Store &store)
{
    // 0022: webhooks[].headers values were kept in clear, in the subscriptions and the
    // deliveries (config), in the stored requests and in payloads that echo them
    // (originalRequest.params). Sealed and masked now, like the other credentials.
    const SecretBox &box = store.secrets();
    const auto parse = [](const QString &s) {
        return QJsonDocument::fromJson(s.toUtf8()).object();
    };
    const auto compact = [](const QJsonObject &o) {
        return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    };
    for (const QString &table :
         {QStringLiteral("webhook_subscriptions"), QStringLiteral("webhook_deliveries")}) {
        QList<std::pair<QVariant, QString>> changed;
        {
            Sql q(store, QStringLiteral("SELECT rowid, config FROM %1 WHERE config LIKE"
                                        " '%\"headers\"%'")
                             .arg(table));
            q.exec();
            while (q.next()) {
                const QJsonObject config = parse(q.value(1).toString());
                const QJsonObject sealed = WebhookSubscription::sealHeadersOf(config, box);
                if (sealed != config)
                    changed.append({q.value(0), compact(sealed)});
            }
        }
        for (const auto &[rowid, config] : std::as_const(changed))
            Sql(store, QStringLiteral("UPDATE %1 SET config = :c WHERE rowid = :r").arg(table))
                .bind(QStringLiteral(":c"), config)
                .bind(QStringLiteral(":r"), rowid)
                .exec();
    }
    struct Echo
    {
        QString table;
        QString column;
        bool payload; // a callback payload: the request is originalRequest.params
    };
    for (const Echo &e :
         {Echo{QStringLiteral("phases"), QStringLiteral("request"), false},
          Echo{QStringLiteral("webhook_deliveries"), QStringLiteral("payload"), true}}) {
        QList<std::pair<QVariant, QByteArray>> changed;
        {
            Sql q(store, QStringLiteral("SELECT rowid, %1 FROM %2 WHERE CAST(%1 AS TEXT) LIKE"
                                        " '%\"headers\"%'")
                             .arg(e.column, e.table));
            q.exec();
            while (q.next()) {
                QJsonObject o = QJsonDocument::fromJson(q.value(1).toByteArray()).object();
                const QJsonObject before = o;
                if (e.payload) {
                    QJsonObject original = o.value(QStringLiteral("originalRequest")).toObject();
                    if (original.contains(QStringLiteral("params"))) {
                        original.insert(QStringLiteral("params"),
                                        WebhookSubscription::redactedRequest(
                                            original.value(QStringLiteral("params")).toObject()));
                        o.insert(QStringLiteral("originalRequest"), original);
                    }
                } else {
                    o = WebhookSubscription::redactedRequest(o);
                }
                if (o != before)
                    changed.append({q.value(0), QJsonDocument(o).toJson(QJsonDocument::Compact)});
            }
        }
        for (const auto &[rowid, value] : std::as_const(changed)) {
            Sql(store,
                QStringLiteral("UPDATE %1 SET %2 = :v WHERE rowid = :r").arg(e.table, e.column))
                .bind(QStringLiteral(":v"),
                      e.payload ? QVariant(value) : QVariant(QString::fromUtf8(value)))
                .bind(QStringLiteral(":r"), rowid)
                .exec();
        }
    }
}

const QHash<int, std::function<void(Store &)>> &codeMigrations()
{
    static const QHash<int, std::function<void(Store &)>> steps = {{22, sealWebhookHeaders}};
    return steps;
}

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

// The data directory is the owner's alone (0700), and so are the database and its WAL
// and shared-memory files (0600), the secrets key included (SecretBox): fixed at every
// start when they were looser, with a warning. A directory owned by someone else or with
// the sticky bit (/tmp itself) is left as it is, with a warning: changing it would break
// others. A new database file is created 0600 before SQLite opens it, so its -wal and
// -shm (which SQLite creates with the database's mode) are 0600 from the start.
bool Store::secureFiles(QString *error)
{
    const QString dir = QFileInfo(m_path).absolutePath();
    struct stat st;
    if (::stat(QFile::encodeName(dir).constData(), &st) == 0) {
        if (st.st_uid == ::geteuid() && !(st.st_mode & S_ISVTX)) {
            if (!tighten(dir, 0700, error))
                return false;
        } else if (st.st_mode & 077) {
            qCWarning(lcStore).noquote()
                << QStringLiteral("the data directory %1 is shared (mode %2, owner %3) and is "
                                  "left as it is; give Pilothouse a directory of its own")
                       .arg(dir, QString::number(st.st_mode & 07777, 8))
                       .arg(st.st_uid);
        }
    }
    const QByteArray db = QFile::encodeName(m_path);
    const int fd = ::open(db.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0)
        ::close(fd); // an empty file is an empty database
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
        if (!tighten(m_path + suffix, 0600, error))
            return false;
    }
    return true;
}

bool Store::open(QString *error, int targetVersion)
{
    if (!secureFiles(error))
        return false;
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
        for (const QString &pragma :
             {QStringLiteral("PRAGMA journal_mode=WAL"),
              QStringLiteral("PRAGMA synchronous=") + QLatin1String(kSynchronous),
              QStringLiteral("PRAGMA foreign_keys=ON"),
              QStringLiteral("PRAGMA temp_store=MEMORY")}) {
            Sql(*this, pragma).exec();
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
        const auto code = codeMigrations().value(m.version);
        try {
            // A step that rewrites credentials leaves no copy of them in freed pages.
            if (code)
                Sql(*this, QStringLiteral("PRAGMA secure_delete=ON")).exec();
            transaction([&] {
                for (const QString &statement : statements(script))
                    Sql(*this, statement).exec();
                if (code)
                    code(*this);
                Sql(*this, QStringLiteral("INSERT INTO schema_version (version, name, applied_at)"
                                          " VALUES (:v, :n, :t)"))
                    .bind(QStringLiteral(":v"), m.version)
                    .bind(QStringLiteral(":n"), m.name)
                    .bind(QStringLiteral(":t"), m_clock.nowMs())
                    .exec();
            });
            if (code) {
                Sql(*this, QStringLiteral("PRAGMA secure_delete=OFF")).exec();
                // Nor in the write-ahead log's older page images.
                QSqlQuery(database()).exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
            }
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

void Store::transaction(const std::function<void()> &work, Sync sync)
{
    auto db = database();
    // A nested call is a savepoint: should it fail and its caller carry on (a run whose
    // end could not be stored, inside the request that started it), what it wrote and
    // what it asked to happen after the commit are undone, and nothing else.
    if (m_transactionDepth > 0) {
        const int depth = ++m_transactionDepth;
        const QString name = QStringLiteral("ph_%1").arg(depth);
        try {
            Sql(*this, QStringLiteral("SAVEPOINT ") + name).exec();
            work();
            Sql(*this, QStringLiteral("RELEASE ") + name).exec();
        } catch (...) {
            QSqlQuery(db).exec(QStringLiteral("ROLLBACK TO ") + name);
            QSqlQuery(db).exec(QStringLiteral("RELEASE ") + name);
            --m_transactionDepth;
            endTransaction(false, depth);
            throw;
        }
        --m_transactionDepth;
        return;
    }
    // `synchronous` is the connection's: a Normal transaction lowers it for its own COMMIT
    // and puts it back before anything else may commit (the end callbacks included).
    const bool relaxed = sync == Sync::Normal;
    const auto restore = [&] {
        if (relaxed)
            QSqlQuery(db).exec(QStringLiteral("PRAGMA synchronous=") + QLatin1String(kSynchronous));
    };
    if (relaxed)
        Sql(*this, QStringLiteral("PRAGMA synchronous=NORMAL")).exec();
    if (!db.transaction()) {
        restore();
        throw StoreError("BEGIN failed: " + db.lastError().text().toStdString());
    }
    m_transactionDepth = 1;
    try {
        work();
    } catch (...) {
        m_transactionDepth = 0;
        db.rollback();
        restore();
        endTransaction(false, 1);
        throw;
    }
    m_transactionDepth = 0;
    if (!db.commit()) {
        const auto message = db.lastError().text().toStdString();
        db.rollback();
        restore();
        endTransaction(false, 1);
        throw StoreError("COMMIT failed: " + message);
    }
    restore();
    endTransaction(true, 1);
}

void Store::onTransactionEnd(std::function<void(bool committed)> done)
{
    if (m_transactionDepth == 0) {
        done(true);
        return;
    }
    m_onTransactionEnd.append({m_transactionDepth, std::move(done)});
}

void Store::endTransaction(bool committed, int depth)
{
    // The callbacks registered at `depth` or deeper end now; the outer ones wait for theirs.
    // Taken first: a callback may open the next transaction.
    QList<std::function<void(bool)>> callbacks;
    for (qsizetype i = 0; i < m_onTransactionEnd.size();) {
        if (m_onTransactionEnd.at(i).first >= depth)
            callbacks.append(m_onTransactionEnd.takeAt(i).second);
        else
            ++i;
    }
    for (const auto &done : callbacks)
        done(committed);
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
