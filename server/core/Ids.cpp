#include "Ids.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

namespace ph::Ids {

namespace {
constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
}

QString base62(int length)
{
    QString out;
    out.reserve(length);
    auto *rng = QRandomGenerator::system();
    while (out.size() < length) {
        // Rejection sampling keeps the distribution uniform: 62 * 4 = 248 < 256.
        const quint32 word = rng->generate();
        for (int shift = 0; shift < 32 && out.size() < length; shift += 8) {
            const quint32 byte = (word >> shift) & 0xff;
            if (byte < 248)
                out.append(QLatin1Char(kAlphabet[byte % 62]));
        }
    }
    return out;
}

QString make(const QString &prefix, int length)
{
    return prefix + QLatin1Char('_') + base62(length);
}

QString sha256Hex(const QByteArray &data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

bool equalConstantTime(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

} // namespace ph::Ids
