#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

// The Thrift compact protocol, as Parquet uses it for FileMetaData and PageHeader.
// Decodes into a generic tree; every read is bounds-checked and nesting is capped,
// so garbled input yields an error, never a crash.
namespace ph::data::internal::thrift {

struct Field;

struct Value
{
    enum class Type { None, Bool, Int, Double, Binary, List, Struct };

    Type type = Type::None;
    bool boolean = false;
    qint64 integer = 0; // i8, i16, i32, i64
    double real = 0;
    QByteArray binary;         // binary and string
    std::vector<Value> list;   // list, set (and map: key, value, …)
    std::vector<Field> fields; // struct, in wire order

    const Value *field(int id) const;
    bool has(int id) const { return field(id) != nullptr; }
    qint64 integerField(int id, qint64 fallback = 0) const;
    bool boolField(int id, bool fallback = false) const;
    QByteArray binaryField(int id) const;
    // An empty list when the field is missing or not a list.
    const std::vector<Value> &listField(int id) const;
};

// One field of a struct. Not std::pair<int, Value>: a pair needs Value complete where
// Value declares its fields, which libstdc++ under clang refuses.
struct Field
{
    int id = 0;
    Value value;
};

class CompactReader
{
public:
    CompactReader(const char *data, qint64 size);

    // Reads one struct from the current position. False on malformed input.
    bool readStruct(Value *out);
    qint64 position() const { return m_pos; }
    const QString &error() const { return m_error; }

private:
    bool readValue(int type, Value *out, int depth);
    bool readStructBody(Value *out, int depth);
    bool readVarint(quint64 *out);
    bool readZigZag(qint64 *out);
    bool readByte(quint8 *out);
    bool fail(const QString &message);
    bool count();

    const char *m_data;
    qint64 m_size;
    qint64 m_pos = 0;
    qint64 m_values = 0;
    QString m_error;
};

} // namespace ph::data::internal::thrift
