#include "ChangeRepository.h"

#include "core/JsonText.h"

#include "core/Clock.h"
#include "core/Ids.h"
#include "core/Store.h"

namespace ph::sites {

namespace {
const QString kColumns = QStringLiteral(
    "id, site_id, author, client_request_id, kind, title, description, patch, dropped_paths,"
    " base_version, status, created_at, decided_at, decided_by, decision_note, applied_version");
} // namespace

ChangeRepository::ChangeRepository(Store &store)
    : m_store(store)
{}

ConfigChange ChangeRepository::fromRow(const Sql &q)
{
    ConfigChange c;
    c.id = q.value(0).toString();
    c.siteId = q.value(1).toString();
    c.author = q.value(2).toString();
    c.clientRequestId = q.value(3).toString();
    c.kind = q.value(4).toString();
    c.title = q.value(5).toString();
    c.description = q.value(6).toString();
    c.patch = JsonText::object(q.value(7));
    for (const QJsonValue &v : JsonText::array(q.value(8)))
        c.droppedPaths.append(v.toString());
    c.baseVersion = q.value(9).toInt();
    c.status = q.value(10).toString();
    c.createdAt = q.value(11).toLongLong();
    if (!q.value(12).isNull())
        c.decidedAt = q.value(12).toLongLong();
    c.decidedBy = q.value(13).toString();
    c.decisionNote = q.value(14).toString();
    if (!q.value(15).isNull())
        c.appliedVersion = q.value(15).toInt();
    return c;
}

std::optional<ConfigChange> ChangeRepository::findByRequest(const QString &siteId,
                                                            const QString &author,
                                                            const QString &clientRequestId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM config_changes WHERE site_id = :site AND"
                                  " author = :author AND client_request_id = :crid")
                       .arg(kColumns));
    q.bind(QStringLiteral(":site"), siteId)
        .bind(QStringLiteral(":author"), author)
        .bind(QStringLiteral(":crid"), clientRequestId)
        .exec();
    if (!q.next())
        return std::nullopt;
    return fromRow(q);
}

std::pair<ConfigChange, bool> ChangeRepository::createOnce(ConfigChange c)
{
    bool created = false;
    m_store.transaction([&] {
        if (auto existing = findByRequest(c.siteId, c.author, c.clientRequestId)) {
            c = *existing;
            return;
        }
        c.id = Ids::make(QStringLiteral("chg"), 16);
        c.status = QStringLiteral("pending");
        c.createdAt = m_store.clock().nowMs();
        Sql(m_store, QStringLiteral("INSERT INTO config_changes (id, site_id, author,"
                                    " client_request_id, kind, title, description, patch,"
                                    " dropped_paths, base_version, status, created_at) VALUES"
                                    " (:id, :site, :author, :crid, :kind, :title, :desc, :patch,"
                                    " :dropped, :base, 'pending', :t)"))
            .bind(QStringLiteral(":id"), c.id)
            .bind(QStringLiteral(":site"), c.siteId)
            .bind(QStringLiteral(":author"), c.author)
            .bind(QStringLiteral(":crid"), c.clientRequestId)
            .bind(QStringLiteral(":kind"), c.kind)
            .bind(QStringLiteral(":title"), JsonText::text(c.title))
            .bind(QStringLiteral(":desc"), JsonText::text(c.description))
            .bind(QStringLiteral(":patch"), JsonText::from(c.patch))
            .bind(QStringLiteral(":dropped"),
                  JsonText::from(QJsonArray::fromStringList(c.droppedPaths)))
            .bind(QStringLiteral(":base"), c.baseVersion)
            .bind(QStringLiteral(":t"), c.createdAt)
            .exec();
        created = true;
    });
    if (created) {
        m_store.notifyChanged(QStringLiteral("config_changes"), c.id);
        Q_EMIT proposalChanged(c.id);
    }
    return {c, created};
}

std::optional<ConfigChange> ChangeRepository::find(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM config_changes WHERE id = :id").arg(kColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    if (!q.next())
        return std::nullopt;
    return fromRow(q);
}

QList<ConfigChange> ChangeRepository::pending(const QString &siteId, const QString &afterId,
                                              int limit) const
{
    // Ordered by (created_at, id); the cursor is the last id of the previous page.
    Sql q(m_store,
          QStringLiteral("SELECT %1 FROM config_changes c WHERE site_id = :site AND status ="
                         " 'pending' AND (:after = '' OR (created_at, id) > (SELECT created_at,"
                         " id FROM config_changes WHERE id = :after)) ORDER BY created_at, id"
                         " LIMIT :limit")
              .arg(kColumns));
    q.bind(QStringLiteral(":site"), siteId)
        .bind(QStringLiteral(":after"), JsonText::text(afterId))
        .bind(QStringLiteral(":limit"), limit)
        .exec();
    QList<ConfigChange> out;
    while (q.next())
        out.append(fromRow(q));
    return out;
}

QList<ConfigChange> ChangeRepository::recent(const QString &status, int limit) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM config_changes c WHERE (:status = '' OR status "
                                  "= :status) ORDER BY created_at DESC, id DESC LIMIT :limit")
                       .arg(kColumns));
    q.bind(QStringLiteral(":status"), JsonText::text(status))
        .bind(QStringLiteral(":limit"), limit)
        .exec();
    QList<ConfigChange> out;
    while (q.next())
        out.append(fromRow(q));
    return out;
}

bool ChangeRepository::decide(const QString &id, const QString &status, const QString &actor,
                              const QString &note, std::optional<int> appliedVersion)
{
    Sql q(m_store, QStringLiteral("UPDATE config_changes SET status = :status, decided_at = :t,"
                                  " decided_by = :by, decision_note = :note, applied_version ="
                                  " :v WHERE id = :id AND status = 'pending'"));
    q.bind(QStringLiteral(":status"), status)
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .bind(QStringLiteral(":by"), actor)
        .bind(QStringLiteral(":note"), note)
        .bind(QStringLiteral(":v"),
              appliedVersion ? QVariant(*appliedVersion) : QVariant(QMetaType::fromType<int>()))
        .bind(QStringLiteral(":id"), id)
        .exec();
    const bool changed = q.rowsAffected() > 0;
    if (changed) {
        m_store.notifyChanged(QStringLiteral("config_changes"), id);
        Q_EMIT proposalChanged(id);
    }
    return changed;
}

} // namespace ph::sites
