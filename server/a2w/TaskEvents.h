#pragma once

#include "A2wRepository.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace ph::a2w {

// The v1 task stream (docs/api/v1-tasks.md, "Events"): a run's stored events as the nine
// v1 types in the envelope {id, type, ts, data, chunked?, chunkIndex?, chunkCount?,
// artifactRef?}. Data whose JSON is longer than the chunk size goes as several envelopes
// whose `data` strings, joined in order, are that JSON.
namespace TaskEvents {

const QStringList &types(); // ready status step tool message observation input done error

// The envelope that opens a stream: the task and where the stream starts (its id is the
// sequence it resumes after, so a reconnect with it as Last-Event-ID loses nothing).
QJsonObject ready(const Run &run, qint64 after, qint64 nowMs);
// The envelopes of one stored event: none for an A2W-only event (result: the v1 `done`
// carries the result), else one or its chunks. `artifactsUrl` is set on `done` as its
// artifactRef when the task made files.
QList<QJsonObject> envelopes(const Event &event, const Run &run, int chunkBytes,
                             const QString &artifactsUrl);
// The sequence a Last-Event-ID resumes after: "12" → 12; a chunk "12:3" → 11 (the
// event is sent again whole).
qint64 resumeAfter(const QString &lastEventId);
// Joins the chunks of one event back into its data (the client's side; tests).
QJsonObject join(const QList<QJsonObject> &chunks);

} // namespace TaskEvents

} // namespace ph::a2w
