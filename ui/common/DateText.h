#pragma once

#include <QDateTime>
#include <QLocale>
#include <QString>

namespace ph::ui {

// A time as the console shows it in tables: the locale's short date and time.
inline QString shortDateTime(qint64 epochMs)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(epochMs), QLocale::ShortFormat);
}

} // namespace ph::ui
