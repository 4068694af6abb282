// The per-request settings of /agent (engine/RunSettings): strict reading of `settings`
// (planner, model, proxy as a URL or an object, the extraction config), the redacted
// form that may be echoed and the sealed form the store keeps. The input is the JSON
// object given as `settings`.
#include "FuzzInput.h"

#include "core/DomainError.h"
#include "core/SecretBox.h"
#include "engine/RunSettings.h"

#include <QJsonDocument>
#include <QTemporaryDir>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::DomainError;
    using ph::engine::RunSettings;
    static QTemporaryDir dir;
    static ph::SecretBox box;
    if (!box.isOpen()) {
        QString error;
        require(box.open(dir.filePath(QStringLiteral("key")), &error), "the secret box opens");
    }
    const QJsonObject input = QJsonDocument::fromJson(bytesOf(data, size)).object();
    for (const bool privateTargets : {false, true}) {
        ph::EgressGrant grant;
        grant.privateTargets = privateTargets;
        try {
            const RunSettings s = RunSettings::read(input, grant);
            if (s.proxy) {
                require(!s.proxy->host.isEmpty() && s.proxy->port != 0,
                        "a proxy without an address");
                // The password never shows in what may be echoed, and the sealed form
                // reads back to the same proxy.
                const QByteArray shown = QJsonDocument(RunSettings::redacted(input)).toJson();
                require(s.proxy->password.size() < 4 || !shown.contains(s.proxy->password.toUtf8()),
                        "the redacted settings show the proxy password");
                const RunSettings again = RunSettings::read(s.sealed(input, box), grant, &box);
                require(again.proxy && again.proxy->password == s.proxy->password &&
                            again.proxy->host == s.proxy->host &&
                            again.proxy->port == s.proxy->port,
                        "the sealed settings read back to another proxy");
            }
        } catch (const DomainError &e) {
            require(e.kind() == DomainError::Kind::Invalid && !e.field().isEmpty() &&
                        e.field().startsWith(QLatin1String("settings")),
                    "a refusal that is not a 400 naming a settings field");
        }
    }
    return 0;
}
