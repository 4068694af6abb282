#pragma once

#include "core/ApiKeyRepository.h"
#include "core/CreditLedger.h"

#include "common/RowTableModel.h"

namespace ph::ui {

// One API key as GET /keys shows it: the key (never its secret) and its usage.
struct KeyRow
{
    ApiKey key;
    CreditLedger::Totals usage;
};

// Every API key, oldest first, with balance and credits used. Live through
// Store::changed: "api_keys" (minted, revoked, balance set) and "credit_ledger" (a
// request billed) update or append the one row.
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

    explicit KeysModel(Store &store, QObject *parent = nullptr);

    // Re-reads every key (F5): changed rows update, new ones are appended.
    void refresh();

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void update(const QString &id);

    Store &m_store;
};

} // namespace ph::ui
