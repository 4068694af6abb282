#include "Pkce.h"

#include "core/Ids.h"

#include <QCryptographicHash>

namespace ph::oauth::Pkce {

QString s256(const QString &verifier)
{
    const QByteArray digest =
        QCryptographicHash::hash(verifier.toLatin1(), QCryptographicHash::Sha256);
    return QString::fromLatin1(
        digest.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool wellFormed(const QString &value)
{
    if (value.size() < 43 || value.size() > 128)
        return false;
    for (const QChar c : value) {
        const char16_t u = c.unicode();
        const bool ok = (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') ||
                        (u >= '0' && u <= '9') || u == '-' || u == '.' || u == '_' || u == '~';
        if (!ok)
            return false;
    }
    return true;
}

bool verify(const QString &verifier, const QString &challenge)
{
    if (!wellFormed(verifier) || challenge.isEmpty())
        return false;
    return Ids::equalConstantTime(s256(verifier).toLatin1(), challenge.toLatin1());
}

} // namespace ph::oauth::Pkce
