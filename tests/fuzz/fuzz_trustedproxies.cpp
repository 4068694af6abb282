// Client identity behind a reverse proxy (server/core/TrustedProxies): the
// http.trustedProxies list, the Forwarded (RFC 7239) and X-Forwarded-For chains, and the
// client a request is from. Lines: the trusted list, the peer, Forwarded, then
// X-Forwarded-For (the rest).
#include "FuzzInput.h"

#include "core/TrustedProxies.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::TrustedProxies;
    Cursor in(bytesOf(data, size));
    const QString list = QString::fromUtf8(in.until('\n'));
    const QHostAddress peer(QString::fromLatin1(in.until('\n').left(64)));
    const QByteArray forwarded = in.until('\n');
    const QByteArray xff = in.rest();

    QString problem;
    const auto parsed = TrustedProxies::parse(list, &problem);
    require(parsed.has_value() || !problem.isEmpty(), "a refused list names no reason");
    const TrustedProxies proxies = parsed.value_or(TrustedProxies());

    const auto fChain = TrustedProxies::forwardedChain(forwarded);
    const auto xChain = TrustedProxies::xForwardedForChain(xff);
    for (const auto &chain : {fChain, xChain}) {
        if (!chain)
            continue;
        for (const QHostAddress &a : *chain) {
            // Nodes are canonical: no IPv4 address hides in IPv6 form.
            require(TrustedProxies::canonical(a) == a, "a chain node that is not canonical");
        }
    }

    const QHostAddress client = proxies.clientOf(peer, forwarded, xff);
    const QHostAddress self = TrustedProxies::canonical(peer);
    // The headers of an untrusted peer are never believed.
    if (!proxies.contains(peer))
        require(client == self, "an untrusted peer's header named the client");
    // The client is the peer, or an address one of the headers names.
    if (client != self) {
        bool named = false;
        for (const auto &chain : {fChain, xChain}) {
            if (chain && chain->contains(client))
                named = true;
        }
        require(named, "a client no header names");
        require(!client.isNull(), "a null client");
    }
    // Nobody trusts a proxy list that trusts nobody.
    require(TrustedProxies().clientOf(peer, forwarded, xff) == self,
            "an empty list believed a header");
    return 0;
}
