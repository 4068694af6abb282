// The console's sites panel against the real service: the models under
// QAbstractItemModelTester; a site created over REST appears live; a site key minted in
// the panel is the one GET-style listings over HTTP show (and is never listed in full);
// its allowed domains, capabilities and policy are edited, it is rotated and
// deactivated; a Connect AI key created in the panel is shown once, authenticates the
// configuration REST and answers 401 once revoked; a site is deleted after the
// confirmation; an invalid allowed domain is the API's typed error and stores nothing.
#include "HttpClient.h"
#include "ModalAnswer.h"
#include "TestMain.h"
#include "TestService.h"

#include "common/SecretReveal.h"
#include "sites/ConnectKeyRepository.h"
#include "sites/ConnectKeysPane.h"
#include "sites/SiteKeyMintForm.h"
#include "sites/SiteKeyPolicyForm.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"
#include "sites/SitesDock.h"
#include "sites/SitesModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QGroupBox>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTranslator>

using namespace ph;
using namespace ph::test;

class tst_SitesPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void showsASiteCreatedOverRest();
    void mintsASiteKeyTheApiLists();
    void mintsAKeyForAnExistingSite();
    void editsRotatesAndDeactivatesASiteKey();
    void mintsWithALifetimeAndEditsEveryPolicyField();
    void showsAConnectKeyOnceAndRevokesIt();
    void refusesAnInvalidDomainAndStoresNothing();
    void editsTheHostsVisitorsMayReach();
    void deletesASiteAfterTheConfirmation();
    void followsTheLanguage();

private:
    // Whether `text` is anywhere in the panel: its fields, labels and models.
    bool panelShows(const QString &text) const;
    // The site's keys as POST /listSiteKeys answers them (empty on an error).
    QJsonArray listedKeys(const QString &siteId);
    QJsonObject listedKey(const QString &siteId, const QString &keyId);
    int configStatus(const QString &siteId, const QString &bearer);
    // Answers the next confirmation dialog: its destructive button, or Cancel.
    sites::SiteRepository &repo() { return m_ph->service().sites().sites(); }

    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::SitesDock> m_dock;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> m_testers;
    QString m_harbour;
    QString m_lighthouse;
    QString m_lighthouseKey;
    QString m_publicKey;
    bool m_answered = false;
};

void tst_SitesPanel::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    m_dock = std::make_unique<ui::SitesDock>(ui::ConsoleServices::of(m_ph->service()));
    for (QAbstractItemModel *m : std::initializer_list<QAbstractItemModel *>{
             m_dock->model(), m_dock->siteKeysModel(), m_dock->connectKeysModel()})
        m_testers.push_back(std::make_unique<QAbstractItemModelTester>(
            m, QAbstractItemModelTester::FailureReportingMode::QtTest));
    m_dock->resize(1300, 800);
    m_dock->show();
    QApplication::setActiveWindow(m_dock.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dock.get()));
    QCOMPARE(m_dock->model()->rowCount(), 0);
}

void tst_SitesPanel::cleanupTestCase()
{
    m_testers.clear();
    m_dock.reset();
    m_ph.reset();
}

void tst_SitesPanel::editsTheHostsVisitorsMayReach()
{
    // The site's private-host allowlist (docs/security.md): shown for the selected site,
    // saved as the API stores it, a bad entry refused with its name and nothing stored.
    QVERIFY(m_dock->select(m_harbour));
    QCOMPARE(m_dock->privateHostsEdit()->text(), QString());
    m_dock->privateHostsEdit()->setText(QStringLiteral("Inventory.LAN:8080, 10.0.0.12"));
    m_dock->savePrivateHostsButton()->click();
    QCOMPARE(repo().privateHosts(m_harbour),
             (QStringList{QStringLiteral("inventory.lan:8080"), QStringLiteral("10.0.0.12")}));
    QCOMPARE(m_dock->privateHostsEdit()->text(), QStringLiteral("inventory.lan:8080, 10.0.0.12"));
    const HttpResponse listed = m_ph->client().post(QStringLiteral("/getSitePrivateHosts"),
                                                    {{QStringLiteral("siteId"), m_harbour}});
    QCOMPARE(listed.json().value(QStringLiteral("privateHosts")).toArray().size(), 2);

    m_dock->privateHostsEdit()->setText(QStringLiteral("10.0.0.12, http://10.0.0.5/admin"));
    m_dock->savePrivateHostsButton()->click();
    QVERIFY2(m_dock->messageLabel()->text().contains(QLatin1String("privateHosts[1]")),
             qPrintable(m_dock->messageLabel()->text()));
    QCOMPARE(repo().privateHosts(m_harbour).size(), 2);

    m_dock->privateHostsEdit()->clear();
    m_dock->savePrivateHostsButton()->click();
    QVERIFY(repo().privateHosts(m_harbour).isEmpty());
}

