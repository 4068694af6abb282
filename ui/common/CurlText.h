#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <utility>

namespace ph::ui {

// Copy-as-curl: a request the operator can paste into a POSIX shell and send again.
// Values are single-quoted; a credential is never written out, only a variable names it.

// `text` as one single-quoted shell word ('it'\''s').
QString shellQuote(const QString &text);

// curl -sS -X METHOD 'url' -H 'Name: value' … --data-binary 'body'. A header whose value
// names a shell variable ($NAME) is double-quoted so the shell fills it in.
QString curlCommand(const QString &method, const QString &url,
                    const QList<std::pair<QString, QString>> &headers, const QString &body);

// The environment variable a copied API request reads the key from.
inline constexpr char kApiKeyVariable[] = "PILOTHOUSE_API_KEY";

// The request that started a run, against `apiAddress`: POST `endpoint` ("/agent") with the
// stored request body, the key as $PILOTHOUSE_API_KEY. Fields the server added to the
// stored copy (`source`) are left out.
QString runCurl(const QString &apiAddress, const QString &endpoint, const QJsonObject &request);

} // namespace ph::ui
