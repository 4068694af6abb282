#pragma once

#include "FixtureServer.h"
#include "NodeScript.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace ph::test {

// A Web Bot Auth key of the tests' visiting agent, made by the reference signer
// (tests/a2w/sign.mjs keygen, npm web-bot-auth): its private JWK, to sign with, and its key
// directory as a site serves it. `script` says whether making it worked.
struct SignerKey
{
    NodeResult script;
    QJsonObject jwk;
    QByteArray directory;
};

inline SignerKey makeSignerKey(const QString &a2wTestDir)
{
    SignerKey key;
    key.script =
        runNodeScript(a2wTestDir, {QStringLiteral("sign.mjs"), QStringLiteral("keygen")}, 30000);
    const QJsonObject made = key.script.result();
    key.jwk = made.value(QStringLiteral("jwk")).toObject();
    key.directory = QJsonDocument(made.value(QStringLiteral("directory")).toObject())
                        .toJson(QJsonDocument::Compact);
    return key;
}

// Serves `directory` at the well-known path of `server`, with `cacheControl` when given.
inline void serveKeyDirectory(FixtureServer &server, const QByteArray &directory,
                              const QByteArray &cacheControl = {})
{
    server.route("/.well-known/http-message-signatures-directory", [directory, cacheControl](
                                                                       const FixtureRequest &) {
        FixtureResponse r;
        r.body = directory;
        r.headers = {{"Content-Type", "application/http-message-signatures-directory+json"}};
        if (!cacheControl.isEmpty())
            r.headers.append({"Cache-Control", cacheControl});
        return r;
    });
}

} // namespace ph::test
