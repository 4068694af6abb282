#pragma once

#include "core/Principal.h"

#include "common/RowTableModel.h"

namespace ph {
class ApiKeyService;
namespace devices {
class DeviceService;
struct DeviceInfo;
} // namespace devices
} // namespace ph

namespace ph::ui {

// One paired browser as the Devices panel lists it.
struct DeviceListRow
{
    QString id;
    QString keyId;
    QString name;
    QString version;
    QString keyLabel;
    bool connected = false;
    qint64 lastSeenAt = 0; // 0: never
    int tabCount = 0;
};

// Every key's paired browsers (issue 32): name, the key it belongs to, extension version,
// connected or offline, last seen, tab count. Live through DeviceService::deviceChanged (a
// claim, a connection, a disconnection, a tab report, a revocation, by the console or the
// API) and ApiKeyService::keyChanged (a key's label).
class DevicesModel : public RowTableModel<DeviceListRow>
{
    Q_OBJECT
public:
    enum Column { Name, Key, Version, Status, LastSeen, Tabs, ColumnCount };

    // `viewer`: the owner, who sees every key's devices.
    DevicesModel(devices::DeviceService &devices, ApiKeyService &keys, Principal viewer,
                 QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    DeviceListRow toRow(const devices::DeviceInfo &info) const;
    void onDeviceChanged(const QString &deviceId);
    void onKeyChanged(const QString &keyId);

    devices::DeviceService &m_devices;
    ApiKeyService &m_keys;
    Principal m_viewer;
};

} // namespace ph::ui
