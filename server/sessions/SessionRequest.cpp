#include "SessionRequest.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "engine/RunSettings.h"

#include <QRegularExpression>

namespace ph::sessions {

namespace {

const QString kEngine = QStringLiteral("engine");
const QString kProfile = QStringLiteral("profile");
const QString kViewport = QStringLiteral("viewport");
const QString kUserAgent = QStringLiteral("userAgent");
const QString kTimeout = QStringLiteral("timeoutSeconds");
const QString kIdle = QStringLiteral("idleTimeoutSeconds");
const QString kSettings = QStringLiteral("settings");

constexpr int kMaxUserAgent = 512;

QString readEngine(const JsonFields &body)
{
    const QString engine =
        body.optionalString(kEngine).value_or(QStringLiteral("chromium")).trimmed();
    if (engine == QLatin1String("qtwebengine"))
        throw DomainError::invalidField(
            kEngine, QStringLiteral("a browser session runs on chromium: QtWebEngine pages cannot "
                                    "be driven over the DevTools protocol, so no client could "
                                    "connect to one; use \"chromium\" or leave engine out"));
    if (engine != QLatin1String("chromium"))
        throw DomainError::invalidField(
            kEngine, QStringLiteral("'%1' is not a session engine; the one is \"chromium\"")
                         .arg(engine.left(64)));
    return engine;
}

QString readUserAgent(const JsonFields &body)
{
    const QString ua = body.optionalString(kUserAgent).value_or(QString());
    if (ua.size() > kMaxUserAgent)
        throw DomainError::invalidField(
            kUserAgent, QStringLiteral("is longer than %1 characters").arg(kMaxUserAgent));
    for (const QChar c : ua) {
        if (c.category() == QChar::Other_Control || c == QChar::LineSeparator ||
            c == QChar::ParagraphSeparator)
            throw DomainError::invalidField(kUserAgent,
                                            QStringLiteral("may not hold control characters"));
    }
    return ua;
}

} // namespace

bool CreateSessionRequest::isProfileName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9._-]{1,64}$"));
    return pattern.match(name).hasMatch() && name != QLatin1String(".") &&
           name != QLatin1String("..");
}

CreateSessionRequest CreateSessionRequest::read(const QJsonObject &object, const EgressGrant &grant)
{
    const JsonFields body(object);
    body.rejectUnknown({kEngine, kProfile, kViewport, kUserAgent, kTimeout, kIdle, kSettings});
    CreateSessionRequest r;
    r.engine = readEngine(body);
    r.profile = body.optionalString(kProfile).value_or(QString());
    if (body.has(kProfile) && !isProfileName(r.profile))
        throw DomainError::invalidField(
            kProfile, QStringLiteral("must be 1 to 64 of A-Z a-z 0-9 . _ - (not . or ..)"));
    if (const auto viewport = body.optionalObject(kViewport)) {
        viewport->rejectUnknown({QStringLiteral("width"), QStringLiteral("height")});
        r.width = int(viewport->optionalInt(QStringLiteral("width"), 320, 3840).value_or(r.width));
        r.height =
            int(viewport->optionalInt(QStringLiteral("height"), 240, 2160).value_or(r.height));
    }
    r.userAgent = readUserAgent(body);
    r.timeoutSeconds = int(body.optionalInt(kTimeout, kMinTimeout, kMaxTimeout).value_or(900));
    r.idleTimeoutSeconds = int(body.optionalInt(kIdle, kMinTimeout, kMaxTimeout).value_or(300));
    if (const auto settings = body.optionalObject(kSettings)) {
        settings->rejectUnknown({QStringLiteral("proxy")});
        r.proxy = engine::RunSettings::read(settings->object(), grant).proxy;
    }
    return r;
}

} // namespace ph::sessions
