#pragma once

#include "core/Settings.h"

#include <QAbstractTableModel>

namespace ph::ui {

// Every setting (Settings::definitions(), as GET /settings lists them) with its current
// value; secrets only as whether one is set, never their value. Live through
// Settings::changed: the one row changes.
class SettingsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Key, Value, Default, Range, Help, ColumnCount };
    // The value as GET /settings shows it (Settings::masked), as a QJsonValue.
    static constexpr int JsonValueRole = Qt::UserRole + 1;

    explicit SettingsModel(Settings &settings, QObject *parent = nullptr);

    const Settings::Definition &rowAt(const QModelIndex &index) const;
    int rowOf(const QString &key) const;
    // The current value of a row, masked for secrets ({"set": bool}).
    QJsonValue shownValue(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void retranslate();

    // A value as text: numbers whole, booleans on/off, secrets set/not set.
    static QString display(const Settings::Definition &definition, const QJsonValue &value);

private:
    Settings &m_settings;
};

} // namespace ph::ui
