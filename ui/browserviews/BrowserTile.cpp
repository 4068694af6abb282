#include "BrowserTile.h"

#include "ScreencastView.h"

#include "browser/BrowserLease.h"
#include "browser/LiveFrameSource.h"
#include "engine/TrajectoryRepository.h"

#include <QCheckBox>
#include <QDialog>
#include <QLabel>
#include <QMouseEvent>
#include <QVBoxLayout>
#include <QWebEnginePage>
#include <QWebEngineView>

namespace ph::ui {

BrowserTile::BrowserTile(const ConsoleServices &services, BrowserLease *lease, QWidget *parent)
    : QFrame(parent)
    , m_services(services)
    , m_leaseId(lease->id())
    , m_label(lease->label())
    , m_page(lease->page())
    , m_lease(lease)
{
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(this);
    m_caption = new QLabel(this);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (m_page) {
        m_view = new QWebEngineView(this);
        m_view->setPage(m_page);
        m_shown = m_view;
    } else {
        m_shown = new ScreencastView(lease->screencast(), this);
    }
    m_shown->setMinimumSize(320, 200);
    // The run owns the page: the operator watches until taking over.
    m_shown->setEnabled(false);
    m_takeOver = new QCheckBox(this);
    layout->addWidget(m_caption);
    layout->addWidget(m_shown, 1);
    layout->addWidget(m_takeOver);
    connect(m_takeOver, &QCheckBox::toggled, this, [this](bool on) {
        m_shown->setEnabled(on && runIsPaused());
        if (on && runIsPaused())
            m_shown->setFocus();
    });
    connect(lease, &BrowserLease::urlChanged, this, &BrowserTile::update);
    connect(&services.trajectories, &engine::TrajectoryRepository::trajectoryChanged, this,
            [this](const QString &id) {
                if (id == m_label)
                    update();
            });
    retranslateUi();
}

BrowserTile::~BrowserTile()
{
    // The page belongs to the pool: the view lets go of it before either is gone.
    delete m_shown;
}

bool BrowserTile::runIsPaused() const
{
    const auto run = m_services.trajectories.find(m_label);
    return run && run->status == QLatin1String("requires_input");
}

void BrowserTile::update()
{
    const bool paused = runIsPaused();
    m_takeOver->setEnabled(paused);
    if (!paused && m_takeOver->isChecked())
        m_takeOver->setChecked(false); // the run goes on: handed back
    m_shown->setEnabled(paused && m_takeOver->isChecked());
    const auto run = m_services.trajectories.find(m_label);
    m_caption->setText(QStringLiteral("<b>%1</b> %2<br>%3")
                           .arg(m_label.toHtmlEscaped(),
                                run ? QStringLiteral("— ") + run->status : QString(),
                                m_lease ? m_lease->url().toString().toHtmlEscaped() : QString()));
}

void BrowserTile::retranslateUi()
{
    m_takeOver->setText(tr("Take over (only while the run waits for input)"));
    m_takeOver->setToolTip(tr("Click and type in this page yourself; untick to hand it back."));
    m_shown->setAccessibleName(tr("Live page of %1").arg(m_label));
    update();
}

void BrowserTile::mouseDoubleClickEvent(QMouseEvent *event)
{
    enlarge();
    QFrame::mouseDoubleClickEvent(event);
}

void BrowserTile::enlarge()
{
    if (!m_page)
        return;
    // The page moves to a large view while the dialog is open, then comes back.
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Live page of %1").arg(m_label));
    auto *layout = new QVBoxLayout(&dialog);
    auto *big = new QWebEngineView(&dialog);
    big->setPage(m_page);
    big->setEnabled(m_view->isEnabled());
    layout->addWidget(big);
    dialog.resize(1200, 800);
    dialog.exec();
    delete big;
    if (m_page)
        m_view->setPage(m_page);
}

} // namespace ph::ui
