#include "TrustedProxies.h"

#include <QRegularExpression>

#include <cstring>

namespace ph {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool isAlnum(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// RFC 9110 tchar.
bool isTchar(char c)
{
    return isAlnum(c) || (c != 0 && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr);
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}

// RFC 7239 obfuscated node or port: "_" then ALPHA / DIGIT / "." / "_" / "-".
bool isObfuscated(const QByteArray &s)
{
    if (s.size() < 2 || s.front() != '_')
        return false;
    for (const char c : s) {
        if (!isAlnum(c) && c != '.' && c != '_' && c != '-')
            return false;
    }
    return true;
}

bool isPort(const QByteArray &p)
{
    if (isObfuscated(p))
        return true;
    if (p.isEmpty() || p.size() > 5)
        return false;
    for (const char c : p) {
        if (!isDigit(c))
            return false;
    }
    return p.toInt() <= 65535;
}

// Four dotted decimals, nothing shorter (no "127.1", no hex, no octal surprises).
std::optional<QHostAddress> ipv4(const QByteArray &text)
{
    const QList<QByteArray> parts = text.split('.');
    if (parts.size() != 4)
        return std::nullopt;
    for (const QByteArray &p : parts) {
        if (p.isEmpty() || p.size() > 3)
            return std::nullopt;
        for (const char c : p) {
            if (!isDigit(c))
                return std::nullopt;
        }
        if (p.toInt() > 255)
            return std::nullopt;
    }
    QHostAddress a;
    if (!a.setAddress(QString::fromLatin1(text)) || a.protocol() != QAbstractSocket::IPv4Protocol)
        return std::nullopt;
    return a;
}

// An IPv6 literal without brackets or a zone.
std::optional<QHostAddress> ipv6(const QByteArray &text)
{
    if (!text.contains(':'))
        return std::nullopt;
    for (const char c : text) {
        if (!isHex(c) && c != ':' && c != '.')
            return std::nullopt;
    }
    QHostAddress a;
    if (!a.setAddress(QString::fromLatin1(text)) || a.protocol() != QAbstractSocket::IPv6Protocol)
        return std::nullopt;
    return TrustedProxies::canonical(a);
}

// One node of a chain: an address with an optional port ("192.0.2.1", "192.0.2.1:80",
// "[2001:db8::1]:443", a bare IPv6 literal), or `unknown` / an obfuscated name (a null
// address). nullopt: malformed.
std::optional<QHostAddress> node(const QByteArray &raw)
{
    const QByteArray text = raw.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    if (text.compare("unknown", Qt::CaseInsensitive) == 0)
        return QHostAddress();
    if (text.front() == '_') {
        const qsizetype colon = text.indexOf(':');
        if (!isObfuscated(colon < 0 ? text : text.left(colon)))
            return std::nullopt;
        if (colon >= 0 && !isPort(text.mid(colon + 1)))
            return std::nullopt;
        return QHostAddress();
    }
    if (text.front() == '[') {
        const qsizetype end = text.indexOf(']');
        if (end < 0)
            return std::nullopt;
        const QByteArray rest = text.mid(end + 1);
        if (!rest.isEmpty() && !(rest.front() == ':' && isPort(rest.mid(1))))
            return std::nullopt;
        return ipv6(text.mid(1, end - 1));
    }
    const qsizetype colons = text.count(':');
    if (colons == 1) {
        const qsizetype colon = text.indexOf(':');
        if (!isPort(text.mid(colon + 1)))
            return std::nullopt;
        return ipv4(text.left(colon));
    }
    if (colons > 1)
        return ipv6(text);
    return ipv4(text);
}

bool isBlank(const QByteArray &value)
{
    return value.trimmed().isEmpty();
}

} // namespace

QHostAddress TrustedProxies::canonical(const QHostAddress &address)
{
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return address;
    bool v4 = false;
    const quint32 ipv4 = address.toIPv4Address(&v4);
    return v4 ? QHostAddress(ipv4) : address;
}

std::optional<TrustedProxies> TrustedProxies::parse(const QString &list, QString *problem)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    TrustedProxies out;
    for (const QString &entry : list.split(separators, Qt::SkipEmptyParts)) {
        QPair<QHostAddress, int> range(QHostAddress(), -1);
        if (entry.contains(QLatin1Char('/'))) {
            range = QHostAddress::parseSubnet(entry);
        } else if (QHostAddress a; a.setAddress(entry) && a.scopeId().isEmpty()) {
            a = canonical(a);
            range = {a, a.protocol() == QAbstractSocket::IPv4Protocol ? 32 : 128};
        }
        if (range.first.isNull() || range.second < 0) {
            if (problem)
                *problem = QStringLiteral("'%1' is neither an IP address nor a CIDR range (list "
                                          "addresses such as 127.0.0.1 and ranges such as "
                                          "10.0.0.0/8, separated by commas)")
                               .arg(entry.left(64));
            return std::nullopt;
        }
        out.m_ranges.append(range);
    }
    return out;
}

