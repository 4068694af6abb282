#pragma once

#include "HttpClient.h"

#include "Service.h"

#include <QTemporaryDir>

#include <memory>

namespace ph::test {

// The real service on port 0 with a temporary data directory, for API tests.
class TestService
{
public:
    explicit TestService(QStringList settings = {}, QString dataDir = {},
                         const Clock *clock = nullptr,
                         std::shared_ptr<const HostResolver> resolver = {});
    ~TestService();

    bool ok() const { return m_ok; }
    QString error() const { return m_error; }
    Service &service() { return *m_service; }
    quint16 port() const { return m_service->port(); }
    QString base() const { return m_service->apiAddress(); }
    QString ownerKey() const { return m_ownerKey; }
    QString dataDir() const { return m_dataDir; }
    // A client that sends the owner key.
    HttpClient client() const;
    // Mints a user key with `balance` credits through the API. Test fixtures live on
    // loopback, so the key is granted the privateTargets capability unless asked not to.
    QString mintKey(double balance, bool privateTargets = true);
    // Opts every site created so far in to browser handoffs (aiAccess.browserDeepLinks,
    // off by default): for tests of browser-mode A2W runs.
    void allowBrowserHandoffs();
    // Adds `hosts` ("host" or "host:port") to the private hosts of site `siteId` (empty:
    // of every site created so far), through the same domain code as the owner's
    // /updateSitePrivateHosts. Visitors' work reaches a site's own host on the standard
    // port of the run's scheme only; a site on a loopback fixture's random port is
    // reached only when listed, as a real site on a non-standard port must be.
    void listPrivateHosts(const QStringList &hosts, const QString &siteId = {});

    // The browser engine every TestService made from now on runs its pages on (a
    // `browser.engine` override unless the settings name one); empty: the default.
    static void setDefaultEngine(const QString &engine);

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_dataDir;
    std::unique_ptr<Service> m_service;
    QString m_ownerKey;
    QString m_error;
    bool m_ok = false;
};

// A setting changed for the rest of a scope, as an operator would change it
// (Settings::set, what PATCH /settings calls), and put back at the scope's end. `error`
// is the refusal when the value could not be set.
class ScopedSetting
{
public:
    ScopedSetting(TestService &service, const QString &key, const QJsonValue &value);
    ~ScopedSetting();
    ScopedSetting(const ScopedSetting &) = delete;
    ScopedSetting &operator=(const ScopedSetting &) = delete;
    QString error;

private:
    TestService &m_service;
    QString m_key;
    QJsonValue m_old;
};

} // namespace ph::test
