#include "SiteConfigSchema.h"

#include "AllowedDomains.h"

#include "core/DomainError.h"
#include "core/HttpUrl.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>
#include <QUrlQuery>

#include <cmath>
#include <functional>

namespace ph::sites {

namespace {

struct Context
{
    SiteConfigSchema::Mode mode;
    QStringList *dropped;
};

using Check = std::function<QJsonValue(const QJsonValue &, const QString &, Context &)>;

struct Prop
{
    QString name;
    Check check;
    bool required = false;
};

QString join(const QString &path, const QString &key)
{
    return path.isEmpty() ? key : path + QLatin1Char('.') + key;
}

[[noreturn]] void wrong(const QString &path, const QString &expected)
{
    throw DomainError::invalidField(path, QStringLiteral("must be %1").arg(expected));
}

Check string(int maxLength, const QString &pattern = {})
{
    return [maxLength, pattern](const QJsonValue &v, const QString &path, Context &) {
        if (!v.isString())
            wrong(path, QStringLiteral("a string"));
        const QString s = v.toString().trimmed();
        if (s.size() > maxLength)
            wrong(path, QStringLiteral("at most %1 characters").arg(maxLength));
        if (!pattern.isEmpty() && !QRegularExpression(pattern).match(s).hasMatch())
            wrong(path, QStringLiteral("of the form %1").arg(pattern));
        return QJsonValue(s);
    };
}

Check nonEmpty(int maxLength, const QString &pattern = {})
{
    const Check inner = string(maxLength, pattern);
    return [inner](const QJsonValue &v, const QString &path, Context &c) {
        const QJsonValue s = inner(v, path, c);
        if (s.toString().isEmpty())
            wrong(path, QStringLiteral("a non-empty string"));
        return s;
    };
}

Check oneOf(const QStringList &allowed)
{
    return [allowed](const QJsonValue &v, const QString &path, Context &) {
        if (!v.isString() || !allowed.contains(v.toString()))
            wrong(path, QStringLiteral("one of %1").arg(allowed.join(QStringLiteral(", "))));
        return v;
    };
}

Check boolean()
{
    return [](const QJsonValue &v, const QString &path, Context &) {
        if (!v.isBool())
            wrong(path, QStringLiteral("a boolean"));
        return v;
    };
}

Check integer(qint64 min, qint64 max)
{
    return [min, max](const QJsonValue &v, const QString &path, Context &) {
        if (!v.isDouble() || v.toDouble() != std::floor(v.toDouble()))
            wrong(path, QStringLiteral("a whole number"));
        if (v.toDouble() < double(min) || v.toDouble() > double(max))
            wrong(path, QStringLiteral("between %1 and %2").arg(min).arg(max));
        return v;
    };
}

Check url()
{
    return [](const QJsonValue &v, const QString &path, Context &) {
        if (!v.isString())
            wrong(path, QStringLiteral("a URL string"));
        const std::optional<QUrl> u = HttpUrl::parse(v.toString().trimmed());
        if (!u || v.toString().size() > 2048)
            wrong(path, QStringLiteral("an absolute http or https URL"));
        return QJsonValue(u->toString(QUrl::FullyEncoded));
    };
}

// A URL, or "" for none (so a patch can remove one).
Check urlOrEmpty()
{
    const Check inner = url();
    return [inner](const QJsonValue &v, const QString &path, Context &c) {
        if (v.isString() && v.toString().trimmed().isEmpty())
            return QJsonValue(QString());
        return inner(v, path, c);
    };
}

Check domainList()
{
    return [](const QJsonValue &v, const QString &path, Context &) {
        if (!v.isArray())
            wrong(path, QStringLiteral("an array of domains"));
        QJsonArray out;
        const QJsonArray in = v.toArray();
        if (in.size() > 100)
            wrong(path, QStringLiteral("at most 100 domains"));
        for (qsizetype i = 0; i < in.size(); ++i) {
            const QString item = QStringLiteral("%1[%2]").arg(path).arg(i);
            if (!in.at(i).isString())
                wrong(item, QStringLiteral("a string"));
            out.append(AllowedDomains::normalizeEntry(in.at(i).toString(), item));
        }
        return QJsonValue(out);
    };
}

Check object(const QList<Prop> &props)
{
    return [props](const QJsonValue &v, const QString &path, Context &c) {
        if (!v.isObject())
            wrong(path, QStringLiteral("an object"));
        const QJsonObject in = v.toObject();
        QJsonObject out;
        for (auto it = in.begin(); it != in.end(); ++it) {
            const auto prop = std::find_if(props.begin(), props.end(),
                                           [&](const Prop &p) { return p.name == it.key(); });
            const QString child = join(path, it.key());
            if (prop == props.end()) {
                if (c.mode == SiteConfigSchema::Mode::Strict) {
                    throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNKNOWN_FIELD"),
                                      QStringLiteral("%1 is not a known field").arg(child), child);
                }
                if (c.dropped)
                    c.dropped->append(child);
                continue;
            }
            if (it.value().isNull() && !prop->required)
                continue; // null inside an object means "not set"
            out.insert(it.key(), prop->check(it.value(), child, c));
        }
        for (const Prop &p : props) {
            if (p.required && !out.contains(p.name))
                throw DomainError::missingField(join(path, p.name));
        }
        return QJsonValue(out);
    };
}

Check arrayOf(const Check &item, int maxItems)
{
    return [item, maxItems](const QJsonValue &v, const QString &path, Context &c) {
        if (!v.isArray())
            wrong(path, QStringLiteral("an array"));
        const QJsonArray in = v.toArray();
        if (in.size() > maxItems)
            wrong(path, QStringLiteral("at most %1 items").arg(maxItems));
        QJsonArray out;
        for (qsizetype i = 0; i < in.size(); ++i)
            out.append(item(in.at(i), QStringLiteral("%1[%2]").arg(path).arg(i), c));
        return QJsonValue(out);
    };
}

const QString kIdPattern = QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$");

// A capability's argument schema: a JSON Schema object of type "object" in the subset
// core/JsonSchema checks (A2W runs validate `args` with it), at most 8 KB.
Check argsSchema()
{
    return [](const QJsonValue &v, const QString &path, Context &) {
        if (!v.isObject() ||
            v.toObject().value(QStringLiteral("type")).toString() != QLatin1String("object"))
            wrong(path, QStringLiteral("a JSON Schema object with \"type\": \"object\""));
        if (QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact).size() > 8192)
            wrong(path, QStringLiteral("at most 8 KB"));
        return v;
    };
}

