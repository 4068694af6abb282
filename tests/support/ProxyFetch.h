#pragma once

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QString>
#include <QUrl>

namespace ph::test {

// One GET through a fetcher (NetworkPolicy::createFetcher: every hop through the egress
// proxy), following only redirects no less safe; an empty result when no answer came.
struct Fetched
{
    int status = 0;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray body;
};

inline Fetched fetch(QNetworkAccessManager *nam, const QString &url)
{
    QNetworkRequest request{QUrl(url)};
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::NoLessSafeRedirectPolicy);
    QNetworkReply *reply = nam->get(request);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!finished.wait(15000))
        return {};
    Fetched f;
    f.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    f.error = reply->error();
    f.body = reply->readAll();
    reply->deleteLater();
    return f;
}

} // namespace ph::test
