#include "data/internal/ParquetReader.h"

#include "data/Reader.h"
#include "data/internal/Inference.h"
#include "data/internal/Thrift.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimeZone>
#include <QUuid>

#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace ph::data::internal {

using thrift::Value;

namespace {

// parquet.thrift enums
enum PhysicalType {
    Boolean = 0,
    Int32 = 1,
    Int64 = 2,
    Int96 = 3,
    Float = 4,
    Double = 5,
    ByteArray = 6,
    FixedLenByteArray = 7
};
enum Repetition { Required = 0, Optional = 1, Repeated = 2 };
enum Converted {
    CUtf8 = 0,
    CMap = 1,
    CMapKeyValue = 2,
    CList = 3,
    CEnum = 4,
    CDecimal = 5,
    CDate = 6,
    CTimeMillis = 7,
    CTimeMicros = 8,
    CTimestampMillis = 9,
    CTimestampMicros = 10,
    CUint8 = 11,
    CUint16 = 12,
    CUint32 = 13,
    CUint64 = 14,
    CInt8 = 15,
    CInt16 = 16,
    CInt32 = 17,
    CInt64 = 18,
    CJson = 19,
    CBson = 20,
    CInterval = 21
};
enum Logical {
    LNone = 0,
    LString = 1,
    LMap = 2,
    LList = 3,
    LEnum = 4,
    LDecimal = 5,
    LDate = 6,
    LTime = 7,
    LTimestamp = 8,
    LInteger = 10,
    LUnknown = 11,
    LJson = 12,
    LBson = 13,
    LUuid = 14,
    LFloat16 = 15
};
enum Encoding {
    Plain = 0,
    PlainDictionary = 2,
    Rle = 3,
    BitPacked = 4,
    DeltaBinaryPacked = 5,
    DeltaLengthByteArray = 6,
    DeltaByteArray = 7,
    RleDictionary = 8,
    ByteStreamSplit = 9
};
enum Codec {
    Uncompressed = 0,
    Snappy = 1,
    Gzip = 2,
    Lzo = 3,
    Brotli = 4,
    Lz4 = 5,
    Zstd = 6,
    Lz4Raw = 7
};
enum PageType { DataPage = 0, IndexPage = 1, DictionaryPage = 2, DataPageV2 = 3 };
enum TimeUnit { Millis = 1, Micros = 2, Nanos = 3 };

// What a value means, from the converted and logical types.
enum class Meaning {
    Plain,     // by physical type
    String,    // UTF-8 text
    Json,      // JSON text, parsed
    Binary,    // base64
    Decimal,   // unscaled integer / 10^scale
    Date,      // days since 1970-01-01
    Time,      // time of day in `unit`
    Timestamp, // since the epoch in `unit`
    Unsigned,  // unsigned integer
    Uuid,
    Float16,
};

QString encodingName(int e)
{
    static const char *const names[] = {
        "PLAIN",          "GROUP_VAR_INT",       "PLAIN_DICTIONARY",        "RLE",
        "BIT_PACKED",     "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
        "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
    if (e >= 0 && e < int(std::size(names)))
        return QLatin1String(names[e]);
    return QStringLiteral("#%1").arg(e);
}

QString codecName(int c)
{
    static const char *const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                        "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
    if (c >= 0 && c < int(std::size(names)))
        return QLatin1String(names[c]);
    return QStringLiteral("#%1").arg(c);
}

struct ColumnSchema
{
    QString name;
    int physical = ByteArray;
    int typeLength = 0;
    bool optional = false;
    Meaning meaning = Meaning::Plain;
    int scale = 0;
    int unit = Millis;
    bool utc = true;
    ColumnType type = ColumnType::String;
};

class Failure
{
public:
    DataError error;
};

[[noreturn]] void fail(DataError error)
{
    throw Failure{std::move(error)};
}

[[noreturn]] void corrupt(const QString &message)
{
    fail(DataError::malformed(QStringLiteral("not a readable parquet file: %1").arg(message)));
}

quint32 le32(const uchar *p)
{
    return quint32(p[0]) | quint32(p[1]) << 8 | quint32(p[2]) << 16 | quint32(p[3]) << 24;
}

quint64 le64(const uchar *p)
{
    return quint64(le32(p)) | quint64(le32(p + 4)) << 32;
}

// A bounds-checked view of bytes.
struct Span
{
    const uchar *p = nullptr;
    const uchar *end = nullptr;

    qint64 size() const { return end - p; }
    void need(qint64 n, const QString &column) const
    {
        if (n < 0 || size() < n)
            corrupt(QStringLiteral("column '%1' ends in the middle of a value").arg(column));
    }
};

quint64 readVarint(Span *s, const QString &column)
{
    quint64 v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        s->need(1, column);
        const uchar b = *s->p++;
        v |= quint64(b & 0x7F) << shift;
        if (!(b & 0x80))
            return v;
    }
    corrupt(QStringLiteral("column '%1' has a malformed varint").arg(column));
}

qint64 readZigZag(Span *s, const QString &column)
{
    const quint64 v = readVarint(s, column);
    return qint64(v >> 1) ^ -qint64(v & 1);
}

// Bit-unpacks `count` values of `width` bits, least significant bit first.
void unpack(const uchar *p, int width, qint64 count, quint64 *out)
{
    quint64 bitPos = 0;
    for (qint64 i = 0; i < count; ++i) {
        quint64 v = 0;
        for (int b = 0; b < width; ++b, ++bitPos) {
            if (p[bitPos >> 3] & (1u << (bitPos & 7)))
                v |= quint64(1) << b;
        }
        out[i] = v;
    }
}

// The RLE / bit-packed hybrid (levels, dictionary indices, RLE booleans).
std::vector<quint32> decodeHybrid(Span s, int width, qint64 count, const QString &column)
{
    if (width < 0 || width > 32)
        corrupt(QStringLiteral("column '%1' has a bit width of %2").arg(column).arg(width));
    std::vector<quint32> out;
    out.reserve(size_t(count));
    const int byteWidth = (width + 7) / 8;
    quint64 group[8];
    while (qint64(out.size()) < count) {
        const quint64 header = readVarint(&s, column);
        if (header & 1) {
            const quint64 groups = header >> 1;
            if (width > 0 && groups > quint64(s.size()) / quint64(width))
                corrupt(QStringLiteral("column '%1' has a bit-packed run past the page's end")
                            .arg(column));
            for (quint64 g = 0; g < groups && qint64(out.size()) < count; ++g) {
                unpack(s.p, width, 8, group);
                s.p += width;
                for (int k = 0; k < 8 && qint64(out.size()) < count; ++k)
                    out.push_back(quint32(group[k]));
            }
        } else {
            const quint64 run = header >> 1;
            if (run == 0)
                corrupt(QStringLiteral("column '%1' has an empty RLE run").arg(column));
            s.need(byteWidth, column);
            quint32 v = 0;
            for (int b = 0; b < byteWidth; ++b)
                v |= quint32(s.p[b]) << (8 * b);
            s.p += byteWidth;
            const quint64 take = std::min<quint64>(run, quint64(count) - out.size());
            out.insert(out.end(), size_t(take), v);
        }
    }
    return out;
}

// DELTA_BINARY_PACKED: `count` values; advances `s` past the encoded block.
std::vector<qint64> decodeDeltaBinary(Span *s, qint64 count, const QString &column)
{
    const quint64 blockSize = readVarint(s, column);
    const quint64 miniblocks = readVarint(s, column);
    const quint64 total = readVarint(s, column);
    qint64 value = readZigZag(s, column);
    if (blockSize == 0 || blockSize % 128 != 0 || miniblocks == 0 || blockSize % miniblocks != 0 ||
        (blockSize / miniblocks) % 32 != 0 || blockSize > (1u << 20))
        corrupt(
            QStringLiteral("column '%1' has a malformed DELTA_BINARY_PACKED header").arg(column));
    if (qint64(total) != count)
        corrupt(QStringLiteral("column '%1' has %2 delta-encoded values where the page has %3")
                    .arg(column)
                    .arg(total)
                    .arg(count));
    const quint64 perMiniblock = blockSize / miniblocks;
    std::vector<qint64> out;
    out.reserve(size_t(count));
    if (total == 0)
        return out;
    out.push_back(value);
    std::vector<quint64> unpacked(perMiniblock);
    while (quint64(out.size()) < total) {
        const qint64 minDelta = readZigZag(s, column);
        s->need(qint64(miniblocks), column);
        const uchar *widths = s->p;
        s->p += miniblocks;
        for (quint64 m = 0; m < miniblocks && quint64(out.size()) < total; ++m) {
            const int width = widths[m];
            if (width > 64)
                corrupt(QStringLiteral("column '%1' has a delta bit width of %2")
                            .arg(column)
                            .arg(width));
            const qint64 bytes = qint64(perMiniblock) * width / 8;
            s->need(bytes, column);
            unpack(s->p, width, qint64(perMiniblock), unpacked.data());
            s->p += bytes;
            for (quint64 k = 0; k < perMiniblock && quint64(out.size()) < total; ++k) {
                value = qint64(quint64(value) + quint64(minDelta) + unpacked[k]);
                out.push_back(value);
            }
        }
    }
    out.resize(size_t(count));
    return out;
}

QString isoDateTime(qint64 seconds, qint64 nanos, bool utc)
{
    const QDateTime dt = QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC);
    if (!dt.isValid())
        return {};
    QString s = dt.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    if (nanos != 0) {
        QString fraction = QStringLiteral("%1").arg(nanos, 9, 10, QLatin1Char('0'));
        while (fraction.endsWith(QLatin1String("000")))
            fraction.chop(3);
        s += QLatin1Char('.') + fraction;
    }
    if (utc)
        s += QLatin1Char('Z');
    return s;
}

