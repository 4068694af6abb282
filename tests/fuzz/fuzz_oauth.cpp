// The OAuth parsers of server/oauth: the form bodies of the token, revocation and consent
// endpoints (FormBody), client ID metadata documents and registration requests
// (ClientMetadata), and the redirect URI rule. First line: the client_id the document
// claims to come from; the rest is both the form body and the document.
#include "FuzzInput.h"

#include "core/DomainError.h"
#include "oauth/ClientMetadata.h"
#include "oauth/FormBody.h"

#include <QJsonDocument>
#include <QUrl>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using namespace ph::oauth;
    Cursor in(bytesOf(data, size));
    const QString clientId = QString::fromUtf8(in.until('\n').left(2000));
    const QByteArray body = in.rest();

    try {
        const FormBody form = FormBody::parse(body);
        require(form.fields.size() <= FormBody::kMaxFields, "more fields than the limit");
        for (auto it = form.fields.cbegin(); it != form.fields.cend(); ++it)
            require(!it.key().isEmpty(), "a field without a name");
    } catch (const ph::DomainError &e) {
        require(e.code() == QLatin1String("OAUTH_INVALID_REQUEST"),
                "a form refusal of another kind");
    }

    auto checkClient = [](const OAuthClient &client) {
        require(!client.redirectUris.isEmpty(), "a client without redirect URIs");
        require(client.redirectUris.size() <= ClientMetadata::kMaxRedirectUris,
                "too many redirect URIs");
        require(client.name.size() <= ClientMetadata::kMaxNameLength, "a name over the limit");
        for (const QString &uri : client.redirectUris)
            require(ClientMetadata::redirectUriProblem(uri).isEmpty(), "an unchecked redirect URI");
    };
    try {
        const OAuthClient client = ClientMetadata::fromDocument(body, clientId);
        require(client.id == clientId && client.fromDocument, "a document of another client");
        checkClient(client);
    } catch (const ph::DomainError &e) {
        require(!e.field().isEmpty(), "a document refusal that names no field");
    }
    try {
        checkClient(ClientMetadata::fromRegistration(QJsonDocument::fromJson(body).object()));
    } catch (const ph::DomainError &e) {
        require(!e.field().isEmpty(), "a registration refusal that names no field");
    }
    const QString problem = ClientMetadata::redirectUriProblem(clientId);
    if (problem.isEmpty()) {
        const QUrl url(clientId);
        require(!url.hasFragment(), "a redirect URI with a fragment");
        require(url.scheme() != QLatin1String("javascript") &&
                    url.scheme() != QLatin1String("data"),
                "a script redirect URI");
    }
    ClientMetadata::documentUrlProblem(QUrl(clientId), true);
    return 0;
}
