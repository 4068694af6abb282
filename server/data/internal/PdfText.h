#pragma once

#include "data/DataError.h"

#include <QByteArray>
#include <QString>

namespace ph::data::internal {

// The text of every page (poppler-qt6), in reading order, pages joined by "\f".
// Password-protected PDFs are Encrypted errors; damaged ones Malformed.
Result<QString> extractPdfText(const QByteArray &bytes);

} // namespace ph::data::internal
