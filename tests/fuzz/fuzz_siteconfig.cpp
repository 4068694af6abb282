// The site configuration schema (server/sites/SiteConfigSchema): strict and lenient
// sanitising of a siteConfig patch, upserts and proposals, the whole-config check,
// defaults, redaction for the owner's AI, key capabilities and site policy. The input is
// a JSON object: the patch, with "capabilities" and "sitePolicy" also used as patches of
// their own.
#include "FuzzInput.h"

#include "core/DomainError.h"
#include "sites/SiteConfigSchema.h"

#include <QJsonDocument>

namespace {

using ph::DomainError;
using ph::sites::SiteConfigSchema;

void explained(const DomainError &e)
{
    ph::fuzz::require(e.kind() == DomainError::Kind::Invalid && !e.message().isEmpty() &&
                          !e.field().isEmpty(),
                      "a schema refusal that is not a 400 naming its field");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    const QJsonObject input = QJsonDocument::fromJson(bytesOf(data, size)).object();

    QJsonObject stored;
    try {
        const QJsonObject patch = SiteConfigSchema::sanitizePatch(
            input, SiteConfigSchema::Mode::Strict, QStringLiteral("siteConfig"));
        stored = SiteConfigSchema::applyUpsert({}, patch);
        // What the schema accepted and stored passes the schema again.
        try {
            SiteConfigSchema::checkWhole(stored, QStringLiteral("siteConfig"));
        } catch (const DomainError &e) {
            std::fprintf(stderr, "%s\n", qPrintable(e.message()));
            require(false, "a sanitised configuration fails the whole-config check");
        }
    } catch (const DomainError &e) {
        explained(e);
    }
    try {
        QStringList dropped;
        const QJsonObject proposal = SiteConfigSchema::sanitizePatch(
            input, SiteConfigSchema::Mode::Lenient, QStringLiteral("patch"), &dropped);
        for (const QString &owned : SiteConfigSchema::ownerOnlyFields())
            require(!proposal.contains(owned), "a proposal kept an owner-only field");
        SiteConfigSchema::applyProposal(stored, proposal);
    } catch (const DomainError &e) {
        explained(e);
    }
    SiteConfigSchema::effective(stored);
    SiteConfigSchema::redact(input);
    try {
        SiteConfigSchema::mergeCapabilities(SiteConfigSchema::capabilityDefaults(),
                                            input.value(QStringLiteral("capabilities")).toObject(),
                                            QStringLiteral("capabilities"));
    } catch (const DomainError &e) {
        explained(e);
    }
    try {
        SiteConfigSchema::mergeSitePolicy(SiteConfigSchema::sitePolicyDefaults(),
                                          input.value(QStringLiteral("sitePolicy")).toObject(),
                                          QStringLiteral("sitePolicy"));
    } catch (const DomainError &e) {
        explained(e);
    }
    return 0;
}
