#include "LibraryRepository.h"

#include "core/Clock.h"
#include "core/Ids.h"
#include "core/JsonText.h"
#include "core/SqlRow.h"
#include "core/Store.h"

#include <QJsonDocument>

namespace ph::cloud {

namespace {
const QString kToolColumns = QStringLiteral(
    "id, key_id, name, kind, description, parameters, steps, code, url, created_at, updated_at");
const QString kTriggerColumns =
    QStringLiteral("id, key_id, label, target_kind, target, options, created_at, revoked_at, "
                   "last_fired_at, fire_count");

// A null QString binds as SQL NULL; NOT NULL text columns take "" instead.
} // namespace

QJsonObject SavedTool::toJson() const
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("name"), name},
                  {QStringLiteral("mcpName"), QStringLiteral("user_") + name},
                  {QStringLiteral("kind"), kind},
                  {QStringLiteral("description"), description},
                  {QStringLiteral("parameters"), parameters},
                  {QStringLiteral("createdAt"), Clock::isoUtc(createdAt)},
                  {QStringLiteral("updatedAt"), Clock::isoUtc(updatedAt)}};
    if (kind == QLatin1String("subroutine")) {
        o.insert(QStringLiteral("steps"), steps);
    } else {
        o.insert(QStringLiteral("code"), code);
        o.insert(QStringLiteral("url"), url);
    }
    return o;
}

QJsonObject Trigger::toJson(const QString &baseUrl) const
{
    QJsonObject targetJson{{QStringLiteral("kind"), targetKind}};
    if (targetKind == QLatin1String("tool"))
        targetJson.insert(QStringLiteral("tool"), target);
    else if (targetKind == QLatin1String("run"))
        targetJson.insert(QStringLiteral("trajectoryId"), target);
    else
        targetJson.insert(QStringLiteral("prompt"), target);
    for (auto it = options.begin(); it != options.end(); ++it)
        targetJson.insert(it.key(), it.value());
    return {{QStringLiteral("id"), id},
            {QStringLiteral("label"), label},
            {QStringLiteral("target"), targetJson},
            {QStringLiteral("url"), baseUrl + QStringLiteral("/mcp/v1/webhooks/trigger/") + id},
            {QStringLiteral("active"), !revokedAt.has_value()},
            {QStringLiteral("createdAt"), Clock::isoUtc(createdAt)},
            {QStringLiteral("revokedAt"), Clock::isoUtcOrNull(revokedAt)},
            {QStringLiteral("lastFiredAt"), Clock::isoUtcOrNull(lastFiredAt)},
            {QStringLiteral("fireCount"), fireCount}};
}

LibraryRepository::LibraryRepository(Store &store)
    : m_store(store)
{}

SavedTool LibraryRepository::toolFromRow(const Sql &q)
{
    SqlRow row(q);
    SavedTool t;
    t.id = row.text();
    t.keyId = row.text();
    t.name = row.text();
    t.kind = row.text();
    t.description = row.text();
    t.parameters = row.object();
    t.steps = row.array();
    t.code = row.text();
    t.url = row.text();
    t.createdAt = row.integer();
    t.updatedAt = row.integer();
    return t;
}

Trigger LibraryRepository::triggerFromRow(const Sql &q)
{
    SqlRow row(q);
    Trigger t;
    t.id = row.text();
    t.keyId = row.text();
    t.label = row.text();
    t.targetKind = row.text();
    t.target = row.text();
    t.options = row.object();
    t.createdAt = row.integer();
    t.revokedAt = row.optionalInt();
    t.lastFiredAt = row.optionalInt();
    t.fireCount = row.number();
    return t;
}

bool LibraryRepository::insertTool(SavedTool &tool)
{
    bool inserted = false;
    m_store.transaction([&] {
        if (this->tool(tool.keyId, tool.name))
            return;
        tool.id = Ids::make(QStringLiteral("tool"), 16);
        tool.createdAt = tool.updatedAt = m_store.clock().nowMs();
        Sql(m_store, QStringLiteral("INSERT INTO saved_tools (%1) VALUES (:id, :key, :name, "
                                    ":kind, :description, :parameters, :steps, :code, :url, :c, "
                                    ":u)")
                         .arg(kToolColumns))
            .bind(QStringLiteral(":id"), tool.id)
            .bind(QStringLiteral(":key"), tool.keyId)
            .bind(QStringLiteral(":name"), tool.name)
            .bind(QStringLiteral(":kind"), tool.kind)
            .bind(QStringLiteral(":description"), JsonText::text(tool.description))
            .bind(QStringLiteral(":parameters"), JsonText::from(tool.parameters))
            .bind(QStringLiteral(":steps"), JsonText::from(tool.steps))
            .bind(QStringLiteral(":code"), tool.code)
            .bind(QStringLiteral(":url"), tool.url)
            .bind(QStringLiteral(":c"), tool.createdAt)
            .bind(QStringLiteral(":u"), tool.updatedAt)
            .exec();
        inserted = true;
    });
    if (inserted) {
        m_store.notifyChanged(QStringLiteral("saved_tools"), tool.id);
        Q_EMIT toolsChanged(tool.id);
    }
    return inserted;
}

