#include "FirecrawlScrape.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/Principal.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace ph::firecrawl {

namespace {

constexpr int kMaxWaitMs = 60000;     // Firecrawl's cap on waitFor plus wait actions
constexpr int kMaxTimeoutMs = 120000; // /scrape's navigation cap
constexpr int kMaxHeaders = 50;
constexpr int kMaxHeaderValue = 8192;

const QStringList &servedFormats()
{
    static const QStringList f = {QStringLiteral("markdown"), QStringLiteral("html"),
                                  QStringLiteral("rawHtml"), QStringLiteral("links"),
                                  QStringLiteral("screenshot")};
    return f;
}

// Formats Firecrawl has and Pilothouse does not produce: a typed error, never a document
// without them.
QString unsupportedFormatReason(const QString &format)
{
    if (format == QLatin1String("summary") || format == QLatin1String("changeTracking"))
        return QStringLiteral("the %1 format is not served by Pilothouse").arg(format);
    return {};
}

DomainError unsupported(const QString &code, const QString &field, const QString &message)
{
    return DomainError(DomainError::Kind::Invalid, code, message, field);
}

// The json format's prompt and schema: v2 from the format object, v1 from jsonOptions
// (format "json") or extract (format "extract").
void readJsonFormat(const JsonFields &options, const QString &field, ScrapeRequest &r)
{
    r.json = true;
    r.jsonPrompt = options.optionalString(QStringLiteral("prompt")).value_or(QString());
    if (const auto schema = options.optionalObject(QStringLiteral("schema")))
        r.jsonSchema = schema->object();
    if (r.jsonPrompt.trimmed().isEmpty() && r.jsonSchema.isEmpty())
        throw DomainError::invalidField(field,
                                        QStringLiteral("json format requires either 'prompt' or "
                                                       "'schema' (or both)"));
}

// screenshot, screenshot@fullPage (v1), {type:"screenshot", fullPage?, quality?,
// viewport?} (v2): a PNG of the page after the actions, the viewport's or the whole page's.
void readScreenshotFormat(const QJsonValue &raw, const QString &name, const QString &field,
                          ScrapeRequest &r)
{
    bool full = name == QLatin1String("screenshot@fullPage");
    if (raw.isObject()) {
        const JsonFields options(raw.toObject(), field);
        full = options.optionalBool(QStringLiteral("fullPage")).value_or(full);
        if (options.has(QStringLiteral("quality")))
            (void)options.optionalInt(QStringLiteral("quality"), 0, 100);
        if (options.has(QStringLiteral("viewport")))
            r.warnings << QStringLiteral("screenshot viewport is not served: pictures are of the "
                                         "engine's 1280 x 800 viewport");
    }
    if (r.page.screenshot != cloud::PageWork::Shot::None)
        throw DomainError::invalidField(field, QStringLiteral("only one screenshot format"));
    r.page.screenshot = full ? cloud::PageWork::Shot::FullPage : cloud::PageWork::Shot::Viewport;
}

QStringList readFormats(const JsonFields &body, ApiVersion version, const QStringList &defaults,
                        ScrapeRequest &r)
{
    const QString key = QStringLiteral("formats");
    if (!body.has(key))
        return defaults;
    const QJsonArray raw = *body.optionalArray(key);
    QStringList formats;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        const QString field = QStringLiteral("%1[%2]").arg(body.path(key)).arg(i);
        QString name;
        if (raw.at(i).isString())
            name = raw.at(i).toString();
        else if (raw.at(i).isObject() && version == ApiVersion::V2)
            name = raw.at(i).toObject().value(QStringLiteral("type")).toString();
        else
            throw DomainError::invalidField(field, version == ApiVersion::V2
                                                       ? QStringLiteral("must be a format name "
                                                                        "or {type: …}")
                                                       : QStringLiteral("must be a format name"));
        if (name == QLatin1String("json") || name == QLatin1String("extract")) {
            if (version == ApiVersion::V2 && name == QLatin1String("json"))
                readJsonFormat(JsonFields(raw.at(i).toObject(), field), field, r);
            else if (version == ApiVersion::V1) {
                const QString optionsKey = name == QLatin1String("json")
                                               ? QStringLiteral("jsonOptions")
                                               : QStringLiteral("extract");
                const auto options = body.optionalObject(optionsKey);
                readJsonFormat(options.value_or(JsonFields(QJsonObject(), body.path(optionsKey))),
                               body.path(optionsKey), r);
            } else {
                throw DomainError::invalidField(
                    field, QStringLiteral("must be one of %1, json")
                               .arg(servedFormats().join(QStringLiteral(", "))));
            }
            continue;
        }
        if (name == QLatin1String("screenshot") || name == QLatin1String("screenshot@fullPage")) {
            readScreenshotFormat(raw.at(i), name, field, r);
            formats << QStringLiteral("screenshot");
            continue;
        }
        if (const QString why = unsupportedFormatReason(name); !why.isEmpty())
            throw unsupported(QStringLiteral("UNSUPPORTED_FORMAT"), field, why);
        if (!servedFormats().contains(name))
            throw DomainError::invalidField(field,
                                            QStringLiteral("must be one of %1")
                                                .arg(servedFormats().join(QStringLiteral(", "))));
        formats << name;
    }
    formats.removeDuplicates();
    return formats;
}