Check shortcut()
{
    const Check step = object({{QStringLiteral("title"), nonEmpty(120), true},
                               {QStringLiteral("prompt"), string(2000)},
                               {QStringLiteral("url"), url()}});
    return object({
        {QStringLiteral("id"), nonEmpty(64, kIdPattern), true},
        {QStringLiteral("label"), nonEmpty(80), true},
        {QStringLiteral("kind"), oneOf({QStringLiteral("shortcut"), QStringLiteral("journey")})},
        {QStringLiteral("prompt"), string(2000)},
        {QStringLiteral("description"), string(500)},
        {QStringLiteral("url"), url()},
        {QStringLiteral("engagementKind"),
         oneOf({QStringLiteral("demo"), QStringLiteral("onboarding"), QStringLiteral("support"),
                QStringLiteral("task")})},
        {QStringLiteral("capabilityId"), string(128)},
        {QStringLiteral("argsSchema"), argsSchema()},
        {QStringLiteral("steps"), arrayOf(step, 20)},
        {QStringLiteral("enabled"), boolean()},
    });
}

Check knowledgeEntry()
{
    return object(
        {{QStringLiteral("id"), nonEmpty(64, kIdPattern), true},
         {QStringLiteral("title"), nonEmpty(200), true},
         {QStringLiteral("body"), nonEmpty(10000), true},
         {QStringLiteral("kind"),
          oneOf({QStringLiteral("faq"), QStringLiteral("policy"), QStringLiteral("product"),
                 QStringLiteral("guide"), QStringLiteral("other")}),
          true}});
}

