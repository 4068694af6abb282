#include "data/internal/Thrift.h"

#include <algorithm>
#include <cstring>

namespace ph::data::internal::thrift {

namespace {

constexpr int kMaxDepth = 64;
// Each decoded value costs ~100 bytes: a cap keeps garbled metadata from claiming
// gigabytes. Real footers (1,000 columns × 100 row groups) stay well below it.
constexpr qint64 kMaxValues = 2'000'000;

enum CompactType {
    Stop = 0,
    BoolTrue = 1,
    BoolFalse = 2,
    Byte = 3,
    I16 = 4,
    I32 = 5,
    I64 = 6,
    Double = 7,
    Binary = 8,
    List = 9,
    Set = 10,
    Map = 11,
    Struct = 12,
};

const std::vector<Value> kNoList;

} // namespace

const Value *Value::field(int id) const
{
    for (const auto &f : fields) {
        if (f.id == id)
            return &f.value;
    }
    return nullptr;
}

qint64 Value::integerField(int id, qint64 fallback) const
{
    const Value *v = field(id);
    return v && v->type == Type::Int ? v->integer : fallback;
}

bool Value::boolField(int id, bool fallback) const
{
    const Value *v = field(id);
    return v && v->type == Type::Bool ? v->boolean : fallback;
}

QByteArray Value::binaryField(int id) const
{
    const Value *v = field(id);
    return v && v->type == Type::Binary ? v->binary : QByteArray();
}

const std::vector<Value> &Value::listField(int id) const
{
    const Value *v = field(id);
    return v && v->type == Type::List ? v->list : kNoList;
}

CompactReader::CompactReader(const char *data, qint64 size)
    : m_data(data)
    , m_size(size)
{}

bool CompactReader::fail(const QString &message)
{
    if (m_error.isEmpty())
        m_error = QStringLiteral("%1 at byte %2").arg(message).arg(m_pos);
    return false;
}

bool CompactReader::count()
{
    if (++m_values > kMaxValues)
        return fail(QStringLiteral("metadata has too many values"));
    return true;
}

bool CompactReader::readByte(quint8 *out)
{
    if (m_pos >= m_size)
        return fail(QStringLiteral("unexpected end of metadata"));
    *out = quint8(m_data[m_pos++]);
    return true;
}

bool CompactReader::readVarint(quint64 *out)
{
    quint64 result = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        quint8 b = 0;
        if (!readByte(&b))
            return false;
        if (shift == 63 && (b & 0x7E))
            return fail(QStringLiteral("varint overflows 64 bits"));
        result |= quint64(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *out = result;
            return true;
        }
    }
    return fail(QStringLiteral("varint too long"));
}

bool CompactReader::readZigZag(qint64 *out)
{
    quint64 v = 0;
    if (!readVarint(&v))
        return false;
    *out = qint64(v >> 1) ^ -qint64(v & 1);
    return true;
}

bool CompactReader::readStruct(Value *out)
{
    *out = Value();
    return readStructBody(out, 0);
}

bool CompactReader::readStructBody(Value *out, int depth)
{
    if (depth > kMaxDepth)
        return fail(QStringLiteral("metadata nested too deeply"));
    out->type = Value::Type::Struct;
    int lastId = 0;
    while (true) {
        quint8 header = 0;
        if (!readByte(&header))
            return false;
        if (header == Stop)
            return true;
        const int type = header & 0x0F;
        const int delta = header >> 4;
        int id = 0;
        if (delta != 0) {
            id = lastId + delta;
        } else {
            qint64 wide = 0;
            if (!readZigZag(&wide))
                return false;
            if (wide < -32768 || wide > 32767)
                return fail(QStringLiteral("field id out of range"));
            id = int(wide);
        }
        lastId = id;
        if (!count())
            return false;
        Value v;
        if (type == BoolTrue || type == BoolFalse) {
            v.type = Value::Type::Bool;
            v.boolean = type == BoolTrue;
        } else if (!readValue(type, &v, depth + 1)) {
            return false;
        }
        out->fields.push_back(Field{id, std::move(v)});
        if (out->fields.size() > 4096)
            return fail(QStringLiteral("too many fields in one struct"));
    }
}

bool CompactReader::readValue(int type, Value *out, int depth)
{
    if (depth > kMaxDepth)
        return fail(QStringLiteral("metadata nested too deeply"));
    switch (type) {
    case BoolTrue:
    case BoolFalse: {
        // Inside lists a bool is one byte.
        quint8 b = 0;
        if (!readByte(&b))
            return false;
        out->type = Value::Type::Bool;
        out->boolean = b == 1;
        return true;
    }
    case Byte: {
        quint8 b = 0;
        if (!readByte(&b))
            return false;
        out->type = Value::Type::Int;
        out->integer = qint8(b);
        return true;
    }
    case I16:
    case I32:
    case I64:
        out->type = Value::Type::Int;
        return readZigZag(&out->integer);
    case Double: {
        if (m_size - m_pos < 8)
            return fail(QStringLiteral("unexpected end of metadata"));
        double d = 0;
        std::memcpy(&d, m_data + m_pos, 8); // little-endian on every platform we build for
        m_pos += 8;
        out->type = Value::Type::Double;
        out->real = d;
        return true;
    }
    case Binary: {
        quint64 length = 0;
        if (!readVarint(&length))
            return false;
        if (length > quint64(m_size - m_pos))
            return fail(QStringLiteral("string longer than the metadata"));
        out->type = Value::Type::Binary;
        out->binary = QByteArray(m_data + m_pos, qsizetype(length));
        m_pos += qint64(length);
        return true;
    }
    case List:
    case Set: {
        quint8 header = 0;
        if (!readByte(&header))
            return false;
        quint64 size = header >> 4;
        const int elementType = header & 0x0F;
        if (size == 15 && !readVarint(&size))
            return false;
        // Every element takes at least one byte.
        if (size > quint64(m_size - m_pos))
            return fail(QStringLiteral("list longer than the metadata"));
        out->type = Value::Type::List;
        out->list.reserve(size_t(std::min<quint64>(size, 1024)));
        for (quint64 i = 0; i < size; ++i) {
            if (!count())
                return false;
            out->list.emplace_back();
            if (elementType == Struct) {
                if (!readStructBody(&out->list.back(), depth + 1))
                    return false;
            } else if (!readValue(elementType, &out->list.back(), depth + 1)) {
                return false;
            }
        }
        return true;
    }
    case Map: {
        quint64 size = 0;
        if (!readVarint(&size))
            return false;
        out->type = Value::Type::List;
        if (size == 0)
            return true;
        quint8 types = 0;
        if (!readByte(&types))
            return false;
        if (size > quint64(m_size - m_pos))
            return fail(QStringLiteral("map longer than the metadata"));
        for (quint64 i = 0; i < size * 2; ++i) {
            const int t = (i % 2 == 0) ? (types >> 4) : (types & 0x0F);
            if (!count())
                return false;
            out->list.emplace_back();
            bool ok = t == Struct ? readStructBody(&out->list.back(), depth + 1)
                                  : readValue(t, &out->list.back(), depth + 1);
            if (!ok)
                return false;
        }
        return true;
    }
    case Struct:
        return readStructBody(out, depth + 1);
    default:
        return fail(QStringLiteral("unknown field type %1").arg(type));
    }
}

} // namespace ph::data::internal::thrift
