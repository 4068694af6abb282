#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace ph::sites {

// The site configuration (`siteConfig`) and the site key objects: validation,
// sanitising, runtime-owned defaults, merging and redaction. One sanitizer serves the
// owner's upsert (strict: an unknown field is a 400 naming its path), the owner's AI
// proposals and `validate` (lenient: unknown fields and fields an AI may not change
// are dropped and reported as `droppedPaths`). A wrong type or value is a 400 naming
// the path in both modes.
class SiteConfigSchema
{
public:
    enum class Mode { Strict, Lenient };

    // Top-level fields of siteConfig, in documentation order.
    static const QStringList &fields();
    // Fields an owner's AI may not propose (guardrails and consent): dropped.
    static const QStringList &ownerOnlyFields();

    // Checks a sparse siteConfig patch whose top-level values may be null (null
    // clears). `path` prefixes error fields ("siteConfig", "patch"). Returns the
    // normalised patch; in Lenient mode `dropped` collects dropped paths.
    static QJsonObject sanitizePatch(const QJsonObject &patch, Mode mode, const QString &path,
                                     QStringList *dropped = nullptr);
    // Applies an owner's patch: present fields replace, null removes.
    static QJsonObject applyUpsert(const QJsonObject &stored, const QJsonObject &patch);
    // Applies a proposal: like applyUpsert, but `shortcuts` and `knowledge` items are
    // upserted by `id` into the current lists instead of replacing them.
    static QJsonObject applyProposal(const QJsonObject &stored, const QJsonObject &patch);
    // Checks a whole stored configuration (limits and unique ids across lists);
    // throws DomainError naming `path`.
    static void checkWhole(const QJsonObject &config, const QString &path);

    // Runtime-owned defaults for unset fields (docs/api/sites.md#runtime-owned-defaults).
    static QJsonObject defaults();
    // Stored fields over the defaults, objects merged key by key.
    static QJsonObject effective(const QJsonObject &stored);
    // A copy safe for the owner's AI: no value under a secret-like key, no credentials
    // or secret-like query parameters in URLs.
    static QJsonValue redact(const QJsonValue &value);

    // Site keys.
    static QJsonObject capabilityDefaults();
    // A boolean patch over `current`; unknown names are 400 UNKNOWN_FIELD.
    static QJsonObject mergeCapabilities(const QJsonObject &current, const QJsonObject &patch,
                                         const QString &path);
    // The same over another set of known capabilities (user API keys have their own).
    static QJsonObject mergeCapabilities(const QJsonObject &current, const QJsonObject &patch,
                                         const QString &path, const QJsonObject &known);
    static QJsonObject sitePolicyDefaults();
    // A partial site policy over `current`, validated (strict).
    static QJsonObject mergeSitePolicy(const QJsonObject &current, const QJsonObject &patch,
                                       const QString &path);

    static constexpr int kMaxShortcuts = 100;
    static constexpr int kMaxKnowledge = 200;
};

} // namespace ph::sites
