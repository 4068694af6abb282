#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

class QObject;

namespace ph {
class ObjectStore;
}

namespace ph::engine {

class RunContext;

// What one fetch came to.
struct FetchResult
{
    bool ok = false;
    QByteArray body;
    QByteArray contentType;
    int httpStatus = 0; // 0: no HTTP answer
    QString error;      // why not, in words
    bool tooLarge = false;
};

// One GET of a caller's URL for a run (file_urls, dataInputs[].url, the PDF a form is
// filled from): refused at once when the network policy refuses the URL, otherwise
// through the run's own fetcher, so every request and redirect hop passes the egress
// proxy with the run's grant; at most `maxBytes`. `done` is not called once `receiver`
// is gone.
void fetchForRun(RunContext &ctx, const QString &url, qint64 maxBytes, QObject *receiver,
                 std::function<void(const FetchResult &)> done);

// A download link of this service ("…/storage/<id>?expires=…&sig=…") whose signature
// holds: the object's id, else empty.
QString ownObjectId(const QString &downloadUrl, const ObjectStore &objects);

} // namespace ph::engine
