#pragma once

#include "data/DataError.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace ph::data {

// One field of a PDF's AcroForm as poppler-qt6 reads it.
struct PdfFormField
{
    QString name;        // the fully qualified name ("applicant.email")
    QString label;       // the field's user-facing name (TU), if any
    QString type;        // text, checkbox, radio, choice, button, signature
    QString value;       // text; "yes"/"no" for a checkbox; the chosen option(s) or radio state
    QStringList options; // a choice's options, a radio group's states
    bool readOnly = false;
    int page = 0; // 0-based

    QJsonObject toJson() const;
};

// What filling came to: the filled file, which field got which value, and what could
// not be filled.
struct PdfFormFill
{
    QByteArray pdf;
    QList<QPair<QString, QString>> filled; // field name, the value it shows
    QStringList unknown;                   // keys that name no field
    QStringList refused;                   // "key: why" (read-only, not an option …)
    QList<PdfFormField> fields;            // the form's fields as filled
};

// The form's fields. A PDF without form fields is Unsupported; a password-protected one
// Encrypted; anything else poppler cannot open Malformed.
Result<QList<PdfFormField>> readPdfForm(const QByteArray &pdf);

// Fills the form with `values` (key: value) and writes the file with poppler's own
// writer (PDFConverter with WithChanges: an incremental update of the original). A key
// names a field by its full or partial name or its label, compared exactly, then
// ignoring case and punctuation, then as words the field's name or label contains when
// one field alone has them ("email" for "applicant_email"). Text fields take strings
// and numbers; checkboxes yes/no, true/false, on/off, 1/0, x or their on state; radio
// groups and choices one of their options (a multi-select choice an array or a
// comma-separated list); editable combo boxes any text. Read-only, push-button and
// signature fields are refused, as are values a field does not offer. The file is read
// again after writing: a value that did not hold is refused, not reported filled.
Result<PdfFormFill> fillPdfForm(const QByteArray &pdf, const QJsonObject &values);

} // namespace ph::data
