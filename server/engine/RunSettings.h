#pragma once

#include "net/NetworkPolicy.h"

#include <QJsonObject>
#include <QString>

#include <memory>

namespace ph {
class SecretBox;
}

namespace ph::engine {

// How a run reads pages (`settings.extraction`): caps, the wait after each load, and
// whether the main content or the whole page is read. Zero/empty: the default.
struct ExtractionConfig
{
    int maxTextChars = 0;        // text and markdown a read hands the planner, cut here
    int treeMaxNodes = 0;        // the accessibility tree a planner sees (default 400)
    QString treeScope;           // a CSS selector: the tree holds only what it matches
    QString waitUntil;           // load | domcontentloaded
    QString waitForSelector;     // after each load, until this matches
    QString waitForText;         // after each load, until this text is on the page
    int timeoutMs = 0;           // each navigation and wait (pool.navigationTimeoutMs)
    bool mainContentOnly = true; // the article (Readability) rather than all visible text
};

// The `settings` of an ExecuteRequest, validated: the planner and model, the run's own
// proxy and the extraction config. Anything else is a typed 400 naming its path
// (`UNKNOWN_SETTING`), never silently dropped. docs/api/agent.md#settings.
struct RunSettings
{
    QString planner; // rule | llm | empty
    QString model;
    std::shared_ptr<const UpstreamProxy> proxy;
    ExtractionConfig extraction;

    // Reads `settings` (the request's object, or the stored form when `box` is given:
    // a stored proxy password is sealed and opens with it). The proxy's host passes the
    // network policy for `grant` (a private address needs the privateTargets grant).
    static RunSettings read(const QJsonObject &settings, const EgressGrant &grant,
                            const SecretBox *box = nullptr);
    // `settings` as it may be shown or echoed: the proxy's password masked.
    static QJsonObject redacted(const QJsonObject &settings);
    // `settings` as the store keeps it: the proxy's password sealed with `box`.
    QJsonObject sealed(const QJsonObject &settings, const SecretBox &box) const;
};

} // namespace ph::engine
