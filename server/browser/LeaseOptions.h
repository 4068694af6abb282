#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph {

class JsonFields;

// What a caller asks of the page it leases, beside its network grant: the request's
// `browser` object (POST /scrape, the agent's ExecuteRequest; docs/api/scrape.md#browser).
struct LeaseOptions
{
    QString engine;                // empty: the default; else one of engines()
    std::optional<bool> polyfills; // unset: the `browser.polyfills` setting

    // The engines a request may name.
    static const QStringList &engines();
    // Reads `key` (an object: engine, polyfills) of `parent`. A wrong type, an engine not
    // in engines() or an unknown field is a DomainError 400 naming it ("browser.polyfills").
    static LeaseOptions read(const JsonFields &parent, const QString &key);
    // The object as a request gives it; empty when nothing is asked.
    QJsonObject toJson() const;
};

} // namespace ph
