#include "SecretBox.h"

#include <QFile>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

#include <openssl/evp.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>

namespace ph {

namespace {
constexpr int kKeySize = 32;
constexpr int kNonceSize = 12;
constexpr int kTagSize = 16;
const QByteArray kVersion = QByteArrayLiteral("v1.");

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

QByteArray randomBytes(int n)
{
    QByteArray out(n, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(out.data()), n / 4);
    return out;
}
} // namespace

bool SecretBox::open(const QString &keyPath, QString *error)
{
    const QByteArray path = QFile::encodeName(keyPath);
    // O_EXCL makes creation race-free; the mode is set at creation, never widened.
    int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        const QByteArray key = randomBytes(kKeySize);
        const bool ok = ::write(fd, key.constData(), key.size()) == key.size();
        ::close(fd);
        if (!ok) {
            if (error)
                *error = QStringLiteral("cannot write %1").arg(keyPath);
            return false;
        }
    }
    QFile file(keyPath);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read %1").arg(keyPath);
        return false;
    }
    const QByteArray key = file.readAll();
    if (key.size() != kKeySize) {
        if (error)
            *error = QStringLiteral("%1 is not a %2-byte key").arg(keyPath).arg(kKeySize);
        return false;
    }
    ::chmod(path.constData(), 0600);
    m_key = key;
    return true;
}

QString SecretBox::seal(const QString &plaintext) const
{
    Q_ASSERT(isOpen());
    const QByteArray in = plaintext.toUtf8();
    const QByteArray nonce = randomBytes(kNonceSize);
    QByteArray out(in.size() + 16, Qt::Uninitialized);
    QByteArray tag(kTagSize, Qt::Uninitialized);
    CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    int len = 0, total = 0;
    const auto *key = reinterpret_cast<const unsigned char *>(m_key.constData());
    const auto *iv = reinterpret_cast<const unsigned char *>(nonce.constData());
    if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key, iv) != 1 ||
        EVP_EncryptUpdate(ctx.get(), reinterpret_cast<unsigned char *>(out.data()), &len,
                          reinterpret_cast<const unsigned char *>(in.constData()),
                          int(in.size())) != 1)
        return {};
    total = len;
    if (EVP_EncryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char *>(out.data()) + total,
                            &len) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagSize, tag.data()) != 1)
        return {};
    total += len;
    out.truncate(total);
    return QString::fromLatin1(
        kVersion + (nonce + out + tag)
                       .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString SecretBox::unseal(const QString &sealed, bool *ok) const
{
    if (ok)
        *ok = false;
    const QByteArray raw = sealed.toLatin1();
    if (!isOpen() || !raw.startsWith(kVersion))
        return {};
    const QByteArray blob =
        QByteArray::fromBase64(raw.mid(kVersion.size()), QByteArray::Base64UrlEncoding);
    if (blob.size() < kNonceSize + kTagSize)
        return {};
    const QByteArray nonce = blob.left(kNonceSize);
    const QByteArray tag = blob.right(kTagSize);
    const QByteArray cipher = blob.mid(kNonceSize, blob.size() - kNonceSize - kTagSize);
    QByteArray out(cipher.size() + 16, Qt::Uninitialized);
    CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    int len = 0, total = 0;
    const auto *key = reinterpret_cast<const unsigned char *>(m_key.constData());
    const auto *iv = reinterpret_cast<const unsigned char *>(nonce.constData());
    if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key, iv) != 1 ||
        EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char *>(out.data()), &len,
                          reinterpret_cast<const unsigned char *>(cipher.constData()),
                          int(cipher.size())) != 1)
        return {};
    total = len;
    QByteArray tagCopy = tag;
    if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagSize, tagCopy.data()) != 1 ||
        EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char *>(out.data()) + total,
                            &len) != 1)
        return {};
    total += len;
    out.truncate(total);
    if (ok)
        *ok = true;
    return QString::fromUtf8(out);
}

} // namespace ph

namespace ph {

QByteArray SecretBox::derive(const QByteArray &label) const
{
    return QMessageAuthenticationCode::hash(label, m_key, QCryptographicHash::Sha256);
}

} // namespace ph