// A count of `unit`s since the epoch (or midnight) as seconds and nanoseconds.
void split(qint64 v, int unit, qint64 *seconds, qint64 *nanos)
{
    const qint64 perSecond = unit == Millis ? 1000 : unit == Micros ? 1000000 : 1000000000;
    qint64 s = v / perSecond;
    qint64 rest = v % perSecond;
    if (rest < 0) {
        rest += perSecond;
        --s;
    }
    *seconds = s;
    *nanos = rest * (1000000000 / perSecond);
}

QJsonValue timeOfDay(qint64 v, int unit)
{
    qint64 seconds = 0, nanos = 0;
    split(v, unit, &seconds, &nanos);
    if (seconds < 0 || seconds >= 86400)
        return QJsonValue::Null;
    QString s = QStringLiteral("%1:%2:%3")
                    .arg(seconds / 3600, 2, 10, QLatin1Char('0'))
                    .arg(seconds / 60 % 60, 2, 10, QLatin1Char('0'))
                    .arg(seconds % 60, 2, 10, QLatin1Char('0'));
    if (nanos != 0) {
        QString fraction = QStringLiteral("%1").arg(nanos, 9, 10, QLatin1Char('0'));
        while (fraction.endsWith(QLatin1String("000")))
            fraction.chop(3);
        s += QLatin1Char('.') + fraction;
    }
    return s;
}

QJsonValue stringOrNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

QJsonValue decimal(double unscaled, int scale)
{
    const double v = unscaled / std::pow(10.0, scale);
    return std::isfinite(v) ? numberValue(v) : QJsonValue(QJsonValue::Null);
}

// Big-endian two's complement of any length as a double.
double bigEndianSigned(const uchar *p, qint64 n)
{
    if (n == 0)
        return 0;
    const bool negative = p[0] & 0x80;
    double v = 0;
    for (qint64 i = 0; i < n; ++i)
        v = v * 256 + double(negative ? uchar(~p[i]) : p[i]);
    return negative ? -(v + 1) : v;
}

