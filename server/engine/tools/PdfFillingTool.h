#pragma once

#include "engine/Tool.h"

namespace ph::engine {

// pdf_filling: fills an AcroForm PDF — given by URL (fetched through the network policy
// with the run's grant, like file_urls), by storageRef (an upload of the key), or the PDF
// among the run's file_urls — with field values, or with each row of a sheet (one filled
// file per row), and stores the filled file(s) as generated files. poppler-qt6 reads and
// sets the fields and writes the file (data/PdfForm.h). Keys no field has, and values a
// field refuses, are warnings; a call that fills nothing fails. `action: list_fields`
// only reads the form's fields (for a planner that does not know their names yet).
class PdfFillingTool final : public Tool
{
public:
    PdfFillingTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

} // namespace ph::engine