const QList<Prop> &configProps()
{
    static const QList<Prop> props = {
        {QStringLiteral("shortcuts"), arrayOf(shortcut(), SiteConfigSchema::kMaxShortcuts)},
        {QStringLiteral("businessType"),
         oneOf({QStringLiteral("ecommerce"), QStringLiteral("saas"), QStringLiteral("services"),
                QStringLiteral("media"), QStringLiteral("education"), QStringLiteral("nonprofit"),
                QStringLiteral("hospitality"), QStringLiteral("real_estate"),
                QStringLiteral("healthcare"), QStringLiteral("finance"), QStringLiteral("other")})},
        {QStringLiteral("experience"),
         object(
             {{QStringLiteral("seedCallToAction"), string(120)},
              {QStringLiteral("anchor"),
               oneOf({QStringLiteral("bottom-center"), QStringLiteral("bottom-left"),
                      QStringLiteral("bottom-right")})},
              {QStringLiteral("liveActionMode"),
               oneOf({QStringLiteral("transparent"), QStringLiteral("highlight"),
                      QStringLiteral("off")})},
              {QStringLiteral("liveCardCount"), integer(0, 6)},
              {QStringLiteral("launcherLabel"), string(40)},
              {QStringLiteral("theme"),
               object(
                   {{QStringLiteral("accentColor"), string(7, QStringLiteral("^#[0-9A-Fa-f]{6}$"))},
                    {QStringLiteral("mode"), oneOf({QStringLiteral("light"), QStringLiteral("dark"),
                                                    QStringLiteral("auto")})}})}})},
        {QStringLiteral("greeting"), object({{QStringLiteral("text"), string(500)},
                                             {QStringLiteral("delay"), integer(0, 600000)},
                                             {QStringLiteral("duration"), integer(0, 600000)},
                                             {QStringLiteral("disabled"), boolean()}})},
        {QStringLiteral("voice"),
         object({{QStringLiteral("enabled"), boolean()},
                 {QStringLiteral("language"),
                  string(35, QStringLiteral("^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$"))},
                 {QStringLiteral("autoStopMs"), integer(300, 10000)}})},
        {QStringLiteral("aiAccess"),
         object({{QStringLiteral("enabled"), boolean()},
                 {QStringLiteral("browserDeepLinks"), boolean()},
                 {QStringLiteral("cloudBrowser"), boolean()},
                 {QStringLiteral("allowDelegatedHandoffs"), boolean()},
                 {QStringLiteral("confirmation"),
                  oneOf({QStringLiteral("auto"), QStringLiteral("required")})},
                 {QStringLiteral("crossHost"),
                  oneOf({QStringLiteral("allow"), QStringLiteral("same_host")})},
                 {QStringLiteral("maxHops"), integer(0, 10)}})},
        {QStringLiteral("analytics"),
         object(
             {{QStringLiteral("enabled"), boolean()},
              {QStringLiteral("consent"),
               object({{QStringLiteral("provider"), oneOf({QStringLiteral("wix")}), true},
                       {QStringLiteral("category"), oneOf({QStringLiteral("analytics")}), true}})},
              {QStringLiteral("displayPersonalData"), boolean()}})},
        {QStringLiteral("agentDiscovery"),
         object(
             {{QStringLiteral("enabled"), boolean()},
              {QStringLiteral("preferExecution"),
               oneOf({QStringLiteral("cloud"), QStringLiteral("browser"), QStringLiteral("auto")})},
              // What the capabilities document and the site's MCP server offer.
              {QStringLiteral("expose"), object({{QStringLiteral("prompt"), boolean()},
                                                 {QStringLiteral("shortcuts"), boolean()},
                                                 {QStringLiteral("playbooks"), boolean()}})},
              {QStringLiteral("siteManifestUrl"), url()},
              {QStringLiteral("agentCardUrl"), url()},
              {QStringLiteral("discoverySurface"),
               object({{QStringLiteral("mode"),
                        oneOf({QStringLiteral("beacon"), QStringLiteral("inline"),
                               QStringLiteral("hidden")})},
                       {QStringLiteral("branding"),
                        oneOf({QStringLiteral("site"), QStringLiteral("pilothouse"),
                               QStringLiteral("none")})},
                       {QStringLiteral("hostSurface"), string(64)},
                       {QStringLiteral("actionReveal"),
                        oneOf({QStringLiteral("hover"), QStringLiteral("always"),
                               QStringLiteral("never")})},
                       {QStringLiteral("beaconLabel"), string(40)}})}})},
        {QStringLiteral("pageConfig"),
         object({{QStringLiteral("disableAutoScroll"), boolean()},
                 {QStringLiteral("adaptiveSettleMaxWaitMs"), integer(0, 30000)}})},
        {QStringLiteral("knowledge"), arrayOf(knowledgeEntry(), SiteConfigSchema::kMaxKnowledge)},
    };
    return props;
}

