#include "SettingsModel.h"

namespace ph::ui {

SettingsModel::SettingsModel(Settings &settings, QObject *parent)
    : QAbstractTableModel(parent)
    , m_settings(settings)
{
    connect(&m_settings, &Settings::changed, this, [this](const QString &key) {
        const int row = rowOf(key);
        if (row >= 0)
            Q_EMIT dataChanged(index(row, Value), index(row, Value));
    });
}

const Settings::Definition &SettingsModel::rowAt(const QModelIndex &index) const
{
    return Settings::definitions().at(index.row());
}

int SettingsModel::rowOf(const QString &key) const
{
    const auto &defs = Settings::definitions();
    for (int i = 0; i < defs.size(); ++i) {
        if (defs.at(i).key == key)
            return i;
    }
    return -1;
}

QJsonValue SettingsModel::shownValue(int row) const
{
    const Settings::Definition &d = Settings::definitions().at(row);
    return Settings::masked(d, m_settings.value(d.key));
}

QString SettingsModel::display(const Settings::Definition &d, const QJsonValue &value)
{
    if (d.secret)
        return value.toObject().value(QStringLiteral("set")).toBool() ? tr("set") : tr("not set");
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool() ? tr("on") : tr("off");
    case QJsonValue::Double:
        return QString::number(qint64(value.toDouble()));
    case QJsonValue::String:
        return value.toString();
    default:
        return {};
    }
}

int SettingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Settings::definitions().size());
}

int SettingsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SettingsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= Settings::definitions().size())
        return {};
    const Settings::Definition &d = Settings::definitions().at(index.row());
    if (role == Qt::UserRole)
        return d.key;
    if (role == JsonValueRole)
        return shownValue(index.row()).toVariant();
    if (role == Qt::ToolTipRole)
        return d.help;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Key:
        return d.key;
    case Value:
        return display(d, shownValue(index.row()));
    case Default:
        return d.secret ? QString() : display(d, d.defaultValue);
    case Range:
        return d.maximum > 0 ? tr("%1 to %2").arg(qint64(d.minimum)).arg(qint64(d.maximum))
                             : QString();
    case Help:
        return d.help;
    default:
        return {};
    }
}

QVariant SettingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Key:
        return tr("Setting");
    case Value:
        return tr("Value");
    case Default:
        return tr("Default");
    case Range:
        return tr("Range");
    case Help:
        return tr("What it does");
    default:
        return {};
    }
}

void SettingsModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    const int rows = rowCount();
    if (rows > 0)
        Q_EMIT dataChanged(index(0, 0), index(rows - 1, ColumnCount - 1));
}

} // namespace ph::ui
