#include "A2wRunsModel.h"

#include "a2w/A2wService.h"
#include "common/DateText.h"

#include <QColor>
#include <QHash>
#include <QSet>

namespace ph::ui {

A2wRunsModel::A2wRunsModel(a2w::A2wService &service, QObject *parent)
    : RowTableModel(
          ColumnCount, [](const a2w::Run &r) { return r.id; }, parent)
    , m_service(service)
{
    connect(&m_service, &a2w::A2wService::runChanged, this, &A2wRunsModel::onChanged);
    reload();
}

void A2wRunsModel::reload()
{
    QList<a2w::Run> rows;
    for (const a2w::Run &r : m_service.list({}, 500))
        if (belongs(r))
            rows.append(r);
    resetRows(rows);
}

void A2wRunsModel::setFilter(const QString &host, const QString &status)
{
    m_host = host;
    m_status = status;
    reload();
}

QStringList A2wRunsModel::hosts() const
{
    QSet<QString> seen;
    QStringList out;
    for (const a2w::Run &r : m_service.list({}, 500))
        if (!seen.contains(r.host)) {
            seen.insert(r.host);
            out.append(r.host);
        }
    out.sort();
    return out;
}

bool A2wRunsModel::belongs(const a2w::Run &run) const
{
    return (m_host.isEmpty() || run.host == m_host) &&
           (m_status.isEmpty() || run.status == m_status);
}

void A2wRunsModel::onChanged(const QString &runId)
{
    const std::optional<a2w::Run> fresh = m_service.find(runId);
    place(runId, fresh, fresh && belongs(*fresh));
}

QString A2wRunsModel::personStatus(const QString &status, const QString &reason) const
{
    // What a page asks of a person (the run waits; the panel's Confirm is their "Done").
    const QHash<QString, QString> waits{
        {QStringLiteral("human_verification_required"), tr("a human verification")},
        {QStringLiteral("payment_method_required"), tr("a payment method")},
        {QStringLiteral("payment_confirmation_required"), tr("a payment to confirm")},
        {QStringLiteral("terms_acknowledgement_required"), tr("terms to accept")},
        {QStringLiteral("account_link_required"), tr("an account to link")},
        {QStringLiteral("offer_claim_required"), tr("an offer to claim")}};
    if (!waits.contains(reason))
        return status;
    return tr("%1 · waits for a person: %2").arg(status, waits.value(reason));
}

QVariant A2wRunsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const a2w::Run &r = m_rows.at(index.row());
    if (role == Qt::UserRole)
        return r.id;
    if (role == Qt::ToolTipRole)
        return index.column() == Created ? QVariant(fullDateTime(r.createdAt)) : QVariant(r.url);
    if (role == Qt::ForegroundRole && index.column() == Status &&
        (r.status == a2w::Status::failed || r.status == a2w::Status::expired))
        return QColor(0xc0, 0x39, 0x2b);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Site:
        return r.host;
    case Agent: {
        const QString name = r.agent.value(QStringLiteral("displayName")).toString();
        return name.isEmpty() ? tr("unknown agent") : name;
    }
    case Status:
        // What the visitor decided about a browser run, beside its status.
        if (r.status == a2w::Status::cancelled &&
            r.error == QLatin1String("declined by the visitor"))
            return tr("%1 · declined by the visitor").arg(r.status);
        if (r.status == a2w::Status::completed &&
            r.result.value(QStringLiteral("withheld")).toBool())
            return tr("%1 · result withheld by the visitor").arg(r.status);
        if (r.status == a2w::Status::inputRequired &&
            r.input.value(QStringLiteral("reason")).toString() ==
                QLatin1String("visitor_review_required"))
            return tr("%1 · the visitor reviews the result").arg(r.status);
        if (r.status == a2w::Status::inputRequired)
            return personStatus(r.status, r.input.value(QStringLiteral("reason")).toString());
        return r.status;
    case Execution:
        return r.execution;
    case Task:
        return r.kind == QLatin1String("prompt") ? r.selector.left(120)
                                                 : QStringLiteral("%1 %2").arg(r.kind, r.selector);
    case Created:
        return shortDateTime(r.createdAt);
    default:
        return {};
    }
}

QVariant A2wRunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Site:
        return tr("Site");
    case Agent:
        return tr("Visiting agent");
    case Status:
        return tr("Status");
    case Execution:
        return tr("Execution");
    case Task:
        return tr("Task");
    case Created:
        return tr("Created");
    default:
        return {};
    }
}

} // namespace ph::ui
