#pragma once

#include "data/DataError.h"

#include <QByteArray>
#include <QString>

namespace ph::data::internal {

// UTF-8 (a BOM is dropped), or UTF-16 LE/BE when the bytes start with its BOM.
// Invalid UTF-8 is an error naming the byte offset of the first bad sequence.
Result<QString> decodeText(const QByteArray &bytes);
// The same decoding, replacing bad sequences: for sniffing a prefix.
QString decodeTextLenient(const QByteArray &bytes);

} // namespace ph::data::internal
