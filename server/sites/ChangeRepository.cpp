#include "ChangeRepository.h"

#include "core/JsonText.h"

#include "core/Clock.h"
#include "core/Ids.h"
#include "core/SqlRow.h"
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
    SqlRow row(q);
    ConfigChange c;
    c.id = row.text();
    c.siteId = row.text();
    c.author = row.text();
    c.clientRequestId = row.text();
    c.kind = row.text();
    c.title = row.text();
    c.description = row.text();
    c.patch = row.object();
    for (const QJsonValue &v : row.array())
        c.droppedPaths.append(v.toString());
    c.baseVersion = row.number();
    c.status = row.text();
    c.createdAt = row.integer();
    c.decidedAt = row.optionalInt();
    c.decidedBy = row.text();
    c.decisionNote = row.text();
    c.appliedVersion = row.optionalNumber();
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
    return SqlRows::one(q, fromRow);
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
    return SqlRows::one(q, fromRow);
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
    return SqlRows::all(q, fromRow);
}

QList<ConfigChange> ChangeRepository::recent(const QString &status, int limit) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM config_changes c WHERE (:status = '' OR status "
                                  "= :status) ORDER BY created_at DESC, id DESC LIMIT :limit")
                       .arg(kColumns));
    q.bind(QStringLiteral(":status"), JsonText::text(status))
        .bind(QStringLiteral(":limit"), limit)
        .exec();
    return SqlRows::all(q, fromRow);
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
