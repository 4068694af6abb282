#include "WebBotAuth.h"

#include "A2wRepository.h"

#include "core/Clock.h"
#include "core/Ids.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "net/NetworkPolicy.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QRegularExpression>
#include <QUrl>

#include <openssl/evp.h>

namespace ph::a2w {

namespace {

constexpr qint64 kSkewMs = 60'000;            // clocks may differ by a minute
constexpr qint64 kDirectoryTtlMs = 3'600'000; // without Cache-Control max-age
constexpr qint64 kDirectoryMaxTtlMs = 86'400'000;
constexpr qint64 kRefetchAfterMs = 60'000; // an unknown key id refetches at most this often
constexpr int kMaxHeaderBytes = 8192;
constexpr int kMaxDirectoryBytes = 64 * 1024;
const QString kTag = QStringLiteral("web-bot-auth");
const QString kDirectoryPath = QStringLiteral("/.well-known/http-message-signatures-directory");

// A cursor over one structured-field header (RFC 8941 §4.2).
struct Cursor
{
    const QByteArray &s;
    int i = 0;
    bool atEnd() const { return i >= s.size(); }
    char peek() const { return atEnd() ? '\0' : s.at(i); }
    void skipSp()
    {
        while (!atEnd() && s.at(i) == ' ')
            ++i;
    }
    void skipOws()
    {
        while (!atEnd() && (s.at(i) == ' ' || s.at(i) == '\t'))
            ++i;
    }
};

bool isLcAlpha(char c)
{
    return c >= 'a' && c <= 'z';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::optional<QString> parseKey(Cursor &c)
{
    if (!isLcAlpha(c.peek()) && c.peek() != '*')
        return std::nullopt;
    const int start = c.i;
    while (!c.atEnd()) {
        const char ch = c.peek();
        if (!(isLcAlpha(ch) || isDigit(ch) || ch == '_' || ch == '-' || ch == '.' || ch == '*'))
            break;
        ++c.i;
    }
    return QString::fromLatin1(c.s.mid(start, c.i - start));
}

std::optional<QString> parseString(Cursor &c)
{
    if (c.peek() != '"')
        return std::nullopt;
    ++c.i;
    QByteArray out;
    while (!c.atEnd()) {
        const char ch = c.s.at(c.i++);
        if (ch == '\\') {
            if (c.atEnd())
                return std::nullopt;
            const char next = c.s.at(c.i++);
            if (next != '"' && next != '\\')
                return std::nullopt;
            out.append(next);
        } else if (ch == '"') {
            return QString::fromLatin1(out);
        } else if (ch < 0x20 || ch > 0x7e) {
            return std::nullopt;
        } else {
            out.append(ch);
        }
    }
    return std::nullopt;
}

// An sf-item's bare value: string, integer, token, byte sequence or boolean.
std::optional<QVariant> parseBare(Cursor &c)
{
    const char ch = c.peek();
    if (ch == '"') {
        const auto s = parseString(c);
        return s ? std::optional<QVariant>(*s) : std::nullopt;
    }
    if (ch == '-' || isDigit(ch)) {
        const int start = c.i;
        if (ch == '-')
            ++c.i;
        while (!c.atEnd() && isDigit(c.peek()) && c.i - start < 16)
            ++c.i;
        bool ok = false;
        const qint64 v = c.s.mid(start, c.i - start).toLongLong(&ok);
        if (!ok || (!c.atEnd() && c.peek() == '.'))
            return std::nullopt; // decimals are not used here
        return QVariant(v);
    }
    if (ch == '?') {
        ++c.i;
        if (c.peek() == '1' || c.peek() == '0') {
            const bool v = c.peek() == '1';
            ++c.i;
            return QVariant(v);
        }
        return std::nullopt;
    }
    if (ch == ':') {
        ++c.i;
        const int start = c.i;
        while (!c.atEnd() && c.peek() != ':')
            ++c.i;
        if (c.atEnd())
            return std::nullopt;
        const QByteArray b64 = c.s.mid(start, c.i - start);
        ++c.i;
        static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9+/=]*$"));
        if (!valid.match(QString::fromLatin1(b64)).hasMatch())
            return std::nullopt;
        return QVariant(QByteArray::fromBase64(b64));
    }
    if ((ch >= 'A' && ch <= 'Z') || isLcAlpha(ch) || ch == '*') {
        const int start = c.i;
        while (!c.atEnd()) {
            const char t = c.peek();
            if (t <= 0x20 || t >= 0x7f || QByteArrayView("\"(),;<=>?@[\\]{}").contains(t))
                break;
            ++c.i;
        }
        return QVariant(QString::fromLatin1(c.s.mid(start, c.i - start)));
    }
    return std::nullopt;
}

// Parameters (RFC 8941 §3.1.2): `param` gets each key with the cursor on its value,
// or no cursor when the key stands alone (a true boolean); false on a malformed one.
bool readParams(Cursor &c, const std::function<bool(const QString &, Cursor *)> &param)
{
    while (c.peek() == ';') {
        ++c.i;
        c.skipSp();
        const auto key = parseKey(c);
        if (!key)
            return false;
        Cursor *value = nullptr;
        if (c.peek() == '=') {
            ++c.i;
            value = &c;
        }
        if (!param(*key, value))
            return false;
    }
    return true;
}

std::optional<QList<QPair<QString, QVariant>>> parseParams(Cursor &c)
{
    QList<QPair<QString, QVariant>> params;
    const bool ok = readParams(c, [&](const QString &key, Cursor *value) {
        QVariant v(true);
        if (value) {
            const auto bare = parseBare(*value);
            if (!bare)
                return false;
            v = *bare;
        }
        params.append({key, v});
        return true;
    });
    return ok ? std::optional(params) : std::nullopt;
}

// A dictionary (RFC 8941 §4.2.2) whose members are handed to `member` with the cursor
// on the value; it parses the value and returns false on a malformed one.
bool parseDictionary(const QByteArray &header,
                     const std::function<bool(const QString &, Cursor &)> &member)
{
    Cursor c{header};
    c.skipSp();
    while (!c.atEnd()) {
        const auto key = parseKey(c);
        if (!key || c.peek() != '=')
            return false;
        ++c.i;
        if (!member(*key, c))
            return false;
        c.skipOws();
        if (c.atEnd())
            return true;
        if (c.peek() != ',')
            return false;
        ++c.i;
        c.skipOws();
        if (c.atEnd())
            return false; // a trailing comma
    }
    return true;
}

QString serializeString(const QString &s)
{
    QString out = QStringLiteral("\"");
    for (const QChar ch : s) {
        if (ch == u'"' || ch == u'\\')
            out += u'\\';
        out += ch;
    }
    return out + u'"';
}

QString headerValue(const SignedRequest &r, const QString &name)
{
    return QString::fromLatin1(r.header(name.toLatin1()).trimmed());
}

// A bare item parsed and serialized again strictly (RFC 8941 §4.1.3).
std::optional<QByteArray> canonicalBare(Cursor &c)
{
    const char first = c.peek();
    const auto v = parseBare(c);
    if (!v)
        return std::nullopt;
    if (first == '"')
        return serializeString(v->toString()).toLatin1();
    switch (v->typeId()) {
    case QMetaType::LongLong:
        return QByteArray::number(v->toLongLong());
    case QMetaType::Bool:
        return QByteArray(v->toBool() ? "?1" : "?0");
    case QMetaType::QByteArray:
        return ':' + v->toByteArray().toBase64() + ':';
    default:
        return v->toString().toLatin1(); // a token
    }
}

// Parameters parsed and serialized again strictly (a true boolean has no value).
std::optional<QByteArray> canonicalParams(Cursor &c)
{
    QByteArray out;
    const bool ok = readParams(c, [&](const QString &key, Cursor *value) {
        out += ';' + key.toLatin1();
        if (!value)
            return true;
        const auto v = canonicalBare(*value);
        if (!v)
            return false;
        if (*v != "?1")
            out += '=' + *v;
        return true;
    });
    return ok ? std::optional(out) : std::nullopt;
}

} // namespace

QVariant SignatureInput::param(const QString &name) const
{
    for (const auto &[k, v] : params)
        if (k == name)
            return v;
    return {};
}

QString SignatureInput::serialized() const
{
    QStringList quoted;
    for (qsizetype i = 0; i < components.size(); ++i) {
        const QString key = componentKeys.value(i);
        quoted << serializeString(components.at(i)) +
                      (key.isEmpty() ? QString() : QStringLiteral(";key=") + serializeString(key));
    }
    QString out = QStringLiteral("(") + quoted.join(u' ') + QStringLiteral(")");
    for (const auto &[k, v] : params) {
        out += u';' + k;
        if (v.typeId() == QMetaType::Bool) {
            if (!v.toBool())
                out += QStringLiteral("=?0");
        } else if (v.typeId() == QMetaType::LongLong) {
            out += u'=' + QString::number(v.toLongLong());
        } else if (v.typeId() == QMetaType::QByteArray) {
            out += QStringLiteral("=:") + QString::fromLatin1(v.toByteArray().toBase64()) + u':';
        } else {
            out += u'=' + serializeString(v.toString());
        }
    }
    return out;
}

std::optional<QList<SignatureInput>> WebBotAuth::parseSignatureInput(const QByteArray &header,
                                                                     QString *error)
{
    QList<SignatureInput> out;
    if (header.size() > kMaxHeaderBytes) {
        *error = QStringLiteral("Signature-Input is longer than %1 bytes").arg(kMaxHeaderBytes);
        return std::nullopt;
    }
    const bool ok = parseDictionary(header, [&](const QString &key, Cursor &c) {
        if (c.peek() != '(')
            return false;
        ++c.i;
        SignatureInput in;
        in.label = key;
        for (;;) {
            c.skipSp();
            if (c.peek() == ')') {
                ++c.i;
                break;
            }
            const auto component = parseString(c);
            if (!component)
                return false;
            // One component parameter is used by Web Bot Auth: `key`, naming a member of
            // a dictionary field (the draft's "signature-agent";key="sig1"). The others
            // (;req, ;sf, ;bs, ;tr, ;name) are refused.
            QString member;
            if (c.peek() == ';') {
                ++c.i;
                const auto name = parseKey(c);
                if (!name || *name != QLatin1String("key") || c.peek() != '=')
                    return false;
                ++c.i;
                const auto value = parseString(c);
                if (!value || c.peek() == ';')
                    return false;
                member = *value;
            }
            in.components << *component;
            in.componentKeys << member;
            if (c.peek() != ' ' && c.peek() != ')')
                return false;
        }
        const auto params = parseParams(c);
        if (!params)
            return false;
        in.params = *params;
        out.append(in);
        return true;
    });
    if (!ok || out.isEmpty()) {
        *error = QStringLiteral("Signature-Input is not a dictionary of inner lists (RFC 9421 "
                                "§4.1)");
        return std::nullopt;
    }
    return out;
}

std::optional<QHash<QString, QByteArray>> WebBotAuth::parseSignatures(const QByteArray &header,
                                                                      QString *error)
{
    QHash<QString, QByteArray> out;
    if (header.size() > kMaxHeaderBytes) {
        *error = QStringLiteral("Signature is longer than %1 bytes").arg(kMaxHeaderBytes);
        return std::nullopt;
    }
    const bool ok = parseDictionary(header, [&](const QString &key, Cursor &c) {
        if (c.peek() != ':')
            return false;
        const auto v = parseBare(c);
        if (!v || v->typeId() != QMetaType::QByteArray)
            return false;
        if (!parseParams(c))
            return false;
        out.insert(key, v->toByteArray());
        return true;
    });
    if (!ok || out.isEmpty()) {
        *error = QStringLiteral("Signature is not a dictionary of byte sequences (RFC 9421 "
                                "§4.2)");
        return std::nullopt;
    }
    return out;
}

QString WebBotAuth::parseSignatureAgent(const QByteArray &header, const QString &label)
{
    const QByteArray h = header.trimmed();
    if (h.startsWith('"')) {
        Cursor c{h};
        const auto s = parseString(c);
        return s && c.atEnd() ? *s : QString();
    }
    QString found;
    const bool ok = parseDictionary(h, [&](const QString &key, Cursor &c) {
        // Members that are not strings (or of another discovery type) are another
        // signer's business: parsed, not used.
        const bool isString = c.peek() == '"';
        const auto s = isString ? parseString(c) : std::nullopt;
        if (isString && !s)
            return false;
        if (!s) {
            if (!parseBare(c))
                return false;
            const auto params = parseParams(c);
            if (!params)
                return false;
            if (key == label)
                found.clear();
            return true;
        }
        const auto params = parseParams(c);
        if (!params)
            return false;
        QString type = QStringLiteral("directory");
        for (const auto &[name, value] : *params)
            if (name == QLatin1String("type"))
                type = value.toString();
        if (key == label)
            found = type == QLatin1String("directory") ? *s : QString();
        return true;
    });
    return ok ? found : QString();
}

std::optional<QByteArray> WebBotAuth::dictionaryMember(const QByteArray &header, const QString &key)
{
    std::optional<QByteArray> found;
    const bool ok = parseDictionary(header.trimmed(), [&](const QString &name, Cursor &c) {
        if (c.peek() == '(')
            return false; // inner lists are not used here
        const auto value = canonicalBare(c);
        const auto params = value ? canonicalParams(c) : std::nullopt;
        if (!params)
            return false;
        if (name == key)
            found = *value + *params; // the last of duplicate keys wins (RFC 8941 §4.2.2)
        return true;
    });
    return ok ? found : std::nullopt;
}

QString WebBotAuth::authorityOf(const QString &scheme, const QString &hostAndPort)
{
    QUrl url;
    url.setScheme(scheme.toLower());
    url.setAuthority(hostAndPort.trimmed(), QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() || !url.userInfo().isEmpty())
        return {};
    QString host = url.host(QUrl::FullyEncoded).toLower();
    if (host.contains(u':'))
        host = u'[' + host + u']';
    const int port = url.port(-1);
    const int standard =
        scheme.compare(QLatin1String("https"), Qt::CaseInsensitive) == 0 ? 443 : 80;
    return port >= 0 && port != standard ? host + u':' + QString::number(port) : host;
}

QStringList WebBotAuth::publicOrigins() const
{
    const QStringList configured =
        Settings::parseOrigins(m_settings.stringValue(SettingKeys::publicOrigins));
    if (!configured.isEmpty())
        return configured;
    // The origin of http.publicBaseUrl (the listening address unless set); on loopback,
    // 127.0.0.1 and localhost name the same listener.
    const QUrl base(m_settings.stringValue(SettingKeys::publicBaseUrl).trimmed());
    QStringList origins =
        Settings::parseOrigins(base.adjusted(QUrl::RemovePath | QUrl::RemoveQuery |
                                             QUrl::RemoveFragment | QUrl::RemoveUserInfo)
                                   .toString());
    const QString host = base.host().toLower();
    if (host == QLatin1String("127.0.0.1") || host == QLatin1String("localhost")) {
        QUrl twin = base.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment |
                                  QUrl::RemoveUserInfo);
        twin.setHost(host == QLatin1String("localhost") ? QStringLiteral("127.0.0.1")
                                                        : QStringLiteral("localhost"));
        origins += Settings::parseOrigins(twin.toString());
    }
    return origins;
}

