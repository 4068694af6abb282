#include "data/internal/TextDecoding.h"

#include <QStringDecoder>

namespace ph::data::internal {

namespace {

enum class Encoding { Utf8, Utf16LE, Utf16BE };

Encoding detect(const QByteArray &bytes, qsizetype *bomLength)
{
    if (bytes.startsWith("\xEF\xBB\xBF")) {
        *bomLength = 3;
        return Encoding::Utf8;
    }
    if (bytes.startsWith("\xFF\xFE")) {
        *bomLength = 2;
        return Encoding::Utf16LE;
    }
    if (bytes.startsWith("\xFE\xFF")) {
        *bomLength = 2;
        return Encoding::Utf16BE;
    }
    *bomLength = 0;
    return Encoding::Utf8;
}

// Offset of the first byte that does not start or continue a valid UTF-8 sequence
// (overlong forms, surrogates and values past U+10FFFF included), or -1.
qsizetype firstInvalidUtf8(const QByteArray &bytes, qsizetype from)
{
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    const qsizetype n = bytes.size();
    qsizetype i = from;
    while (i < n) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        int len = 0;
        unsigned int cp = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (i + len > n)
            return i;
        for (int k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            return i;
        i += len;
    }
    return -1;
}

} // namespace

Result<QString> decodeText(const QByteArray &bytes)
{
    qsizetype bom = 0;
    const Encoding encoding = detect(bytes, &bom);
    if (encoding == Encoding::Utf8) {
        const qsizetype bad = firstInvalidUtf8(bytes, bom);
        if (bad >= 0)
            return DataError::malformed(
                QStringLiteral("the text is not valid UTF-8 (byte 0x%1 at offset %2); save it "
                               "as UTF-8")
                    .arg(uint(quint8(bytes[bad])), 2, 16, QLatin1Char('0'))
                    .arg(bad));
        return QString::fromUtf8(bytes.constData() + bom, bytes.size() - bom);
    }
    if ((bytes.size() - bom) % 2 != 0)
        return DataError::malformed(
            QStringLiteral("the text starts with a UTF-16 byte order mark but has an odd "
                           "number of bytes"));
    QStringDecoder decoder(encoding == Encoding::Utf16LE ? QStringConverter::Utf16LE
                                                         : QStringConverter::Utf16BE,
                           QStringConverter::Flag::Stateless);
    QString text = decoder.decode(QByteArrayView(bytes).sliced(bom));
    if (decoder.hasError())
        return DataError::malformed(QStringLiteral("the text is not valid UTF-16"));
    return text;
}

QString decodeTextLenient(const QByteArray &bytes)
{
    qsizetype bom = 0;
    const Encoding encoding = detect(bytes, &bom);
    const QByteArrayView body = QByteArrayView(bytes).sliced(bom);
    switch (encoding) {
    case Encoding::Utf8:
        return QString::fromUtf8(body);
    case Encoding::Utf16LE:
        return QStringDecoder(QStringConverter::Utf16LE).decode(body);
    case Encoding::Utf16BE:
        return QStringDecoder(QStringConverter::Utf16BE).decode(body);
    }
    return {};
}

} // namespace ph::data::internal