bool tst_SitesPanel::panelShows(const QString &text) const
{
    for (const QLineEdit *e : m_dock->findChildren<QLineEdit *>()) {
        if (e->text().contains(text))
            return true;
    }
    for (const QLabel *l : m_dock->findChildren<QLabel *>()) {
        if (l->text().contains(text))
            return true;
    }
    for (const QAbstractItemModel *m : std::initializer_list<const QAbstractItemModel *>{
             m_dock->model(), m_dock->siteKeysModel(), m_dock->connectKeysModel()}) {
        for (int r = 0; r < m->rowCount(); ++r) {
            for (int c = 0; c < m->columnCount(); ++c) {
                for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(Qt::UserRole)}) {
                    if (m->index(r, c).data(role).toString().contains(text))
                        return true;
                }
            }
        }
    }
    return false;
}

QJsonArray tst_SitesPanel::listedKeys(const QString &siteId)
{
    const auto r =
        m_ph->client().post(QStringLiteral("/listSiteKeys"), {{QStringLiteral("siteId"), siteId}});
    if (r.status != 200)
        return {};
    const QJsonArray sites = r.json().value(QStringLiteral("sites")).toArray();
    return sites.isEmpty() ? QJsonArray()
                           : sites.first().toObject().value(QStringLiteral("keys")).toArray();
}

QJsonObject tst_SitesPanel::listedKey(const QString &siteId, const QString &keyId)
{
    for (const QJsonValue &k : listedKeys(siteId)) {
        if (k.toObject().value(QStringLiteral("keyId")).toString() == keyId)
            return k.toObject();
    }
    return {};
}

int tst_SitesPanel::configStatus(const QString &siteId, const QString &bearer)
{
    HttpClient ai(m_ph->base());
    ai.setBearer(bearer);
    return ai.get(QStringLiteral("/config/v1/sites/%1/config").arg(siteId)).status;
}

void tst_SitesPanel::showsASiteCreatedOverRest()
{
    const auto r = m_ph->client().post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Harbour")},
         {QStringLiteral("label"), QStringLiteral("embed")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("harbour.example")}}});
    QCOMPARE(r.status, 201);
    m_harbour = r.json().value(QStringLiteral("siteId")).toString();
    const QString publicKey = r.json()
                                  .value(QStringLiteral("key"))
                                  .toObject()
                                  .value(QStringLiteral("publicKey"))
                                  .toString();
    QTRY_VERIFY(m_dock->model()->rowOf(m_harbour) >= 0);
    const int row = m_dock->model()->rowOf(m_harbour);
    QCOMPARE(m_dock->model()->index(row, ui::SitesModel::Name).data().toString(),
             QStringLiteral("Harbour"));
    QCOMPARE(m_dock->model()->index(row, ui::SitesModel::Id).data().toString(), m_harbour);

    // Its key, masked: never the whole public key.
    QVERIFY(m_dock->select(m_harbour));
    QCOMPARE(m_dock->siteKeysModel()->rowCount(), 1);
    const QString masked =
        m_dock->siteKeysModel()->index(0, ui::SiteKeysModel::PublicKey).data().toString();
    QVERIFY2(masked.startsWith(publicKey.left(12)) && masked.endsWith(publicKey.right(4)),
             qPrintable(masked));
    QVERIFY(!panelShows(publicKey));
    QCOMPARE(m_dock->siteKeysModel()->index(0, ui::SiteKeysModel::AllowedDomains).data().toString(),
             QStringLiteral("harbour.example"));
    QVERIFY(m_dock->siteKeysModel()
                ->index(0, ui::SiteKeysModel::Capabilities)
                .data()
                .toString()
                .contains(QLatin1String("embed")));

    // A second key over REST lands in the open site's list and its count.
    const auto second = m_ph->client().post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteId"), m_harbour},
         {QStringLiteral("label"), QStringLiteral("staging")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("staging.harbour.example")}},
         {QStringLiteral("environment"), QStringLiteral("development")}});
    QCOMPARE(second.status, 201);
    QTRY_COMPARE(m_dock->siteKeysModel()->rowCount(), 2);
    QCOMPARE(m_dock->model()
                 ->index(m_dock->model()->rowOf(m_harbour), ui::SitesModel::SiteKeys)
                 .data()
                 .toString(),
             QStringLiteral("2 of 2 usable"));
}

