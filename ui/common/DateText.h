#pragma once

#include <QDateTime>
#include <QLocale>
#include <QString>
#include <QVariant>

namespace ph::ui {

// Every time the console shows is the locale's short date and time ("26/11/2026 09:14",
// "26.11.26 09:14"); the full date, with the weekday and the time zone, is its tooltip.
inline QString shortDateTime(qint64 epochMs)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(epochMs), QLocale::ShortFormat);
}

inline QString fullDateTime(qint64 epochMs)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(epochMs), QLocale::LongFormat);
}

// A table cell that holds a time: the short text to show, the full one as its tooltip.
inline QVariant dateCell(qint64 epochMs, int role)
{
    if (role == Qt::DisplayRole)
        return shortDateTime(epochMs);
    if (role == Qt::ToolTipRole)
        return fullDateTime(epochMs);
    return {};
}

// Room for a short date-time in `metrics`' font, with a cell's padding: date columns are
// set to it rather than measured row by row.
template <typename Metrics> int dateColumnWidth(const Metrics &metrics)
{
    // 28 December: the widest day and month numbers in most short formats.
    const QDateTime sample(QDate(2026, 12, 28), QTime(23, 58));
    return metrics.horizontalAdvance(QLocale().toString(sample, QLocale::ShortFormat)) + 24;
}

} // namespace ph::ui
