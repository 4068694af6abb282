#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace ph::oauth {

// The consent page's HTML, served by us (no script, no external resource): the sign-in
// step, the choice of the API key the client acts as, and the error page of a request
// that cannot be redirected. Every text from a client is escaped.
namespace ConsentPage {

struct Client
{
    QString name;
    QString id;
    QString redirectUri;
    QString resource;
};

struct KeyChoice
{
    QString id;
    QString label;
    QString prefix;
    bool owner = false;
};

// `method`: "idToken" or "ownerKey"; `problem`: the last attempt's failure, if any.
QByteArray signIn(const Client &client, const QString &consentId, const QString &csrf,
                  const QString &method, const QString &problem = {});
QByteArray chooseKey(const Client &client, const QString &consentId, const QString &csrf,
                     const QList<KeyChoice> &keys);
QByteArray error(const QString &message);
// The headers every page carries: CSP without scripts, no framing, no caching, no
// referrer.
QList<QPair<QByteArray, QByteArray>> headers();

} // namespace ConsentPage
} // namespace ph::oauth