void tst_SitesPanel::mintsASiteKeyTheApiLists()
{
    const int before = m_dock->model()->rowCount();
    m_dock->mintForm()->siteNameCombo()->setEditText(QStringLiteral("Lighthouse"));
    m_dock->mintForm()->labelField()->setText(QStringLiteral("production embed"));
    m_dock->mintForm()->domainsField()->setText(
        QStringLiteral("Lighthouse.example, =shop.partner.example"));
    m_dock->mintForm()->mintButton()->click();
    m_publicKey = m_dock->secretBox()->field()->text();
    QVERIFY2(m_publicKey.startsWith(QLatin1String("pk_site_")),
             qPrintable(m_dock->messageLabel()->text()));
    QVERIFY(m_dock->secretBox()->isVisible());

    const auto site = repo().findSiteByName(QStringLiteral("Lighthouse"), sites::kLocalOwner);
    QVERIFY(site);
    m_lighthouse = site->id;
    QCOMPARE(m_dock->model()->rowCount(), before + 1);
    QCOMPARE(m_dock->currentSiteId(), m_lighthouse);
    QCOMPARE(m_dock->mintForm()->siteNameCombo()->currentText(), QStringLiteral("Lighthouse"));
    m_lighthouseKey = m_dock->currentSiteKeyId();
    QVERIFY(m_lighthouseKey.startsWith(QLatin1String("skey_")));

    // The REST API lists it: the same public key, the domains normalised.
    const QJsonObject listed = listedKey(m_lighthouse, m_lighthouseKey);
    QCOMPARE(listed.value(QStringLiteral("publicKey")).toString(), m_publicKey);
    QCOMPARE(listed.value(QStringLiteral("label")).toString(), QStringLiteral("production embed"));
    QCOMPARE(listed.value(QStringLiteral("allowedDomains")).toArray(),
             (QJsonArray{QStringLiteral("lighthouse.example"),
                         QStringLiteral("=shop.partner.example")}));
    QCOMPARE(listed.value(QStringLiteral("environment")).toString(), QStringLiteral("production"));
    QVERIFY(listed.value(QStringLiteral("active")).toBool());
    // And the workspace calls take it.
    QCOMPARE(
        m_ph->client()
            .post(QStringLiteral("/getSiteConfig"), {{QStringLiteral("keyId"), m_lighthouseKey}})
            .status,
        200);

    // Copy, then Done: the list keeps only the masked form.
    m_dock->secretBox()->copyButton()->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), m_publicKey);
    m_dock->secretBox()->doneButton()->click();
    QVERIFY(!m_dock->secretBox()->isVisible());
    QVERIFY(!panelShows(m_publicKey));

    // The install snippet: the key shortened on screen, the whole line copied.
    QVERIFY(m_dock->snippetEdit()->text().contains(QStringLiteral("/embed.js")));
    QVERIFY(m_dock->snippetEdit()->text().contains(m_lighthouse));
    QVERIFY(!m_dock->snippetEdit()->text().contains(m_publicKey));
    QVERIFY(m_dock->copySnippetButton()->isEnabled());
    m_dock->copySnippetButton()->click();
    const QString copied = QGuiApplication::clipboard()->text();
    QCOMPARE(copied, QStringLiteral("<script src=\"%1/embed.js\" data-site-key=\"%2\" "
                                    "data-site-id=\"%3\" defer></script>")
                         .arg(m_ph->service().apiAddress(), m_publicKey, m_lighthouse));
}

void tst_SitesPanel::mintsAKeyForAnExistingSite()
{
    const int sitesBefore = m_dock->model()->rowCount();
    m_dock->mintForm()->siteNameCombo()->setCurrentIndex(
        m_dock->mintForm()->siteNameCombo()->findText(QStringLiteral("Harbour")));
    QCOMPARE(m_dock->mintForm()->siteNameCombo()->currentText(), QStringLiteral("Harbour"));
    m_dock->mintForm()->labelField()->setText(QStringLiteral("kiosk"));
    m_dock->mintForm()->domainsField()->setText(QStringLiteral("kiosk.harbour.example"));
    m_dock->mintForm()->environmentCombo()->setCurrentIndex(
        m_dock->mintForm()->environmentCombo()->findData(QStringLiteral("test")));
    m_dock->mintForm()->mintButton()->click();
    QVERIFY2(m_dock->secretBox()->field()->text().startsWith(QLatin1String("pk_site_")),
             qPrintable(m_dock->messageLabel()->text()));
    QCOMPARE(m_dock->model()->rowCount(), sitesBefore);
    QCOMPARE(m_dock->currentSiteId(), m_harbour);
    QCOMPARE(m_dock->siteKeysModel()->rowCount(), 3);
    const QJsonObject listed = listedKey(m_harbour, m_dock->currentSiteKeyId());
    QCOMPARE(listed.value(QStringLiteral("environment")).toString(), QStringLiteral("test"));
    QCOMPARE(listed.value(QStringLiteral("publicKey")).toString(),
             m_dock->secretBox()->field()->text());
    QCOMPARE(listedKeys(m_harbour).size(), 3);
    m_dock->secretBox()->doneButton()->click();
}