QByteArray WebBotAuth::signatureBase(const SignedRequest &r, const SignatureInput &input,
                                     QString *error)
{
    QByteArray base;
    for (qsizetype i = 0; i < input.components.size(); ++i) {
        const QString &component = input.components.at(i);
        const QString key = input.componentKeys.value(i);
        QString value;
        if (!key.isEmpty()) {
            // One member of a dictionary field, serialized again (RFC 9421 §2.1.2).
            const auto member = component.startsWith(u'@')
                                    ? std::nullopt
                                    : dictionaryMember(r.header(component.toLatin1()), key);
            if (!member || component != component.toLower()) {
                *error = QStringLiteral("%1;key=%2").arg(component, key);
                return {};
            }
            base += serializeString(component).toLatin1() +
                    ";key=" + serializeString(key).toLatin1() + ": " + *member + '\n';
            continue;
        }
        if (component == QLatin1String("@authority")) {
            value = headerValue(r, QStringLiteral("host")).toLower();
        } else if (component == QLatin1String("@method")) {
            value = QString::fromLatin1(r.method).toUpper();
        } else if (component == QLatin1String("@path")) {
            value = r.path.isEmpty() ? QStringLiteral("/") : r.path;
        } else if (component == QLatin1String("@query")) {
            value = u'?' + r.query;
        } else if (component == QLatin1String("@scheme")) {
            value = r.scheme;
        } else if (component == QLatin1String("@target-uri")) {
            value = r.scheme + QStringLiteral("://") +
                    headerValue(r, QStringLiteral("host")).toLower() + r.path;
            if (!r.query.isEmpty())
                value += u'?' + r.query;
        } else if (!component.startsWith(u'@') && component == component.toLower() &&
                   r.headers.contains(component.toLatin1())) {
            value = headerValue(r, component);
        } else {
            *error = component;
            return {};
        }
        base += serializeString(component).toLatin1() + ": " + value.toUtf8() + '\n';
    }
    base += "\"@signature-params\": " + input.serialized().toUtf8();
    return base;
}

