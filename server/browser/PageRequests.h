#pragma once

#include "browser/BrowserLease.h"

#include <QList>
#include <QString>

class QUrl;

namespace ph {

struct EgressGrant;

// Internal to the browser area: what both engines' pages share about the requests their
// documents make.

// Why a page's request must not leave (empty: it may, as far as its URL says; names are
// judged by their resolved addresses elsewhere): the scheme rule (http and https, ws and
// wss for a socket) and literal private hosts without the grant. Requests for data:,
// blob: and about: URLs never reach the network and are not judged (`*internal` true).
QString pageRequestRefusal(const QUrl &url, bool socket, const EgressGrant &grant,
                           bool *internal = nullptr);

// Why a main-frame document may not load `url` (empty: it may): under crossHost same_host
// (grant.navigationOrigin) the page lands on that origin only, whoever navigates
// (a redirect, a click, a form, a script).
QString mainFrameRefusal(const QUrl &url, const EgressGrant &grant);

// "Not Found" for 404 and the like; empty for statuses without a well-known phrase.
QString httpReasonPhrase(int status);

// The network policy's refusals of one page's requests, newest last, 64 at most.
class RefusalLog
{
public:
    const QList<Refusal> &refusals() const { return m_refusals; }
    quint64 nextSerial() const { return m_nextSerial; }
    // Numbers the refusal, keeps it and returns it numbered.
    Refusal note(Refusal refusal);
    QList<Refusal> since(quint64 mark) const;

private:
    QList<Refusal> m_refusals;
    quint64 m_nextSerial = 1;
};

} // namespace ph
