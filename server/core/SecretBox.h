#pragma once

#include <QByteArray>
#include <QString>

namespace ph {

// Encryption of secrets at rest (webhook secrets, auth tokens, the LLM key):
// AES-256-GCM through OpenSSL with a random 96-bit nonce per value. The 32-byte key
// lives in `secrets.key` beside the database: written whole to a temporary file, fsynced,
// linked into place and the directory fsynced, mode 0600 (tightened at open if looser).
class SecretBox
{
public:
    // Loads the key file, creating it when missing. Returns false (with `error`)
    // when the file exists but is unusable, so a wrong key never garbles data.
    bool open(const QString &keyPath, QString *error);
    bool isOpen() const { return m_key.size() == 32; }

    // "v1." + base64url(nonce | ciphertext | tag)
    QString seal(const QString &plaintext) const;
    // Empty optional-like result: `ok` false when the value is not ours or was altered.
    QString unseal(const QString &sealed, bool *ok = nullptr) const;
    // A 32-byte key for another purpose (signing download URLs …), derived from the
    // box's key with HMAC-SHA256 over `label`, so one key file serves them all.
    QByteArray derive(const QByteArray &label) const;

private:
    QByteArray m_key;
};

} // namespace ph
