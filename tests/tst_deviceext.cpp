// The device extension in a real Chromium against the real service (issue 32, "It must
// show"): tests/cdp/device-extension.mjs drives the browser with playwright-core; this
// test serves the fixture site and the callback receiver and checks what it saw.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include <QFileInfo>

using namespace ph;
using namespace ph::test;

class tst_DeviceExt : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void runsTheBridgeOnTheSignedInBrowserAndFailsWhenItDies();
};

void tst_DeviceExt::runsTheBridgeOnTheSignedInBrowserAndFailsWhenItDies()
{
    if (!QFileInfo::exists(QStringLiteral("/usr/bin/chromium")))
        QSKIP("Debian's chromium is not installed");
    FixtureServer site;
    QVERIFY(site.start());
    // Sign-in lives in the browser's cookie: a browser without it (the cloud's) sees the
    // sign-in prompt.
    site.page("/login", htmlPage(QStringLiteral("Sign in"),
                                 QStringLiteral("<input id=user><button id=signin onclick=\""
                                                "document.cookie='who='+document.getElementById('"
                                                "user').value+'; path=/';location.href='/account'"
                                                "\">Sign in</button>")));
    site.page("/account",
              htmlPage(QStringLiteral("Account"),
                       QStringLiteral("<p id=out>Please sign in</p><script>const m=document.cookie."
                                      "match(/who=(\\w+)/);if(m)document.getElementById('out')."
                                      "textContent='Welcome back, '+m[1];</script>")));
    site.respond("/hook", 200, "{}");

    TestService ph;
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    HttpClient owner = ph.client();
    const auto minted =
        owner.post(QStringLiteral("/keys"), {{QStringLiteral("label"), QStringLiteral("device")},
                                             {QStringLiteral("balance"), 100}});
    QCOMPARE(minted.status, 201);
    const QString keyId = minted.json().value(QStringLiteral("id")).toString();
    owner.post(
        QStringLiteral("/updateApiKeyCapabilities"),
        {{QStringLiteral("keyId"), keyId},
         {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("privateTargets"), true}}}});
    QCOMPARE(owner.send("PUT", QStringLiteral("/devices/scripts/") + keyId, R"({"allowed":true})")
                 .status,
             200);

    const QJsonObject cfg{{QStringLiteral("base"), ph.base()},
                          {QStringLiteral("key"), minted.json().value(QStringLiteral("key"))},
                          {QStringLiteral("extension"), QStringLiteral(PILOTHOUSE_EXTENSION_DIR)},
                          {QStringLiteral("site"), site.url(QString())},
                          {QStringLiteral("hook"), site.url(QStringLiteral("/hook"))}};
    const NodeResult r =
        runNodeScript(QStringLiteral(PILOTHOUSE_CDP_TEST_DIR),
                      {QStringLiteral("device-extension.mjs"),
                       QString::fromUtf8(QJsonDocument(cfg).toJson(QJsonDocument::Compact))},
                      240000);
    QVERIFY2(r.ok(), qPrintable(r.diagnostics()));
    const QJsonObject out = r.result();
    QVERIFY2(out.value(QStringLiteral("paired")).toBool(), r.out.constData());
    QVERIFY(out.value(QStringLiteral("signedInLocally")).toBool());
    QCOMPARE(out.value(QStringLiteral("tabsStatus")).toInt(), 200);
    QVERIFY(out.value(QStringLiteral("tabsListAccount")).toBool());
    QCOMPARE(out.value(QStringLiteral("scriptStatus")).toInt(), 200);
    QVERIFY2(out.value(QStringLiteral("scriptResult"))
                 .toString()
                 .contains(QLatin1String("Welcome back, alice")),
             r.out.constData());
    QVERIFY(!out.value(QStringLiteral("cloudSawSignedIn")).toBool(true));
    QVERIFY(out.value(QStringLiteral("killed")).toBool());
    QCOMPARE(out.value(QStringLiteral("killedStatus")).toInt(), 503);
    QCOMPARE(out.value(QStringLiteral("killedCode")).toString(),
             QStringLiteral("DEVICE_UNAVAILABLE"));
    // The failure callback.
    QTRY_VERIFY_WITH_TIMEOUT(site.hits("/hook") >= 1, 15000);
    const QJsonObject payload =
        QJsonDocument::fromJson(site.requests("/hook").last().body).object();
    QCOMPARE(payload.value(QStringLiteral("event")).toString(), QStringLiteral("workflow.failed"));
    QCOMPARE(
        payload.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
        QStringLiteral("DEVICE_UNAVAILABLE"));
}

PH_WEBENGINE_TEST_MAIN(tst_DeviceExt)
#include "tst_deviceext.moc"
