#pragma once

// The runtime's parts on a real store in a temporary directory, with a manual clock and
// one site whose key allows harbour.example and its subdomains: what the fast runtime
// unit tests (tst_runtime<part>) share. No HTTP, no service.
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "runtime/RuntimeJournal.h"
#include "runtime/RuntimeRepository.h"
#include "sites/AnalyticsRepository.h"
#include "sites/SiteRepository.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace ph::test {

inline QJsonObject json(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object();
}

// Runs `call`, which must throw; returns the error.
template <typename F> DomainError thrown(F call)
{
    try {
        call();
    } catch (const DomainError &e) {
        return e;
    }
    return DomainError(DomainError::Kind::Internal, QStringLiteral("NOT_THROWN"), QString());
}

class RuntimeParts
{
    // First built, last gone: the parts below hold references into the store.
    QTemporaryDir m_dir;

public:
    ManualClock clock{1'800'000'000'000};

private:
    std::unique_ptr<Store> m_store;

public:
    RuntimeParts()
    {
        static int n = 0;
        m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("runtime-%1.db").arg(++n)),
                                          clock);
        QString error;
        opened = m_store->open(&error);
        if (!opened)
            qWarning("store: %s", qPrintable(error));
        settings = std::make_unique<Settings>(*m_store);
        sites = std::make_unique<sites::SiteRepository>(*m_store);
        analytics = std::make_unique<sites::AnalyticsRepository>(*m_store, *sites);
        journal = std::make_unique<runtime::RuntimeJournal>(*m_store, *settings, *sites);
        siteId = sites->createSite(QStringLiteral("Harbour"), QStringLiteral("owner")).id;
        sites::SiteRepository::NewKey k;
        k.siteId = siteId;
        k.label = QStringLiteral("embed");
        k.environment = QStringLiteral("production");
        k.allowedDomains = {QStringLiteral("harbour.example")};
        k.sitePolicy = {{QStringLiteral("domainScopeMode"), QStringLiteral("registrable_domain")}};
        key = sites->createKey(k);
        journal->hooks().sessionAdvanced = [this](const QString &id, qint64 seq) {
            advanced << qMakePair(id, seq);
        };
    }

    Store &store() { return *m_store; }
    runtime::RuntimeRepository &repo() { return journal->repo(); }

    // A session of the site, stored as session/open would leave it.
    runtime::Session insertSession(const QString &host = QStringLiteral("shop.harbour.example"))
    {
        runtime::Session s;
        s.id = QStringLiteral("rts_%1").arg(++m_sessions);
        s.siteId = siteId;
        s.keyId = key.id;
        s.host = host;
        s.url = QStringLiteral("https://%1/").arg(host);
        s.createdAt = s.updatedAt = clock.nowMs();
        journal->write([&] { repo().insertSession(s); });
        return s;
    }

    bool opened = false;
    std::unique_ptr<Settings> settings;
    std::unique_ptr<sites::SiteRepository> sites;
    std::unique_ptr<sites::AnalyticsRepository> analytics;
    std::unique_ptr<runtime::RuntimeJournal> journal;
    QString siteId;
    sites::SiteKey key;
    QList<QPair<QString, qint64>> advanced; // the sessionAdvanced announcements

private:
    int m_sessions = 0;
};

} // namespace ph::test
