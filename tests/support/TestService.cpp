#include "TestService.h"

#include "core/Settings.h"
#include "core/Store.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"
#include "sites/WorkspaceActions.h"

#include <QJsonObject>

namespace ph::test {

namespace {
QString &defaultEngine()
{
    static QString engine;
    return engine;
}
} // namespace

void TestService::setDefaultEngine(const QString &engine)
{
    defaultEngine() = engine;
}

TestService::TestService(QStringList settings, QString dataDir, const Clock *clock,
                         std::shared_ptr<const HostResolver> resolver)
{
    if (!defaultEngine().isEmpty() && settings.filter(QStringLiteral("browser.engine=")).isEmpty())
        settings.append(QStringLiteral("browser.engine=") + defaultEngine());
    if (dataDir.isEmpty()) {
        m_tmp = std::make_unique<QTemporaryDir>();
        m_dataDir = m_tmp->path();
    } else {
        m_dataDir = dataDir;
    }
    ServiceConfig config;
    config.dataDir = m_dataDir;
    config.port = 0;
    config.settingOverrides = settings;
    config.clock = clock;
    config.resolver = std::move(resolver);
    m_service = std::make_unique<Service>(config);
    m_ok = m_service->start(&m_error);
    m_ownerKey = m_service->mintedApiKey();
    if (m_ok && m_ownerKey.isEmpty())
        m_ownerKey = m_service->mintOwnerKey(QStringLiteral("test"));
}

TestService::~TestService()
{
    m_service.reset();
}

HttpClient TestService::client() const
{
    HttpClient c(base());
    c.setBearer(m_ownerKey);
    return c;
}

QString TestService::mintKey(double balance, bool privateTargets)
{
    HttpClient c = client();
    const auto r =
        c.post(QStringLiteral("/keys"), {{QStringLiteral("label"), QStringLiteral("minted")},
                                         {QStringLiteral("balance"), balance}});
    const QString secret = r.json().value(QStringLiteral("key")).toString();
    if (privateTargets) {
        c.post(QStringLiteral("/updateApiKeyCapabilities"),
               {{QStringLiteral("keyId"), r.json().value(QStringLiteral("id")).toString()},
                {QStringLiteral("capabilities"),
                 QJsonObject{{QStringLiteral("privateTargets"), true}}}});
    }
    return secret;
}

void TestService::allowBrowserHandoffs()
{
    sites::SiteRepository &repo = m_service->sites().sites();
    QStringList ids;
    Sql q(m_service->store(), QStringLiteral("SELECT id FROM sites"));
    q.exec();
    while (q.next())
        ids << q.value(0).toString();
    for (const QString &id : ids) {
        QJsonObject config = repo.config(id).config;
        QJsonObject ai = config.value(QStringLiteral("aiAccess")).toObject();
        ai.insert(QStringLiteral("browserDeepLinks"), true);
        config.insert(QStringLiteral("aiAccess"), ai);
        repo.writeConfig(id, config, QStringLiteral("test"));
    }
}

void TestService::listPrivateHosts(const QStringList &hosts, const QString &siteId)
{
    sites::SiteRepository &repo = m_service->sites().sites();
    QStringList ids{siteId};
    if (siteId.isEmpty()) {
        ids.clear();
        Sql q(m_service->store(), QStringLiteral("SELECT id FROM sites"));
        q.exec();
        while (q.next())
            ids << q.value(0).toString();
    }
    for (const QString &id : ids) {
        const QStringList listed = sites::normalizePrivateHosts(repo.privateHosts(id) + hosts,
                                                                QStringLiteral("privateHosts"));
        repo.setPrivateHosts(id, listed);
    }
}

ScopedSetting::ScopedSetting(TestService &service, const QString &key, const QJsonValue &value)
    : m_service(service)
    , m_key(key)
    , m_old(service.service().settings().value(key))
{
    error = service.service().settings().set(key, value);
}

ScopedSetting::~ScopedSetting()
{
    if (error.isEmpty())
        m_service.service().settings().set(m_key, m_old);
}

} // namespace ph::test
