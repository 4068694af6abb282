// `browserSession` of /scrape, /agent, /execute and the bridge (cloud/SessionWork): the
// strict reading of the object beside `browser`. The input is the request body as JSON.
#include "FuzzInput.h"

#include "browser/LeaseOptions.h"
#include "cloud/SessionWork.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"

#include <QJsonDocument>
#include <QRegularExpression>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::DomainError;
    const QJsonObject input = QJsonDocument::fromJson(bytesOf(data, size)).object();
    for (const QString &prefix : {QString(), QStringLiteral("params")}) {
        const ph::JsonFields body(input, prefix);
        try {
            const ph::LeaseOptions browser =
                ph::LeaseOptions::read(body, QStringLiteral("browser"));
            const QString id = ph::cloud::readBrowserSession(body, browser);
            static const QRegularExpression shape(QStringLiteral("^bs_[A-Za-z0-9_-]{1,64}$"));
            require(id.isEmpty() || shape.match(id).hasMatch(), "an id that is no session's");
            require(id.isEmpty() || browser.engine.isEmpty() ||
                        browser.engine == QLatin1String("chromium"),
                    "a session beside another engine");
            require(!id.isEmpty() || !input.contains(QStringLiteral("browserSession")),
                    "a browserSession read as none");
        } catch (const DomainError &e) {
            const QString field = prefix.isEmpty() ? e.field() : e.field().mid(prefix.size() + 1);
            require(e.kind() == DomainError::Kind::Invalid &&
                        (field.startsWith(QLatin1String("browserSession")) ||
                         field.startsWith(QLatin1String("browser"))),
                    "a refusal that is not a 400 naming browserSession or browser");
        }
    }
    return 0;
}