void checkUniqueIds(const QJsonArray &items, const QString &path)
{
    QSet<QString> seen;
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QString id = items.at(i).toObject().value(QStringLiteral("id")).toString();
        if (seen.contains(id))
            throw DomainError(
                DomainError::Kind::Invalid, QStringLiteral("DUPLICATE_ID"),
                QStringLiteral("%1[%2].id '%3' is used twice").arg(path).arg(i).arg(id),
                QStringLiteral("%1[%2].id").arg(path).arg(i));
        seen.insert(id);
    }
}

QJsonArray upsertById(QJsonArray current, const QJsonArray &items)
{
    for (const QJsonValue &item : items) {
        const QString id = item.toObject().value(QStringLiteral("id")).toString();
        bool replaced = false;
        for (qsizetype i = 0; i < current.size(); ++i) {
            if (current.at(i).toObject().value(QStringLiteral("id")).toString() == id) {
                current.replace(i, item);
                replaced = true;
                break;
            }
        }
        if (!replaced)
            current.append(item);
    }
    return current;
}

QJsonObject mergeObjects(QJsonObject base, const QJsonObject &over)
{
    for (auto it = over.begin(); it != over.end(); ++it) {
        if (it.value().isObject() && base.value(it.key()).isObject())
            base.insert(it.key(),
                        mergeObjects(base.value(it.key()).toObject(), it.value().toObject()));
        else
            base.insert(it.key(), it.value());
    }
    return base;
}

bool secretLikeName(const QString &name)
{
    static const QRegularExpression pattern(
        QStringLiteral("secret|token|password|passwd|apikey|api_key|credential|signature|^sig$|"
                       "^key$|authorization|^auth$"),
        QRegularExpression::CaseInsensitiveOption);
    return pattern.match(name).hasMatch();
}

QString redactUrl(const QString &text)
{
    if (!text.startsWith(QLatin1String("http://")) && !text.startsWith(QLatin1String("https://")))
        return text;
    QUrl u(text);
    if (!u.isValid())
        return text;
    u.setUserInfo({});
    if (u.hasQuery()) {
        QUrlQuery query(u);
        const auto items = query.queryItems(QUrl::FullyEncoded);
        for (const auto &item : items) {
            if (secretLikeName(item.first))
                query.removeAllQueryItems(item.first);
        }
        u.setQuery(query);
    }
    return u.toString(QUrl::FullyEncoded);
}

} // namespace

const QStringList &SiteConfigSchema::fields()
{
    static const QStringList names = [] {
        QStringList out;
        for (const Prop &p : configProps())
            out.append(p.name);
        return out;
    }();
    return names;
}

const QStringList &SiteConfigSchema::ownerOnlyFields()
{
    static const QStringList names = {QStringLiteral("aiAccess"), QStringLiteral("analytics")};
    return names;
}

QJsonObject SiteConfigSchema::sanitizePatch(const QJsonObject &patch, Mode mode,
                                            const QString &path, QStringList *dropped)
{
    Context context{mode, dropped};
    QJsonObject out;
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        const QString child = join(path, it.key());
        const auto &props = configProps();
        const auto prop = std::find_if(props.begin(), props.end(),
                                       [&](const Prop &p) { return p.name == it.key(); });
        if (prop == props.end()) {
            if (mode == Mode::Strict)
                throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNKNOWN_FIELD"),
                                  QStringLiteral("%1 is not a known field").arg(child), child);
            if (dropped)
                dropped->append(child);
            continue;
        }
        if (mode == Mode::Lenient && ownerOnlyFields().contains(it.key())) {
            if (dropped)
                dropped->append(child);
            continue;
        }
        if (it.value().isNull()) {
            out.insert(it.key(), QJsonValue());
            continue;
        }
        const QJsonValue value = prop->check(it.value(), child, context);
        if (value.isArray())
            checkUniqueIds(value.toArray(), child);
        out.insert(it.key(), value);
    }
    return out;
}

