#pragma once

#include <QString>

class QJsonValue;

namespace ph::data {

// How a boolean reads in a cell: a sheet and its exports keep JSON's `true`/`false`;
// a document for people (a markdown, Word or slide table) says yes/no.
enum class BoolText { TrueFalse, YesNo };

// A JSON value as the text of one cell, the same in a sheet, a CSV or markdown export,
// a generated markdown table and an office document's table: a whole number exactly
// as written (up to 2^53), other numbers in the shortest form that reads back the
// same (never 1.23457e+06 for 1234567), strings as they are, null as empty, arrays and
// objects as compact JSON.
QString cellText(const QJsonValue &value, BoolText booleans = BoolText::TrueFalse);

} // namespace ph::data
