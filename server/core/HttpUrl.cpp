#include "core/HttpUrl.h"

#include "core/DomainError.h"

namespace ph::HttpUrl {

bool isAbsolute(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    return url.isValid() && !url.host().isEmpty() &&
           (scheme == QLatin1String("http") || scheme == QLatin1String("https"));
}

std::optional<QUrl> parse(const QString &text)
{
    QUrl url(text, QUrl::StrictMode);
    if (!isAbsolute(url))
        return std::nullopt;
    return url;
}

QUrl require(const QString &text, const QString &field, const QString &problem)
{
    std::optional<QUrl> url = parse(text);
    if (!url)
        throw DomainError::invalidField(field, problem);
    return *url;
}

} // namespace ph::HttpUrl
