#pragma once

#include "RuntimeRepository.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>

// The values the runtime's parts hand back; RuntimeService names them under its own
// scope (RuntimeService::Opened, ::Answer …) for its callers.
namespace ph::runtime {

// POST /session/open's outcome: the session, its tokens and what the SDK is told.
struct OpenedSession
{
    Session session;
    QString sessionToken;
    qint64 sessionTokenExpiresAt = 0;
    QString streamToken;
    QJsonObject capabilities;
    QJsonObject policy;
    QJsonObject siteConfig;
    QJsonObject analytics; // the signed beacon the SDK's track calls use
    bool refreshed = false;
    // visitor.contextToken's exchange on a bootstrap open ({status, resolver}); empty
    // when the open carried none.
    QJsonObject contextToken;
};

// A single-use token a site's server minted (POST /site-tokens).
struct MintedSiteToken
{
    QString token;
    QString kind;
    qint64 expiresAt = 0;
};

// A command's answer: its status and the envelope's data.
struct CommandAnswer
{
    int status = 200;
    QJsonObject data;
};

// The server's adversarial reading of a URL: a score in [0, 1] and its reasons.
struct AdversarialReading
{
    double score = 0;
    QStringList reasons;
};

// An A2W browser run a session's page holds the receipt of: what the visitor is asked.
struct A2wOffer
{
    QString runId;
    QString task;
    QString siteName;
    QString host;
    QString url;
    QString agentName;
    QString trust;
    QString signatureAgent;
};
enum class A2wClaim { Offer, Accept, Decline };
using A2wClaimer =
    std::function<A2wOffer(const QString &receipt, const QString &siteId, A2wClaim what)>;
using A2wReviewer =
    std::function<void(const QString &a2wRunId, bool share, const QJsonObject &result)>;

// A page step's end: with the result, or with an error.
using StepDone = std::function<void(bool ok, const QJsonObject &result, const QString &error)>;

} // namespace ph::runtime
