#pragma once

#include "RuntimeTypes.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace ph {
class JsonFields;
namespace sites {
struct SiteKey;
}
} // namespace ph

namespace ph::runtime {

class RuntimeJournal;

// Sessions and their tokens (docs/api/runtime.md, "Sessions"): open (a refresh with a
// session token, or a bootstrap with the site's public key or a bootstrap token), the
// session and stream tokens, the single-use tokens a site's server mints, the visitor's
// context, and the session/open rates per client and per site.
class RuntimeSessions
{
public:
    explicit RuntimeSessions(RuntimeJournal &journal);

    // POST /session/open. `bearer` is the Authorization token, if any.
    OpenedSession open(const QJsonObject &body, const QString &bearer,
                       const QString &clientAddress);
    // POST /site-tokens: `bootstrap` or `context`, for the key whose secret this is.
    MintedSiteToken mintSiteToken(const QString &secret, const QJsonObject &body);
    // The session a runtime call's token opens (and `sessionId` names, if given).
    Session authenticate(const QString &sessionToken, const QString &sessionId) const;
    Session authenticateStream(const QString &streamTicket) const;
    // POST /session/context: the sanitized context (visitor null clears it).
    QJsonObject updateContext(const Session &session, const QJsonObject &body);

private:
    // A valid session token refreshes its session; nothing when the token is not valid.
    std::optional<OpenedSession> refresh(const JsonFields &f, const QString &presented);
    sites::SiteKey keyOfPublicKey(const QString &publicKey) const;
    sites::SiteKey keyOfBootstrapToken(const QString &token, const QString &host,
                                       const QString &pageField);
    // The key lets this site's page in: same site, allowed host, embed on, not paused.
    void admit(const sites::SiteKey &key, const QString &siteId, const QString &url,
               const QString &host, const QString &pageField) const;
    OpenedSession finishOpen(const Session &session, const sites::SiteKey &key, bool refreshed);
    void mintTokens(OpenedSession &opened);
    // visitor.contextToken: exchanged once; what the site's server vouched for is merged.
    QJsonObject exchangeContextToken(Session &session, const QString &token, QStringList *dropped);
    // visitor.contextToken validated (400 naming it); empty when the visitor carries none.
    static QString contextTokenOf(const QJsonObject &visitor);
    // 429 RATE_LIMITED (with Retry-After) when `who` already made `setting`'s number of
    // session/open calls in the last minute; else counts this one.
    void checkOpenRate(const QString &who, const QString &setting, const QString &scope);

    RuntimeJournal &m_journal;
    QHash<QString, QList<qint64>> m_opens; // session/open times in the last minute, by who
};

} // namespace ph::runtime