QJsonObject SiteConfigSchema::applyUpsert(const QJsonObject &stored, const QJsonObject &patch)
{
    QJsonObject out = stored;
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        if (it.value().isNull())
            out.remove(it.key());
        else
            out.insert(it.key(), it.value());
    }
    return out;
}

QJsonObject SiteConfigSchema::applyProposal(const QJsonObject &stored, const QJsonObject &patch)
{
    QJsonObject out = stored;
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        if (it.value().isNull())
            out.remove(it.key());
        else if (it.value().isArray())
            out.insert(it.key(), upsertById(out.value(it.key()).toArray(), it.value().toArray()));
        else
            out.insert(it.key(), it.value());
    }
    return out;
}

void SiteConfigSchema::checkWhole(const QJsonObject &config, const QString &path)
{
    sanitizePatch(config, Mode::Strict, path);
}

QJsonObject SiteConfigSchema::defaults()
{
    return {
        {QStringLiteral("shortcuts"), QJsonArray()},
        {QStringLiteral("businessType"), QStringLiteral("other")},
        {QStringLiteral("experience"),
         QJsonObject{
             {QStringLiteral("seedCallToAction"), QStringLiteral("Ask me to do it for you")},
             {QStringLiteral("anchor"), QStringLiteral("bottom-center")},
             {QStringLiteral("liveActionMode"), QStringLiteral("transparent")},
             {QStringLiteral("liveCardCount"), 3}}},
        {QStringLiteral("greeting"),
         QJsonObject{{QStringLiteral("text"), QStringLiteral("Hi! I can find things and get "
                                                             "them done on this site for you.")},
                     {QStringLiteral("delay"), 4000},
                     {QStringLiteral("duration"), 8000},
                     {QStringLiteral("disabled"), false}}},
        {QStringLiteral("voice"), QJsonObject{{QStringLiteral("enabled"), false},
                                              {QStringLiteral("language"), QStringLiteral("en")},
                                              {QStringLiteral("autoStopMs"), 1200}}},
        {QStringLiteral("aiAccess"),
         QJsonObject{{QStringLiteral("enabled"), true},
                     // Off: a site owner opts in to agents handing tasks to its
                     // visitors (docs/decisions.md, "Browser handoffs are opt-in").
                     {QStringLiteral("browserDeepLinks"), false},
                     {QStringLiteral("cloudBrowser"), true},
                     {QStringLiteral("allowDelegatedHandoffs"), false},
                     {QStringLiteral("confirmation"), QStringLiteral("required")},
                     {QStringLiteral("crossHost"), QStringLiteral("same_host")},
                     {QStringLiteral("maxHops"), 2}}},
        {QStringLiteral("analytics"), QJsonObject{{QStringLiteral("enabled"), true},
                                                  {QStringLiteral("displayPersonalData"), false}}},
        {QStringLiteral("agentDiscovery"),
         QJsonObject{{QStringLiteral("enabled"), true},
                     {QStringLiteral("preferExecution"), QStringLiteral("cloud")},
                     {QStringLiteral("expose"), QJsonObject{{QStringLiteral("prompt"), true},
                                                            {QStringLiteral("shortcuts"), true},
                                                            {QStringLiteral("playbooks"), true}}},
                     {QStringLiteral("discoverySurface"),
                      QJsonObject{{QStringLiteral("mode"), QStringLiteral("beacon")},
                                  {QStringLiteral("branding"), QStringLiteral("site")},
                                  {QStringLiteral("actionReveal"), QStringLiteral("hover")},
                                  {QStringLiteral("beaconLabel"), QStringLiteral("AI actions")}}}}},
        {QStringLiteral("pageConfig"),
         QJsonObject{{QStringLiteral("disableAutoScroll"), true},
                     {QStringLiteral("adaptiveSettleMaxWaitMs"), 1500}}},
        {QStringLiteral("knowledge"), QJsonArray()},
    };
}

