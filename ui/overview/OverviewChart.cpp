#include "OverviewChart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QDateTimeAxis>
#include <QGraphicsLayout>
#include <QKeyEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QPen>
#include <QStackedBarSeries>
#include <QValueAxis>

namespace ph::ui {

OverviewChart::OverviewChart(Kind kind, QWidget *parent)
    : QChartView(parent)
    , m_kind(kind)
{
    setFocusPolicy(Qt::StrongFocus);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(240, 170);
    setCursor(Qt::PointingHandCursor);
    auto *c = chart();
    c->setBackgroundRoundness(0);
    c->setMargins(QMargins(2, 2, 2, 2));
    c->layout()->setContentsMargins(0, 0, 0, 0);
    c->legend()->setAlignment(Qt::AlignBottom);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    c->legend()->setFont(small);
    QFont title = font();
    title.setBold(true);
    c->setTitleFont(title);
    // Follow the palette (light or dark desktop).
    const QPalette pal = palette();
    c->setBackgroundBrush(pal.base());
    c->setTitleBrush(pal.text());
    c->legend()->setLabelColor(pal.color(QPalette::Text));

    m_time = new QDateTimeAxis(c);
    QString format = QLocale().timeFormat(QLocale::ShortFormat);
    format.remove(QLatin1String(":ss")); // minutes are the grain here
    m_time->setFormat(format);
    m_time->setTickCount(5);
    m_time->setLabelsFont(small);
    m_value = new QValueAxis(c);
    m_value->setLabelFormat(QStringLiteral("%g"));
    m_value->setTickCount(3);
    m_value->setLabelsFont(small);
    for (QAbstractAxis *axis :
         {static_cast<QAbstractAxis *>(m_time), static_cast<QAbstractAxis *>(m_value)}) {
        axis->setLabelsColor(pal.color(QPalette::Text));
        axis->setGridLineColor(pal.color(QPalette::Mid));
        axis->setLinePenColor(pal.color(QPalette::Mid));
    }
    c->addAxis(m_time, Qt::AlignBottom);
    c->addAxis(m_value, Qt::AlignLeft);
    if (m_kind == Kind::Bars) {
        // Bars stand on a hidden category axis (a minute each); the time axis beside it
        // labels the same span.
        auto *bars = new QStackedBarSeries(c);
        bars->setBarWidth(0.9);
        c->addSeries(bars);
        m_categories = new QBarCategoryAxis(c);
        c->addAxis(m_categories, Qt::AlignBottom);
        bars->attachAxis(m_categories);
        bars->attachAxis(m_value);
        m_categories->setVisible(false);
        m_bars = bars;
        // An axis shows only with a series on it: an empty line keeps the time axis.
        auto *anchor = new QLineSeries(c);
        c->addSeries(anchor);
        anchor->attachAxis(m_time);
        anchor->attachAxis(m_value);
        for (QLegendMarker *marker : c->legend()->markers(anchor))
            marker->setVisible(false);
    }
}

void OverviewChart::setTitle(const QString &title)
{
    chart()->setTitle(title);
    setAccessibleName(title);
    viewport()->setAccessibleName(title); // what takes the focus and the clicks
}

void OverviewChart::addSeries(const QString &key, const QColor &color, bool dashed, bool points)
{
    m_keys << key;
    if (m_kind == Kind::Bars) {
        auto *set = new QBarSet(key);
        set->setObjectName(key);
        set->setColor(color);
        set->setBorderColor(color);
        static_cast<QStackedBarSeries *>(m_bars)->append(set);
        connect(set, &QBarSet::clicked, this, [this, key](int) {
            m_clickTaken = true;
            Q_EMIT activated(key);
        });
        m_series.insert(key, set);
        return;
    }
    auto *line = new QLineSeries(chart());
    line->setObjectName(key);
    line->setName(key);
    QPen pen(color);
    pen.setWidthF(2);
    if (dashed)
        pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    // A minute alone (a single point) draws no line: its point is marked.
    line->setPointsVisible(points);
    line->setMarkerSize(5);
    chart()->addSeries(line);
    line->attachAxis(m_time);
    line->attachAxis(m_value);
    connect(line, &QLineSeries::clicked, this, [this, key](const QPointF &) {
        m_clickTaken = true;
        Q_EMIT activated(key);
    });
    m_series.insert(key, line);
}

QObject *OverviewChart::seriesOf(const QString &key) const
{
    return m_series.value(key);
}

void OverviewChart::setSeriesName(const QString &key, const QString &name)
{
    if (auto *set = qobject_cast<QBarSet *>(seriesOf(key)))
        set->setLabel(name);
    else if (auto *line = qobject_cast<QLineSeries *>(seriesOf(key)))
        line->setName(name);
}

void OverviewChart::setBars(const QString &key, const QList<qreal> &values)
{
    auto *set = qobject_cast<QBarSet *>(seriesOf(key));
    if (!set)
        return;
    // Only what changed: within a minute that is one bar of one set.
    const int shared = int(qMin<qsizetype>(set->count(), values.size()));
    for (int i = 0; i < shared; ++i) {
        if (set->at(i) != values.at(i))
            set->replace(i, values.at(i));
    }
    if (set->count() > values.size())
        set->remove(int(values.size()), int(set->count() - values.size()));
    else if (values.size() > shared)
        set->append(values.mid(shared));
}

void OverviewChart::setPoints(const QString &key, const QList<QPointF> &points)
{
    if (auto *line = qobject_cast<QLineSeries *>(seriesOf(key)))
        line->replace(points);
}

void OverviewChart::setWindow(qint64 fromMs, int minutes, qreal maxValue)
{
    m_time->setRange(QDateTime::fromMSecsSinceEpoch(fromMs),
                     QDateTime::fromMSecsSinceEpoch(fromMs + qint64(minutes) * 60000));
    // A round top with some headroom; never below 1 so an idle hour draws a flat line.
    qreal top = 1;
    while (top < maxValue * 1.1)
        top *= top < 10 ? 2 : 1.5;
    m_value->setRange(0, top);
    if (m_categories && minutes != m_minutes) {
        QStringList categories;
        for (int i = 0; i < minutes; ++i)
            categories << QString::number(i);
        m_categories->clear();
        m_categories->append(categories);
    }
    m_minutes = minutes;
}

QList<qreal> OverviewChart::values(const QString &key) const
{
    QList<qreal> out;
    if (auto *set = qobject_cast<QBarSet *>(seriesOf(key))) {
        for (int i = 0; i < set->count(); ++i)
            out << set->at(i);
    } else if (auto *line = qobject_cast<QLineSeries *>(seriesOf(key))) {
        const QList<QPointF> points = line->points();
        for (const QPointF &p : points)
            out << p.y();
    }
    return out;
}

void OverviewChart::mousePressEvent(QMouseEvent *event)
{
    m_clickTaken = false;
    QChartView::mousePressEvent(event);
    event->accept();
}

// A bar set or line under the mouse says clicked as the button comes up (within the base
// class's handler); elsewhere the click is the whole chart's.
void OverviewChart::mouseReleaseEvent(QMouseEvent *event)
{
    QChartView::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton && !m_clickTaken)
        Q_EMIT activated(QString());
    m_clickTaken = false;
    event->accept();
}

void OverviewChart::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter ||
        event->key() == Qt::Key_Space) {
        Q_EMIT activated(QString());
        event->accept();
        return;
    }
    QChartView::keyPressEvent(event);
}

// A visible focus: the frame takes the highlight colour.
void OverviewChart::focusInEvent(QFocusEvent *event)
{
    QChartView::focusInEvent(event);
    chart()->setBackgroundPen(QPen(palette().color(QPalette::Highlight), 2));
}

void OverviewChart::focusOutEvent(QFocusEvent *event)
{
    QChartView::focusOutEvent(event);
    chart()->setBackgroundPen(Qt::NoPen);
}

} // namespace ph::ui
