#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph {
class DomainError;
namespace sites {
struct SiteKey;
}
} // namespace ph

// What the runtime's parts share: its typed errors (DomainErrors whose details carry the
// runtime envelope's `data`) and the small readings of keys, fields and URLs.
namespace ph::runtime {

struct Session;

// 401 with `retryable` and `next_action`.
DomainError authError(const QString &code, const QString &message, bool retryable,
                      const QString &nextAction);
// 401 SESSION_TOKEN_INVALID: open a new session.
DomainError tokenInvalid(const QString &why);
DomainError invalid(const QString &field, const QString &message);
DomainError forbidden(const QString &code, const QString &message, const QString &field);
// 409 stale_run: the run a call names is not (any more) the session's active run.
DomainError staleRun(const QString &message, const QString &field, const QString &currentRunId);
// 413: a write over one of the storage quotas (docs/security.md, "Quotas for what
// visitors store"). Nothing stored is touched: the previous checkpoint stays.
DomainError overQuota(const QString &code, const QString &message, const QString &field,
                      const QString &setting, qint64 limit, qint64 stored, qint64 bytes);
// 409 active_run_exists: the session has a run going that this input would replace.
DomainError activeRunConflict(const Session &session, QJsonObject details, const QString &runId);

// Tokens are kept as their SHA-256.
QString hashOf(const QString &token);
// A key's capabilities and site policy over their defaults (what the runtime enforces).
QJsonObject capabilitiesOf(const sites::SiteKey &key);
QJsonObject policyOf(const std::optional<sites::SiteKey> &key);
// An integral number field, if the body has one.
std::optional<qint64> intField(const QJsonObject &body, const QString &key);
// The normalized host of a URL ("" for none).
QString hostOf(const QString &url);

// visitor.context: data-only values, secret-looking keys dropped, recent requests cut to
// three, at most 2 KB of JSON. The keys it dropped go to `dropped`.
QJsonObject sanitizeContext(const QJsonObject &context, QStringList *dropped = nullptr);

} // namespace ph::runtime
