#include "RunSettings.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/RequestLog.h"
#include "core/SecretBox.h"

#include <QUrl>

namespace ph::engine {

namespace {

const QString kProxy = QStringLiteral("proxy");
const QString kExtraction = QStringLiteral("extraction");
const QString kSealed = QStringLiteral("sealedPassword");

void rejectUnknown(const JsonFields &fields, const QStringList &known)
{
    for (auto it = fields.object().begin(); it != fields.object().end(); ++it) {
        if (known.contains(it.key()))
            continue;
        const QString path = fields.path(it.key());
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNKNOWN_SETTING"),
                          QStringLiteral("%1 is not a setting a request may override (known: %2)")
                              .arg(path, known.join(QStringLiteral(", "))),
                          path);
    }
}

std::shared_ptr<const UpstreamProxy> readProxy(const JsonFields &settings, const EgressGrant &grant,
                                               const SecretBox *box)
{
    const QJsonValue value = settings.object().value(kProxy);
    const QString path = settings.path(kProxy);
    QString urlText;
    QString user;
    QString password;
    if (value.isString()) {
        urlText = value.toString();
    } else if (value.isObject()) {
        const JsonFields proxy(value.toObject(), path);
        rejectUnknown(proxy, {QStringLiteral("url"), QStringLiteral("username"),
                              QStringLiteral("password"), kSealed});
        urlText = proxy.requiredString(QStringLiteral("url"));
        user = proxy.optionalString(QStringLiteral("username")).value_or(QString());
        password = proxy.optionalString(QStringLiteral("password")).value_or(QString());
        if (const auto sealed = proxy.optionalString(kSealed)) {
            bool ok = false;
            if (box)
                password = box->unseal(*sealed, &ok);
            if (!ok)
                throw DomainError::invalidField(proxy.path(kSealed),
                                                QStringLiteral("does not open with this "
                                                               "server's key"));
        }
    } else {
        throw DomainError::invalidField(path,
                                        QStringLiteral("must be a proxy URL or an object with url, "
                                                       "username and password"));
    }
    const QString urlPath = value.isString() ? path : path + QStringLiteral(".url");
    const QUrl url(urlText.trimmed(), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    auto proxy = std::make_shared<UpstreamProxy>();
    if (scheme.isEmpty() || !url.isValid())
        throw DomainError::invalidField(
            urlPath, QStringLiteral("must be a proxy URL such as socks5://host:1080"));
    if (scheme == QLatin1String("http"))
        proxy->kind = UpstreamProxy::Kind::Http;
    else if (scheme == QLatin1String("https"))
        proxy->kind = UpstreamProxy::Kind::Https;
    else if (scheme == QLatin1String("socks5") || scheme == QLatin1String("socks5h"))
        proxy->kind = UpstreamProxy::Kind::Socks5;
    else
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNSUPPORTED_SCHEME"),
                          QStringLiteral("%1 uses the scheme '%2'; a proxy is http, https or "
                                         "socks5")
                              .arg(urlPath, url.scheme()),
                          urlPath);
    if (!url.isValid() || url.host().isEmpty() || (!url.path().isEmpty() && url.path() != "/") ||
        url.hasQuery() || url.hasFragment())
        throw DomainError::invalidField(
            urlPath, QStringLiteral("must be a proxy URL such as socks5://host:1080"));
    proxy->host = url.host();
    const int defaultPort = proxy->kind == UpstreamProxy::Kind::Socks5  ? 1080
                            : proxy->kind == UpstreamProxy::Kind::Https ? 443
                                                                        : 80;
    proxy->port = quint16(url.port(defaultPort));
    proxy->user = user.isEmpty() ? url.userName() : user;
    proxy->password = password.isEmpty() ? url.password() : password;
    if (proxy->user.size() > 255 || proxy->password.size() > 255)
        throw DomainError::invalidField(path, QStringLiteral("credentials are at most 255 "
                                                             "characters each"));
    if (!NetworkPolicy::literalRefusal(QString(), proxy->host, proxy->port, grant).isEmpty())
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("PRIVATE_TARGET"),
                          QStringLiteral("%1 points at a private address (%2), which this key "
                                         "may not reach")
                              .arg(urlPath, proxy->host),
                          urlPath);
    return proxy;
}

