#pragma once

#include <QJsonObject>
#include <QSet>
#include <QString>

namespace ph {

// Internal to the browser area: what one DevTools client of a browser session may ask of
// the session's browser (docs/api/sessions.md, "The DevTools relay"). Pure: no I/O, no
// event loop; the relay (CdpRelay) asks judge() for every command a client sends and
// tells it what the client was shown (observeEvent, observeResult), which is what
// "a target the client knows of" and "a stream the client was given" mean.
//
// The browser is the session's own process, so nothing of another session is in it; the
// filter keeps raw DevTools from becoming a way around the network policy or out of the
// session's one browser context (no new context with its own proxy, no file: documents,
// no server files uploaded, no browser-wide switches), and answers everything else as
// Chromium would. Domains Playwright and Puppeteer do not use are refused by default.
class CdpFilter
{
public:
    // What the filter knows of the session.
    struct Scope
    {
        QString contextId;   // the session's (default) browser context
        QString downloadDir; // where the session's downloads go (a rewrite target)
        QString uploadDir;   // the only files a client may put in a file input
    };

    struct Verdict
    {
        enum class Kind {
            Allow,   // forward as it is
            Rewrite, // forward with `params` instead
            Refuse,  // answer with the protocol error -32000 and `reason`
            Answer,  // answer with `params` as the result; nothing reaches the browser
        };
        Kind kind = Kind::Allow;
        QString reason;
        QJsonObject params;
        bool closeClient = false; // Answer: then close the client's connection
    };

    explicit CdpFilter(Scope scope);

    // The decision on one command: `sessionId` empty for the client's browser-level
    // session, else the child session it is sent on.
    Verdict judge(const QString &method, const QJsonObject &params,
                  const QString &sessionId = QString()) const;

    // What the client was shown: target ids (target events), streams and blobs (results).
    void observeEvent(const QString &method, const QJsonObject &params);
    void observeResult(const QString &method, const QJsonObject &params, const QString &sessionId,
                       const QJsonObject &result);

    bool knowsTarget(const QString &targetId) const { return m_targets.contains(targetId); }
    const Scope &scope() const { return m_scope; }

    static Verdict allow() { return {}; }
    static Verdict refuse(const QString &reason);

private:
    Verdict judgeTarget(const QString &method, const QJsonObject &params) const;
    Verdict judgeBrowser(const QString &method, const QJsonObject &params) const;
    Verdict judgeFiles(const QString &method, const QJsonObject &params) const;
    Verdict judgeDownloads(const QString &method, const QJsonObject &params) const;
    bool isOwnContext(const QJsonObject &params) const;
    bool isUpload(const QString &path) const;

    Scope m_scope;
    QSet<QString> m_targets;
    QSet<QString> m_streams;
    QSet<QString> m_fetchSessions; // where the client enabled Fetch ("" = browser level)
};

} // namespace ph
