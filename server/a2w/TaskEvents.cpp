#include "TaskEvents.h"

#include "core/Clock.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace ph::a2w::TaskEvents {

const QStringList &types()
{
    static const QStringList t{
        QStringLiteral("ready"), QStringLiteral("status"),  QStringLiteral("step"),
        QStringLiteral("tool"),  QStringLiteral("message"), QStringLiteral("observation"),
        QStringLiteral("input"), QStringLiteral("done"),    QStringLiteral("error")};
    return t;
}

QJsonObject ready(const Run &run, qint64 after, qint64 nowMs)
{
    return {{QStringLiteral("id"), QString::number(after)},
            {QStringLiteral("type"), QStringLiteral("ready")},
            {QStringLiteral("ts"), Clock::isoUtc(nowMs)},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("taskId"), run.id},
                                                 {QStringLiteral("status"), run.status}}}};
}

QList<QJsonObject> envelopes(const Event &event, const Run &run, int chunkBytes,
                             const QString &artifactsUrl)
{
    if (!types().contains(event.type) || event.type == QLatin1String("ready"))
        return {};
    QJsonObject data = event.data;
    QJsonObject base{{QStringLiteral("type"), event.type},
                     {QStringLiteral("ts"), Clock::isoUtc(event.at)}};
    if (event.type == QLatin1String("done")) {
        if (!run.result.isEmpty())
            data.insert(QStringLiteral("result"), run.result);
        if (!artifactsUrl.isEmpty() &&
            !run.result.value(QStringLiteral("artifacts")).toArray().isEmpty())
            base.insert(QStringLiteral("artifactRef"), artifactsUrl);
    }
    const QString json = QString::fromUtf8(QJsonDocument(data).toJson(QJsonDocument::Compact));
    const QString id = QString::number(event.seq);
    if (chunkBytes <= 0 || json.toUtf8().size() <= chunkBytes) {
        base.insert(QStringLiteral("id"), id);
        base.insert(QStringLiteral("data"), data);
        return {base};
    }
    // Pieces of at most chunkBytes UTF-8 bytes, never splitting a character.
    QStringList pieces;
    QString piece;
    int bytes = 0;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const bool pair = json.at(i).isHighSurrogate() && i + 1 < json.size();
        const QString ch = pair ? json.mid(i, 2) : QString(json.at(i));
        const int size = int(ch.toUtf8().size());
        if (bytes + size > chunkBytes && !piece.isEmpty()) {
            pieces << piece;
            piece.clear();
            bytes = 0;
        }
        piece += ch;
        bytes += size;
        if (pair)
            ++i;
    }
    if (!piece.isEmpty())
        pieces << piece;
    QList<QJsonObject> out;
    for (qsizetype i = 0; i < pieces.size(); ++i) {
        QJsonObject e = base;
        e.insert(QStringLiteral("id"), QStringLiteral("%1:%2").arg(id).arg(i));
        e.insert(QStringLiteral("data"), pieces.at(i));
        e.insert(QStringLiteral("chunked"), true);
        e.insert(QStringLiteral("chunkIndex"), int(i));
        e.insert(QStringLiteral("chunkCount"), int(pieces.size()));
        if (i != pieces.size() - 1)
            e.remove(QStringLiteral("artifactRef"));
        out.append(e);
    }
    return out;
}

qint64 resumeAfter(const QString &lastEventId)
{
    if (lastEventId.contains(u':'))
        return std::max<qint64>(0, lastEventId.section(u':', 0, 0).toLongLong() - 1);
    return std::max<qint64>(0, lastEventId.toLongLong());
}

QJsonObject join(const QList<QJsonObject> &chunks)
{
    QString json;
    for (const QJsonObject &c : chunks)
        json += c.value(QStringLiteral("data")).toString();
    return QJsonDocument::fromJson(json.toUtf8()).object();
}

} // namespace ph::a2w::TaskEvents