// One of Firecrawl's actions as a page step; screenshot and pdf are refused by name.
cloud::PageStep readAction(const JsonFields &action, const QString &field)
{
    using K = cloud::PageStep::Kind;
    cloud::PageStep step;
    step.field = field;
    const QString type = action.requiredString(QStringLiteral("type"));
    if (type == QLatin1String("wait")) {
        const auto ms = action.optionalInt(QStringLiteral("milliseconds"), 1, kMaxWaitMs);
        const auto selector = action.optionalString(QStringLiteral("selector"));
        if (ms.has_value() == selector.has_value())
            throw DomainError::invalidField(
                field, QStringLiteral("Either 'milliseconds' or 'selector' must be provided, but "
                                      "not both."));
        step.kind = ms ? K::Pause : K::WaitFor;
        step.ms = int(ms.value_or(0));
        step.selector = selector.value_or(QString());
    } else if (type == QLatin1String("click")) {
        step.kind = K::Click;
        step.selector = action.requiredString(QStringLiteral("selector"));
        step.all = action.optionalBool(QStringLiteral("all")).value_or(false);
    } else if (type == QLatin1String("write")) {
        step.kind = K::Write;
        step.text = action.requiredString(QStringLiteral("text"));
    } else if (type == QLatin1String("press")) {
        step.kind = K::Press;
        step.text = action.requiredString(QStringLiteral("key"));
    } else if (type == QLatin1String("scroll")) {
        step.kind = K::Scroll;
        step.text = action
                        .optionalEnum(QStringLiteral("direction"),
                                      {QStringLiteral("up"), QStringLiteral("down")})
                        .value_or(QStringLiteral("down"));
        step.selector = action.optionalString(QStringLiteral("selector")).value_or(QString());
    } else if (type == QLatin1String("scrape")) {
        step.kind = K::Snapshot;
    } else if (type == QLatin1String("executeJavascript")) {
        step.kind = K::Script;
        step.text = action.requiredString(QStringLiteral("script"));
    } else if (type == QLatin1String("screenshot")) {
        step.kind = K::Screenshot;
        step.all = action.optionalBool(QStringLiteral("fullPage")).value_or(false);
        if (action.has(QStringLiteral("quality")))
            (void)action.optionalInt(QStringLiteral("quality"), 0, 100);
    } else if (type == QLatin1String("pdf")) {
        throw unsupported(QStringLiteral("UNSUPPORTED_ACTION"), action.path(QStringLiteral("type")),
                          QStringLiteral("the %1 action is not served by Pilothouse's scrape "
                                         "yet")
                              .arg(type));
    } else {
        throw DomainError::invalidField(
            action.path(QStringLiteral("type")),
            QStringLiteral("must be one of wait, click, write, press, scroll, scrape, "
                           "executeJavascript, screenshot"));
    }
    return step;
}

