#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace ph::a2w {

// The table a run extracted, as files a visiting agent can download: the rows come from
// the run's JSON answer (an array of objects, or an object holding one) or else from the
// first markdown table of its text answer.
namespace TableFiles {
// The rows, or empty when the answer holds no table.
QJsonArray rowsOf(const QJsonValue &json, const QString &text);
// RFC 4180 CSV: a header of every column (in key order); nested values as JSON.
QByteArray csv(const QJsonArray &rows);
QByteArray json(const QJsonArray &rows);
} // namespace TableFiles

} // namespace ph::a2w
