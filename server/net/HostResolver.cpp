#include "net/HostResolver.h"

#include <QHostInfo>
#include <QPointer>
#include <QTimer>

namespace ph {

void HostResolver::lookup(const QString &rawHost, QObject *context,
                          std::function<void(const Answer &)> done) const
{
    QString host = rawHost;
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    const QHostAddress literal(host);
    if (!literal.isNull()) {
        QPointer<QObject> guard(context);
        QTimer::singleShot(0, context, [guard, literal, done] {
            if (guard)
                done(Answer{{literal}, {}});
        });
        return;
    }
    QHostInfo::lookupHost(host, context, [host, done](const QHostInfo &info) {
        Answer answer;
        answer.addresses = info.addresses();
        if (info.error() != QHostInfo::NoError || answer.addresses.isEmpty())
            answer.error = QStringLiteral("%1 could not be resolved").arg(host);
        done(answer);
    });
}

} // namespace ph