void tst_SitesPanel::editsRotatesAndDeactivatesASiteKey()
{
    QVERIFY(m_dock->selectSiteKey(m_lighthouseKey));
    QCOMPARE(m_dock->keyForm()->domainsField()->text(),
             QStringLiteral("lighthouse.example, =shop.partner.example"));
    QVERIFY(m_dock->keyForm()->capabilityBox(QStringLiteral("embed"))->isChecked());
    QVERIFY(!m_dock->keyForm()->capabilityBox(QStringLiteral("cloudScrape"))->isChecked());

    // Domains, capabilities and policy.
    m_dock->keyForm()->domainsField()->setText(QStringLiteral("lighthouse.example beacon.example"));
    m_dock->keyForm()->capabilityBox(QStringLiteral("cloudScrape"))->setChecked(true);
    m_dock->keyForm()->siteModeCombo()->setCurrentIndex(
        m_dock->keyForm()->siteModeCombo()->findData(QStringLiteral("paused")));
    m_dock->keyForm()->domainScopeCombo()->setCurrentIndex(
        m_dock->keyForm()->domainScopeCombo()->findData(QStringLiteral("exact_host")));
    m_dock->keyForm()->saveButton()->click();
    QJsonObject listed = listedKey(m_lighthouse, m_lighthouseKey);
    QCOMPARE(listed.value(QStringLiteral("allowedDomains")).toArray(),
             (QJsonArray{QStringLiteral("lighthouse.example"), QStringLiteral("beacon.example")}));
    QVERIFY(listed.value(QStringLiteral("capabilities"))
                .toObject()
                .value(QStringLiteral("cloudScrape"))
                .toBool());
    const QJsonObject policy = listed.value(QStringLiteral("sitePolicy")).toObject();
    QCOMPARE(policy.value(QStringLiteral("siteMode")).toString(), QStringLiteral("paused"));
    QCOMPARE(policy.value(QStringLiteral("domainScopeMode")).toString(),
             QStringLiteral("exact_host"));
    const int row = m_dock->siteKeysModel()->rowOf(m_lighthouseKey);
    QVERIFY(m_dock->siteKeysModel()
                ->index(row, ui::SiteKeysModel::Capabilities)
                .data()
                .toString()
                .contains(QLatin1String("cloudScrape")));

    // A bad domain is the API's typed error; the stored domains stay.
    m_dock->keyForm()->domainsField()->setText(QStringLiteral("co.uk"));
    m_dock->keyForm()->saveButton()->click();
    QVERIFY2(m_dock->messageLabel()->text().contains(QLatin1String("INVALID_FIELD")) &&
                 m_dock->messageLabel()->text().contains(QLatin1String("allowedDomains[0]")),
             qPrintable(m_dock->messageLabel()->text()));
    QCOMPARE(listedKey(m_lighthouse, m_lighthouseKey)
                 .value(QStringLiteral("allowedDomains"))
                 .toArray()
                 .size(),
             2);

    // Rotate: the new public key is shown; the old one stops resolving.
    m_dock->keyForm()->rotateButton()->click();
    const QString rotated = m_dock->secretBox()->field()->text();
    QVERIFY2(rotated.startsWith(QLatin1String("pk_site_")) && rotated != m_publicKey,
             qPrintable(m_dock->messageLabel()->text()));
    listed = listedKey(m_lighthouse, m_lighthouseKey);
    QCOMPARE(listed.value(QStringLiteral("publicKey")).toString(), rotated);
    QVERIFY(listed.value(QStringLiteral("rotatedAt")).isString());
    QVERIFY(!repo().findUsableKeyByPublicKey(m_publicKey));
    QVERIFY(repo().findUsableKeyByPublicKey(rotated));
    QVERIFY(!m_dock->siteKeysModel()
                 ->index(row, ui::SiteKeysModel::Rotated)
                 .data()
                 .toString()
                 .isEmpty());
    m_dock->secretBox()->doneButton()->click();
    QVERIFY(!panelShows(rotated));

    // Delete deactivates it.
    QVERIFY(m_dock->keyForm()->activeButton()->isEnabled());
    m_dock->siteKeysView()->setFocus();
    QTest::keyClick(m_dock->siteKeysView(), Qt::Key_Delete);
    QVERIFY(!listedKey(m_lighthouse, m_lighthouseKey).value(QStringLiteral("active")).toBool());
    QVERIFY(!repo().findUsableKeyByPublicKey(rotated));
    QCOMPARE(m_dock->siteKeysModel()->index(row, ui::SiteKeysModel::State).data().toString(),
             QStringLiteral("deactivated"));
    QCOMPARE(m_dock->keyForm()->activeButton()->text(), QStringLiteral("Activate"));
    // And the button activates it again.
    m_dock->keyForm()->activeButton()->click();
    QVERIFY(listedKey(m_lighthouse, m_lighthouseKey).value(QStringLiteral("active")).toBool());
}