QString WebBotAuth::thumbprint(const QString &x)
{
    // RFC 7638: the required members in lexicographic order, no whitespace.
    const QByteArray canonical =
        QStringLiteral("{\"crv\":\"Ed25519\",\"kty\":\"OKP\",\"x\":\"%1\"}").arg(x).toUtf8();
    return QString::fromLatin1(
        QCryptographicHash::hash(canonical, QCryptographicHash::Sha256)
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool WebBotAuth::verifyEd25519(const QByteArray &publicKey, const QByteArray &message,
                               const QByteArray &signature)
{
    if (publicKey.size() != 32 || signature.size() != 64)
        return false;
    EVP_PKEY *key = EVP_PKEY_new_raw_public_key(
        EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char *>(publicKey.constData()),
        size_t(publicKey.size()));
    if (!key)
        return false;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    bool ok = ctx && EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, key) == 1 &&
              EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char *>(signature.constData()),
                               size_t(signature.size()),
                               reinterpret_cast<const unsigned char *>(message.constData()),
                               size_t(message.size())) == 1;
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    return ok;
}

WebBotAuth::WebBotAuth(Store &store, NetworkPolicy &policy, Settings &settings, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_policy(policy)
    , m_settings(settings)
    , m_repo(std::make_unique<A2wRepository>(store))
{}

WebBotAuth::~WebBotAuth() = default;

void WebBotAuth::verify(const SignedRequest &request, Done done)
{
    check(request, std::move(done), false);
}

namespace {

// Why a signature is refused: the error code and message of the verdict.
struct Refusal
{
    QString code;
    QString message;
};

Refusal malformed(const QString &message)
{
    return {QStringLiteral("SIGNATURE_MALFORMED"), message};
}

// The Web Bot Auth signature's parameters and covered components, checked.
std::optional<Refusal> inputRefusal(const SignatureInput *input,
                                    const QHash<QString, QByteArray> &signatures,
                                    const QByteArray &agentHeader)
{
    if (!input)
        return malformed(QStringLiteral("no signature is tagged \"web-bot-auth\""));
    if (!signatures.contains(input->label))
        return malformed(QStringLiteral("Signature has no member %1").arg(input->label));
    const QString alg = input->param(QStringLiteral("alg")).toString();
    if (!alg.isEmpty() && alg != QLatin1String("ed25519"))
        return malformed(QStringLiteral("alg %1 is not supported (ed25519 only)").arg(alg));
    if (input->param(QStringLiteral("keyid")).toString().isEmpty() ||
        input->param(QStringLiteral("created")).typeId() != QMetaType::LongLong ||
        input->param(QStringLiteral("expires")).typeId() != QMetaType::LongLong ||
        input->param(QStringLiteral("nonce")).toString().isEmpty())
        return malformed(QStringLiteral("the signature needs keyid, created, expires and nonce"));
    if ((!input->components.contains(QStringLiteral("@authority")) &&
         !input->components.contains(QStringLiteral("@target-uri"))) ||
        (!agentHeader.isEmpty() && !input->components.contains(QStringLiteral("signature-agent"))))
        return malformed(QStringLiteral("the signature must cover @authority (or @target-uri) "
                                        "and signature-agent"));
    return std::nullopt;
}

// Signature-Agent: the draft's dictionary, whose member under this signature's label
// it covers, or the older single string, covered whole. `agent` is the key directory's
// origin URL it names.
std::optional<Refusal> agentRefusal(const SignatureInput &input, const QByteArray &agentHeader,
                                    bool plainHttp, QUrl *agent)
{
    const auto invalid = [](const QString &message) {
        return Refusal{QStringLiteral("SIGNATURE_AGENT_INVALID"), message};
    };
    const qsizetype agentAt = input.components.indexOf(QStringLiteral("signature-agent"));
    const QString agentKey = agentAt < 0 ? QString() : input.componentKeys.value(agentAt);
    if (!agentKey.isEmpty() && agentKey != input.label)
        return invalid(QStringLiteral("the signature covers the Signature-Agent member %1, not "
                                      "its own (%2)")
                           .arg(agentKey.left(64), input.label));
    const QString agentUrl = WebBotAuth::parseSignatureAgent(agentHeader, input.label);
    *agent = QUrl(agentUrl, QUrl::StrictMode);
    const QString agentScheme = agent->scheme().toLower();
    if (agentUrl.isEmpty() || !agent->isValid() || agent->host().isEmpty() ||
        !(agentScheme == QLatin1String("https") ||
          (plainHttp && agentScheme == QLatin1String("http"))) ||
        !agent->userInfo().isEmpty() || agent->hasQuery() || agent->hasFragment() ||
        (!agent->path().isEmpty() && agent->path() != QLatin1String("/")))
        return invalid(QStringLiteral("Signature-Agent must name the https origin of a key "
                                      "directory (an sf-string, or a dictionary member under "
                                      "the signature's label)"));
    // Key directories come from public addresses only: a name that is loopback or
    // private as written is never fetched, one that resolves there is refused by the
    // egress proxy before it connects.
    if (NetworkPolicy::isPrivateHostLiteral(agent->host()))
        return invalid(QStringLiteral("Signature-Agent names a loopback or private host: key "
                                      "directories are fetched from public addresses only"));
    return std::nullopt;
}

// The signature's window against the clock and the longest window allowed.
std::optional<Refusal> windowRefusal(qint64 now, qint64 createdMs, qint64 expiresMs,
                                     qint64 maxAgeMs)
{
    if (expiresMs <= now || createdMs > now + kSkewMs)
        return Refusal{QStringLiteral("SIGNATURE_EXPIRED"),
                       QStringLiteral("the signature is outside its window (created %1, "
                                      "expires %2)")
                           .arg(Clock::isoUtc(createdMs), Clock::isoUtc(expiresMs))};
    if (expiresMs - createdMs > maxAgeMs)
        return Refusal{QStringLiteral("SIGNATURE_EXPIRED"),
                       QStringLiteral("the signature's window is longer than %1 s "
                                      "(a2w.signatureMaxAgeSeconds)")
                           .arg(maxAgeMs / 1000)};
    return std::nullopt;
}

// The scheme of the public origin whose authority `host` is, or empty: the authority
// the signature was made for must be ours.
QString schemeOfOurs(const QStringList &publicOrigins, const QString &host)
{
    for (const QString &origin : publicOrigins) {
        const QString originScheme = origin.section(QStringLiteral("://"), 0, 0);
        const QString authority = WebBotAuth::authorityOf(originScheme, host);
        if (!authority.isEmpty() && authority == origin.section(QStringLiteral("://"), 1).toLower())
            return originScheme;
    }
    return {};
}

} // namespace

void WebBotAuth::check(const SignedRequest &request, Done done, bool fetched)
{
    const QByteArray sigHeader = request.header("signature");
    const QByteArray inputHeader = request.header("signature-input");
    Verdict v;
    if (sigHeader.isEmpty() && inputHeader.isEmpty()) {
        done(v); // no signature: anonymous (the caller may still be identified)
        return;
    }
    auto refuse = [&](const Refusal &r) {
        v.errorCode = r.code;
        v.errorMessage = r.message;
        done(v);
    };
    QString error;
    const auto inputs = parseSignatureInput(inputHeader, &error);
    if (!inputs)
        return refuse(malformed(error));
    const auto signatures = parseSignatures(sigHeader, &error);
    if (!signatures)
        return refuse(malformed(error));
    // The Web Bot Auth signature: the one tagged web-bot-auth.
    const SignatureInput *input = nullptr;
    for (const SignatureInput &in : *inputs)
        if (in.param(QStringLiteral("tag")).toString() == kTag)
            input = &in;
    const QByteArray agentHeader = request.header("signature-agent");
    if (const auto r = inputRefusal(input, *signatures, agentHeader))
        return refuse(*r);
    const QString keyId = input->param(QStringLiteral("keyid")).toString();
    const QString nonce = input->param(QStringLiteral("nonce")).toString();

    // A signature another site received is no use here, whatever Host its replay carries.
    const QString host = headerValue(request, QStringLiteral("host"));
    const QString scheme = schemeOfOurs(publicOrigins(), host);
    if (scheme.isEmpty())
        return refuse({QStringLiteral("SIGNATURE_WRONG_AUTHORITY"),
                       QStringLiteral("the signature is for %1, which is not one of this "
                                      "service's public origins (http.publicOrigins)")
                           .arg(host.isEmpty() ? QStringLiteral("no host") : host.left(100))});
    SignedRequest ours = request;
    ours.scheme = scheme;

    QUrl agent;
    if (const auto r = agentRefusal(*input, agentHeader, m_plainHttp, &agent))
        return refuse(*r);

    const qint64 now = m_store.clock().nowMs();
    const qint64 createdMs = input->param(QStringLiteral("created")).toLongLong() * 1000;
    const qint64 expiresMs = input->param(QStringLiteral("expires")).toLongLong() * 1000;
    const qint64 maxAge = m_settings.int64Value(SettingKeys::a2wSignatureMaxAgeSeconds) * 1000;
    if (const auto r = windowRefusal(now, createdMs, expiresMs, maxAge))
        return refuse(*r);

    const QString origin = agent
                               .adjusted(QUrl::RemovePath | QUrl::RemoveQuery |
                                         QUrl::RemoveFragment | QUrl::RemoveUserInfo)
                               .toString();
    const Directory dir = m_directories.value(origin);
    const bool stale = dir.expiresAt <= now;
    const bool unknownKey = !dir.keys.contains(keyId);
    if (!fetched && (stale || (unknownKey && now - dir.fetchedAt > kRefetchAfterMs))) {
        const SignedRequest copy = request;
        QPointer<WebBotAuth> self(this);
        fetch(origin, [self, copy, done](bool) {
            if (self)
                self->check(copy, done, true);
        });
        return;
    }
    if (unknownKey || dir.expiresAt <= now)
        return refuse({QStringLiteral("SIGNATURE_KEY_UNKNOWN"),
                       dir.problem.isEmpty()
                           ? QStringLiteral("the key directory %1%2 has no Ed25519 key %3")
                                 .arg(origin, kDirectoryPath, keyId)
                           : QStringLiteral("the key directory %1%2 %3")
                                 .arg(origin, kDirectoryPath, dir.problem)});

    const QByteArray base = signatureBase(ours, *input, &error);
    if (base.isEmpty())
        return refuse(
            malformed(QStringLiteral("the covered component %1 is not in the request").arg(error)));
    if (!verifyEd25519(dir.keys.value(keyId), base, signatures->value(input->label)))
        return refuse({QStringLiteral("SIGNATURE_INVALID"),
                       QStringLiteral("the signature does not verify with key %1").arg(keyId)});
    // Only a valid signature spends its nonce: a forged one cannot burn a real one.
    if (!m_repo->rememberNonce(Ids::sha256Hex((origin + u' ' + nonce).toUtf8()),
                               expiresMs + kSkewMs))
        return refuse({QStringLiteral("SIGNATURE_REPLAYED"),
                       QStringLiteral("this nonce was used already inside its window")});
    v.tier = Trust::verified;
    v.agentUrl = origin;
    v.keyId = keyId;
    done(v);
}

void WebBotAuth::fetch(const QString &origin, std::function<void(bool ok)> then)
{
    // The directory is fetched through the egress proxy with a grant that has no private
    // targets, whatever network.allowPrivateTargets says: an anonymous caller names this
    // URL, so it never reaches loopback, private, link-local or metadata addresses (the
    // proxy checks every address the name resolves to before it connects). No redirect
    // is followed (the draft: a directory answers 200 or not at all).
    const EgressGrant grant{false, QStringLiteral("web-bot-auth")};
    const QUrl url(origin + kDirectoryPath);
    if (!NetworkPolicy::refusal(url, grant).isEmpty()) {
        Directory dir;
        dir.fetchedAt = m_store.clock().nowMs();
        dir.expiresAt = dir.fetchedAt + kRefetchAfterMs;
        dir.problem = QStringLiteral("is not on a public address");
        m_directories.insert(origin, dir);
        then(false);
        return;
    }
    QNetworkAccessManager *nam = m_policy.createFetcher(grant, this);
    QNetworkRequest req(url);
    req.setTransferTimeout(5000);
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                     QNetworkRequest::ManualRedirectPolicy);
    req.setRawHeader("Accept", "application/http-message-signatures-directory+json, "
                               "application/json");
    QNetworkReply *reply = nam->get(req);
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxDirectoryBytes)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, nam, origin, then] {
        reply->deleteLater();
        nam->deleteLater();
        const qint64 now = m_store.clock().nowMs();
        Directory dir;
        dir.fetchedAt = now;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->readAll();
        if (reply->error() == QNetworkReply::NoError && status == 200 &&
            body.size() <= kMaxDirectoryBytes) {
            for (const QJsonValue &k :
                 QJsonDocument::fromJson(body).object().value(QStringLiteral("keys")).toArray()) {
                const QJsonObject jwk = k.toObject();
                if (jwk.value(QStringLiteral("kty")).toString() != QLatin1String("OKP") ||
                    jwk.value(QStringLiteral("crv")).toString() != QLatin1String("Ed25519"))
                    continue;
                const QString x = jwk.value(QStringLiteral("x")).toString();
                const QByteArray raw = QByteArray::fromBase64(
                    x.toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
                if (raw.size() == 32)
                    dir.keys.insert(thumbprint(x), raw);
            }
            qint64 ttl = kDirectoryTtlMs;
            static const QRegularExpression maxAge(QStringLiteral("max-age=(\\d+)"));
            const auto m = maxAge.match(QString::fromLatin1(reply->rawHeader("Cache-Control")));
            if (m.hasMatch())
                ttl = std::min(m.captured(1).toLongLong() * 1000, kDirectoryMaxTtlMs);
            dir.expiresAt = now + ttl;
        } else {
            // Unreachable or not a directory: remembered briefly, so a flood of signed
            // requests does not become a flood of fetches.
            dir.expiresAt = now + kRefetchAfterMs;
            dir.problem = reply->error() == QNetworkReply::NoError && status != 0
                              ? QStringLiteral("answered %1, not 200 with a directory").arg(status)
                              : QStringLiteral("could not be fetched");
        }
        m_directories.insert(origin, dir);
        then(!dir.keys.isEmpty());
    });
}

} // namespace ph::a2w