double halfToDouble(quint16 h)
{
    const int exponent = (h >> 10) & 0x1F;
    const int mantissa = h & 0x3FF;
    double v;
    if (exponent == 0)
        v = std::ldexp(double(mantissa), -24);
    else if (exponent == 31)
        v = mantissa ? NAN : INFINITY;
    else
        v = std::ldexp(double(mantissa + 1024), exponent - 25);
    return (h & 0x8000) ? -v : v;
}

QJsonValue finiteOrNull(double d)
{
    return std::isfinite(d) ? QJsonValue(d) : QJsonValue(QJsonValue::Null);
}

QJsonValue bytesValue(const ColumnSchema &c, const uchar *p, qint64 n)
{
    const QByteArray raw(reinterpret_cast<const char *>(p), qsizetype(n));
    switch (c.meaning) {
    case Meaning::Decimal:
        return decimal(bigEndianSigned(p, n), c.scale);
    case Meaning::Uuid:
        if (n == 16)
            return QUuid::fromRfc4122(raw).toString(QUuid::WithoutBraces);
        break;
    case Meaning::Float16:
        if (n == 2)
            return finiteOrNull(halfToDouble(quint16(p[0] | p[1] << 8)));
        break;
    case Meaning::Json: {
        const QJsonDocument doc = QJsonDocument::fromJson(raw);
        if (doc.isObject())
            return doc.object();
        if (doc.isArray())
            return doc.array();
        return QString::fromUtf8(raw);
    }
    case Meaning::Binary:
        return QString::fromLatin1(raw.toBase64());
    default:
        break;
    }
    // Strings, and byte arrays without annotation that hold valid UTF-8.
    QString s = QString::fromUtf8(raw);
    if (c.meaning != Meaning::String && s.toUtf8() != raw)
        return QString::fromLatin1(raw.toBase64());
    return s;
}

QJsonValue int32Value(const ColumnSchema &c, qint32 v)
{
    switch (c.meaning) {
    case Meaning::Unsigned:
        return QJsonValue(qint64(quint32(v)));
    case Meaning::Date:
        return stringOrNull(QDate(1970, 1, 1).addDays(v).toString(Qt::ISODate));
    case Meaning::Decimal:
        return decimal(v, c.scale);
    case Meaning::Time:
        return timeOfDay(v, c.unit);
    default:
        return QJsonValue(qint64(v));
    }
}

QJsonValue int64Value(const ColumnSchema &c, qint64 v)
{
    switch (c.meaning) {
    case Meaning::Unsigned:
        if (v < 0)
            return QJsonValue(double(quint64(v)));
        return QJsonValue(v);
    case Meaning::Decimal:
        return decimal(double(v), c.scale);
    case Meaning::Time:
        return timeOfDay(v, c.unit);
    case Meaning::Timestamp: {
        qint64 seconds = 0, nanos = 0;
        split(v, c.unit, &seconds, &nanos);
        return stringOrNull(isoDateTime(seconds, nanos, c.utc));
    }
    default:
        return QJsonValue(v);
    }
}

QJsonValue int96Value(const uchar *p)
{
    const qint64 nanosOfDay = qint64(le64(p));
    const qint64 julianDay = qint32(le32(p + 8));
    if (nanosOfDay < 0 || nanosOfDay >= 86400ll * 1000000000 || julianDay < 0 ||
        julianDay > 5373484)
        return QJsonValue::Null;
    const qint64 days = julianDay - 2440588;
    return stringOrNull(
        isoDateTime(days * 86400 + nanosOfDay / 1000000000, nanosOfDay % 1000000000, true));
}

int fixedWidth(const ColumnSchema &c)
{
    switch (c.physical) {
    case Boolean:
        return 0;
    case Int32:
    case Float:
        return 4;
    case Int64:
    case Double:
        return 8;
    case Int96:
        return 12;
    case FixedLenByteArray:
        return c.typeLength;
    default:
        return -1;
    }
}

// One value of a fixed-width physical type from its little-endian bytes.
QJsonValue fixedValue(const ColumnSchema &c, const uchar *p)
{
    switch (c.physical) {
    case Int32:
        return int32Value(c, qint32(le32(p)));
    case Int64:
        return int64Value(c, qint64(le64(p)));
    case Int96:
        return int96Value(p);
    case Float: {
        const quint32 bits = le32(p);
        float f;
        std::memcpy(&f, &bits, 4);
        return finiteOrNull(double(f));
    }
    case Double: {
        const quint64 bits = le64(p);
        double d;
        std::memcpy(&d, &bits, 8);
        return finiteOrNull(d);
    }
    case FixedLenByteArray:
        return bytesValue(c, p, c.typeLength);
    default:
        return QJsonValue::Null;
    }
}

void decodePlain(const ColumnSchema &c, Span s, qint64 count, QList<QJsonValue> *out)
{
    if (c.physical == Boolean) {
        s.need((count + 7) / 8, c.name);
        for (qint64 i = 0; i < count; ++i)
            out->append(bool(s.p[i >> 3] & (1u << (i & 7))));
        return;
    }
    if (c.physical == ByteArray) {
        for (qint64 i = 0; i < count; ++i) {
            s.need(4, c.name);
            const qint64 n = le32(s.p);
            s.p += 4;
            s.need(n, c.name);
            out->append(bytesValue(c, s.p, n));
            s.p += n;
        }
        return;
    }
    const int width = fixedWidth(c);
    if (width <= 0)
        corrupt(QStringLiteral("column '%1' has a fixed length of %2").arg(c.name).arg(width));
    if (count > s.size() / width)
        corrupt(QStringLiteral("column '%1' ends in the middle of a value").arg(c.name));
    for (qint64 i = 0; i < count; ++i, s.p += width)
        out->append(fixedValue(c, s.p));
}