bool TrustedProxies::contains(const QHostAddress &address) const
{
    if (address.isNull())
        return false;
    const QHostAddress a = canonical(address);
    for (const auto &range : m_ranges) {
        if (a.isInSubnet(range))
            return true;
    }
    return false;
}

std::optional<QList<QHostAddress>> TrustedProxies::xForwardedForChain(const QByteArray &value)
{
    QList<QHostAddress> chain;
    for (const QByteArray &entry : value.split(',')) {
        if (isBlank(entry))
            continue; // an empty list element (RFC 9110 5.6.1)
        const std::optional<QHostAddress> n = node(entry);
        if (!n)
            return std::nullopt;
        chain.append(*n);
    }
    return chain;
}

std::optional<QList<QHostAddress>> TrustedProxies::forwardedChain(const QByteArray &value)
{
    // forwarded-element *( "," forwarded-element ), each element pairs joined by ";",
    // a pair token "=" ( token / quoted-string ). An element without `for` names no
    // one it can be told by: a null node.
    QList<QHostAddress> chain;
    const qsizetype n = value.size();
    qsizetype i = 0;
    bool pairs = false;
    std::optional<QHostAddress> forNode;
    auto endElement = [&] {
        if (pairs)
            chain.append(forNode.value_or(QHostAddress()));
        pairs = false;
        forNode.reset();
    };
    while (true) {
        while (i < n && isSpace(value.at(i)))
            ++i;
        if (i >= n) {
            endElement();
            break;
        }
        const char c = value.at(i);
        if (c == ',') {
            endElement();
            ++i;
            continue;
        }
        if (c == ';') {
            ++i;
            continue;
        }
        const qsizetype nameStart = i;
        while (i < n && isTchar(value.at(i)))
            ++i;
        const QByteArray name = value.mid(nameStart, i - nameStart);
        if (name.isEmpty() || i >= n || value.at(i) != '=')
            return std::nullopt;
        ++i;
        QByteArray v;
        if (i < n && value.at(i) == '"') {
            ++i;
            bool closed = false;
            while (i < n) {
                const char ch = value.at(i++);
                if (ch == '\\') {
                    if (i >= n)
                        return std::nullopt;
                    v += value.at(i++);
                } else if (ch == '"') {
                    closed = true;
                    break;
                } else {
                    v += ch;
                }
            }
            if (!closed)
                return std::nullopt;
        } else {
            // A token; the brackets and colons of an unquoted IPv6 or port (which RFC 7239
            // wants quoted) are read as proxies write them.
            const qsizetype start = i;
            while (i < n && (isTchar(value.at(i)) || value.at(i) == ':' || value.at(i) == '[' ||
                             value.at(i) == ']'))
                ++i;
            v = value.mid(start, i - start);
            if (v.isEmpty())
                return std::nullopt;
        }
        while (i < n && isSpace(value.at(i)))
            ++i;
        if (i < n && value.at(i) != ';' && value.at(i) != ',')
            return std::nullopt;
        pairs = true;
        if (name.compare("for", Qt::CaseInsensitive) == 0) {
            if (forNode) // a parameter named twice in one element (RFC 7239 4)
                return std::nullopt;
            forNode = node(v);
            if (!forNode)
                return std::nullopt;
        }
    }
    return chain;
}

std::optional<QHostAddress> TrustedProxies::walk(const QList<QHostAddress> &chain) const
{
    for (qsizetype i = chain.size() - 1; i >= 0; --i) {
        const QHostAddress &a = chain.at(i);
        if (a.isNull())
            return std::nullopt; // unknown or obfuscated before anyone untrusted
        if (!contains(a))
            return a;
    }
    // Trusted all the way: the farthest proxy is the client as far as anyone can tell.
    if (chain.isEmpty())
        return std::nullopt;
    return chain.front();
}

QHostAddress TrustedProxies::clientOf(const QHostAddress &peer, const QByteArray &forwarded,
                                      const QByteArray &xForwardedFor) const
{
    const QHostAddress self = canonical(peer);
    if (!contains(self))
        return self;
    std::optional<QHostAddress> byForwarded;
    std::optional<QHostAddress> byXff;
    if (!isBlank(forwarded)) {
        const auto chain = forwardedChain(forwarded);
        if (!chain)
            return self;
        if (!chain->isEmpty()) {
            byForwarded = walk(*chain);
            if (!byForwarded)
                return self;
        }
    }
    if (!isBlank(xForwardedFor)) {
        const auto chain = xForwardedForChain(xForwardedFor);
        if (!chain)
            return self;
        if (!chain->isEmpty()) {
            byXff = walk(*chain);
            if (!byXff)
                return self;
        }
    }
    // Both headers, naming different clients: one of them came from the client untouched
    // by the proxy, and which one cannot be told.
    if (byForwarded && byXff && *byForwarded != *byXff)
        return self;
    if (byForwarded)
        return *byForwarded;
    return byXff.value_or(self);
}

} // namespace ph
