#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph {

class JsonFields;

// What a caller asks of the page it leases, beside its network grant: the request's
// `browser` object (POST /scrape, the agent's ExecuteRequest; docs/api/scrape.md#browser),
// and whose work the page is for.
struct LeaseOptions
{
    // Whose work a lease is for, which decides its share of the pool (BrowserPool;
    // docs/security.md, "Fair shares of the browser pool"). Keyed: the owner's and API
    // key holders' own work. Visitor: work an anonymous caller, a visiting agent or a
    // site visitor started (A2W runs of every trust tier, v1 tasks, runtime runs,
    // context/external reads), on `site`. Never read from a request nor written back:
    // the layer that starts the work says it.
    enum class Work { Keyed, Visitor };

    QString engine;                // empty: the default; else one of engines()
    std::optional<bool> polyfills; // unset: the `browser.polyfills` setting
    Work work = Work::Keyed;
    QString site; // the site visitor work is for (its id); empty for keyed work

    bool isVisitor() const { return work == Work::Visitor; }
    // Marks the options as visitor work on `siteId`.
    void forVisitorsOf(const QString &siteId)
    {
        work = Work::Visitor;
        site = siteId;
    }

    // The engines a request may name.
    static const QStringList &engines();
    // Reads `key` (an object: engine, polyfills) of `parent`. A wrong type, an engine not
    // in engines() or an unknown field is a DomainError 400 naming it ("browser.polyfills").
    static LeaseOptions read(const JsonFields &parent, const QString &key);
    // The object as a request gives it; empty when nothing is asked.
    QJsonObject toJson() const;
};

} // namespace ph