// Waits alone keep the load's own wait (a pause, one selector): the cheap path. Any
// other action makes every action a page step, done in order on the loaded page.
void readActions(const JsonFields &body, ScrapeRequest &r)
{
    const auto actions = body.optionalArray(QStringLiteral("actions"));
    if (!actions)
        return;
    QList<cloud::PageStep> steps;
    int waited = 0;
    bool onlyWaits = true;
    int selectorWaits = 0;
    for (qsizetype i = 0; i < actions->size(); ++i) {
        const QString field =
            QStringLiteral("%1[%2]").arg(body.path(QStringLiteral("actions"))).arg(i);
        if (!actions->at(i).isObject())
            throw DomainError::invalidField(field, QStringLiteral("must be an object"));
        const cloud::PageStep step =
            readAction(JsonFields(actions->at(i).toObject(), field), field);
        waited += step.ms;
        onlyWaits = onlyWaits && (step.kind == cloud::PageStep::Kind::Pause ||
                                  step.kind == cloud::PageStep::Kind::WaitFor);
        selectorWaits += step.kind == cloud::PageStep::Kind::WaitFor ? 1 : 0;
        steps << step;
    }
    r.actionWaitMs = waited;
    if (!onlyWaits || selectorWaits > 1) {
        r.page.steps = steps;
        r.hasActions = true;
        return;
    }
    r.waitMs += waited;
    for (const cloud::PageStep &step : steps)
        if (step.kind == cloud::PageStep::Kind::WaitFor)
            r.waitForSelector = step.selector;
}

// A caller's extra request headers for the page's navigation: HTTP tokens as names,
// values without line breaks, and none that steer the connection or the proxy (hop-by-hop
// headers, Host, Content-Length, Proxy-*): those are the egress's, never a caller's.
HeaderList readHeaders(const JsonFields &headers, const QString &listField)
{
    static const QRegularExpression token(QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"));
    static const QStringList refused = {QStringLiteral("connection"),
                                        QStringLiteral("keep-alive"),
                                        QStringLiteral("te"),
                                        QStringLiteral("trailer"),
                                        QStringLiteral("transfer-encoding"),
                                        QStringLiteral("upgrade"),
                                        QStringLiteral("host"),
                                        QStringLiteral("content-length"),
                                        QStringLiteral("expect")};
    const QJsonObject object = headers.object();
    if (object.size() > kMaxHeaders)
        throw DomainError::invalidField(listField,
                                        QStringLiteral("at most %1 headers").arg(kMaxHeaders));
    HeaderList out;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString field = headers.path(it.key());
        const QString name = it.key();
        if (!token.match(name).hasMatch())
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("INVALID_HEADER"),
                              QStringLiteral("is not a valid header name"), field);
        const QString lower = name.toLower();
        if (refused.contains(lower) || lower.startsWith(QLatin1String("proxy-")))
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("INVALID_HEADER"),
                              QStringLiteral("%1 is not sent for a caller: hop-by-hop, Host, "
                                             "Content-Length and Proxy-* headers belong to the "
                                             "connection")
                                  .arg(name),
                              field);
        if (!it.value().isString())
            throw DomainError::invalidField(field, QStringLiteral("must be a string"));
        const QString value = it.value().toString();
        if (value.size() > kMaxHeaderValue || value.contains(QLatin1Char('\r')) ||
            value.contains(QLatin1Char('\n')) || value.contains(QChar(0)))
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("INVALID_HEADER"),
                              QStringLiteral("must be at most %1 characters, without line "
                                             "breaks")
                                  .arg(kMaxHeaderValue),
                              field);
        out.append({name.toLatin1(), value.toUtf8()});
    }
    return out;
}

// includeTags / excludeTags are applied to the page; headers and mobile are refused by
// name rather than ignored.
void readTagsAndRefuseOptions(const JsonFields &body, ScrapeRequest &r)
{
    for (const QString &key : {QStringLiteral("includeTags"), QStringLiteral("excludeTags")}) {
        const QStringList tags = body.stringArray(key, false).value_or(QStringList());
        for (qsizetype i = 0; i < tags.size(); ++i)
            if (tags.at(i).trimmed().isEmpty())
                throw DomainError::invalidField(QStringLiteral("%1[%2]").arg(body.path(key)).arg(i),
                                                QStringLiteral("must be a CSS selector"));
        (key == QLatin1String("includeTags") ? r.page.includeTags : r.page.excludeTags) = tags;
    }
    if (const auto headers = body.optionalObject(QStringLiteral("headers")))
        r.page.headers = readHeaders(*headers, body.path(QStringLiteral("headers")));
    // A phone's page: on the chromium engine, whose pages can be one.
    r.page.mobile = body.optionalBool(QStringLiteral("mobile")).value_or(false);
}

} // namespace

