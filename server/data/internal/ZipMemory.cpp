#include "data/internal/ZipMemory.h"

#include <ioapi.h>

#include <algorithm>
#include <cstring>

namespace ph::data::internal {

namespace {

ZipMemory *memoryOf(voidpf stream)
{
    return static_cast<ZipMemory *>(stream);
}

voidpf openMemory(voidpf opaque, const void *, int mode)
{
    ZipMemory *m = memoryOf(opaque);
    if ((mode & ZLIB_FILEFUNC_MODE_WRITE) && !m->writable)
        return nullptr;
    m->pos = 0;
    return opaque;
}

uLong readMemory(voidpf, voidpf stream, void *buf, uLong size)
{
    ZipMemory *m = memoryOf(stream);
    const qint64 n = std::min<qint64>(qint64(size), m->bytes.size() - m->pos);
    if (n <= 0)
        return 0;
    std::memcpy(buf, m->bytes.constData() + m->pos, size_t(n));
    m->pos += n;
    return uLong(n);
}

uLong writeMemory(voidpf, voidpf stream, const void *buf, uLong size)
{
    ZipMemory *m = memoryOf(stream);
    if (!m->writable)
        return 0;
    const qint64 end = m->pos + qint64(size);
    if (end > m->bytes.size())
        m->bytes.resize(end);
    std::memcpy(m->bytes.data() + m->pos, buf, size_t(size));
    m->pos = end;
    return size;
}

ZPOS64_T tellMemory(voidpf, voidpf stream)
{
    return ZPOS64_T(memoryOf(stream)->pos);
}

long seekMemory(voidpf, voidpf stream, ZPOS64_T offset, int origin)
{
    ZipMemory *m = memoryOf(stream);
    qint64 base = 0;
    switch (origin) {
    case ZLIB_FILEFUNC_SEEK_SET:
        base = 0;
        break;
    case ZLIB_FILEFUNC_SEEK_CUR:
        base = m->pos;
        break;
    case ZLIB_FILEFUNC_SEEK_END:
        base = m->bytes.size();
        break;
    default:
        return -1;
    }
    // Past the end is refused; checked before adding so a huge offset cannot wrap.
    if (offset > ZPOS64_T(m->bytes.size()))
        return -1;
    const qint64 target = base + qint64(offset);
    if (target < 0 || target > m->bytes.size())
        return -1;
    m->pos = target;
    return 0;
}

int closeMemory(voidpf, voidpf)
{
    return 0;
}

int errorMemory(voidpf, voidpf)
{
    return 0;
}

} // namespace

void ZipMemory::fill(zlib_filefunc64_def_s *io)
{
    *io = zlib_filefunc64_def{};
    io->zopen64_file = openMemory;
    io->zread_file = readMemory;
    io->zwrite_file = writeMemory;
    io->ztell64_file = tellMemory;
    io->zseek64_file = seekMemory;
    io->zclose_file = closeMemory;
    io->zerror_file = errorMemory;
    io->opaque = this;
}

} // namespace ph::data::internal