void decodeByteStreamSplit(const ColumnSchema &c, Span s, qint64 count, QList<QJsonValue> *out)
{
    const int width = fixedWidth(c);
    if (width <= 0 || c.physical == Int96)
        fail(DataError::unsupported(
            QStringLiteral("parquet column '%1' uses BYTE_STREAM_SPLIT on a type it does not "
                           "apply to")
                .arg(c.name)));
    if (count > s.size() / width)
        corrupt(QStringLiteral("column '%1' ends in the middle of a value").arg(c.name));
    std::vector<uchar> value(static_cast<size_t>(width));
    for (qint64 i = 0; i < count; ++i) {
        for (int k = 0; k < width; ++k)
            value[size_t(k)] = s.p[qint64(k) * count + i];
        out->append(fixedValue(c, value.data()));
    }
}

void decodeDeltaInts(const ColumnSchema &c, Span s, qint64 count, QList<QJsonValue> *out)
{
    if (c.physical != Int32 && c.physical != Int64)
        fail(DataError::unsupported(
            QStringLiteral("parquet column '%1' uses DELTA_BINARY_PACKED on a non-integer type")
                .arg(c.name)));
    for (const qint64 v : decodeDeltaBinary(&s, count, c.name))
        out->append(c.physical == Int32 ? int32Value(c, qint32(v)) : int64Value(c, v));
}

void decodeDeltaLength(const ColumnSchema &c, Span s, qint64 count, QList<QJsonValue> *out)
{
    const std::vector<qint64> lengths = decodeDeltaBinary(&s, count, c.name);
    for (const qint64 n : lengths) {
        s.need(n, c.name);
        out->append(bytesValue(c, s.p, n));
        s.p += n;
    }
}

void decodeDeltaByteArray(const ColumnSchema &c, Span s, qint64 count, QList<QJsonValue> *out,
                          qint64 maxBytes)
{
    const std::vector<qint64> prefixes = decodeDeltaBinary(&s, count, c.name);
    const std::vector<qint64> suffixes = decodeDeltaBinary(&s, count, c.name);
    QByteArray previous;
    qint64 produced = 0;
    for (qint64 i = 0; i < count; ++i) {
        const qint64 prefix = prefixes[size_t(i)];
        const qint64 suffix = suffixes[size_t(i)];
        if (prefix < 0 || prefix > previous.size())
            corrupt(QStringLiteral("column '%1' has a prefix longer than the previous value")
                        .arg(c.name));
        s.need(suffix, c.name);
        QByteArray v = previous.left(prefix);
        v.append(reinterpret_cast<const char *>(s.p), qsizetype(suffix));
        s.p += suffix;
        produced += v.size();
        if (produced > maxBytes)
            fail(DataError::tooLarge(
                QStringLiteral("parquet column '%1' expands past the limit of %2 bytes")
                    .arg(c.name)
                    .arg(maxBytes)));
        out->append(bytesValue(c, reinterpret_cast<const uchar *>(v.constData()), v.size()));
        previous = v;
    }
}

QByteArray decompress(int codec, Span s, qint64 uncompressedSize, const QString &column)
{
    const char *src = reinterpret_cast<const char *>(s.p);
    const size_t srcSize = size_t(s.size());
    switch (codec) {
    case Uncompressed:
        if (s.size() != uncompressedSize)
            corrupt(QStringLiteral("column '%1' has a page whose sizes disagree").arg(column));
        return QByteArray(src, qsizetype(srcSize));
    case Snappy: {
        size_t length = 0;
        if (!snappy::GetUncompressedLength(src, srcSize, &length) ||
            qint64(length) != uncompressedSize)
            corrupt(QStringLiteral("column '%1' has a corrupt SNAPPY page").arg(column));
        QByteArray out(qsizetype(length), Qt::Uninitialized);
        if (!snappy::RawUncompress(src, srcSize, out.data()))
            corrupt(QStringLiteral("column '%1' has a corrupt SNAPPY page").arg(column));
        return out;
    }
    case Gzip: {
        QByteArray out(qsizetype(uncompressedSize), Qt::Uninitialized);
        z_stream z{};
        if (inflateInit2(&z, 15 + 32) != Z_OK)
            corrupt(QStringLiteral("zlib could not start"));
        z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(src));
        z.avail_in = uInt(srcSize);
        z.next_out = reinterpret_cast<Bytef *>(out.data());
        z.avail_out = uInt(out.size());
        const int rc = inflate(&z, Z_FINISH);
        const qint64 produced = qint64(z.total_out);
        inflateEnd(&z);
        if (rc != Z_STREAM_END || produced != uncompressedSize)
            corrupt(QStringLiteral("column '%1' has a corrupt GZIP page").arg(column));
        return out;
    }
    case Zstd: {
        QByteArray out(qsizetype(uncompressedSize), Qt::Uninitialized);
        const size_t rc = ZSTD_decompress(out.data(), size_t(out.size()), src, srcSize);
        if (ZSTD_isError(rc) || qint64(rc) != uncompressedSize)
            corrupt(QStringLiteral("column '%1' has a corrupt ZSTD page").arg(column));
        return out;
    }
    default:
        fail(DataError::unsupported(
            QStringLiteral("parquet column '%1' uses the %2 codec, which is not supported "
                           "(UNCOMPRESSED, SNAPPY, GZIP and ZSTD are)")
                .arg(column, codecName(codec))));
    }
}

// Dictionary-encoded values: a bit width, then RLE/bit-packed indexes into the dictionary.
void decodeDictionaryIndexes(const ColumnSchema &c, Span values, qint64 present,
                             const QList<QJsonValue> *dictionary, QList<QJsonValue> *out)
{
    if (!dictionary)
        corrupt(QStringLiteral("column '%1' uses a dictionary it does not have").arg(c.name));
    values.need(present > 0 ? 1 : 0, c.name);
    if (present > 0) {
        const int width = *values.p++;
        for (const quint32 index : decodeHybrid(values, width, present, c.name)) {
            if (index >= quint32(dictionary->size()))
                corrupt(QStringLiteral("column '%1' refers past its dictionary").arg(c.name));
            out->append((*dictionary)[index]);
        }
    }
}

