#pragma once

// BrowserLease without a browser: a PageEngine of the test's own that records what the
// lease asks of it and answers the way the test says, at once.

#include "browser/LiveFrameSource.h"
#include "browser/PageEngine.h"
#include "browser/PageRequests.h"
#include "net/NetworkPolicy.h"

#include <QPageLayout>

#include <functional>
#include <optional>

namespace ph::test {

class FakePageEngine : public PageEngine
{
public:
    // What the page does with a navigation it is handed: the refusal it notes on the way
    // (if any), then the result it reports.
    std::optional<Refusal> refusalOnTheWay;
    NavigationResult answer;
    // evaluate(): whether it answers (false: a timeout or a crash) and with what.
    bool evaluates = true;
    QVariant value;

    bool isCrashed = false;
    bool isEngineLost = false;
    QString lostBecause;

    // What the lease asked.
    QList<QUrl> navigated;
    int replaced = 0;
    int detached = 0;
    // Told "detach" and "gone" as they happen, if set.
    std::function<void(const QString &)> journal;

    ~FakePageEngine() override
    {
        if (journal)
            journal(QStringLiteral("gone"));
    }

    QString engineName() const override { return QStringLiteral("fake"); }
    bool crashed() const override { return isCrashed; }
    bool engineLost() const override { return isEngineLost; }
    QString failure() const override { return lostBecause; }
    QUrl url() const override { return m_url; }
    QString title() const override { return {}; }
    void setGrant(const EgressGrant &grant) override { m_grant = grant; }
    EgressGrant grant() const override { return m_grant; }
    QString egressUser() const override { return QStringLiteral("fake-user"); }
    const RefusalLog &refusalLog() const override { return m_log; }
    void noteRefusal(Refusal refusal) override { Q_EMIT refused(m_log.note(std::move(refusal))); }

    void whenUsable(QObject *, std::function<void()> then) override
    {
        if (isCrashed) {
            ++replaced;
            isCrashed = false;
        }
        then();
    }
    void navigate(const QUrl &url, const NavigateOptions &,
                  std::function<void(const NavigationResult &)> done) override
    {
        navigated.append(url);
        if (refusalOnTheWay)
            noteRefusal(*refusalOnTheWay);
        NavigationResult r = answer;
        r.requestedUrl = url;
        m_url = r.finalUrl.isEmpty() ? url : r.finalUrl;
        done(r);
    }
    void evaluate(const QString &, int, std::function<void(bool, const QVariant &)> done) override
    {
        done(evaluates, evaluates ? value : QVariant());
    }
    void loadHtml(const QString &, int, std::function<void(bool)> done) override { done(true); }
    void printToPdf(const QPageLayout &, std::function<void(const QByteArray &)> done) override
    {
        done(QByteArrayLiteral("%PDF-fake"));
    }
    std::unique_ptr<LiveFrameSource> screencast(QObject *) override { return nullptr; }
    void recover() override { ++replaced; }
    void detach() override
    {
        ++detached;
        if (journal)
            journal(QStringLiteral("detach"));
    }

private:
    EgressGrant m_grant;
    RefusalLog m_log;
    QUrl m_url;
};

} // namespace ph::test
