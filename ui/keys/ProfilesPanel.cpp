#include "ProfilesPanel.h"

#include "ProfilesModel.h"

#include "core/DomainError.h"
#include "sessions/SessionService.h"

#include "common/EmptyState.h"
#include "common/Icons.h"
#include "common/TableViews.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace ph::ui {

ProfilesPanel::ProfilesPanel(const ConsoleServices &services, QWidget *parent)
    : QGroupBox(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("profilesPanel"));
    m_model = new ProfilesModel(services.sessions, services.keyService, this);
    auto *layout = new QVBoxLayout(this);
    m_view = makeTableView(m_model, ProfilesModel::Name, this);
    m_view->setMinimumHeight(80);
    m_empty = new EmptyState(m_view);
    m_delete = new QPushButton(icon(Icon::Delete), QString(), this);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *row = new QHBoxLayout;
    row->addWidget(m_message, 1);
    row->addWidget(m_delete);
    layout->addWidget(m_view, 1);
    layout->addLayout(row);
    onDeleteKey(m_view, this, &ProfilesPanel::deleteSelected);
    connect(m_delete, &QPushButton::clicked, this, &ProfilesPanel::deleteSelected);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        m_message->clear();
        updateButtons();
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ProfilesPanel::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &ProfilesPanel::updateButtons);
    retranslateUi();
}

bool ProfilesPanel::select(const QString &keyId, const QString &name)
{
    const int row = m_model->rowOf(keyId + QLatin1Char('/') + name);
    if (row < 0)
        return false;
    m_view->setCurrentIndex(m_model->index(row, 0));
    updateButtons();
    return true;
}

void ProfilesPanel::updateButtons()
{
    const QModelIndex current = m_view->currentIndex();
    m_delete->setEnabled(current.isValid() && current.row() < m_model->rowCount());
}

void ProfilesPanel::showMessage(const QString &text, bool error)
{
    m_message->setStyleSheet(error ? QStringLiteral("color: #c0392b") : QString());
    m_message->setText(text);
}

bool ProfilesPanel::deleteSelected()
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid() || current.row() >= m_model->rowCount())
        return false;
    const KeyProfileRow profile = m_model->rowAt(current);
    QMessageBox box(QMessageBox::Warning, tr("Delete profile"),
                    tr("Delete the browser profile %1 of key %2? Its cookies, local storage and "
                       "other saved state are gone for good.")
                        .arg(profile.name, profile.keyLabel),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("confirmDeleteProfile"));
    QPushButton *confirm = box.addButton(tr("Delete profile"), QMessageBox::DestructiveRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(cancel);
    box.exec();
    if (box.clickedButton() != confirm)
        return false;
    try {
        m_services.sessions.deleteProfile(m_services.operatorPrincipal(), profile.keyId,
                                          profile.name);
    } catch (const DomainError &e) {
        // A profile a session has open is refused (409): the service's words.
        showMessage(tr("%1 (%2)").arg(e.message(), e.code()), true);
        return false;
    }
    m_model->refresh();
    showMessage(tr("Deleted the profile %1 of %2.").arg(profile.name, profile.keyLabel), false);
    return true;
}

void ProfilesPanel::retranslateUi()
{
    setTitle(tr("Browser profiles"));
    m_view->setAccessibleName(tr("Browser profiles"));
    m_empty->setText(tr("No browser profiles yet. A session created with a profile name keeps "
                        "its cookies and storage here for the next one: POST /sessions "
                        "{\"profile\": \"shop\"}."));
    m_delete->setText(tr("Delete profile (Del)"));
    m_delete->setAccessibleName(tr("Delete profile"));
    m_model->retranslate();
    updateButtons();
}

} // namespace ph::ui
