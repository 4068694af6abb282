#pragma once

#include <QJsonObject>
#include <QString>

namespace ph::cloud {

// Bounded snapshots: the page content a browser-bridge answer holds (scrape's text,
// markdown and ariaSnapshot; act's ariaSnapshot; extract and crawl's text) cut to a
// budget of characters by structure, with a cursor for the rest (docs/api/mcp.md,
// "Bounded snapshots"; decisions.md). MCP and plain-JSON callers of /mcp get the same.
//
// Text is cut into units: its lines, and lines longer than kUnitChars in pieces of that
// size. Reading order puts headings and interactive elements (links, buttons, fields)
// first, then everything else, each in document order; a window takes the units from an
// offset in reading order that fit the budget and shows them in document order. So the
// first answer keeps a page's outline and controls, and the continuations bring the
// remaining text in order.
class SnapshotBudget
{
public:
    static constexpr int kDefaultMaxChars = 24'000; // about 6,000 tokens
    static constexpr int kMinMaxChars = 1'000;
    static constexpr int kMaxMaxChars = 1'000'000;
    static constexpr int kUnitChars = 500;

    enum class Structure { Plain, Markdown, Aria };

    struct Window
    {
        QString text;
        int nextOffset = -1; // where the next window starts; -1 when this one ends the text
        int totalChars = 0;
        int totalUnits = 0;
        int returnedUnits = 0;
        // Still to come after this window, by kind.
        int remainingHeadings = 0;
        int remainingInteractive = 0;
        int remainingOther = 0;
        int remainingChars = 0;
    };
    static Window window(const QString &text, Structure structure, int maxChars, int offset);

    struct Request
    {
        int maxChars = kDefaultMaxChars;
        QString cursor;
    };
    // params.maxChars and params.cursor (a bad one: 400 naming params.<field>).
    static Request read(const QJsonObject &params);
    // The bridge parameters the tools themselves must not see (maxChars, scope, cursor).
    static QJsonObject withoutBudgetFields(QJsonObject params);
    // The bridge's answer with its page content within the budget. When anything was
    // cut it carries `truncation`: the budget, each field's totals and what remains,
    // the fields dropped whole, and the `cursor` to pass for the rest.
    static QJsonObject apply(const QJsonObject &answer, const Request &request);
};

} // namespace ph::cloud
