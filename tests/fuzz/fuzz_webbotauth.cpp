// Web Bot Auth (server/a2w/WebBotAuth): the RFC 8941 parsers of Signature-Input,
// Signature and Signature-Agent (the older sf-string and the draft's dictionary, with
// its members serialized again for "signature-agent";key="…"), the @signature-params
// serializer, the signature base over a request and the authority of a Host value.
// Lines: Signature-Input, Signature, Signature-Agent, then the path.
#include "FuzzInput.h"

#include "a2w/WebBotAuth.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::a2w::WebBotAuth;
    Cursor in(bytesOf(data, size));
    const QByteArray input = in.until('\n');
    const QByteArray signature = in.until('\n');
    const QByteArray agent = in.until('\n');
    const QByteArray path = in.rest();

    QString error;
    const auto inputs = WebBotAuth::parseSignatureInput(input, &error);
    require(inputs.has_value() || !error.isEmpty(), "a refused Signature-Input names no reason");
    const auto signatures = WebBotAuth::parseSignatures(signature, &error);
    require(signatures.has_value() || !error.isEmpty(), "a refused Signature names no reason");
    ph::a2w::SignedRequest request;
    request.method = "POST";
    request.path = QString::fromLatin1(path.left(256));
    request.headers.insert("host", "127.0.0.1:8080");
    request.headers.insert("signature-agent", agent);
    if (inputs) {
        for (const ph::a2w::SignatureInput &one : *inputs) {
            // What is serialized parses back to the same components and parameters.
            const QByteArray again = (one.label + QLatin1Char('=') + one.serialized()).toLatin1();
            const auto reparsed = WebBotAuth::parseSignatureInput(again, &error);
            require(reparsed && reparsed->size() == 1 &&
                        reparsed->first().components == one.components &&
                        reparsed->first().componentKeys == one.componentKeys &&
                        reparsed->first().params.size() == one.params.size(),
                    "a serialized Signature-Input does not parse back");
            require(one.componentKeys.size() == one.components.size(),
                    "a component without its key slot");
            WebBotAuth::parseSignatureAgent(agent, one.label);
            // The dictionary member a signature covers, serialized again, is canonical:
            // a one-member dictionary of it gives the same bytes back.
            if (const auto member = WebBotAuth::dictionaryMember(agent, one.label)) {
                const auto reserialized =
                    WebBotAuth::dictionaryMember(one.label.toLatin1() + '=' + *member, one.label);
                require(reserialized && *reserialized == *member,
                        "a dictionary member does not serialize back to itself");
            }
            WebBotAuth::signatureBase(request, one, &error);
        }
    }
    // Host values: whatever authority comes out is stable under a second pass.
    const QString host = QString::fromLatin1(agent.left(256));
    for (const QString &scheme : {QStringLiteral("http"), QStringLiteral("https")}) {
        const QString authority = WebBotAuth::authorityOf(scheme, host);
        require(authority.isEmpty() || WebBotAuth::authorityOf(scheme, authority) == authority,
                "an authority is not stable");
    }
    if (signatures)
        for (const QByteArray &sig : *signatures)
            WebBotAuth::verifyEd25519(QByteArray(32, '\x01'), path, sig);
    return 0;
}
