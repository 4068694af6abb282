// ChangeDecisions: the owner applies or discards a proposal of the owner's AI; the
// workspace API and the console's Proposals panel share these two calls.
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Store.h"
#include "sites/ChangeDecisions.h"
#include "sites/ChangeRepository.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace ph;
using namespace ph::sites;

namespace {
QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}
} // namespace

class tst_ChangeDecisions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void appliesAProposalAsTheNextVersion();
    void refusesADecisionOnAChangeThatIsNotPending_data();
    void refusesADecisionOnAChangeThatIsNotPending();
    void refusesAChangeThatNoLongerFitsAndKeepsItPending();
    void discardsWithoutTouchingTheConfiguration();
    void refusesAChangeThatDoesNotExist();

private:
    ConfigChange propose(const QJsonObject &patch, const QString &requestId);

    QTemporaryDir m_dir;
    SystemClock m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<SiteRepository> m_sites;
    std::unique_ptr<ChangeRepository> m_changes;
    QString m_siteId;
};

void tst_ChangeDecisions::init()
{
    m_store =
        std::make_unique<Store>(m_dir.filePath(QStringLiteral("%1-%2.db")
                                                   .arg(QLatin1String(QTest::currentTestFunction()),
                                                        QLatin1String(QTest::currentDataTag()))),
                                m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_sites = std::make_unique<SiteRepository>(*m_store);
    m_changes = std::make_unique<ChangeRepository>(*m_store);
    m_siteId = m_sites->createSite(QStringLiteral("Harbour"), QStringLiteral("owner")).id;
    m_sites->writeConfig(m_siteId, json(R"({"greeting":{"text":"Hi"}})"), QStringLiteral("owner"));
}

void tst_ChangeDecisions::cleanup()
{
    m_changes.reset();
    m_sites.reset();
    m_store.reset();
}

ConfigChange tst_ChangeDecisions::propose(const QJsonObject &patch, const QString &requestId)
{
    ConfigChange c;
    c.siteId = m_siteId;
    c.author = QStringLiteral("conn_ai");
    c.clientRequestId = requestId;
    c.kind = QStringLiteral("patch");
    c.title = requestId;
    c.patch = patch;
    c.baseVersion = m_sites->config(m_siteId).version;
    return m_changes->createOnce(c).first;
}

void tst_ChangeDecisions::appliesAProposalAsTheNextVersion()
{
    const int before = m_sites->config(m_siteId).version;
    const ConfigChange c = propose(json(R"({"greeting":{"text":"Ahoy"}})"), QStringLiteral("g"));
    const ConfigChange applied =
        applyChange(*m_store, *m_sites, *m_changes, c.id, QStringLiteral("owner"), QString());
    QCOMPARE(applied.status, QStringLiteral("applied"));
    const SiteConfigRecord now = m_sites->config(m_siteId);
    QCOMPARE(now.version, before + 1);
    QCOMPARE(applied.appliedVersion, std::optional<int>(now.version));
    QCOMPARE(now.config.value(QStringLiteral("greeting")).toObject().value(QStringLiteral("text")),
             QJsonValue(QStringLiteral("Ahoy")));
}

void tst_ChangeDecisions::refusesADecisionOnAChangeThatIsNotPending_data()
{
    QTest::addColumn<bool>("firstApplies");
    QTest::addColumn<bool>("thenApply");
    QTest::newRow("refuses to apply a change twice") << true << true;
    QTest::newRow("refuses to discard an applied change") << true << false;
    QTest::newRow("refuses to apply a discarded change") << false << true;
    QTest::newRow("refuses to discard a change twice") << false << false;
}

void tst_ChangeDecisions::refusesADecisionOnAChangeThatIsNotPending()
{
    QFETCH(bool, firstApplies);
    QFETCH(bool, thenApply);
    const ConfigChange c = propose(json(R"({"voice":{"enabled":true}})"), QStringLiteral("v"));
    if (firstApplies)
        applyChange(*m_store, *m_sites, *m_changes, c.id, QStringLiteral("owner"), QString());
    else
        discardChange(*m_changes, c.id, QStringLiteral("owner"), QString());
    const int version = m_sites->config(m_siteId).version;
    try {
        if (thenApply)
            applyChange(*m_store, *m_sites, *m_changes, c.id, QStringLiteral("owner"), QString());
        else
            discardChange(*m_changes, c.id, QStringLiteral("owner"), QString());
        QFAIL("decided a change that was not pending");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Conflict);
        QCOMPARE(e.code(), QStringLiteral("CHANGE_NOT_PENDING"));
        QCOMPARE(e.details().value(QStringLiteral("status")).toString(),
                 firstApplies ? QStringLiteral("applied") : QStringLiteral("discarded"));
    }
    QCOMPARE(m_sites->config(m_siteId).version, version);
}

void tst_ChangeDecisions::refusesAChangeThatNoLongerFitsAndKeepsItPending()
{
    // Proposed when the list was empty; meanwhile the owner filled it to the limit.
    const ConfigChange c =
        propose(json(R"({"shortcuts":[{"id":"extra","label":"Extra"}]})"), QStringLiteral("s"));
    QJsonArray full;
    for (int i = 0; i < SiteConfigSchema::kMaxShortcuts; ++i)
        full.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("s%1").arg(i)},
                                {QStringLiteral("label"), QStringLiteral("S%1").arg(i)}});
    m_sites->writeConfig(m_siteId, QJsonObject{{QStringLiteral("shortcuts"), full}},
                         QStringLiteral("owner"));
    const int version = m_sites->config(m_siteId).version;
    try {
        applyChange(*m_store, *m_sites, *m_changes, c.id, QStringLiteral("owner"), QString());
        QFAIL("applied a change that no longer fits");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("CHANGE_CONFLICT"));
    }
    QCOMPARE(m_sites->config(m_siteId).version, version);
    QCOMPARE(m_changes->find(c.id)->status, QStringLiteral("pending"));
}

void tst_ChangeDecisions::discardsWithoutTouchingTheConfiguration()
{
    const SiteConfigRecord before = m_sites->config(m_siteId);
    const ConfigChange c = propose(json(R"({"greeting":{"text":"Ahoy"}})"), QStringLiteral("d"));
    const ConfigChange d =
        discardChange(*m_changes, c.id, QStringLiteral("owner"), QStringLiteral("not our tone"));
    QCOMPARE(d.status, QStringLiteral("discarded"));
    QCOMPARE(d.decisionNote, QStringLiteral("not our tone"));
    QCOMPARE(m_sites->config(m_siteId).version, before.version);
    QCOMPARE(m_sites->config(m_siteId).config, before.config);
}

void tst_ChangeDecisions::refusesAChangeThatDoesNotExist()
{
    for (bool apply : {true, false}) {
        try {
            if (apply)
                applyChange(*m_store, *m_sites, *m_changes, QStringLiteral("chg_none"),
                            QStringLiteral("owner"), QString());
            else
                discardChange(*m_changes, QStringLiteral("chg_none"), QStringLiteral("owner"),
                              QString());
            QFAIL("decided a change that does not exist");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Kind::NotFound);
            QCOMPARE(e.code(), QStringLiteral("CHANGE_NOT_FOUND"));
        }
    }
}

QTEST_GUILESS_MAIN(tst_ChangeDecisions)
#include "tst_changedecisions.moc"
