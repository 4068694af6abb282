#pragma once

#include <QString>
#include <QUrl>

#include <optional>

namespace ph::HttpUrl {

// The one check of a caller-supplied URL field that must name a web page or endpoint:
// an absolute http or https URL (the scheme in any case) with a host.
bool isAbsolute(const QUrl &url);
// `text` parsed strictly (QUrl::StrictMode, not trimmed) when it is such a URL.
std::optional<QUrl> parse(const QString &text);
// The same, or a 400 INVALID_FIELD naming `field`: "<field> <problem>".
QUrl require(const QString &text, const QString &field,
             const QString &problem = QStringLiteral("must be an absolute http(s) URL"));

} // namespace ph::HttpUrl
