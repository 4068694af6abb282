#include "TriggersModel.h"
#include "common/DateText.h"

#include <QDateTime>
#include <QLocale>

namespace ph::ui {

TriggersModel::TriggersModel(cloud::LibraryRepository &library, QString baseUrl, QObject *parent)
    : RowTableModel(
          ColumnCount, [](const cloud::Trigger &r) { return r.id; }, parent)
    , m_library(library)
    , m_baseUrl(std::move(baseUrl))
{
    m_rows = library.triggers(QString());
    connect(&m_library, &cloud::LibraryRepository::triggerChanged, this,
            &TriggersModel::onTriggerChanged);
}

QString TriggersModel::urlOf(const cloud::Trigger &trigger) const
{
    return trigger.toJson(m_baseUrl).value(QStringLiteral("url")).toString();
}

QVariant TriggersModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const cloud::Trigger &t = m_rows.at(index.row());
    if (role == Qt::UserRole)
        return t.id;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Label:
        return t.label;
    case Target:
        if (t.targetKind == QLatin1String("tool"))
            return tr("tool %1").arg(t.target);
        if (t.targetKind == QLatin1String("run"))
            return tr("run %1").arg(t.target);
        return tr("prompt: %1").arg(t.target.simplified().left(80));
    case Active:
        return t.revokedAt ? tr("revoked") : tr("active");
    case Fired:
        return t.fireCount;
    case LastFired:
        return t.lastFiredAt ? dateCell(*t.lastFiredAt, role) : QVariant(QString());
    case Url:
        return urlOf(t);
    default:
        return {};
    }
}

QVariant TriggersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Label:
        return tr("Label");
    case Target:
        return tr("Target");
    case Active:
        return tr("State");
    case Fired:
        return tr("Fired");
    case LastFired:
        return tr("Last fired");
    case Url:
        return tr("URL");
    default:
        return {};
    }
}

void TriggersModel::onTriggerChanged(const QString &id)
{
    const auto fresh = m_library.trigger(id);
    place(id, fresh, true);
}

} // namespace ph::ui
