#pragma once

#include "data/DataError.h"
#include "data/Format.h"
#include "data/Sheet.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>

namespace ph::data {

// What one input may cost. Defaults are documented in docs/data-formats.md; every
// limit gives a DataError::Kind::TooLarge naming it when crossed.
struct Limits
{
    qint64 maxBytes = 50ll * 1024 * 1024;          // the input as given
    qint64 maxRows = 1'000'000;                    // data rows of one sheet
    int maxColumns = 16'384;                       // columns of one sheet (Excel's limit)
    qint64 maxCells = 20'000'000;                  // rows × columns of one sheet
    qint64 maxExpandedBytes = 512ll * 1024 * 1024; // decompressed xlsx parts / parquet pages
    // When set, every byte the readers decompress (xlsx parts, parquet pages) is added
    // here too, so a caller can hold several inputs to one budget. Owned by the caller.
    std::atomic<qint64> *expandedMeter = nullptr;
};

// Turns the bytes of an input into Sheets, and PDFs into text. Stateless apart from
// its limits: one Reader may serve many threads.
class Reader
{
public:
    explicit Reader(const Limits &limits = {});

    const Limits &limits() const { return m_limits; }

    // One sheet titled `title` (the input's description). Xlsx: the first worksheet,
    // titled by its sheet name when `title` is empty; parquet: the whole file.
    Result<Sheet> parse(const QByteArray &bytes, Format format, const QString &title) const;
    // Every worksheet of an xlsx workbook, each titled by its sheet name, in workbook
    // order. For the other formats: the one sheet parse() gives.
    Result<QList<Sheet>> parseAll(const QByteArray &bytes, Format format,
                                  const QString &title) const;
    // The text of every page of a PDF, pages separated by a form feed ("\f").
    Result<QString> pdfText(const QByteArray &bytes) const;

private:
    Limits m_limits;
};

} // namespace ph::data