[[noreturn]] void nestedUnsupported(const QString &column)
{
    fail(DataError::unsupported(
        QStringLiteral("parquet column '%1' uses nested repetition, which is not supported")
            .arg(column)));
}

// The unit of a TIME or TIMESTAMP logical type: the id of its TimeUnit union's member.
int timeUnitOf(const Value *body)
{
    const Value *unit = body ? body->field(2) : nullptr;
    if (unit && unit->type == Value::Type::Struct && !unit->fields.empty())
        return unit->fields.front().id;
    return int(Millis);
}

// The meaning from the (newer) logical type annotation; false when it gives none.
bool applyLogicalType(ColumnSchema &c, int logical, const Value *body)
{
    switch (logical) {
    case LString:
    case LEnum:
        c.meaning = Meaning::String;
        return true;
    case LJson:
        c.meaning = Meaning::Json;
        return true;
    case LBson:
        c.meaning = Meaning::Binary;
        return true;
    case LUuid:
        c.meaning = Meaning::Uuid;
        return true;
    case LFloat16:
        c.meaning = Meaning::Float16;
        return true;
    case LDecimal:
        c.meaning = Meaning::Decimal;
        c.scale = int(body->integerField(1, c.scale));
        return true;
    case LDate:
        c.meaning = Meaning::Date;
        return true;
    case LTime:
        c.meaning = Meaning::Time;
        c.unit = timeUnitOf(body);
        return true;
    case LTimestamp:
        c.meaning = Meaning::Timestamp;
        c.unit = timeUnitOf(body);
        c.utc = body->boolField(1, true);
        return true;
    case LInteger:
        c.meaning = body->boolField(2, true) ? Meaning::Plain : Meaning::Unsigned;
        return true;
    case LMap:
    case LList:
        nestedUnsupported(c.name);
    default:
        return false;
    }
}

// The meaning from the (legacy) converted type, read when there is no logical type.
void applyConvertedType(ColumnSchema &c, int converted)
{
    switch (converted) {
    case CUtf8:
    case CEnum:
        c.meaning = Meaning::String;
        break;
    case CJson:
        c.meaning = Meaning::Json;
        break;
    case CBson:
    case CInterval:
        c.meaning = Meaning::Binary;
        break;
    case CDecimal:
        c.meaning = Meaning::Decimal;
        break;
    case CDate:
        c.meaning = Meaning::Date;
        break;
    case CTimeMillis:
        c.meaning = Meaning::Time;
        c.unit = Millis;
        break;
    case CTimeMicros:
        c.meaning = Meaning::Time;
        c.unit = Micros;
        break;
    case CTimestampMillis:
        c.meaning = Meaning::Timestamp;
        c.unit = Millis;
        break;
    case CTimestampMicros:
        c.meaning = Meaning::Timestamp;
        c.unit = Micros;
        break;
    case CUint8:
    case CUint16:
    case CUint32:
    case CUint64:
        c.meaning = Meaning::Unsigned;
        break;
    case CMap:
    case CMapKeyValue:
    case CList:
        nestedUnsupported(c.name);
    default:
        break;
    }
}

// The sheet type of a column whose values mean no more than their physical type.
ColumnType physicalSheetType(int physical)
{
    switch (physical) {
    case Boolean:
        return ColumnType::Boolean;
    case Int32:
    case Int64:
        return ColumnType::Integer;
    case Int96:
        return ColumnType::DateTime;
    case Float:
    case Double:
        return ColumnType::Number;
    default:
        return ColumnType::String;
    }
}

// The column's type in the sheet.
void assignSheetType(ColumnSchema &c)
{
    switch (c.meaning) {
    case Meaning::Date:
        c.type = ColumnType::Date;
        break;
    case Meaning::Timestamp:
        c.type = ColumnType::DateTime;
        break;
    case Meaning::Decimal:
        c.type = c.scale == 0 ? ColumnType::Integer : ColumnType::Number;
        break;
    case Meaning::Float16:
        c.type = ColumnType::Number;
        break;
    case Meaning::Json:
        c.type = ColumnType::Json;
        break;
    case Meaning::String:
    case Meaning::Binary:
    case Meaning::Uuid:
    case Meaning::Time:
        c.type = ColumnType::String;
        break;
    case Meaning::Unsigned:
    case Meaning::Plain:
        c.type = physicalSheetType(c.physical);
        break;
    }
}

ColumnSchema describeColumn(const Value &element)
{
    ColumnSchema c;
    c.name = QString::fromUtf8(element.binaryField(4));
    c.physical = int(element.integerField(1, -1));
    c.typeLength = int(element.integerField(2, 0));
    const int repetition = int(element.integerField(3, Required));
    if (repetition == Repeated)
        nestedUnsupported(c.name);
    c.optional = repetition == Optional;
    if (c.physical < Boolean || c.physical > FixedLenByteArray)
        corrupt(QStringLiteral("column '%1' has an unknown physical type").arg(c.name));
    if (c.physical == FixedLenByteArray && (c.typeLength <= 0 || c.typeLength > 1 << 20))
        corrupt(
            QStringLiteral("column '%1' has a fixed length of %2").arg(c.name).arg(c.typeLength));

    const int converted = int(element.integerField(6, -1));
    c.scale = int(element.integerField(7, 0));
    int logical = LNone;
    const Value *logicalType = element.field(10);
    const Value *logicalBody = nullptr;
    if (logicalType && logicalType->type == Value::Type::Struct && !logicalType->fields.empty()) {
        logical = logicalType->fields.front().id;
        logicalBody = &logicalType->fields.front().value;
    }
    if (!applyLogicalType(c, logical, logicalBody))
        applyConvertedType(c, converted);
    if (c.unit < Millis || c.unit > Nanos)
        c.unit = Millis;
    assignSheetType(c);
    return c;
}

