#pragma once

// Helpers shared by the fuzz targets: the input as Qt bytes, a cursor that takes choice
// bytes and lines from it, and a check that aborts on a broken promise (libFuzzer and
// the replay driver both report an abort as a crash).
#include <QByteArray>
#include <QList>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace ph::fuzz {

inline QByteArray bytesOf(const uint8_t *data, size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(size));
}

// A promise of the code under test that an input broke: abort, naming it.
inline void require(bool condition, const char *what)
{
    if (!condition) {
        std::fprintf(stderr, "fuzz: broken promise: %s\n", what);
        std::abort();
    }
}

class Cursor
{
public:
    explicit Cursor(QByteArray bytes)
        : m_bytes(std::move(bytes))
    {}

    bool atEnd() const { return m_pos >= m_bytes.size(); }
    // One byte of choice (0 past the end).
    quint8 byte() { return atEnd() ? 0 : quint8(m_bytes.at(m_pos++)); }
    // Up to the next `separator` (consumed, not returned), or the rest.
    QByteArray until(char separator)
    {
        const qsizetype end = m_bytes.indexOf(separator, m_pos);
        const qsizetype stop = end < 0 ? m_bytes.size() : end;
        QByteArray out = m_bytes.mid(m_pos, stop - m_pos);
        m_pos = end < 0 ? m_bytes.size() : end + 1;
        return out;
    }
    QByteArray rest()
    {
        QByteArray out = m_bytes.mid(m_pos);
        m_pos = m_bytes.size();
        return out;
    }

private:
    QByteArray m_bytes;
    qsizetype m_pos = 0;
};

} // namespace ph::fuzz