void tst_SitesPanel::mintsWithALifetimeAndEditsEveryPolicyField()
{
    // Mint with a lifetime and capabilities other than the defaults.
    QVERIFY(m_dock->mintForm()->capabilityBox(QStringLiteral("embed"))->isChecked());
    QVERIFY(!m_dock->mintForm()->capabilityBox(QStringLiteral("cloudScrape"))->isChecked());
    m_dock->mintForm()->siteNameCombo()->setCurrentIndex(
        m_dock->mintForm()->siteNameCombo()->findText(QStringLiteral("Lighthouse")));
    m_dock->mintForm()->labelField()->setText(QStringLiteral("campaign"));
    m_dock->mintForm()->domainsField()->setText(QStringLiteral("campaign.lighthouse.example"));
    m_dock->mintForm()->ttlDaysBox()->setValue(30);
    m_dock->mintForm()->capabilityBox(QStringLiteral("embed"))->setChecked(false);
    m_dock->mintForm()->capabilityBox(QStringLiteral("cloudScrape"))->setChecked(true);
    m_dock->mintForm()->mintButton()->click();
    QVERIFY2(m_dock->secretBox()->field()->text().startsWith(QLatin1String("pk_site_")),
             qPrintable(m_dock->messageLabel()->text()));
    m_dock->secretBox()->doneButton()->click();
    const QString campaign = m_dock->currentSiteKeyId();
    const auto minted = repo().findKey(campaign);
    QVERIFY(minted && minted->siteId == m_lighthouse);
    QCOMPARE(minted->ttlDays, 30);
    QVERIFY(minted->expiresAt);
    QCOMPARE(*minted->expiresAt - minted->createdAt, qint64(30) * 24 * 3600 * 1000);
    QVERIFY(!minted->capability(QStringLiteral("embed")));
    QVERIFY(minted->capability(QStringLiteral("cloudScrape")));
    QVERIFY(minted->capability(QStringLiteral("cloudAgent")));
    const int campaignRow = m_dock->siteKeysModel()->rowOf(campaign);
    QVERIFY(m_dock->siteKeysModel()
                ->index(campaignRow, ui::SiteKeysModel::State)
                .data()
                .toString()
                .startsWith(QLatin1String("active until")));
    // The form starts again from "never".
    QCOMPARE(m_dock->mintForm()->ttlDaysBox()->value(), 0);
    QCOMPARE(m_dock->mintForm()->ttlDaysBox()->text(), QStringLiteral("Never"));

    // Every policy field of an existing key, as the REST listing then shows it.
    QVERIFY(m_dock->selectSiteKey(m_lighthouseKey));
    QVERIFY(!m_dock->keyForm()->cloudSandboxBox()->isChecked());
    QCOMPARE(m_dock->keyForm()->maxShortcutsBox()->value(), 12);
    QCOMPARE(m_dock->keyForm()->maxVisibleBox()->value(), 4);
    m_dock->keyForm()->cloudSandboxBox()->setChecked(true);
    m_dock->keyForm()->externalAllowField()->setText(
        QStringLiteral("Docs.Example.org, status.example.net"));
    m_dock->keyForm()->externalDenyField()->setText(QStringLiteral("ads.example"));
    m_dock->keyForm()->mascotBox()->setChecked(true);
    m_dock->keyForm()->mascotNameField()->setText(QStringLiteral("Beam"));
    m_dock->keyForm()->mascotAvatarField()->setText(
        QStringLiteral("https://lighthouse.example/beam.png"));
    m_dock->keyForm()->mascotStyleCombo()->setCurrentIndex(
        m_dock->keyForm()->mascotStyleCombo()->findData(QStringLiteral("professional")));
    m_dock->keyForm()->maxShortcutsBox()->setValue(20);
    m_dock->keyForm()->maxVisibleBox()->setValue(6);
    m_dock->keyForm()->saveButton()->click();
    QJsonObject policy =
        listedKey(m_lighthouse, m_lighthouseKey).value(QStringLiteral("sitePolicy")).toObject();
    QVERIFY(policy.value(QStringLiteral("cloudSandboxEnabled")).toBool());
    QCOMPARE(
        policy.value(QStringLiteral("externalAllowDomains")).toArray(),
        (QJsonArray{QStringLiteral("docs.example.org"), QStringLiteral("status.example.net")}));
    QCOMPARE(policy.value(QStringLiteral("externalDenyDomains")).toArray(),
             QJsonArray{QStringLiteral("ads.example")});
    QJsonObject mascot = policy.value(QStringLiteral("mascot")).toObject();
    QVERIFY(mascot.value(QStringLiteral("enabled")).toBool());
    QCOMPARE(mascot.value(QStringLiteral("name")).toString(), QStringLiteral("Beam"));
    QCOMPARE(mascot.value(QStringLiteral("avatarUrl")).toString(),
             QStringLiteral("https://lighthouse.example/beam.png"));
    QCOMPARE(mascot.value(QStringLiteral("style")).toString(), QStringLiteral("professional"));
    QCOMPARE(
        policy.value(QStringLiteral("shortcutLimits")).toObject(),
        (QJsonObject{{QStringLiteral("maxShortcuts"), 20}, {QStringLiteral("maxVisible"), 6}}));
    // The mode and scope saved earlier stay.
    QCOMPARE(policy.value(QStringLiteral("siteMode")).toString(), QStringLiteral("paused"));
    QVERIFY(m_dock->siteKeysModel()
                ->index(m_dock->siteKeysModel()->rowOf(m_lighthouseKey), ui::SiteKeysModel::Policy)
                .data()
                .toString()
                .contains(QLatin1String("cloud sandbox")));

    // Away and back: the form shows what is stored.
    QVERIFY(m_dock->selectSiteKey(campaign));
    QVERIFY(!m_dock->keyForm()->cloudSandboxBox()->isChecked());
    QVERIFY(m_dock->keyForm()->mascotNameField()->text().isEmpty());
    QVERIFY(m_dock->selectSiteKey(m_lighthouseKey));
    QVERIFY(m_dock->keyForm()->cloudSandboxBox()->isChecked());
    QCOMPARE(m_dock->keyForm()->externalAllowField()->text(),
             QStringLiteral("docs.example.org, status.example.net"));
    QCOMPARE(m_dock->keyForm()->mascotNameField()->text(), QStringLiteral("Beam"));
    QCOMPARE(m_dock->keyForm()->mascotStyleCombo()->currentData().toString(),
             QStringLiteral("professional"));
    QCOMPARE(m_dock->keyForm()->maxVisibleBox()->value(), 6);

    // A bad avatar URL is the API's typed error naming the field; nothing changes.
    m_dock->keyForm()->mascotAvatarField()->setText(
        QStringLiteral("ftp://lighthouse.example/beam.png"));
    m_dock->keyForm()->maxVisibleBox()->setValue(9);
    m_dock->keyForm()->saveButton()->click();
    QVERIFY2(
        m_dock->messageLabel()->text().contains(QLatin1String("INVALID_FIELD")) &&
            m_dock->messageLabel()->text().contains(QLatin1String("sitePolicy.mascot.avatarUrl")),
        qPrintable(m_dock->messageLabel()->text()));
    policy =
        listedKey(m_lighthouse, m_lighthouseKey).value(QStringLiteral("sitePolicy")).toObject();
    QCOMPARE(policy.value(QStringLiteral("shortcutLimits"))
                 .toObject()
                 .value(QStringLiteral("maxVisible"))
                 .toInt(),
             6);
    // An empty one removes the avatar.
    m_dock->keyForm()->mascotAvatarField()->clear();
    m_dock->keyForm()->saveButton()->click();
    mascot = listedKey(m_lighthouse, m_lighthouseKey)
                 .value(QStringLiteral("sitePolicy"))
                 .toObject()
                 .value(QStringLiteral("mascot"))
                 .toObject();
    QCOMPARE(mascot.value(QStringLiteral("avatarUrl")).toString(), QString());
    QCOMPARE(mascot.value(QStringLiteral("name")).toString(), QStringLiteral("Beam"));

    // A change over REST shows in the form at once.
    m_dock->siteKeysView()->setFocus();
    const auto r =
        m_ph->client().post(QStringLiteral("/updateSiteKeyPolicy"),
                            {{QStringLiteral("keyId"), m_lighthouseKey},
                             {QStringLiteral("sitePolicy"),
                              QJsonObject{{QStringLiteral("cloudSandboxEnabled"), false},
                                          {QStringLiteral("shortcutLimits"),
                                           QJsonObject{{QStringLiteral("maxVisible"), 2}}}}}});
    QCOMPARE(r.status, 200);
    QTRY_VERIFY(!m_dock->keyForm()->cloudSandboxBox()->isChecked());
    QCOMPARE(m_dock->keyForm()->maxVisibleBox()->value(), 2);
    QCOMPARE(m_dock->keyForm()->maxShortcutsBox()->value(), 20);
}

