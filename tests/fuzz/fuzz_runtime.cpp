// The runtime's readers of what a visitor's page sends (server/runtime/RuntimeService):
// visitor.context (sanitized to data only, at most 2 KB, no secret-looking key, three
// recent requests) and a tab event's target URL (the adversarial reading). The first
// line is a URL; the rest is the context as JSON.
#include "FuzzInput.h"

#include "runtime/RuntimeService.h"

#include <QJsonDocument>
#include <QJsonObject>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::runtime::RuntimeService;
    Cursor in(bytesOf(data, size));
    const QString url = QString::fromUtf8(in.until('\n'));
    const QJsonObject context = QJsonDocument::fromJson(in.rest()).object();

    QStringList dropped;
    const QJsonObject clean = RuntimeService::sanitizeContext(context, &dropped);
    require(QJsonDocument(clean).toJson(QJsonDocument::Compact).size() <= 2048,
            "a sanitized context over 2 KB");
    for (auto it = clean.begin(); it != clean.end(); ++it) {
        const QString key = it.key().toLower();
        require(!key.contains(QLatin1String("password")) && !key.contains(QLatin1String("token")) &&
                    !key.contains(QLatin1String("secret")),
                "a secret-looking key kept");
        if (key == QLatin1String("recentrequests") && it.value().isArray())
            require(it.value().toArray().size() <= 3, "more than three recent requests");
    }
    require(RuntimeService::sanitizeContext(clean) == clean, "sanitizing is not idempotent");

    const RuntimeService::Adversarial a =
        RuntimeService::assessUrl(url, QStringLiteral("shop.example"));
    require(a.score >= 0 && a.score <= 1, "an adversarial score outside [0, 1]");
    require(a.score == 0 || !a.reasons.isEmpty(), "a score without a reason");
    return 0;
}
