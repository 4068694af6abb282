#pragma once

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph {
class Store;
class Sql;
} // namespace ph

namespace ph::sites {

// A configuration proposal of an owner's AI (or of the owner through the same REST
// call): pending until the owner applies or discards it.
struct ConfigChange
{
    QString id; // chg_…
    QString siteId;
    QString author; // Principal::actor() of the proposer
    QString clientRequestId;
    QString kind; // "patch" or "journey"
    QString title;
    QString description;
    QJsonObject patch; // sanitised
    QStringList droppedPaths;
    int baseVersion = 0;
    QString status; // pending, applied, discarded
    qint64 createdAt = 0;
    std::optional<qint64> decidedAt;
    QString decidedBy;
    QString decisionNote;
    std::optional<int> appliedVersion;
};

class ChangeRepository : public QObject
{
    Q_OBJECT
public:
    explicit ChangeRepository(Store &store);

    // Inserts `change` unless the author already sent this clientRequestId for the
    // site; returns the stored change and whether it was created now.
    std::pair<ConfigChange, bool> createOnce(ConfigChange change);
    std::optional<ConfigChange> find(const QString &id) const;
    // Pending changes of a site, oldest first, after `afterId` (cursor), at most `limit`.
    QList<ConfigChange> pending(const QString &siteId, const QString &afterId, int limit) const;
    // Every site's changes in `status` ("" for all), newest first (the console).
    QList<ConfigChange> recent(const QString &status, int limit) const;
    // Moves a pending change to applied or discarded; false when it was not pending.
    bool decide(const QString &id, const QString &status, const QString &actor, const QString &note,
                std::optional<int> appliedVersion);

Q_SIGNALS:
    // A proposed configuration change was created or decided.
    void proposalChanged(const QString &changeId);

private:
    static ConfigChange fromRow(const Sql &q);
    std::optional<ConfigChange> findByRequest(const QString &siteId, const QString &author,
                                              const QString &clientRequestId) const;

    Store &m_store;
};

} // namespace ph::sites
