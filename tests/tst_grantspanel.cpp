// The OAuth grants of MCP clients in the console's API keys panel (issue 32), against the
// real service: a grant made over the authorization server appears with its client, the
// key it acts as and its endpoint; one revoked over HTTP turns "revoked" through
// OAuthService::grantChanged; Revoke in the panel ends the grant's tokens.
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/ApiKeyService.h"
#include "oauth/ClientDirectory.h"
#include "oauth/FormBody.h"
#include "oauth/OAuthService.h"

#include "keys/GrantsModel.h"
#include "keys/GrantsPanel.h"
#include "keys/KeysDock.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QUrlQuery>

using namespace ph;
using namespace ph::test;

namespace {
const QString kRedirect = QStringLiteral("http://127.0.0.1:9/cb");
const QString kVerifier = QStringLiteral("dBjftJeZ4CVP-mJ92K9TzNwWb2vsqKt3E3xJVHtmz-Y");
const QString kChallenge = QStringLiteral("csdw-HxZzQ3VJEB2Tt70wa-FiJggKhtKcMgxFQfRVCA");
} // namespace

class tst_GrantsPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void listsGrantsAndFollowsRevocations();

private:
    // A client signs in and acts as `keyId`; its access token.
    QString signIn(TestService &ph, const QString &client, const QString &keyId);
};

QString tst_GrantsPanel::signIn(TestService &ph, const QString &clientName, const QString &keyId)
{
    oauth::OAuthService &oauth = ph.service().oauth();
    const QString clientId =
        oauth
            .registerClient({{QStringLiteral("client_name"), clientName},
                             {QStringLiteral("redirect_uris"), QJsonArray{kRedirect}}})
            .value(QStringLiteral("client_id"))
            .toString();
    const auto client = oauth.clients().known(clientId);
    const QHash<QString, QString> query{
        {QStringLiteral("response_type"), QStringLiteral("code")},
        {QStringLiteral("redirect_uri"), kRedirect},
        {QStringLiteral("code_challenge"), kChallenge},
        {QStringLiteral("code_challenge_method"), QStringLiteral("S256")}};
    const auto &consent = oauth.beginConsent(oauth.checkAuthorize(query, *client));
    const QString id = consent.id;
    oauth.signIn(oauth.consent(id, consent.csrf), ph.ownerKey());
    const QUrlQuery back{QUrl(oauth.approve(id, keyId))};
    oauth::FormBody form;
    form.fields = {
        {QStringLiteral("grant_type"), QStringLiteral("authorization_code")},
        {QStringLiteral("code"), back.queryItemValue(QStringLiteral("code"), QUrl::FullyDecoded)},
        {QStringLiteral("client_id"), clientId},
        {QStringLiteral("redirect_uri"), kRedirect},
        {QStringLiteral("code_verifier"), kVerifier}};
    return oauth.token(form).value(QStringLiteral("access_token")).toString();
}

void tst_GrantsPanel::listsGrantsAndFollowsRevocations()
{
    TestService ph;
    QVERIFY(ph.ok());
    ApiKeyService::NewKey key;
    key.label = QStringLiteral("assistant key");
    const QString keyId = ph.service().keyService().mint(key).key.id;
    ui::KeysDock dock(ui::ConsoleServices::of(ph.service()));
    dock.resize(1000, 700);
    dock.show();
    ui::GrantsPanel *panel = dock.grantsPanel();
    QVERIFY(panel);
    QAbstractItemModelTester tester(panel->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(panel->model()->rowCount(), 0);

    const QString first = signIn(ph, QStringLiteral("Desk assistant"), keyId);
    signIn(ph, QStringLiteral("Phone assistant"), keyId);
    QTRY_COMPARE(panel->model()->rowCount(), 2);
    const QList<oauth::Grant> grants = ph.service().oauth().grants();
    QString deskGrant, phoneGrant;
    for (const oauth::Grant &g : grants)
        (g.clientName == QLatin1String("Desk assistant") ? deskGrant : phoneGrant) = g.id;
    const int row = panel->model()->rowOf(deskGrant);
    QVERIFY(row >= 0);
    auto cell = [&](int r, int column) {
        return panel->model()->index(r, column).data().toString();
    };
    QCOMPARE(cell(row, ui::GrantsModel::Client), QStringLiteral("Desk assistant"));
    QCOMPARE(cell(row, ui::GrantsModel::Key), QStringLiteral("assistant key"));
    QCOMPARE(cell(row, ui::GrantsModel::Endpoint), QStringLiteral("/mcp"));
    QCOMPARE(cell(row, ui::GrantsModel::Status), QStringLiteral("active"));

    // Revoked over HTTP: the row follows.
    HttpClient owner = ph.client();
    QCOMPARE(owner.send("DELETE", QStringLiteral("/oauth/grants/") + phoneGrant).status, 200);
    QTRY_COMPARE(cell(panel->model()->rowOf(phoneGrant), ui::GrantsModel::Status),
                 QStringLiteral("revoked"));

    // Revoked in the panel: the token stops working.
    QVERIFY(panel->select(deskGrant));
    QVERIFY(panel->revokeButton()->isEnabled());
    QVERIFY(panel->revokeSelected(true));
    QCOMPARE(cell(panel->model()->rowOf(deskGrant), ui::GrantsModel::Status),
             QStringLiteral("revoked"));
    QVERIFY(!panel->revokeButton()->isEnabled());
    QVERIFY(panel->messageLabel()->text().contains(QStringLiteral("Desk assistant")));
    HttpClient client(ph.base());
    client.setBearer(first);
    const auto refused = client.send(
        "POST", QStringLiteral("/mcp"),
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}})",
        {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}});
    QCOMPARE(refused.status, 401);
}

PH_WIDGETS_TEST_MAIN(tst_GrantsPanel)
#include "tst_grantspanel.moc"
