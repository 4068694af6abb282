#include "ExtensionFolder.h"

#include <QDir>
#include <QFileInfo>

namespace ph::ui {

QString extensionFolder(const QString &binaryDir)
{
    const QDir bin(binaryDir);
    const QStringList candidates{
        bin.filePath(QStringLiteral("../" PILOTHOUSE_INSTALL_DATADIR "/pilothouse/extension")),
        bin.filePath(QStringLiteral("../extension"))};
    for (const QString &candidate : candidates) {
        if (QFileInfo(QDir(candidate).filePath(QStringLiteral("manifest.json"))).isFile())
            return QDir::cleanPath(QFileInfo(candidate).absoluteFilePath());
    }
    return {};
}

} // namespace ph::ui