void tst_SitesPanel::showsAConnectKeyOnceAndRevokesIt()
{
    QVERIFY(m_dock->select(m_harbour));
    QCOMPARE(m_dock->connectKeysModel()->rowCount(), 0);
    m_dock->connectPane()->labelField()->setText(QStringLiteral("Claude"));
    m_dock->connectPane()->createButton()->click();
    const QString secret = m_dock->secretBox()->field()->text();
    QVERIFY2(secret.startsWith(QLatin1String("ck_")), qPrintable(m_dock->messageLabel()->text()));
    QVERIFY(m_dock->secretBox()->isVisible());
    QCOMPARE(m_dock->connectKeysModel()->rowCount(), 1);
    const QString keyId = m_dock->currentConnectKeyId();
    QVERIFY(keyId.startsWith(QLatin1String("conn_")));
    QCOMPARE(m_dock->connectKeysModel()->index(0, ui::ConnectKeysModel::Label).data().toString(),
             QStringLiteral("Claude"));
    QCOMPARE(m_dock->connectKeysModel()->index(0, ui::ConnectKeysModel::Prefix).data().toString(),
             secret.left(10) + QStringLiteral("…"));

    QCOMPARE(m_dock->connectKeysModel()->index(0, ui::ConnectKeysModel::LastUsed).data().toString(),
             QStringLiteral("never"));
    // It authenticates the configuration REST for its site, and its last use shows at
    // once (no F5: the store tells the panel).
    QCOMPARE(configStatus(m_harbour, secret), 200);
    QTRY_VERIFY(
        m_dock->connectKeysModel()->index(0, ui::ConnectKeysModel::LastUsed).data().toString() !=
        QLatin1String("never"));
    // And the REST listing has it, never its secret.
    const auto list = m_ph->client().post(QStringLiteral("/listConnectKeys"),
                                          {{QStringLiteral("siteId"), m_harbour}});
    QCOMPARE(list.status, 200);
    QCOMPARE(list.json().value(QStringLiteral("activeConnectKeys")).toInt(), 1);
    QVERIFY(!list.body.contains(secret.toUtf8()));

    // Copy, then Done: never shown again.
    m_dock->secretBox()->copyButton()->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), secret);
    m_dock->secretBox()->doneButton()->click();
    QVERIFY(!m_dock->secretBox()->isVisible());
    QVERIFY(!panelShows(secret));
    QVERIFY(m_dock->selectConnectKey(keyId));
    QVERIFY(!panelShows(secret));
    // F5 re-reads the list; the last use stays.
    m_dock->connectPane()->view()->setFocus();
    QTest::keyClick(m_dock->connectPane()->view(), Qt::Key_F5);
    QVERIFY(
        m_dock->connectKeysModel()->index(0, ui::ConnectKeysModel::LastUsed).data().toString() !=
        QLatin1String("never"));

    // One created over REST appears live.
    const auto other = m_ph->client().post(
        QStringLiteral("/createConnectKey"),
        {{QStringLiteral("siteId"), m_harbour}, {QStringLiteral("label"), QStringLiteral("GPT")}});
    QCOMPARE(other.status, 201);
    QTRY_COMPARE(m_dock->connectKeysModel()->rowCount(), 2);
    QVERIFY(!panelShows(other.json().value(QStringLiteral("key")).toString()));

    // Delete revokes the selected one: 401 from the next request on.
    QVERIFY(m_dock->selectConnectKey(keyId));
    QVERIFY(m_dock->connectPane()->revokeButton()->isEnabled());
    m_dock->connectPane()->view()->setFocus();
    QTest::keyClick(m_dock->connectPane()->view(), Qt::Key_Delete);
    QCOMPARE(configStatus(m_harbour, secret), 401);
    const int row = m_dock->connectKeysModel()->rowOf(keyId);
    QVERIFY(m_dock->connectKeysModel()
                ->index(row, ui::ConnectKeysModel::State)
                .data()
                .toString()
                .startsWith(QLatin1String("revoked")));
    QVERIFY(!m_dock->connectPane()->revokeButton()->isEnabled());
    // The other key still works.
    QCOMPARE(configStatus(m_harbour, other.json().value(QStringLiteral("key")).toString()), 200);
}

