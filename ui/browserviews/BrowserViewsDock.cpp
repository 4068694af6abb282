#include "BrowserViewsDock.h"

#include "BrowserTile.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>

namespace ph::ui {

BrowserViewsDock::BrowserViewsDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("browserViewsDock"));
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    m_grid = new QWidget(scroll);
    m_layout = new QGridLayout(m_grid);
    m_empty = new QLabel(m_grid);
    m_empty->setAlignment(Qt::AlignCenter);
    m_layout->addWidget(m_empty, 0, 0);
    scroll->setWidget(m_grid);
    setWidget(scroll);
    for (BrowserLease *lease : services.pool.leases())
        add(lease);
    connect(&services.pool, &BrowserPool::leaseStarted, this, &BrowserViewsDock::add);
    connect(&services.pool, &BrowserPool::leaseEnded, this, &BrowserViewsDock::remove);
    retranslateUi();
    layoutTiles();
}

BrowserViewsDock::~BrowserViewsDock()
{
    qDeleteAll(m_tiles);
}

BrowserTile *BrowserViewsDock::tileFor(const QString &runOrLabel) const
{
    for (BrowserTile *t : m_tiles) {
        if (t->label() == runOrLabel)
            return t;
    }
    return nullptr;
}

void BrowserViewsDock::add(BrowserLease *lease)
{
    if (!lease || m_tiles.contains(lease->id()))
        return;
    m_tiles.insert(lease->id(), new BrowserTile(m_services, lease, m_grid));
    layoutTiles();
}

void BrowserViewsDock::remove(const QString &leaseId)
{
    delete m_tiles.take(leaseId);
    layoutTiles();
}

void BrowserViewsDock::layoutTiles()
{
    QList<BrowserTile *> tiles = m_tiles.values();
    std::sort(tiles.begin(), tiles.end(),
              [](BrowserTile *a, BrowserTile *b) { return a->label() < b->label(); });
    for (BrowserTile *t : std::as_const(tiles))
        m_layout->removeWidget(t);
    m_empty->setVisible(tiles.isEmpty());
    const int columns = 2;
    for (int i = 0; i < tiles.size(); ++i) {
        m_layout->addWidget(tiles.at(i), i / columns, i % columns);
        tiles.at(i)->show();
    }
}

void BrowserViewsDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void BrowserViewsDock::retranslateUi()
{
    setWindowTitle(tr("Live browser views"));
    widget()->setAccessibleName(tr("Live browser views"));
    m_empty->setText(tr("No page is leased right now. Pages appear here while runs use them."));
    for (BrowserTile *t : std::as_const(m_tiles))
        t->retranslateUi();
}

} // namespace ph::ui
