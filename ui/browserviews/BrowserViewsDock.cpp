#include "BrowserViewsDock.h"

#include "BrowserTile.h"
#include "SessionTile.h"

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
    for (const sessions::BrowserSessionInfo &info : services.sessions.all()) {
        if (info.status == QLatin1String("starting") || info.status == QLatin1String("active"))
            showSession(info.id);
    }
    connect(&services.sessions, &sessions::SessionService::sessionStarted, this,
            &BrowserViewsDock::showSession);
    connect(&services.sessions, &sessions::SessionService::sessionChanged, this,
            &BrowserViewsDock::showSession);
    connect(&services.sessions, &sessions::SessionService::sessionEnded, this,
            [this](const QString &id) { removeSession(id); });
    retranslateUi();
    layoutTiles();
}

BrowserViewsDock::~BrowserViewsDock()
{
    qDeleteAll(m_tiles);
    qDeleteAll(m_sessionTiles);
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

void BrowserViewsDock::showSession(const QString &sessionId)
{
    const auto info = m_services.sessions.find(m_services.operatorPrincipal(), sessionId);
    const bool live = info && (info->status == QLatin1String("starting") ||
                               info->status == QLatin1String("active"));
    if (!live) {
        removeSession(sessionId);
        return;
    }
    if (SessionTile *tile = m_sessionTiles.value(sessionId)) {
        tile->refresh(*info);
        return;
    }
    m_sessionTiles.insert(sessionId, new SessionTile(m_services, *info, m_grid));
    layoutTiles();
}

void BrowserViewsDock::removeSession(const QString &sessionId)
{
    if (!m_sessionTiles.contains(sessionId))
        return;
    // Later: the tile may be the one whose Release button ended the session.
    SessionTile *tile = m_sessionTiles.take(sessionId);
    tile->hide();
    tile->deleteLater();
    layoutTiles();
}

void BrowserViewsDock::layoutTiles()
{
    QList<BrowserTile *> runs = m_tiles.values();
    std::sort(runs.begin(), runs.end(),
              [](BrowserTile *a, BrowserTile *b) { return a->label() < b->label(); });
    QList<SessionTile *> sessions = m_sessionTiles.values();
    std::sort(sessions.begin(), sessions.end(),
              [](SessionTile *a, SessionTile *b) { return a->sessionId() < b->sessionId(); });
    // The runs' pages first, then the sessions.
    QList<QWidget *> tiles(runs.begin(), runs.end());
    tiles.append(QList<QWidget *>(sessions.begin(), sessions.end()));
    for (int i = m_layout->count() - 1; i >= 0; --i) {
        QWidget *w = m_layout->itemAt(i)->widget();
        if (w && w != m_empty)
            m_layout->removeWidget(w);
    }
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
    m_empty->setText(tr("No page is leased and no browser session is open right now. Pages "
                        "appear here while runs use them, sessions while they last."));
    for (BrowserTile *t : std::as_const(m_tiles))
        t->retranslateUi();
    for (SessionTile *t : std::as_const(m_sessionTiles))
        t->retranslateUi();
}

} // namespace ph::ui