void tst_SitesPanel::refusesAnInvalidDomainAndStoresNothing()
{
    const int sites = int(repo().listSites(sites::kLocalOwner).size());
    const int rows = m_dock->model()->rowCount();
    m_dock->mintForm()->siteNameCombo()->setEditText(QStringLiteral("Nowhere"));
    m_dock->mintForm()->labelField()->setText(QStringLiteral("embed"));
    m_dock->mintForm()->domainsField()->setText(QStringLiteral("co.uk"));
    m_dock->mintForm()->mintButton()->click();
    const QString message = m_dock->messageLabel()->text();
    QVERIFY2(message.contains(QLatin1String("INVALID_FIELD")) &&
                 message.contains(QLatin1String("allowedDomains[0]")),
             qPrintable(message));
    QVERIFY(m_dock->secretBox()->field()->text().isEmpty());
    QVERIFY(!m_dock->secretBox()->isVisible());
    QVERIFY(!repo().findSiteByName(QStringLiteral("Nowhere"), sites::kLocalOwner));
    QCOMPARE(int(repo().listSites(sites::kLocalOwner).size()), sites);
    QCOMPARE(m_dock->model()->rowCount(), rows);
    // The fields keep what was typed, to be corrected.
    QCOMPARE(m_dock->mintForm()->domainsField()->text(), QStringLiteral("co.uk"));

    // No domain at all: the same typed error the API gives.
    m_dock->mintForm()->domainsField()->clear();
    m_dock->mintForm()->mintButton()->click();
    QVERIFY2(m_dock->messageLabel()->text().contains(QLatin1String("INVALID_FIELD")),
             qPrintable(m_dock->messageLabel()->text()));
    QVERIFY(!repo().findSiteByName(QStringLiteral("Nowhere"), sites::kLocalOwner));
}

