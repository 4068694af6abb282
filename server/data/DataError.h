#pragma once

#include <QString>

#include <utility>
#include <variant>

namespace ph::data {

// Why an input could not be read. `message` names what is wrong in words a user can
// act on ("row 4 has 3 fields but the header has 2"); it never names the input's
// index: the caller knows which input it was and prefixes that.
struct DataError
{
    enum class Kind {
        Malformed,   // not valid for its format: ragged CSV, invalid JSON, corrupt file
        Unsupported, // valid, but uses something this library does not read
        TooLarge,    // over one of the Limits
        Encrypted,   // password-protected PDF or workbook
        Io,          // the library's own file work failed (temporary file for xlsx output)
    };

    Kind kind = Kind::Malformed;
    QString message;

    // "malformed", "unsupported", "too_large", "encrypted", "io": stable, for error codes.
    QString kindName() const
    {
        switch (kind) {
        case Kind::Malformed:
            return QStringLiteral("malformed");
        case Kind::Unsupported:
            return QStringLiteral("unsupported");
        case Kind::TooLarge:
            return QStringLiteral("too_large");
        case Kind::Encrypted:
            return QStringLiteral("encrypted");
        case Kind::Io:
            return QStringLiteral("io");
        }
        return {};
    }

    static DataError malformed(QString message) { return {Kind::Malformed, std::move(message)}; }
    static DataError unsupported(QString message)
    {
        return {Kind::Unsupported, std::move(message)};
    }
    static DataError tooLarge(QString message) { return {Kind::TooLarge, std::move(message)}; }
    static DataError encrypted(QString message) { return {Kind::Encrypted, std::move(message)}; }
    static DataError io(QString message) { return {Kind::Io, std::move(message)}; }
};

// A value or the DataError that prevented it. Check ok() before value().
template <typename T> class Result
{
public:
    Result(T value)
        : m_value(std::move(value))
    {}
    Result(DataError error)
        : m_value(std::move(error))
    {}

    bool ok() const { return m_value.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<0>(m_value); }
    T &value() & { return std::get<0>(m_value); }
    T &&value() && { return std::get<0>(std::move(m_value)); }
    const T &operator*() const & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }

    const DataError &error() const { return std::get<1>(m_value); }

private:
    std::variant<T, DataError> m_value;
};

} // namespace ph::data
