#pragma once

#include "core/ApiKeyRepository.h"
#include "core/CreditLedger.h"

#include "common/RowTableModel.h"

namespace ph {
class ApiKeyService;
}

namespace ph::ui {

// One API key as GET /keys shows it: the key (never its secret) and its usage.
struct KeyRow
{
    ApiKey key;
    CreditLedger::Totals usage;
};

// Every API key, oldest first, with balance and credits used. Live through
// ApiKeyService::keyChanged (minted, revoked, balance set, a request billed, by the
// console or the API): it updates or appends the one row.
class KeysModel : public RowTableModel<KeyRow>
{
    Q_OBJECT
public:
    enum Column {
        Label,
        Role,
        Prefix,
        State,
        Balance,
        CreditsUsed,
        Requests,
        Created,
        LastUsed,
        ColumnCount
    };

    explicit KeysModel(ApiKeyService &keys, QObject *parent = nullptr);

    // Re-reads every key (F5): changed rows update, new ones are appended.
    void refresh();

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void update(const QString &id);

    ApiKeyService &m_keys;
};

} // namespace ph::ui