class ParquetFile
{
public:
    ParquetFile(const QByteArray &bytes, const Limits &limits)
        : m_bytes(bytes)
        , m_limits(limits)
        , m_data(reinterpret_cast<const uchar *>(bytes.constData()))
    {}

    Sheet read(const QString &title)
    {
        const qint64 size = m_bytes.size();
        if (size < 12 || !m_bytes.startsWith("PAR1"))
            fail(DataError::malformed(
                QStringLiteral("not a parquet file: it does not start with PAR1")));
        if (m_bytes.endsWith("PARE"))
            fail(DataError::encrypted(
                QStringLiteral("the parquet file is encrypted, which is not supported")));
        if (!m_bytes.endsWith("PAR1"))
            corrupt(QStringLiteral("it does not end with PAR1 (truncated?)"));
        const qint64 footerLength = le32(m_data + size - 8);
        if (footerLength <= 0 || footerLength > size - 12)
            corrupt(QStringLiteral("the footer length %1 does not fit the file").arg(footerLength));
        m_footerStart = size - 8 - footerLength;

        thrift::CompactReader reader(m_bytes.constData() + m_footerStart, footerLength);
        Value meta;
        if (!reader.readStruct(&meta))
            corrupt(QStringLiteral("the footer is malformed: %1").arg(reader.error()));

        readSchema(meta);
        const qint64 totalRows = meta.integerField(3, -1);
        if (totalRows < 0)
            corrupt(QStringLiteral("the footer has no row count"));
        if (totalRows > m_limits.maxRows)
            fail(DataError::tooLarge(QStringLiteral("the input has %1 rows, over the limit of %2")
                                         .arg(totalRows)
                                         .arg(m_limits.maxRows)));

        if (auto e = checkCells(totalRows, m_columns.size(), m_limits))
            fail(*e);
        m_values.resize(m_columns.size());
        qint64 rowsSoFar = 0;
        int groupIndex = 0;
        for (const Value &group : meta.listField(4)) {
            ++groupIndex;
            const qint64 groupRows = group.integerField(3, -1);
            if (groupRows < 0 || groupRows > totalRows - rowsSoFar)
                corrupt(QStringLiteral("row group %1 has %2 rows, more than the file")
                            .arg(groupIndex)
                            .arg(groupRows));
            const std::vector<Value> &chunks = group.listField(1);
            if (qsizetype(chunks.size()) != m_columns.size())
                corrupt(QStringLiteral("row group %1 has %2 columns but the schema has %3")
                            .arg(groupIndex)
                            .arg(chunks.size())
                            .arg(m_columns.size()));
            for (qsizetype c = 0; c < m_columns.size(); ++c) {
                readChunk(chunks[size_t(c)], m_columns[c], groupRows, groupIndex, &m_values[c]);
                if (m_values[c].size() != rowsSoFar + groupRows)
                    corrupt(QStringLiteral("column '%1' has %2 values in row group %3, which "
                                           "has %4 rows")
                                .arg(m_columns[c].name)
                                .arg(m_values[c].size() - rowsSoFar)
                                .arg(groupIndex)
                                .arg(groupRows));
            }
            rowsSoFar += groupRows;
        }
        if (rowsSoFar != totalRows)
            corrupt(QStringLiteral("the row groups hold %1 rows but the footer says %2")
                        .arg(rowsSoFar)
                        .arg(totalRows));

        Sheet sheet;
        sheet.title = title;
        QStringList names;
        for (const ColumnSchema &c : std::as_const(m_columns))
            names << c.name;
        names = cleanHeader(names);
        for (qsizetype c = 0; c < m_columns.size(); ++c) {
            bool any = false;
            for (const QJsonValue &v : std::as_const(m_values[c])) {
                if (!v.isNull()) {
                    any = true;
                    break;
                }
            }
            sheet.columns.append(Column{names[c], any ? m_columns[c].type : ColumnType::Empty});
        }
        sheet.rows.reserve(rowsSoFar);
        for (qint64 r = 0; r < rowsSoFar; ++r) {
            QJsonArray row;
            for (qsizetype c = 0; c < m_columns.size(); ++c)
                row.append(m_values[c][r]);
            sheet.rows.append(row);
        }
        return sheet;
    }

private:
    void readSchema(const Value &meta)
    {
        const std::vector<Value> &schema = meta.listField(2);
        if (schema.empty())
            corrupt(QStringLiteral("the footer has no schema"));
        const qint64 children = schema[0].integerField(5, 0);
        for (size_t i = 1; i < schema.size(); ++i) {
            const Value &element = schema[i];
            if (element.integerField(5, 0) > 0)
                fail(DataError::unsupported(
                    QStringLiteral("parquet column '%1' is a group of nested fields, which is "
                                   "not supported")
                        .arg(QString::fromUtf8(element.binaryField(4)))));
            m_columns.append(describeColumn(element));
        }
        if (children != qint64(m_columns.size()))
            corrupt(QStringLiteral("the schema root has %1 children but %2 columns follow")
                        .arg(children)
                        .arg(m_columns.size()));
        if (m_columns.size() > m_limits.maxColumns)
            fail(DataError::tooLarge(QStringLiteral("the input has %1 columns, over the limit "
                                                    "of %2")
                                         .arg(m_columns.size())
                                         .arg(m_limits.maxColumns)));
    }

    void expand(qint64 bytes, const QString &column)
    {
        // Compared before adding: a page header may claim up to 2^63 - 1 bytes.
        if (bytes < 0 || bytes > m_limits.maxExpandedBytes - m_expanded)
            fail(DataError::tooLarge(
                QStringLiteral("parquet column '%1' decompresses past the limit of %2 bytes")
                    .arg(column)
                    .arg(m_limits.maxExpandedBytes)));
        m_expanded += bytes;
        if (m_limits.expandedMeter)
            *m_limits.expandedMeter += bytes;
    }

