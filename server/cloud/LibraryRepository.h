#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace ph {
class Store;
class Sql;
} // namespace ph

namespace ph::cloud {

// A saved tool (docs/api/tools.md): a subroutine (steps with {{parameter}}
// placeholders) or a JavaScript tool (a function body run in a page).
struct SavedTool
{
    QString id;
    QString keyId;
    QString name;
    QString kind; // subroutine, javascript
    QString description;
    QJsonObject parameters; // JSON Schema, type object
    QJsonArray steps;       // subroutine
    QString code;           // javascript
    QString url;            // javascript
    qint64 createdAt = 0;
    qint64 updatedAt = 0;

    QJsonObject toJson() const;
};

// A trigger URL (docs/api/triggers.md).
struct Trigger
{
    QString id;
    QString keyId;
    QString label;
    QString targetKind; // tool, run, prompt
    QString target;     // the tool's name, the trajectory id, or the prompt
    QJsonObject options;
    qint64 createdAt = 0;
    std::optional<qint64> revokedAt;
    std::optional<qint64> lastFiredAt;
    int fireCount = 0;

    // With the trigger URL under `baseUrl`.
    QJsonObject toJson(const QString &baseUrl) const;
};

// The saved tools and triggers of each API key, in the store.
class LibraryRepository : public QObject
{
    Q_OBJECT
public:
    explicit LibraryRepository(Store &store);

    // Inserts a new tool; false when the key has one of that name already.
    bool insertTool(SavedTool &tool);
    // Replaces the tool of that name; false when there is none.
    bool replaceTool(SavedTool &tool);
    std::optional<SavedTool> tool(const QString &keyId, const QString &name) const;
    QList<SavedTool> tools(const QString &keyId) const;
    bool removeTool(const QString &keyId, const QString &name);

    Trigger insertTrigger(Trigger trigger);
    std::optional<Trigger> trigger(const QString &id) const;
    // A key's triggers, newest first; every key's when `keyId` is empty (the console).
    QList<Trigger> triggers(const QString &keyId) const;
    bool revokeTrigger(const QString &keyId, const QString &id);
    void recordFiring(const QString &id);

Q_SIGNALS:
    // A saved tool was created, replaced or deleted (`tool` is its id or name).
    void toolsChanged(const QString &tool);
    // A trigger was created, changed or deleted.
    void triggerChanged(const QString &triggerId);

private:
    static SavedTool toolFromRow(const Sql &q);
    static Trigger triggerFromRow(const Sql &q);

    Store &m_store;
};

} // namespace ph::cloud