QUrl readUrl(const QString &raw, const QString &field)
{
    QString text = raw.trimmed();
    if (text.isEmpty())
        throw DomainError::invalidField(field, QStringLiteral("must not be empty"));
    // "mailto:x@y", "javascript:…": a scheme of its own, not a host before a port.
    static const QRegularExpression otherScheme(QStringLiteral("^[A-Za-z][A-Za-z0-9+.-]*:(?!\\d)"));
    if (!text.contains(QLatin1String("://"))) {
        if (otherScheme.match(text).hasMatch())
            throw DomainError::invalidField(field, QStringLiteral("URL uses unsupported protocol"));
        text.prepend(QStringLiteral("http://"));
    }
    const QUrl url(text, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        throw DomainError::invalidField(field, QStringLiteral("URL uses unsupported protocol"));
    if (!url.isValid() || url.host().isEmpty())
        throw DomainError::invalidField(field, QStringLiteral("Invalid URL"));
    return url;
}

ScrapeRequest readScrapeRequest(const QJsonObject &object, ApiVersion version,
                                const QString &prefix, bool needsUrl,
                                const QStringList &defaultFormats)
{
    const JsonFields body(object, prefix);
    ScrapeRequest r;
    if (needsUrl)
        r.url =
            readUrl(body.requiredString(QStringLiteral("url")), body.path(QStringLiteral("url")));
    r.formats = readFormats(body, version, defaultFormats, r);
    readTagsAndRefuseOptions(body, r);
    r.onlyMainContent = body.optionalBool(QStringLiteral("onlyMainContent")).value_or(true);
    if (!r.onlyMainContent)
        r.warnings << QStringLiteral("onlyMainContent:false is not served: markdown is the page's "
                                     "main content (html and rawHtml hold the whole page)");
    r.waitMs = int(body.optionalInt(QStringLiteral("waitFor"), 0, kMaxWaitMs).value_or(0));
    readActions(body, r);
    if (r.waitMs + (r.hasActions ? r.actionWaitMs : 0) > kMaxWaitMs)
        throw DomainError::invalidField(
            body.path(QStringLiteral("actions")),
            QStringLiteral("Total wait time (waitFor + wait actions) cannot exceed 60 seconds"));
    if (const auto t = body.optionalInt(QStringLiteral("timeout"), 1, 24LL * 3600 * 1000)) {
        const int waits = r.waitMs + (r.hasActions ? r.actionWaitMs : 0);
        if (waits > *t / 2)
            throw DomainError::invalidField(body.path(QStringLiteral("waitFor")),
                                            QStringLiteral("waitFor must not exceed half of "
                                                           "timeout"));
        r.timeoutMs = int(qBound(qint64(100), qint64(*t - waits), qint64(kMaxTimeoutMs)));
    }
    // With actions, json is read from the page they left, as Firecrawl reads it: in the
    // page, by the schema. A prompt alone needs the model's run, which loads the page anew.
    if (r.json && r.hasActions && !r.jsonSchema.isEmpty())
        r.page.extractSchema = r.jsonSchema;
    else if (r.json && !r.page.isEmpty())
        r.warnings << QStringLiteral("json without a schema is extracted from the page as it "
                                     "loads, without the actions and tag filters");
    r.maxAgeMs = body.optionalInt(QStringLiteral("maxAge"), 0, 9'007'199'254'740'991LL).value_or(0);
    r.storeInCache = body.optionalBool(QStringLiteral("storeInCache")).value_or(true);
    return r;
}

QJsonObject ScrapeRequest::cloudRequest(const QList<QUrl> &urls) const
{
    QStringList cloudFormats;
    for (const QString &f : formats) {
        if (f == QLatin1String("markdown"))
            cloudFormats << QStringLiteral("markdown");
        else if (f == QLatin1String("html") || f == QLatin1String("rawHtml"))
            cloudFormats << QStringLiteral("html");
        else if (f == QLatin1String("links"))
            cloudFormats << QStringLiteral("links");
    }
    cloudFormats.removeDuplicates();
    if (cloudFormats.isEmpty()) // metadata only: the cheapest read
        cloudFormats << QStringLiteral("links");
    QJsonArray list;
    for (const QUrl &u : urls)
        list.append(u.toString(QUrl::FullyEncoded));
    QJsonObject body{{QStringLiteral("urls"), list},
                     {QStringLiteral("formats"), QJsonArray::fromStringList(cloudFormats)}};
    if (waitMs > 0)
        body.insert(QStringLiteral("waitMs"), waitMs);
    if (!waitForSelector.isEmpty())
        body.insert(QStringLiteral("waitForSelector"), waitForSelector);
    if (timeoutMs > 0)
        body.insert(QStringLiteral("timeoutMs"), timeoutMs);
    if (page.mobile) // QtWebEngine's pages cannot be a phone's
        body.insert(QStringLiteral("browser"),
                    QJsonObject{{QStringLiteral("engine"), QStringLiteral("chromium")}});
    return body;
}

QJsonObject ScrapeRequest::agentRequest() const
{
    QJsonObject body{{QStringLiteral("input"),
                      jsonPrompt.trimmed().isEmpty()
                          ? QStringLiteral("Extract the data the schema describes from the page %1")
                                .arg(url.toString(QUrl::FullyEncoded))
                          : jsonPrompt},
                     {QStringLiteral("urls"), QJsonArray{url.toString(QUrl::FullyEncoded)}}};
    if (!jsonSchema.isEmpty())
        body.insert(QStringLiteral("schema"), jsonSchema);
    return body;
}

namespace {
// The headers as a digest: a cache key holds no caller's secret (an Authorization, a Cookie).
QString headersDigest(const HeaderList &headers)
{
    if (headers.isEmpty())
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const auto &[name, value] : headers) {
        hash.addData(name.toLower());
        hash.addData(QByteArrayView("\0", 1));
        hash.addData(value);
        hash.addData(QByteArrayView("\n", 1));
    }
    return QString::fromLatin1(hash.result().toHex());
}
} // namespace

QString ScrapeRequest::cacheKey() const
{
    const QJsonObject shape{{QStringLiteral("url"), url.toString(QUrl::FullyEncoded)},
                            {QStringLiteral("formats"), QJsonArray::fromStringList(formats)},
                            {QStringLiteral("waitMs"), waitMs},
                            {QStringLiteral("waitForSelector"), waitForSelector},
                            {QStringLiteral("json"), json},
                            {QStringLiteral("jsonPrompt"), jsonPrompt},
                            {QStringLiteral("jsonSchema"), jsonSchema},
                            {QStringLiteral("page"), page.toJson()},
                            {QStringLiteral("headers"), headersDigest(page.headers)},
                            {QStringLiteral("mobile"), page.mobile}};
    return QString::fromUtf8(QJsonDocument(shape).toJson(QJsonDocument::Compact));
}

bool ScrapeRequest::takesPictures() const
{
    if (page.screenshot != cloud::PageWork::Shot::None)
        return true;
    for (const cloud::PageStep &step : page.steps)
        if (step.kind == cloud::PageStep::Kind::Screenshot)
            return true;
    return false;
}

bool hasPage(const QJsonObject &result)
{
    const QString code =
        result.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString();
    return result.contains(QStringLiteral("contentType")) && code != QLatin1String("NON_HTML");
}

QJsonObject documentFor(const QJsonObject &result, const ScrapeRequest &request,
                        const QString &scrapeId)
{
    QJsonObject doc;
    for (const QString &f : request.formats) {
        if (f == QLatin1String("markdown"))
            doc.insert(f, result.value(QStringLiteral("markdown")).toString());
        else if (f == QLatin1String("html") || f == QLatin1String("rawHtml"))
            doc.insert(f, result.value(QStringLiteral("html")).toString());
        else if (f == QLatin1String("screenshot"))
            doc.insert(f, result.value(QStringLiteral("screenshot")).toString());
        else if (f == QLatin1String("links")) {
            QJsonArray links;
            for (const QJsonValue &l : result.value(QStringLiteral("links")).toArray())
                links.append(l.toObject().value(QStringLiteral("href")).toString());
            doc.insert(f, links);
        }
    }
    QStringList warnings = request.warnings;
    if (!request.page.extractSchema.isEmpty()) { // read in the page (PageWork::extractSchema)
        const QJsonObject read = result.value(QStringLiteral("json")).toObject();
        doc.insert(QStringLiteral("json"), read.value(QStringLiteral("data")));
        QStringList missing;
        for (const QJsonValue &m : read.value(QStringLiteral("missing")).toArray())
            missing << m.toString();
        if (!missing.isEmpty())
            warnings << QStringLiteral("json: missing %1").arg(missing.join(QStringLiteral(", ")));
    }
    const QString finalUrl = result.value(QStringLiteral("finalUrl")).toString();
    QJsonObject meta{
        {QStringLiteral("title"), result.value(QStringLiteral("title")).toString()},
        {QStringLiteral("language"), result.value(QStringLiteral("lang")).toString()},
        {QStringLiteral("sourceURL"), result.value(QStringLiteral("url")).toString()},
        {QStringLiteral("url"),
         finalUrl.isEmpty() ? result.value(QStringLiteral("url")).toString() : finalUrl},
        {QStringLiteral("statusCode"), result.value(QStringLiteral("httpStatus")).toInt(200)},
        {QStringLiteral("scrapeId"), scrapeId},
        {QStringLiteral("contentType"), result.value(QStringLiteral("contentType")).toString()},
        {QStringLiteral("proxyUsed"), QStringLiteral("basic")}};
    if (const QString d = result.value(QStringLiteral("description")).toString(); !d.isEmpty())
        meta.insert(QStringLiteral("description"), d);
    if (request.page.mobile)
        meta.insert(QStringLiteral("mobile"), true);
    const QJsonObject error = result.value(QStringLiteral("error")).toObject();
    if (!error.isEmpty())
        meta.insert(QStringLiteral("error"), error.value(QStringLiteral("message")).toString());
    doc.insert(QStringLiteral("metadata"), meta);
    if (request.hasActions)
        doc.insert(QStringLiteral("actions"), result.value(QStringLiteral("actions")));
    if (!warnings.isEmpty())
        doc.insert(QStringLiteral("warning"), warnings.join(QStringLiteral("; ")));
    return doc;
}

DomainError pageError(const QJsonObject &result)
{
    const QJsonObject error = result.value(QStringLiteral("error")).toObject();
    const QString code = error.value(QStringLiteral("code")).toString();
    QString message = error.value(QStringLiteral("message")).toString();
    if (message.isEmpty())
        message = QStringLiteral("the page could not be read");
    using K = DomainError::Kind;
    const QString field = error.value(QStringLiteral("field")).toString();
    // A step of the page's work that failed: Firecrawl's action error, naming the action.
    if (code == QLatin1String("ACTION_FAILED"))
        return DomainError(
            K::Internal, QStringLiteral("SCRAPE_ACTION_ERROR"),
            QStringLiteral("Action(s) failed to complete: %1: %2").arg(field, message), field,
            QJsonObject{{QStringLiteral("field"), field}});
    if ((code == QLatin1String("INVALID_SELECTOR") ||
         code == QLatin1String("UNSUPPORTED_OPTION")) &&
        !field.isEmpty())
        return DomainError(K::Invalid, code, message, field);
    if (code == QLatin1String("BLOCKED") || code == QLatin1String("PRIVATE_TARGET"))
        return DomainError(K::Forbidden, code, message, QStringLiteral("url"));
    if (code == QLatin1String("TIMEOUT"))
        return DomainError(K::Timeout, QStringLiteral("SCRAPE_TIMEOUT"), message);
    if (code == QLatin1String("BUSY"))
        return DomainError::busy(message, 1);
    if (code == QLatin1String("NON_HTML"))
        return DomainError::invalidField(QStringLiteral("url"), message);
    return DomainError(K::Internal, code.isEmpty() ? QStringLiteral("SCRAPE_FAILED") : code,
                       message);
}

void requireScriptGrant(const Principal &caller, const ScrapeRequest &request,
                        const std::function<bool(const QString &keyId)> &grant)
{
    if (!request.page.runsScripts() || caller.owner)
        return;
    if (grant && grant(caller.keyId))
        return;
    for (const cloud::PageStep &step : request.page.steps) {
        if (step.kind == cloud::PageStep::Kind::Script)
            throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("SCRIPTS_NOT_ALLOWED"),
                              QStringLiteral("%1: executeJavascript needs the key's pageScripts "
                                             "capability, which the owner grants with "
                                             "/updateApiKeyCapabilities")
                                  .arg(step.field),
                              step.field);
    }
}

} // namespace ph::firecrawl
