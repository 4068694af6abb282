#pragma once

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>

namespace ph {

// How names become addresses for the network policy, and where a connection to a checked
// address goes. The system resolver (getaddrinfo through QHostInfo) serves the service;
// tests install their own names (a "public" test host answered on loopback) through
// ServiceConfig, never through settings or the API.
class HostResolver
{
public:
    struct Answer
    {
        QList<QHostAddress> addresses;
        QString error; // empty when resolved
    };
    struct Endpoint
    {
        QHostAddress address;
        quint16 port = 0;
    };

    virtual ~HostResolver() = default;
    // Resolves `host` (a literal address answers itself) and calls `done` on the thread of
    // `context`, unless `context` is gone by then.
    virtual void lookup(const QString &host, QObject *context,
                        std::function<void(const Answer &)> done) const;
    // The socket address a connection to the checked `address` really opens.
    virtual Endpoint dialTarget(const QHostAddress &address, quint16 port) const
    {
        return {address, port};
    }
};

} // namespace ph
