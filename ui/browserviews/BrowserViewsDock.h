#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>
#include <QHash>

class QGridLayout;
class QLabel;

namespace ph {
class BrowserLease;
} // namespace ph

namespace ph::ui {

class BrowserTile;
class SessionTile;

// Live browser views: a grid of the pool's leased pages, each shown in a QWebEngineView
// attached to the very page the run drives, labelled with the run and its URL.
// Double-click enlarges one. "Take over" lets the operator click and type in a page
// whose run is paused (waiting for input), and hands it back when unticked or when the
// run goes on. Tiles come and go with the pool's leaseStarted/leaseEnded signals.
// Browser sessions (issue 30) are listed beside the runs, a SessionTile each, from
// SessionService's sessionStarted/sessionChanged/sessionEnded signals.
class BrowserViewsDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit BrowserViewsDock(const ConsoleServices &services, QWidget *parent = nullptr);
    ~BrowserViewsDock() override;

    QList<BrowserTile *> tiles() const { return m_tiles.values(); }
    BrowserTile *tileFor(const QString &runOrLabel) const;
    QList<SessionTile *> sessionTiles() const { return m_sessionTiles.values(); }
    SessionTile *sessionTileFor(const QString &sessionId) const
    {
        return m_sessionTiles.value(sessionId);
    }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void add(BrowserLease *lease);
    void remove(const QString &leaseId);
    void showSession(const QString &sessionId);
    void removeSession(const QString &sessionId);
    void layoutTiles();

    ConsoleServices m_services;
    QWidget *m_grid;
    QGridLayout *m_layout;
    QLabel *m_empty;
    QHash<QString, BrowserTile *> m_tiles;        // by lease id
    QHash<QString, SessionTile *> m_sessionTiles; // by session id
};

} // namespace ph::ui