QJsonObject SiteConfigSchema::effective(const QJsonObject &stored)
{
    return mergeObjects(defaults(), stored);
}

QJsonValue SiteConfigSchema::redact(const QJsonValue &value)
{
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject in = value.toObject();
        for (auto it = in.begin(); it != in.end(); ++it) {
            if (!secretLikeName(it.key()))
                out.insert(it.key(), redact(it.value()));
        }
        return out;
    }
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &v : value.toArray())
            out.append(redact(v));
        return out;
    }
    if (value.isString())
        return redactUrl(value.toString());
    return value;
}

QJsonObject SiteConfigSchema::capabilityDefaults()
{
    return {{QStringLiteral("embed"), true},
            {QStringLiteral("externalWebContextScrape"), false},
            {QStringLiteral("cloudAgent"), true},
            {QStringLiteral("cloudScrape"), false}};
}

QJsonObject SiteConfigSchema::mergeCapabilities(const QJsonObject &current,
                                                const QJsonObject &patch, const QString &path)
{
    return mergeCapabilities(current, patch, path, capabilityDefaults());
}

QJsonObject SiteConfigSchema::mergeCapabilities(const QJsonObject &current,
                                                const QJsonObject &patch, const QString &path,
                                                const QJsonObject &known)
{
    QJsonObject out = current;
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        const QString child = join(path, it.key());
        if (!known.contains(it.key()))
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNKNOWN_FIELD"),
                              QStringLiteral("%1 is not a known capability (%2)")
                                  .arg(child, known.keys().join(QStringLiteral(", "))),
                              child);
        if (!it.value().isBool())
            wrong(child, QStringLiteral("a boolean"));
        out.insert(it.key(), it.value());
    }
    return out;
}

QJsonObject SiteConfigSchema::sitePolicyDefaults()
{
    return {{QStringLiteral("siteMode"), QStringLiteral("live")},
            {QStringLiteral("domainScopeMode"), QStringLiteral("registrable_domain")},
            {QStringLiteral("cloudSandboxEnabled"), false},
            {QStringLiteral("externalAllowDomains"), QJsonArray()},
            {QStringLiteral("externalDenyDomains"), QJsonArray()},
            {QStringLiteral("mascot"), QJsonObject{{QStringLiteral("enabled"), false}}},
            {QStringLiteral("shortcutLimits"),
             QJsonObject{{QStringLiteral("maxShortcuts"), 12}, {QStringLiteral("maxVisible"), 4}}}};
}

QJsonObject SiteConfigSchema::mergeSitePolicy(const QJsonObject &current, const QJsonObject &patch,
                                              const QString &path)
{
    static const Check policy = object({
        {QStringLiteral("siteMode"),
         oneOf({QStringLiteral("live"), QStringLiteral("test"), QStringLiteral("paused")})},
        {QStringLiteral("domainScopeMode"),
         oneOf({QStringLiteral("registrable_domain"), QStringLiteral("exact_host")})},
        {QStringLiteral("cloudSandboxEnabled"), boolean()},
        {QStringLiteral("externalAllowDomains"), domainList()},
        {QStringLiteral("externalDenyDomains"), domainList()},
        {QStringLiteral("mascot"),
         object({{QStringLiteral("enabled"), boolean()},
                 {QStringLiteral("name"), string(40)},
                 {QStringLiteral("avatarUrl"), urlOrEmpty()},
                 {QStringLiteral("style"),
                  oneOf({QStringLiteral("friendly"), QStringLiteral("minimal"),
                         QStringLiteral("professional")})}})},
        {QStringLiteral("shortcutLimits"),
         object({{QStringLiteral("maxShortcuts"), integer(0, SiteConfigSchema::kMaxShortcuts)},
                 {QStringLiteral("maxVisible"), integer(0, 20)}})},
    });
    Context context{Mode::Strict, nullptr};
    const QJsonObject checked = policy(patch, path, context).toObject();
    return mergeObjects(current, checked);
}

} // namespace ph::sites
