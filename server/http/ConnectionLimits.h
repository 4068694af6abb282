#pragma once

#include <QtGlobal>

namespace ph::http {

// What one client connection may cost the HTTP layer before a request reaches a
// handler (docs/security.md#limits). The listening socket (TcpGuard) enforces them.
struct ConnectionLimits
{
    qint64 maxBodyBytes = 10 * 1024 * 1024; // larger bodies: 413
    int maxConnections = 1024;              // open connections at once; beyond: 503 + close
    int maxConnectionsPerAddress = 64;      // from one client address; beyond: 429 + close
    // Answers held open (event streams, long-polls) per client and per site; beyond: 429
    // TOO_MANY_STREAMS (Exchange::holdOpen).
    int maxStreamsPerClient = 16;
    int maxStreamsPerSite = 256;
    // From the moment a connection waits for a request (accepted, or its last answer
    // written) to the first byte of it, and from that byte to the end of the headers.
    // An idle connection is closed; a request cut off mid-head gets 408.
    int headerTimeoutMs = 10000;
    // The body: this long, plus one second for every `bodyMinBytesPerSecond` bytes that
    // arrived (a slow client that keeps sending keeps going; a trickle is cut off, 408).
    int bodyTimeoutMs = 30000;
    qint64 bodyMinBytesPerSecond = 1024;
};

} // namespace ph::http