    void readChunk(const Value &chunk, const ColumnSchema &c, qint64 groupRows, int groupIndex,
                   QList<QJsonValue> *out)
    {
        if (!chunk.binaryField(1).isEmpty())
            fail(DataError::unsupported(
                QStringLiteral("parquet column '%1' is stored in another file (%2), which is "
                               "not supported")
                    .arg(c.name, QString::fromUtf8(chunk.binaryField(1)))));
        const Value *meta = chunk.field(3);
        if (!meta || meta->type != Value::Type::Struct)
            corrupt(QStringLiteral("column '%1' has no metadata in row group %2")
                        .arg(c.name)
                        .arg(groupIndex));
        if (meta->integerField(1, -1) != c.physical)
            corrupt(QStringLiteral("column '%1' has a different type in row group %2")
                        .arg(c.name)
                        .arg(groupIndex));
        const int codec = int(meta->integerField(4, Uncompressed));
        const qint64 numValues = meta->integerField(5, -1);
        const qint64 compressedSize = meta->integerField(7, -1);
        const qint64 dataOffset = meta->integerField(9, -1);
        const qint64 dictionaryOffset = meta->integerField(11, -1);
        qint64 start = dataOffset;
        if (dictionaryOffset > 0 && dictionaryOffset < dataOffset)
            start = dictionaryOffset;
        if (numValues != groupRows)
            corrupt(QStringLiteral("column '%1' has %2 values in row group %3, which has %4 rows")
                        .arg(c.name)
                        .arg(numValues)
                        .arg(groupIndex)
                        .arg(groupRows));
        if (start < 4 || compressedSize < 0 || start > m_footerStart ||
            compressedSize > m_footerStart - start)
            corrupt(QStringLiteral("column '%1' points outside the file in row group %2")
                        .arg(c.name)
                        .arg(groupIndex));

        const qint64 end = start + compressedSize;
        qint64 pos = start;
        qint64 read = 0;
        QList<QJsonValue> dictionary;
        bool haveDictionary = false;
        while (read < numValues) {
            if (pos >= end)
                corrupt(QStringLiteral("column '%1' ends after %2 of %3 values in row group %4")
                            .arg(c.name)
                            .arg(read)
                            .arg(numValues)
                            .arg(groupIndex));
            thrift::CompactReader reader(m_bytes.constData() + pos, end - pos);
            Value header;
            if (!reader.readStruct(&header))
                corrupt(QStringLiteral("column '%1' has a malformed page header: %2")
                            .arg(c.name, reader.error()));
            pos += reader.position();
            const int type = int(header.integerField(1, -1));
            const qint64 uncompressed = header.integerField(2, -1);
            const qint64 compressed = header.integerField(3, -1);
            if (compressed < 0 || compressed > end - pos || uncompressed < 0)
                corrupt(QStringLiteral("column '%1' has a page larger than its column chunk")
                            .arg(c.name));
            const Span page{m_data + pos, m_data + pos + compressed};
            pos += compressed;

            if (type == DictionaryPage) {
                const Value *dict = header.field(7);
                if (!dict)
                    corrupt(QStringLiteral("column '%1' has a dictionary page without its "
                                           "header")
                                .arg(c.name));
                const qint64 count = dict->integerField(1, -1);
                const int encoding = int(dict->integerField(2, Plain));
                if (encoding != Plain && encoding != PlainDictionary)
                    fail(DataError::unsupported(
                        QStringLiteral("parquet column '%1' has a %2-encoded dictionary, which "
                                       "is not supported")
                            .arg(c.name, encodingName(encoding))));
                expand(uncompressed, c.name);
                const QByteArray bytes = decompress(codec, page, uncompressed, c.name);
                const Span s{reinterpret_cast<const uchar *>(bytes.constData()),
                             reinterpret_cast<const uchar *>(bytes.constData()) + bytes.size()};
                if (count < 0 || count > bytes.size() * 8 + 8)
                    corrupt(QStringLiteral("column '%1' has a dictionary of %2 values")
                                .arg(c.name)
                                .arg(count));
                dictionary.clear();
                decodePlain(c, s, count, &dictionary);
                haveDictionary = true;
            } else if (type == DataPage || type == DataPageV2) {
                read += readDataPage(header, type, page, uncompressed, codec, c,
                                     haveDictionary ? &dictionary : nullptr, numValues - read, out);
            }
            // Index pages and unknown page types are skipped.
        }
    }

    // A data page's levels and values: `buffer` holds the decompressed bytes they point into.
    struct PageBody
    {
        QByteArray buffer;
        Span levels;
        Span values;
    };

    // A v1 data page: the whole page is compressed, definition levels first (length-prefixed).
    void readPageV1(const Value &h, Span page, qint64 uncompressed, int codec,
                    const ColumnSchema &c, PageBody *body)
    {
        expand(uncompressed, c.name);
        body->buffer = decompress(codec, page, uncompressed, c.name);
        Span s{reinterpret_cast<const uchar *>(body->buffer.constData()),
               reinterpret_cast<const uchar *>(body->buffer.constData()) + body->buffer.size()};
        if (c.optional) {
            const int levelEncoding = int(h.integerField(3, Rle));
            if (levelEncoding != Rle)
                fail(DataError::unsupported(
                    QStringLiteral("parquet column '%1' encodes its definition levels as "
                                   "%2, which is not supported")
                        .arg(c.name, encodingName(levelEncoding))));
            s.need(4, c.name);
            const qint64 length = le32(s.p);
            s.p += 4;
            s.need(length, c.name);
            body->levels = Span{s.p, s.p + length};
            s.p += length;
        }
        body->values = s;
    }

