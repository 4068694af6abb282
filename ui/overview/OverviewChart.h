#pragma once

#include <QChartView>
#include <QDateTime>

class QAbstractSeries;
class QBarCategoryAxis;
class QDateTimeAxis;
class QValueAxis;

namespace ph::ui {

// One of the Overview's charts: the last hour on a time axis, counts or values per
// minute. Clicking it (or Enter/Space while it has the focus) asks for the matching panel:
// `activated` carries the filter of the bar set or line clicked ("" for the whole chart).
class OverviewChart : public QChartView
{
    Q_OBJECT
public:
    enum class Kind { Bars, Lines };
    explicit OverviewChart(Kind kind, QWidget *parent = nullptr);

    // Adds a bar set or a line named `key` (its filter when clicked, and how tests find it);
    // `points` marks a line's points (where minutes may stand alone).
    void addSeries(const QString &key, const QColor &color, bool dashed = false,
                   bool points = false);
    void setSeriesName(const QString &key, const QString &name);
    void setTitle(const QString &title);

    // Bars: `values` per minute (as many as the categories); lines: points (ms, value).
    void setBars(const QString &key, const QList<qreal> &values);
    void setPoints(const QString &key, const QList<QPointF> &points);
    // The time axis: `minutes` whole minutes from `fromMs`; the value axis fits `maxValue`.
    void setWindow(qint64 fromMs, int minutes, qreal maxValue);

    // What the chart shows now (for tests): per-minute bar values or the line's y values.
    QList<qreal> values(const QString &key) const;
    QStringList keys() const { return m_keys; }

Q_SIGNALS:
    void activated(const QString &filter);

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    QObject *seriesOf(const QString &key) const;

    Kind m_kind;
    QStringList m_keys;
    QHash<QString, QObject *> m_series; // QBarSet or QLineSeries
    QAbstractSeries *m_bars = nullptr;  // the stacked bar series holding the sets
    QBarCategoryAxis *m_categories = nullptr;
    QDateTimeAxis *m_time;
    QValueAxis *m_value;
    bool m_clickTaken = false;
    int m_minutes = 0;
};

} // namespace ph::ui
