#include "DevicesModel.h"

#include "common/DateText.h"

#include "core/ApiKeyService.h"
#include "devices/DeviceService.h"

#include <QColor>
#include <QSet>

namespace ph::ui {

DevicesModel::DevicesModel(devices::DeviceService &devices, ApiKeyService &keys, Principal viewer,
                           QObject *parent)
    : RowTableModel(
          ColumnCount, [](const DeviceListRow &r) { return r.id; }, parent)
    , m_devices(devices)
    , m_keys(keys)
    , m_viewer(std::move(viewer))
{
    for (const devices::DeviceInfo &d : m_devices.listAll(m_viewer))
        m_rows.prepend(toRow(d));
    connect(&m_devices, &devices::DeviceService::deviceChanged, this,
            &DevicesModel::onDeviceChanged);
    connect(&m_keys, &ApiKeyService::keyChanged, this, &DevicesModel::onKeyChanged);
}

DeviceListRow DevicesModel::toRow(const devices::DeviceInfo &d) const
{
    const auto key = m_keys.lookup(d.keyId);
    DeviceListRow row;
    row.id = d.id;
    row.keyId = d.keyId;
    row.name = d.name;
    row.version = d.version;
    row.keyLabel = key ? key->key.label : d.keyId;
    row.connected = d.connected;
    row.lastSeenAt = d.lastSeenAt;
    row.tabCount = int(d.tabs.size());
    return row;
}

void DevicesModel::onDeviceChanged(const QString &deviceId)
{
    const std::optional<devices::DeviceInfo> fresh = m_devices.find(m_viewer, deviceId);
    place(deviceId, fresh ? std::optional<DeviceListRow>(toRow(*fresh)) : std::nullopt, true);
}

void DevicesModel::onKeyChanged(const QString &keyId)
{
    // Fired for every use of a key too: only the rows of a key whose label moved change.
    const auto key = m_keys.lookup(keyId);
    const QString label = key ? key->key.label : keyId;
    for (int i = 0; i < m_rows.size(); ++i) {
        DeviceListRow row = m_rows.at(i);
        if (row.keyId != keyId || row.keyLabel == label)
            continue;
        row.keyLabel = label;
        place(row.id, row, true);
    }
}

QVariant DevicesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const DeviceListRow &r = m_rows.at(index.row());
    if (role == Qt::UserRole)
        return r.id;
    if (role == Qt::ForegroundRole && index.column() == Status)
        return r.connected ? QColor(0x27, 0xae, 0x60) : QVariant();
    if (role == Qt::ToolTipRole && index.column() == Name)
        return r.id;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Name:
        return r.name.isEmpty() ? r.id : r.name;
    case Key:
        return r.keyLabel;
    case Version:
        return r.version;
    case Status:
        return r.connected ? tr("connected") : tr("offline");
    case LastSeen:
        return r.lastSeenAt ? dateCell(r.lastSeenAt, role) : QVariant(tr("never"));
    case Tabs:
        return r.connected ? QVariant(r.tabCount) : QVariant(QString());
    default:
        return {};
    }
}

QVariant DevicesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Device");
    case Key:
        return tr("API key");
    case Version:
        return tr("Extension");
    case Status:
        return tr("Status");
    case LastSeen:
        return tr("Last seen");
    case Tabs:
        return tr("Tabs");
    default:
        return {};
    }
}

} // namespace ph::ui
