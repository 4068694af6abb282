#include "ProfileVault.h"

#include "core/Ids.h"
#include "core/SecretBox.h"
#include "data/ZipFiles.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSaveFile>

#include <algorithm>

Q_LOGGING_CATEGORY(lcProfiles, "pilothouse.sessions.profiles")

namespace ph::sessions {

namespace {
// A profile's files together, clear: past this a profile is not sealed (nor opened).
constexpr qint64 kMaxProfileBytes = qint64(1024) * 1024 * 1024;

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writePrivate(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    f.write(bytes);
    return f.commit();
}

bool makePrivateDir(const QString &path)
{
    if (!QDir().mkpath(path))
        return false;
    return QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                           QFileDevice::ExeOwner);
}
} // namespace

ProfileVault::ProfileVault(const QString &dataDir, const SecretBox &box)
    : m_root(QDir(dataDir).filePath(QStringLiteral("profiles")))
    , m_box(box)
{}

QString ProfileVault::openDir(const QString &sessionId) const
{
    return QDir(m_root).filePath(QStringLiteral("open/") + sessionId);
}

QString ProfileVault::sealedPath(const QString &keyId, const QString &name) const
{
    const QString digest = Ids::sha256Hex((keyId + QLatin1Char('/') + name).toUtf8()).left(40);
    return QDir(m_root).filePath(digest + QStringLiteral(".profile"));
}

bool ProfileVault::isSkipped(const QString &relativePath)
{
    static const QStringList skipped = {
        QStringLiteral("Cache"),           QStringLiteral("Code Cache"),
        QStringLiteral("GPUCache"),        QStringLiteral("GrShaderCache"),
        QStringLiteral("ShaderCache"),     QStringLiteral("GraphiteDawnCache"),
        QStringLiteral("DawnCache"),       QStringLiteral("Crashpad"),
        QStringLiteral("Crash Reports"),   QStringLiteral("component_crx_cache"),
        QStringLiteral("BrowserMetrics"),  QStringLiteral("Safe Browsing"),
        QStringLiteral("SingletonLock"),   QStringLiteral("SingletonSocket"),
        QStringLiteral("SingletonCookie"), QStringLiteral("DevToolsActivePort"),
    };
    const QStringList parts = relativePath.split(QLatin1Char('/'));
    return std::any_of(parts.cbegin(), parts.cend(),
                       [](const QString &part) { return skipped.contains(part); });
}

QString ProfileVault::open(const QString &keyId, const QString &name, const QString &sessionId,
                           QString *error)
{
    const QString dir = openDir(sessionId);
    QDir(dir).removeRecursively();
    if (!makePrivateDir(QDir(m_root).filePath(QStringLiteral("open"))) || !makePrivateDir(dir)) {
        *error = QStringLiteral("cannot create the profile's directory");
        return {};
    }
    const QString sealed = sealedPath(keyId, name);
    if (!QFile::exists(sealed))
        return dir; // a new profile
    bool ok = false;
    const QByteArray zip =
        QByteArray::fromBase64(m_box.unseal(QString::fromLatin1(readFile(sealed)), &ok).toLatin1());
    const auto files = ok ? data::unzipFiles(zip, kMaxProfileBytes) : std::nullopt;
    if (!files) {
        QDir(dir).removeRecursively();
        *error = QStringLiteral("the profile '%1' cannot be opened (its sealed file is damaged or "
                                "was sealed with another key); delete it to start over")
                     .arg(name);
        return {};
    }
    for (const data::ZipFile &f : *files) {
        const QString path = QDir(dir).filePath(f.name);
        if (!makePrivateDir(QFileInfo(path).absolutePath()) || !writePrivate(path, f.bytes)) {
            QDir(dir).removeRecursively();
            *error = QStringLiteral("cannot write the profile's files");
            return {};
        }
    }
    return dir;
}

qint64 ProfileVault::seal(const QString &keyId, const QString &name, const QString &sessionId)
{
    const QString dir = openDir(sessionId);
    QList<data::ZipFile> files;
    qint64 total = 0;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = QDir(dir).relativeFilePath(path);
        if (isSkipped(relative))
            continue;
        QByteArray bytes = readFile(path);
        total += bytes.size();
        files.append({relative, std::move(bytes)});
    }
    qint64 sealedBytes = -1;
    if (total <= kMaxProfileBytes) {
        const QByteArray zip = data::zipFiles(files);
        const QByteArray sealed = m_box.seal(QString::fromLatin1(zip.toBase64())).toLatin1();
        if (!zip.isEmpty() && !sealed.isEmpty() && makePrivateDir(m_root) &&
            writePrivate(sealedPath(keyId, name), sealed))
            sealedBytes = sealed.size();
    }
    if (sealedBytes < 0)
        qCWarning(lcProfiles) << "the profile of session" << sessionId
                              << "could not be sealed; its last changes are lost";
    QDir(dir).removeRecursively();
    return sealedBytes;
}

void ProfileVault::discard(const QString &sessionId)
{
    QDir(openDir(sessionId)).removeRecursively();
}

void ProfileVault::remove(const QString &keyId, const QString &name)
{
    QFile::remove(sealedPath(keyId, name));
}

QStringList ProfileVault::leftovers() const
{
    return QDir(QDir(m_root).filePath(QStringLiteral("open")))
        .entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden);
}

} // namespace ph::sessions