bool LibraryRepository::replaceTool(SavedTool &tool)
{
    const auto existing = this->tool(tool.keyId, tool.name);
    if (!existing)
        return false;
    tool.id = existing->id;
    tool.createdAt = existing->createdAt;
    tool.updatedAt = m_store.clock().nowMs();
    Sql(m_store, QStringLiteral("UPDATE saved_tools SET kind = :kind, description = :description, "
                                "parameters = :parameters, steps = :steps, code = :code, url = "
                                ":url, updated_at = :u WHERE id = :id"))
        .bind(QStringLiteral(":kind"), tool.kind)
        .bind(QStringLiteral(":description"), JsonText::text(tool.description))
        .bind(QStringLiteral(":parameters"), JsonText::from(tool.parameters))
        .bind(QStringLiteral(":steps"), JsonText::from(tool.steps))
        .bind(QStringLiteral(":code"), tool.code)
        .bind(QStringLiteral(":url"), tool.url)
        .bind(QStringLiteral(":u"), tool.updatedAt)
        .bind(QStringLiteral(":id"), tool.id)
        .exec();
    m_store.notifyChanged(QStringLiteral("saved_tools"), tool.id);
    Q_EMIT toolsChanged(tool.id);
    return true;
}

std::optional<SavedTool> LibraryRepository::tool(const QString &keyId, const QString &name) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM saved_tools WHERE key_id = :key AND name = :name")
                       .arg(kToolColumns));
    q.bind(QStringLiteral(":key"), keyId).bind(QStringLiteral(":name"), name).exec();
    return SqlRows::one(q, toolFromRow);
}

QList<SavedTool> LibraryRepository::tools(const QString &keyId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM saved_tools WHERE key_id = :key ORDER BY name")
                       .arg(kToolColumns));
    q.bind(QStringLiteral(":key"), keyId).exec();
    QList<SavedTool> out;
    while (q.next())
        out << toolFromRow(q);
    return out;
}

bool LibraryRepository::removeTool(const QString &keyId, const QString &name)
{
    Sql q(m_store, QStringLiteral("DELETE FROM saved_tools WHERE key_id = :key AND name = :name"));
    q.bind(QStringLiteral(":key"), keyId).bind(QStringLiteral(":name"), name).exec();
    const bool removed = q.rowsAffected() > 0;
    if (removed) {
        m_store.notifyChanged(QStringLiteral("saved_tools"), name);
        Q_EMIT toolsChanged(name);
    }
    return removed;
}

Trigger LibraryRepository::insertTrigger(Trigger trigger)
{
    // 32 random characters: the id is the unguessable part of the URL.
    trigger.id = Ids::make(QStringLiteral("trg"), 32);
    trigger.createdAt = m_store.clock().nowMs();
    Sql(m_store, QStringLiteral("INSERT INTO triggers (id, key_id, label, target_kind, target, "
                                "options, created_at) VALUES (:id, :key, :label, :kind, :target, "
                                ":options, :c)"))
        .bind(QStringLiteral(":id"), trigger.id)
        .bind(QStringLiteral(":key"), trigger.keyId)
        .bind(QStringLiteral(":label"), JsonText::text(trigger.label))
        .bind(QStringLiteral(":kind"), trigger.targetKind)
        .bind(QStringLiteral(":target"), trigger.target)
        .bind(QStringLiteral(":options"), JsonText::from(trigger.options))
        .bind(QStringLiteral(":c"), trigger.createdAt)
        .exec();
    m_store.notifyChanged(QStringLiteral("triggers"), trigger.id);
    Q_EMIT triggerChanged(trigger.id);
    return trigger;
}

std::optional<Trigger> LibraryRepository::trigger(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM triggers WHERE id = :id").arg(kTriggerColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, triggerFromRow);
}

QList<Trigger> LibraryRepository::triggers(const QString &keyId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM triggers WHERE (:key = '' OR key_id = :key) "
                                  "ORDER BY created_at DESC")
                       .arg(kTriggerColumns));
    q.bind(QStringLiteral(":key"), keyId.isNull() ? QStringLiteral("") : keyId).exec();
    QList<Trigger> out;
    while (q.next())
        out << triggerFromRow(q);
    return out;
}

bool LibraryRepository::revokeTrigger(const QString &keyId, const QString &id)
{
    Sql q(m_store, QStringLiteral("UPDATE triggers SET revoked_at = :t WHERE id = :id AND key_id = "
                                  ":key AND revoked_at IS NULL"));
    q.bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .bind(QStringLiteral(":id"), id)
        .bind(QStringLiteral(":key"), keyId)
        .exec();
    const bool revoked = q.rowsAffected() > 0;
    if (revoked) {
        m_store.notifyChanged(QStringLiteral("triggers"), id);
        Q_EMIT triggerChanged(id);
    }
    return revoked;
}

void LibraryRepository::recordFiring(const QString &id)
{
    Sql(m_store, QStringLiteral("UPDATE triggers SET last_fired_at = :t, fire_count = fire_count "
                                "+ 1 WHERE id = :id"))
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .bind(QStringLiteral(":id"), id)
        .exec();
    m_store.notifyChanged(QStringLiteral("triggers"), id);
    Q_EMIT triggerChanged(id);
}

} // namespace ph::cloud
