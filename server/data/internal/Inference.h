#pragma once

#include "data/DataError.h"
#include "data/Sheet.h"

#include <QJsonValue>
#include <QStringList>
#include <QStringView>

#include <optional>

// Type inference shared by every reader (docs/data-formats.md, "Types").
namespace ph::data {
struct Limits;
}

namespace ph::data::internal {

// Largest integer a JSON number (an IEEE double) holds exactly: 2^53.
constexpr qint64 kMaxExactInteger = 9007199254740992ll;

bool isIsoDate(QStringView s);
// "YYYY-MM-DD[T ]HH:MM[:SS[.fraction]][Z|±HH[:]MM]"
bool isIsoDateTime(QStringView s);

// The type of one value, and of two types met in the same column.
ColumnType typeOf(const QJsonValue &value);
ColumnType mergeTypes(ColumnType a, ColumnType b);

// Header names made usable: trimmed, empty → column_N (1-based position),
// duplicates (case-insensitive) → name_2, name_3 …
QStringList cleanHeader(const QStringList &raw);

// Converts text cells into typed values for a whole column (see Sheet::fromStrings).
// `cells` are the column's cells top to bottom; returns the type and fills `out`.
ColumnType convertTextColumn(const QList<QStringView> &cells, QList<QJsonValue> *out);

// The TooLarge error when rows × columns passes limits.maxCells, else nullopt.
std::optional<DataError> checkCells(qint64 rows, qint64 columns, const Limits &limits);

// A JSON number for a double: integral values within ±2^53 become integers.
QJsonValue numberValue(double d);

} // namespace ph::data::internal
