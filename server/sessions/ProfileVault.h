#pragma once

#include <QString>
#include <QStringList>

namespace ph {
class SecretBox;
}

namespace ph::sessions {

// The sessions' named profiles at rest (docs/decisions.md, "Browser sessions"): a profile
// is one sealed file, DATA/profiles/<sha256(keyId/name)>.profile (a zip of its
// user-data directory without Chromium's caches, sealed with the store's SecretBox), so
// cookies and tokens are never on disk in clear while no session has it open. A session
// opens it into DATA/profiles/open/<sessionId> (0700) and seals it back when it ends.
class ProfileVault
{
public:
    ProfileVault(const QString &dataDir, const SecretBox &box);

    // The clear directory of `sessionId`'s profile (exists only while open).
    QString openDir(const QString &sessionId) const;
    // Unseals the profile into openDir(sessionId), an empty one when it was never sealed.
    // Returns the directory, or empty (with `error`) when it cannot be opened.
    QString open(const QString &keyId, const QString &name, const QString &sessionId,
                 QString *error);
    // Seals openDir(sessionId) as the profile and removes the clear directory. Returns
    // the sealed bytes, -1 when it could not be sealed (the clear directory is removed
    // all the same: nothing stays in clear).
    qint64 seal(const QString &keyId, const QString &name, const QString &sessionId);
    // Removes openDir(sessionId) without sealing it.
    void discard(const QString &sessionId);
    // Deletes the sealed profile.
    void remove(const QString &keyId, const QString &name);
    // The session ids whose clear directory a previous process left.
    QStringList leftovers() const;

    // Chromium's directories that are not worth keeping (caches, crash reports).
    static bool isSkipped(const QString &relativePath);

private:
    QString sealedPath(const QString &keyId, const QString &name) const;

    QString m_root;
    const SecretBox &m_box;
};

} // namespace ph::sessions
