#include "ScreenshotLinks.h"

#include "core/ObjectStore.h"
#include "core/Store.h"

namespace ph::firecrawl {

std::function<QString(const QByteArray &png)> screenshotKeeper(Store &store, const QString &keyId,
                                                               QString base)
{
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    Store *s = &store;
    return [s, keyId, base](const QByteArray &png) -> QString {
        try {
            const StoredObject o = s->objects().put(
                keyId, QStringLiteral("screenshot"), QStringLiteral("screenshot.png"),
                QStringLiteral("image/png"), png, kScreenshotTtlMs);
            return base + s->objects().signedPath(o.id, o.expiresAt.value_or(0));
        } catch (const std::exception &e) {
            qWarning("cannot store a screenshot: %s", e.what());
            return QString();
        }
    };
}

} // namespace ph::firecrawl
