#include "SecretBox.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

#include <openssl/evp.h>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>

Q_LOGGING_CATEGORY(lcSecrets, "pilothouse.secrets")

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

namespace {

// Makes the key file: written in full to a temporary file (mode 0600 from mkstemp) and
// fsynced, then put in place and the directory fsynced, so that neither a kill nor a
// power cut can leave a short key behind. link() puts it in place only if there is none
// yet (another process may have made one meanwhile: that one is kept); `replace`
// renames over an existing (empty) file instead.
bool createKey(const QString &keyPath, bool replace, QString *error)
{
    const QFileInfo info(keyPath);
    const QByteArray path = QFile::encodeName(keyPath);
    QByteArray temp =
        QFile::encodeName(info.absolutePath() + QStringLiteral("/.secrets.key.XXXXXX"));
    const int fd = ::mkstemp(temp.data());
    if (fd < 0) {
        if (error)
            *error = QStringLiteral("cannot create a key file beside %1: %2")
                         .arg(keyPath, QString::fromLocal8Bit(::strerror(errno)));
        return false;
    }
    const QByteArray key = randomBytes(kKeySize);
    const bool written = ::fchmod(fd, 0600) == 0 &&
                         ::write(fd, key.constData(), size_t(key.size())) == key.size() &&
                         ::fsync(fd) == 0;
    ::close(fd);
    bool placed = false;
    if (written) {
        if (replace)
            placed = ::rename(temp.constData(), path.constData()) == 0;
        else
            placed = ::link(temp.constData(), path.constData()) == 0 || errno == EEXIST;
    }
    ::unlink(temp.constData()); // gone already after a rename
    if (!placed) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2")
                         .arg(keyPath, QString::fromLocal8Bit(::strerror(errno)));
        return false;
    }
    // The new directory entry is durable only once the directory is.
    const int dir = ::open(QFile::encodeName(info.absolutePath()).constData(),
                           O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

} // namespace

bool SecretBox::open(const QString &keyPath, QString *error)
{
    const QByteArray path = QFile::encodeName(keyPath);
    // A temporary key of a start cut off between link() and unlink(): the real one is
    // in place (or was never placed), so it goes.
    const QDir dir = QFileInfo(keyPath).absoluteDir();
    for (const QString &stray :
         dir.entryList({QStringLiteral(".secrets.key.*")}, QDir::Files | QDir::Hidden))
        QFile::remove(dir.filePath(stray));
    struct stat st;
    if (::lstat(path.constData(), &st) != 0) {
        if (!createKey(keyPath, false, error))
            return false;
    } else if (S_ISREG(st.st_mode) && st.st_size == 0) {
        // Left by an older build killed between creating the file and writing it: no value
        // can have been sealed with a key that was never there.
        qCWarning(lcSecrets).noquote()
            << QStringLiteral("%1 is empty (an earlier start was cut off while writing it); "
                              "a new key is made")
                   .arg(keyPath);
        if (!createKey(keyPath, true, error))
            return false;
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
    // The owner's alone: a key that was readable by others is tightened, and it is said.
    if (::stat(path.constData(), &st) == 0 && (st.st_mode & 077)) {
        if (::chmod(path.constData(), 0600) != 0) {
            if (error)
                *error = QStringLiteral("%1 has mode %2 and cannot be changed to 600")
                             .arg(keyPath, QString::number(st.st_mode & 07777, 8));
            return false;
        }
        qCWarning(lcSecrets).noquote() << QStringLiteral("%1 had mode %2; changed to 600")
                                              .arg(keyPath, QString::number(st.st_mode & 07777, 8));
    }
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