ExtractionConfig readExtraction(const JsonFields &settings)
{
    ExtractionConfig c;
    const auto fields = settings.optionalObject(kExtraction);
    if (!fields)
        return c;
    rejectUnknown(*fields, {QStringLiteral("maxTextChars"), QStringLiteral("accessibilityTree"),
                            QStringLiteral("waitUntil"), QStringLiteral("waitForSelector"),
                            QStringLiteral("waitForText"), QStringLiteral("timeoutMs"),
                            QStringLiteral("mainContentOnly")});
    c.maxTextChars =
        int(fields->optionalInt(QStringLiteral("maxTextChars"), 1, 10'000'000).value_or(0));
    if (const auto tree = fields->optionalObject(QStringLiteral("accessibilityTree"))) {
        rejectUnknown(*tree, {QStringLiteral("maxNodes"), QStringLiteral("scope")});
        c.treeMaxNodes = int(tree->optionalInt(QStringLiteral("maxNodes"), 1, 200000).value_or(0));
        c.treeScope = tree->optionalString(QStringLiteral("scope")).value_or(QString()).trimmed();
    }
    c.waitUntil = fields
                      ->optionalEnum(QStringLiteral("waitUntil"),
                                     {QStringLiteral("load"), QStringLiteral("domcontentloaded")})
                      .value_or(QString());
    c.waitForSelector =
        fields->optionalString(QStringLiteral("waitForSelector")).value_or(QString());
    c.waitForText = fields->optionalString(QStringLiteral("waitForText")).value_or(QString());
    if (!c.waitForSelector.isEmpty() && !c.waitForText.isEmpty())
        throw DomainError::invalidField(fields->path(QStringLiteral("waitForText")),
                                        QStringLiteral("cannot be given with waitForSelector"));
    c.timeoutMs = int(fields->optionalInt(QStringLiteral("timeoutMs"), 100, 120000).value_or(0));
    c.mainContentOnly = fields->optionalBool(QStringLiteral("mainContentOnly")).value_or(true);
    return c;
}

} // namespace

RunSettings RunSettings::read(const QJsonObject &settings, const EgressGrant &grant,
                              const SecretBox *box)
{
    const JsonFields fields(settings, QStringLiteral("settings"));
    rejectUnknown(fields,
                  {QStringLiteral("planner"), QStringLiteral("model"), kProxy, kExtraction});
    RunSettings s;
    s.model = fields.optionalString(QStringLiteral("model")).value_or(QString());
    s.planner = fields
                    .optionalEnum(QStringLiteral("planner"),
                                  {QStringLiteral("rule"), QStringLiteral("llm")})
                    .value_or(QString());
    if (fields.has(kProxy))
        s.proxy = readProxy(fields, grant, box);
    s.extraction = readExtraction(fields);
    return s;
}

namespace {

// The proxy as an object with its URL free of credentials; `password` says what stands
// for the password (the mask, or the sealed value under sealedPassword).
QJsonObject proxyForm(const QJsonValue &given, const UpstreamProxy *proxy)
{
    QUrl url(given.isString() ? given.toString()
                              : given.toObject().value(QStringLiteral("url")).toString());
    url.setUserInfo(QString());
    QJsonObject out{{QStringLiteral("url"), url.toString()}};
    const QString user =
        proxy ? proxy->user
              : (given.isObject() ? given.toObject().value(QStringLiteral("username")).toString()
                                  : QUrl(given.toString()).userName());
    if (!user.isEmpty())
        out.insert(QStringLiteral("username"), user);
    return out;
}

} // namespace

QJsonObject RunSettings::redacted(const QJsonObject &settings)
{
    if (!settings.contains(kProxy))
        return settings;
    QJsonObject out = settings;
    const QJsonValue given = settings.value(kProxy);
    QJsonObject proxy = proxyForm(given, nullptr);
    const bool hasPassword = given.isString()
                                 ? !QUrl(given.toString()).password().isEmpty()
                                 : (given.toObject().contains(QStringLiteral("password")) ||
                                    given.toObject().contains(kSealed));
    if (hasPassword)
        proxy.insert(QStringLiteral("password"), WebhookSubscription::kMask);
    out.insert(kProxy, proxy);
    return out;
}

QJsonObject RunSettings::sealed(const QJsonObject &settings, const SecretBox &box) const
{
    if (!proxy)
        return settings;
    QJsonObject out = settings;
    QJsonObject form = proxyForm(settings.value(kProxy), proxy.get());
    if (!proxy->password.isEmpty())
        form.insert(kSealed, box.seal(proxy->password));
    out.insert(kProxy, form);
    return out;
}

} // namespace ph::engine
