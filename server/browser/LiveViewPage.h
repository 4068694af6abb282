#pragma once

#include "browser/LiveFrameSource.h"

#include <QByteArray>
#include <QList>
#include <QPair>

namespace ph {

class JsonFields;

// The live view's viewer page (resources/liveview/liveview.html), shared by the run live
// view (cloud/LiveViewController) and the browser session live view
// (sessions/SessionLiveViewController): the same page, the same policy, the same input.
namespace liveview {

// The page's text; empty when the resource is missing from the build.
const QByteArray &pageHtml();
// Its Content-Security-Policy: its one script and one style by their hashes, frames as
// data: images, requests to this origin only.
const QByteArray &contentSecurityPolicy();
// The headers the page is served with (the policy, nosniff, no framing, no referrer, no
// indexing, no caching); the same type as http::HeaderList.
const QList<QPair<QByteArray, QByteArray>> &pageHeaders();
// A viewer's input (POST …/input): {type: click|type|key|scroll, x, y, deltaX, deltaY,
// text, key}. Throws DomainError (400) for a bad one.
LiveInput readInput(const JsonFields &body);

} // namespace liveview
} // namespace ph
