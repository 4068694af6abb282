// WebRTC on both engines (docs/security.md): a page's peer connection sends no UDP
// beside the egress proxy. The page asks for ICE candidates with a STUN and a TURN
// server on a loopback UDP port this test holds; gathering must complete with no
// candidate but relayed ones (there is no relay: so none at all), and by then not one
// datagram may have arrived at the test's port.
#include "FixtureServer.h"
#include "LeaseCalls.h"
#include "TestMain.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "browser/LeaseOptions.h"
#include "browser/chromium/ChromiumEngine.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUdpSocket>

using namespace ph;
using ph::test::FixtureServer;

namespace {

const EgressGrant kLocal{true, QStringLiteral("test")};

// The page: one peer connection, a data channel so that there is something to gather
// for, and what gathering came to in #out once it is complete.
const char *const kPage = R"(<!doctype html><title>webrtc</title><pre id=out></pre><script>
const out = document.getElementById('out');
const candidates = [];
const pc = new RTCPeerConnection({iceServers: [
  {urls: 'stun:127.0.0.1:PORT'},
  {urls: 'turn:127.0.0.1:PORT?transport=udp', username: 'probe', credential: 'probe'}]});
pc.onicecandidate = e => {
  if (e.candidate && e.candidate.candidate) candidates.push(e.candidate.candidate);
};
pc.onicegatheringstatechange = () => {
  if (pc.iceGatheringState === 'complete')
    out.textContent = JSON.stringify({state: 'complete', candidates});
};
pc.createDataChannel('probe');
pc.createOffer().then(o => pc.setLocalDescription(o))
  .catch(e => { out.textContent = JSON.stringify({state: 'error', error: String(e)}); });
</script>)";

} // namespace

class tst_WebRtc : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase_data();
    void initTestCase();
    void sendsNoUdpBesideTheProxy();

private:
    FixtureServer m_site;
    NetworkPolicy m_policy{true};
};

void tst_WebRtc::initTestCase_data()
{
    QTest::addColumn<QString>("engine");
    QTest::newRow("on qtwebengine") << QStringLiteral("qtwebengine");
    QTest::newRow("on chromium") << QStringLiteral("chromium");
}

void tst_WebRtc::initTestCase()
{
    QVERIFY(m_site.start());
}

void tst_WebRtc::sendsNoUdpBesideTheProxy()
{
    QFETCH_GLOBAL(QString, engine);
    if (engine == QLatin1String("chromium") && ChromiumEngine::findExecutable(QString()).isEmpty())
        QSKIP("chromium is not installed (packaging/dev/deps.sh --bench installs it)");
    QUdpSocket stun; // the STUN and TURN server the page is given: it never answers
    QVERIFY(stun.bind(QHostAddress::LocalHost, 0));
    const QString path = QStringLiteral("/rtc-%1").arg(engine);
    m_site.page(path.toUtf8(),
                QByteArray(kPage).replace("PORT", QByteArray::number(stun.localPort())));

    BrowserPool::Options o;
    o.size = 2;
    o.standby = 0;
    o.engine = engine;
    BrowserPool pool(o, m_policy);
    std::unique_ptr<BrowserLease> lease;
    LeaseOptions options;
    options.engine = engine;
    QVERIFY(pool.acquire(QStringLiteral("test"), kLocal, options, nullptr,
                         [&](std::unique_ptr<BrowserLease> l) { lease = std::move(l); }));
    QTRY_VERIFY_WITH_TIMEOUT(lease != nullptr, 30000);
    NavigateOptions n;
    n.timeoutMs = 15000;
    const NavigationResult r = ph::test::navigateAndWait(*lease, m_site.url(path), n);
    QVERIFY2(r.ok, qPrintable(r.errorCode + QLatin1Char(' ') + r.errorMessage));

    QJsonObject gathered;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const QString text =
                ph::test::evaluateAndWait(
                    *lease, QStringLiteral("document.getElementById('out').textContent"))
                    .toString();
            gathered = QJsonDocument::fromJson(text.toUtf8()).object();
            return !gathered.isEmpty();
        }(),
        60000);
    QCOMPARE(gathered.value(QStringLiteral("state")).toString(), QStringLiteral("complete"));
    // Gathering is over: whatever the page was to send has been sent.
    QStringList unproxied;
    for (const QJsonValue &c : gathered.value(QStringLiteral("candidates")).toArray()) {
        const QString candidate = c.toString();
        if (!candidate.contains(QLatin1String(" typ relay")))
            unproxied << candidate;
    }
    QVERIFY2(unproxied.isEmpty(), qPrintable(unproxied.join(QStringLiteral("; "))));
    QVERIFY2(
        !stun.hasPendingDatagrams(),
        qPrintable(
            QStringLiteral("%1 bytes arrived at the STUN port").arg(stun.pendingDatagramSize())));
}

PH_WEBENGINE_TEST_MAIN(tst_WebRtc)
#include "tst_webrtc.moc"
