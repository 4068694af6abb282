#pragma once

#include "A2wRepository.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <functional>
#include <memory>
#include <optional>

namespace ph {
class NetworkPolicy;
class Settings;
class Store;
} // namespace ph

namespace ph::a2w {

// What a signature covers of a request (the HTTP edge fills it in).
struct SignedRequest
{
    QByteArray method;
    QString path;
    QString query;                         // encoded, without "?"
    QHash<QByteArray, QByteArray> headers; // names lowercased
    // The scheme the client used (@scheme, @target-uri): the one of the public origin
    // its Host names (WebBotAuth fills it in).
    QString scheme = QStringLiteral("http");
    QByteArray header(const QByteArray &name) const { return headers.value(name); }
};

// One signature of a Signature-Input header (RFC 9421 §4.1): its label, the components
// it covers and its parameters, in the order sent.
struct SignatureInput
{
    QString label;
    QStringList components;
    // Each component's `key` parameter (RFC 9421 §2.1.2: one member of a dictionary
    // field, as in "signature-agent";key="sig1"), empty when it has none.
    QStringList componentKeys;
    QList<QPair<QString, QVariant>> params; // QString, qint64 or bool values
    QVariant param(const QString &name) const;
    // The `@signature-params` line: the inner list serialized again (RFC 8941 §4.1).
    QString serialized() const;
};

// Web Bot Auth (the web-bot-auth draft on RFC 9421): parses the three headers, fetches
// and caches the key directory Signature-Agent points at, and verifies the Ed25519
// signature, the window, the tag and the nonce. The parsers are static (fuzzed by
// fuzz_webbotauth).
class WebBotAuth : public QObject
{
    Q_OBJECT
public:
    struct Verdict
    {
        QString tier = Trust::anonymous; // verified when the signature holds
        QString agentUrl;                // the directory's origin (verified only)
        QString keyId;
        // Set when a signature was sent and does not hold: the request is refused.
        QString errorCode;
        QString errorMessage;
        bool refused() const { return !errorCode.isEmpty(); }
    };
    using Done = std::function<void(const Verdict &)>;

    WebBotAuth(Store &store, NetworkPolicy &policy, Settings &settings, QObject *parent = nullptr);
    ~WebBotAuth() override;

    // Verifies the request's signature, if it has one, then calls `done` (at once when
    // nothing needs fetching, else once the key directory answered).
    void verify(const SignedRequest &request, Done done);

    // Pilothouse's own origins a signature's @authority must name (http.publicOrigins,
    // else the origin of http.publicBaseUrl plus its 127.0.0.1/localhost twin), as
    // "scheme://host[:port]".
    QStringList publicOrigins() const;

    // Tests only (tst_webbotauth, tst_a2wnetwork; never a setting): key directories over
    // plain http, for a fixture without TLS. Their addresses are checked as always.
    void setPlainHttpDirectoriesForTests(bool allow) { m_plainHttp = allow; }

    // Parsers (RFC 8941 structured fields): nullopt, with `error` naming the problem.
    static std::optional<QList<SignatureInput>> parseSignatureInput(const QByteArray &header,
                                                                    QString *error);
    static std::optional<QHash<QString, QByteArray>> parseSignatures(const QByteArray &header,
                                                                     QString *error);
    // The key directory URL Signature-Agent names, or empty: the older form is one
    // sf-string; the draft's is a dictionary whose member `label` is an sf-string (with
    // no `type`, or `type=directory`: the other discovery types are not supported).
    static QString parseSignatureAgent(const QByteArray &header, const QString &label);
    // The member `key` of the dictionary field `header`, serialized again strictly
    // (RFC 9421 §2.1.2, RFC 8941 §4.1: the value and its parameters, without the key);
    // nullopt when the header is no dictionary or has no such member.
    static std::optional<QByteArray> dictionaryMember(const QByteArray &header, const QString &key);
    // The authority (host, and port unless the scheme's default) of an origin or of a
    // Host header value under `scheme`, lowercase; empty when it is none.
    static QString authorityOf(const QString &scheme, const QString &hostAndPort);
    // The signature base (RFC 9421 §2.5) of `input` over `request`; empty `error` or the
    // component that could not be taken.
    static QByteArray signatureBase(const SignedRequest &request, const SignatureInput &input,
                                    QString *error);
    // The RFC 7638 thumbprint of an Ed25519 JWK: its key id.
    static QString thumbprint(const QString &x);
    static bool verifyEd25519(const QByteArray &publicKey, const QByteArray &message,
                              const QByteArray &signature);

private:
    struct Directory
    {
        QHash<QString, QByteArray> keys; // key id -> raw public key
        qint64 fetchedAt = 0;
        qint64 expiresAt = 0;
        QString problem; // why the last fetch found no directory, or empty
    };
    void check(const SignedRequest &request, Done done, bool fetched);
    void fetch(const QString &agentUrl, std::function<void(bool ok)> then);

    Store &m_store;
    NetworkPolicy &m_policy;
    Settings &m_settings;
    std::unique_ptr<A2wRepository> m_repo;
    QHash<QString, Directory> m_directories; // by agent origin
    bool m_plainHttp = false;
};

} // namespace ph::a2w
