#pragma once

#include <QList>
#include <QStringList>

#include <memory>

namespace ph {
class BrowserPool;
class NetworkPolicy;
class Settings;
class Store;
namespace a2w {
class A2wService;
}
namespace cloud {
class CloudArea;
}
namespace http {
class Controller;
}
namespace sites {
class SitesArea;
}
} // namespace ph

namespace ph::runtime {

class RuntimeController;
class RuntimeRunner;
class RuntimeService;

// The browser runtime of embedded sites as one piece for Service, called from the sites'
// own pages: its sessions and commands, /context/external's reads and acts on the cloud
// browser, and the A2W browser runs it hands to visitors (A2wService's offer, claim and
// shared result, wired here).
class RuntimeArea
{
public:
    RuntimeArea(Store &store, Settings &settings, BrowserPool &pool, NetworkPolicy &policy,
                sites::SitesArea &sites, cloud::CloudArea &cloud, a2w::A2wService &a2w);
    ~RuntimeArea();

    RuntimeService &service() { return *m_service; }
    QList<http::Controller *> controllers();
    // The path prefixes other origins (the sites' pages) may call.
    static QStringList crossOriginPrefixes();

private:
    std::unique_ptr<RuntimeService> m_service;
    std::unique_ptr<RuntimeController> m_controller;
    std::unique_ptr<RuntimeRunner> m_runner;
};

} // namespace ph::runtime
