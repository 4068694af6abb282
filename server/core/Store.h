#pragma once

#include <QList>
#include <QObject>
#include <QSqlDatabase>
#include <QString>
#include <QVariant>

#include <functional>
#include <memory>
#include <stdexcept>

class QSqlQuery;

namespace ph {

class Clock;
class ApiKeyRepository;
class CreditLedger;
class RequestLog;
class SecretBox;
class ObjectStore;

// Raised when SQLite refuses a statement. Handlers map it to HTTP 500; it means
// a bug or a broken disk, never bad client input.
class StoreError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// The one owner of the SQLite connection. It opens the file in WAL mode, applies the
// numbered migrations in `:/pilothouse/migrations` at start and hands out the area
// repositories. No SQL lives outside server/core and those repositories.
class Store : public QObject
{
    Q_OBJECT
public:
    Store(QString path, const Clock &clock, QObject *parent = nullptr);
    ~Store() override;

    // Opens the database and migrates it to `targetVersion` (-1: the newest this
    // build knows). A store newer than this build is refused, never touched.
    // The secrets key (`secrets.key`) is kept in the same directory as the database.
    bool open(QString *error, int targetVersion = -1);
    void close();
    bool isOpen() const;

    int schemaVersion() const;
    static int latestSchemaVersion();

    QString path() const { return m_path; }
    const Clock &clock() const { return m_clock; }
    QSqlDatabase database() const;

    // How hard a commit is made durable. Full (the store's setting, kSynchronous): the
    // write-ahead log is fsynced at COMMIT, so the commit survives a power cut. Normal:
    // not fsynced at COMMIT (SQLite's synchronous=NORMAL in WAL mode): it survives a
    // process kill, and a power cut may undo it (and only it and later Normal commits,
    // never an earlier Full one). Only for writes whose loss repeats work and loses
    // none: the webhook queue's attempt marks and outcomes (an undone one means an
    // attempt is sent again, with the same delivery id).
    enum class Sync { Full, Normal };

    // Runs `work` inside one transaction; an exception rolls it back and propagates.
    // Nested calls join the outer transaction (and its Sync) as a savepoint: an exception
    // rolls back the nested work (and drops its onTransactionEnd callbacks, told false)
    // and propagates; the outer transaction decides the rest.
    void transaction(const std::function<void()> &work, Sync sync = Sync::Full);
    // Calls `done` once when the outermost transaction ends: after its COMMIT with true,
    // after its rollback with false. Outside a transaction: at once, with true. What must
    // not happen before the data is durable (a callback going out) waits for it here.
    void onTransactionEnd(std::function<void(bool committed)> done);
    bool inTransaction() const { return m_transactionDepth > 0; }

    ApiKeyRepository &apiKeys();
    CreditLedger &credits();
    RequestLog &requests();
    ObjectStore &objects();
    const SecretBox &secrets() const;

    // Tells observers (console panels, long-polls) that rows of `table` changed.
    void notifyChanged(const QString &table, const QString &id);

Q_SIGNALS:
    void changed(const QString &table, const QString &id);

private:
    bool migrate(int targetVersion, QString *error);
    bool secureFiles(QString *error);
    void endTransaction(bool committed, int depth);

    QString m_path;
    QString m_connectionName;
    const Clock &m_clock;
    int m_transactionDepth = 0;
    QList<std::pair<int, std::function<void(bool)>>> m_onTransactionEnd; // (depth, callback)
    std::unique_ptr<ApiKeyRepository> m_apiKeys;
    std::unique_ptr<CreditLedger> m_credits;
    std::unique_ptr<RequestLog> m_requests;
    std::unique_ptr<ObjectStore> m_objects;
    std::unique_ptr<SecretBox> m_secrets;
};

// A prepared statement bound to the store's connection. Failures throw StoreError.
//   Sql q(store, "SELECT label FROM api_keys WHERE id = :id");
//   q.bind(":id", id).exec();
//   while (q.next()) ...
class Sql
{
public:
    Sql(const Store &store, const QString &statement);
    ~Sql();
    Sql(const Sql &) = delete;
    Sql &operator=(const Sql &) = delete;

    Sql &bind(const QString &placeholder, const QVariant &value);
    Sql &exec();
    bool next();
    QVariant value(int column) const;
    QVariant value(const QString &name) const;
    int rowsAffected() const;
    QVariant lastInsertId() const;

private:
    std::unique_ptr<QSqlQuery> m_query;
    QString m_statement;
};

} // namespace ph