    // A v2 data page: levels stay uncompressed in front, the values may be compressed.
    void readPageV2(const Value &h, Span page, qint64 uncompressed, int codec,
                    const ColumnSchema &c, PageBody *body)
    {
        const qint64 definitionLength = h.integerField(5, -1);
        const qint64 repetitionLength = h.integerField(6, -1);
        // Each length alone first: their sum may overflow.
        if (definitionLength < 0 || repetitionLength < 0 || definitionLength > page.size() ||
            repetitionLength > page.size() - definitionLength ||
            definitionLength + repetitionLength > uncompressed)
            corrupt(QStringLiteral("column '%1' has a v2 page with bad level lengths").arg(c.name));
        body->levels =
            Span{page.p + repetitionLength, page.p + repetitionLength + definitionLength};
        const Span rest{body->levels.end, page.end};
        const qint64 valuesSize = uncompressed - definitionLength - repetitionLength;
        const bool compressed = h.boolField(7, true);
        expand(valuesSize, c.name);
        if (compressed && codec != Uncompressed) {
            body->buffer = decompress(codec, rest, valuesSize, c.name);
        } else {
            if (rest.size() != valuesSize)
                corrupt(QStringLiteral("column '%1' has a page whose sizes disagree").arg(c.name));
            body->buffer = QByteArray(reinterpret_cast<const char *>(rest.p), rest.size());
        }
        body->values =
            Span{reinterpret_cast<const uchar *>(body->buffer.constData()),
                 reinterpret_cast<const uchar *>(body->buffer.constData()) + body->buffer.size()};
    }

    // Decodes `present` non-null values of one page in the page's `encoding`.
    QList<QJsonValue> decodeValues(int encoding, const ColumnSchema &c, Span values, qint64 present,
                                   const QList<QJsonValue> *dictionary)
    {
        QList<QJsonValue> decoded;
        decoded.reserve(present);
        switch (encoding) {
        case Plain:
            decodePlain(c, values, present, &decoded);
            break;
        case PlainDictionary:
        case RleDictionary:
            decodeDictionaryIndexes(c, values, present, dictionary, &decoded);
            break;
        case Rle: {
            if (c.physical != Boolean)
                fail(DataError::unsupported(
                    QStringLiteral("parquet column '%1' uses RLE for values of a non-boolean "
                                   "type, which is not supported")
                        .arg(c.name)));
            values.need(4, c.name);
            const qint64 length = le32(values.p);
            values.p += 4;
            values.need(length, c.name);
            for (const quint32 v :
                 decodeHybrid(Span{values.p, values.p + length}, 1, present, c.name))
                decoded.append(v != 0);
            break;
        }
        case DeltaBinaryPacked:
            decodeDeltaInts(c, values, present, &decoded);
            break;
        case DeltaLengthByteArray:
            decodeDeltaLength(c, values, present, &decoded);
            break;
        case DeltaByteArray:
            decodeDeltaByteArray(c, values, present, &decoded, m_limits.maxExpandedBytes);
            break;
        case ByteStreamSplit:
            decodeByteStreamSplit(c, values, present, &decoded);
            break;
        default:
            fail(DataError::unsupported(
                QStringLiteral("parquet column '%1' uses the %2 encoding, which is not supported")
                    .arg(c.name, encodingName(encoding))));
        }
        return decoded;
    }

    // Decodes one data page into `out`; returns the number of values (nulls included).
    qint64 readDataPage(const Value &header, int type, Span page, qint64 uncompressed, int codec,
                        const ColumnSchema &c, const QList<QJsonValue> *dictionary,
                        qint64 remaining, QList<QJsonValue> *out)
    {
        const Value *h = header.field(type == DataPage ? 5 : 8);
        if (!h || h->type != Value::Type::Struct)
            corrupt(QStringLiteral("column '%1' has a data page without its header").arg(c.name));
        const qint64 count = h->integerField(1, -1);
        if (count < 0 || count > remaining)
            corrupt(QStringLiteral("column '%1' has a page with %2 values where %3 remain")
                        .arg(c.name)
                        .arg(count)
                        .arg(remaining));
        const int encoding = int(h->integerField(type == DataPage ? 2 : 4, Plain));
        const int maxDefinition = c.optional ? 1 : 0;

        PageBody body;
        if (type == DataPage)
            readPageV1(*h, page, uncompressed, codec, c, &body);
        else
            readPageV2(*h, page, uncompressed, codec, c, &body);

        std::vector<quint32> definition;
        qint64 present = count;
        if (maxDefinition > 0) {
            definition = decodeHybrid(body.levels, 1, count, c.name);
            present = 0;
            for (const quint32 d : definition)
                present += d == quint32(maxDefinition);
        }

        const QList<QJsonValue> decoded =
            decodeValues(encoding, c, body.values, present, dictionary);
        if (decoded.size() != present)
            corrupt(QStringLiteral("column '%1' has fewer values than its page says").arg(c.name));

        if (maxDefinition == 0) {
            out->append(decoded);
        } else {
            qsizetype next = 0;
            for (const quint32 d : definition)
                out->append(d == quint32(maxDefinition) ? decoded[next++]
                                                        : QJsonValue(QJsonValue::Null));
        }
        return count;
    }

    const QByteArray &m_bytes;
    const Limits &m_limits;
    const uchar *m_data;
    qint64 m_footerStart = 0;
    qint64 m_expanded = 0;
    QList<ColumnSchema> m_columns;
    QList<QList<QJsonValue>> m_values;
};

} // namespace

Result<Sheet> readParquet(const QByteArray &bytes, const QString &title, const Limits &limits)
{
    try {
        ParquetFile file(bytes, limits);
        return file.read(title);
    } catch (const Failure &f) {
        return f.error;
    } catch (const std::bad_alloc &) {
        return DataError::tooLarge(QStringLiteral("the parquet file needs more memory than is "
                                                  "available"));
    }
}

} // namespace ph::data::internal
