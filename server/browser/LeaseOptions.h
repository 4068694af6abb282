#pragma once

#include <QString>

#include <optional>

namespace ph {

// What one API call asks of the page it leases (the request's `browser` object).
struct LeaseOptions
{
    // "qtwebengine" or "chromium"; empty: the pool's configured engine (browser.engine).
    QString engine;
    // The QtWebEngine pool's polyfills; unset: the setting (browser.polyfills).
    std::optional<bool> polyfills;
};

} // namespace ph
