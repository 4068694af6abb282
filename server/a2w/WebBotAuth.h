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
    QByteArray header(const QByteArray &name) const { return headers.value(name); }
};

// One signature of a Signature-Input header (RFC 9421 §4.1): its label, the components
// it covers and its parameters, in the order sent.
struct SignatureInput
{
    QString label;
    QStringList components;
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

    // Parsers (RFC 8941 structured fields): nullopt, with `error` naming the problem.
    static std::optional<QList<SignatureInput>> parseSignatureInput(const QByteArray &header,
                                                                    QString *error);
    static std::optional<QHash<QString, QByteArray>> parseSignatures(const QByteArray &header,
                                                                     QString *error);
    // The key directory URL Signature-Agent names (an sf-string, or a dictionary whose
    // member `label` is one), or empty.
    static QString parseSignatureAgent(const QByteArray &header, const QString &label);
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
    };
    void check(const SignedRequest &request, Done done, bool fetched);
    void fetch(const QString &agentUrl, std::function<void(bool ok)> then);

    Store &m_store;
    NetworkPolicy &m_policy;
    Settings &m_settings;
    std::unique_ptr<A2wRepository> m_repo;
    QHash<QString, Directory> m_directories; // by agent origin
};

} // namespace ph::a2w