void tst_SitesPanel::deletesASiteAfterTheConfirmation()
{
    QVERIFY(m_dock->select(m_lighthouse));
    QVERIFY(m_dock->deleteSiteButton()->isEnabled());

    // Cancelled: nothing happens.
    m_answered = false;
    answerConfirmation(this, QStringLiteral("confirmDeleteSite"), false, &m_answered);
    m_dock->deleteSiteButton()->click();
    QVERIFY(m_answered);
    QVERIFY(repo().findSite(m_lighthouse));
    QVERIFY(m_dock->model()->rowOf(m_lighthouse) >= 0);

    // Confirmed (with the Delete key on the list): gone from the store, the list and the API.
    m_answered = false;
    answerConfirmation(this, QStringLiteral("confirmDeleteSite"), true, &m_answered);
    QApplication::setActiveWindow(m_dock.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dock.get()));
    m_dock->sitesView()->setFocus();
    QTest::keyClick(m_dock->sitesView(), Qt::Key_Delete);
    QVERIFY(m_answered);
    QVERIFY(!repo().findSite(m_lighthouse));
    QVERIFY(!repo().findKey(m_lighthouseKey));
    QCOMPARE(m_dock->model()->rowOf(m_lighthouse), -1);
    QVERIFY(m_dock->currentSiteId() != m_lighthouse);
    QVERIFY(m_dock->siteKeysModel()->rowOf(m_lighthouseKey) < 0);
    QCOMPARE(m_ph->client()
                 .post(QStringLiteral("/listSiteKeys"), {{QStringLiteral("siteId"), m_lighthouse}})
                 .status,
             404);
    QVERIFY(m_dock->messageLabel()->text().contains(QLatin1String("Lighthouse")));
    // The other site is untouched.
    QVERIFY(repo().findSite(m_harbour));
}

void tst_SitesPanel::followsTheLanguage()
{
    QTranslator german;
    QVERIFY(german.load(QStringLiteral(":/pilothouse/i18n/pilothouse_de.qm")));
    QCoreApplication::installTranslator(&german);
    QTRY_COMPARE(m_dock->windowTitle(), QStringLiteral("Websites"));
    QCOMPARE(m_dock->model()->headerData(ui::SitesModel::Name, Qt::Horizontal).toString(),
             QStringLiteral("Website"));
    QCOMPARE(m_dock->tabs()->tabText(0), QStringLiteral("Website-Schlüssel"));
    QCoreApplication::removeTranslator(&german);
    QTRY_COMPARE(m_dock->windowTitle(), QStringLiteral("Sites"));
}

PH_WIDGETS_TEST_MAIN(tst_SitesPanel)
#include "tst_sitespanel.moc"
