#pragma once

// What the data-library targets share: limits small enough that one input cannot take
// seconds or gigabytes (the parsers' own limits are tested elsewhere), and a check
// that every error says something.
#include "FuzzInput.h"

#include "data/DataError.h"
#include "data/Reader.h"

namespace ph::fuzz {

inline const data::Limits &fuzzLimits()
{
    static const data::Limits limits = [] {
        data::Limits l;
        l.maxBytes = 4 * 1024 * 1024;
        l.maxRows = 100'000;
        l.maxColumns = 4096;
        l.maxCells = 1'000'000;
        l.maxExpandedBytes = 16 * 1024 * 1024;
        return l;
    }();
    return limits;
}

// Every DataError names what is wrong: an empty message would reach a caller as
// "dataInputs[0]: ".
// What the engine does with a sheet it read (describe, CSV and markdown text, the URL
// column, objects), with the promise every reader makes: rows never wider than columns.
inline void exerciseSheet(const data::Sheet &sheet)
{
    for (const QJsonArray &row : sheet.rows)
        require(row.size() <= sheet.columns.size(), "a row wider than the columns");
    sheet.describe();
    sheet.toCsv();
    sheet.toMarkdown(20);
    sheet.toObjects();
    sheet.urlColumn();
    if (sheet.rowCount() > 0 && sheet.columnCount() > 0)
        sheet.value(0, sheet.columns.first().name);
}

template <typename T> void requireExplained(const data::Result<T> &result)
{
    if (!result.ok())
        require(!result.error().message.isEmpty(), "a data error without a message");
}

} // namespace ph::fuzz
