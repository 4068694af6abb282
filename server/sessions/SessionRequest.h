#pragma once

#include <QJsonObject>
#include <QString>

#include <memory>

namespace ph {
struct EgressGrant;
struct UpstreamProxy;
} // namespace ph

namespace ph::sessions {

// A POST /sessions body, validated (docs/api/sessions.md). Zero/empty: the default.
struct CreateSessionRequest
{
    QString engine = QStringLiteral("chromium");
    QString profile; // a named profile of the key; empty: a throw-away one
    int width = 1280;
    int height = 800;
    QString userAgent;
    int timeoutSeconds = 900;
    int idleTimeoutSeconds = 300;
    // settings.proxy: the password is held in memory only, never stored or echoed.
    std::shared_ptr<const UpstreamProxy> proxy;

    static constexpr int kMinTimeout = 10;
    static constexpr int kMaxTimeout = 86400;

    // Reads a request body: every bad field is a 400 naming it, an unknown one too
    // (UNKNOWN_FIELD); `engine` qtwebengine is refused with why. The proxy's host passes
    // the network policy for `grant`.
    static CreateSessionRequest read(const QJsonObject &body, const EgressGrant &grant);
    // Whether `name` is a profile name: [A-Za-z0-9._-]{1,64}, not "." or "..".
    static bool isProfileName(const QString &name);
};

} // namespace ph::sessions
