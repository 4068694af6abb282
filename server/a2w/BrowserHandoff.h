#pragma once

#include "A2wRepository.h"

#include <QJsonObject>

namespace ph {
class Settings;
class Store;
namespace sites {
class SiteRepository;
}
} // namespace ph

namespace ph::a2w {

class RunRecorder;

// What the visitor is shown of a browser run, and what the embed SDK runs.
struct Claimed
{
    QString runId;
    QString task;
    QString siteName;
    QString host;
    QString url;
    QString agentName;      // as the agent names itself (or as attributed): not verified
    QString trust;          // anonymous, identified, verified
    QString signatureAgent; // the verified key directory, if any
};

// A2W runs the visitor's browser runs (docs/api/runtime.md, "A2W runs in the visitor's
// browser"): offered to, and claimed through its `open` receipt by, the embed SDK on a
// page of the run's site; then its steps, its end and the visitor's review of its
// result. See A2wService for each call's contract.
class BrowserHandoff
{
public:
    BrowserHandoff(Store &store, Settings &settings, A2wRepository &repo,
                   sites::SiteRepository &sites, RunRecorder &recorder);

    // The run's receipt (derived from its id with a key of the store's secret box, so
    // it is never stored in clear), and the run a receipt names.
    QString receiptFor(const QString &runId) const;
    std::optional<Run> findByReceipt(const QString &receipt) const;

    Claimed offer(const QString &receipt, const QString &siteId) const;
    Claimed claim(const QString &receipt, const QString &siteId);
    void decline(const QString &receipt, const QString &siteId);
    void step(const QString &runId, const QJsonObject &step);
    void finish(const QString &runId, bool ok, const QJsonObject &result, const QString &error);
    void share(const QString &runId, bool share, const QJsonObject &result);

private:
    Store &m_store;
    Settings &m_settings;
    A2wRepository &m_repo;
    sites::SiteRepository &m_sites;
    RunRecorder &m_rec;
};

} // namespace ph::a2w
