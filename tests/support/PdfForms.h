#pragma once

#include <QByteArray>
#include <QList>

namespace ph::test {

// A PDF of numbered objects (1 … n, object 1 the catalog), the xref offsets computed.
inline QByteArray assemblePdf(const QList<QByteArray> &objects)
{
    QByteArray pdf = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
    QList<qsizetype> offsets;
    for (qsizetype i = 0; i < objects.size(); ++i) {
        offsets << pdf.size();
        pdf += QByteArray::number(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
    }
    const qsizetype xref = pdf.size();
    pdf += "xref\n0 " + QByteArray::number(objects.size() + 1) + "\n0000000000 65535 f \n";
    for (const qsizetype o : offsets)
        pdf += QByteArray::number(o).rightJustified(10, '0') + " 00000 n \n";
    pdf += "trailer\n<< /Size " + QByteArray::number(objects.size() + 1) +
           " /Root 1 0 R >>\nstartxref\n" + QByteArray::number(xref) + "\n%%EOF\n";
    return pdf;
}

inline QByteArray pdfStream(const QByteArray &dictionary, const QByteArray &data)
{
    return "<< " + dictionary + " /Length " + QByteArray::number(data.size()) + " >>\nstream\n" +
           data + "\nendstream";
}

// An application form, written by hand (an AcroForm on one page): text fields
// full_name ("Full name"), email ("Email address"), city, a read-only reference
// ("REF-1"), a checkbox subscribe ("Subscribe to the newsletter", on state /Yes) and a
// combo box country (France, Germany, United Kingdom).
inline QByteArray applicationFormPdf()
{
    const QByteArray da = "/DA (/Helv 10 Tf 0 g)";
    auto text = [&](const QByteArray &name, const QByteArray &label, int y,
                    const QByteArray &extra = {}) {
        return "<< /Type /Annot /Subtype /Widget /FT /Tx /T (" + name + ")" +
               (label.isEmpty() ? QByteArray() : " /TU (" + label + ")") + " /Rect [140 " +
               QByteArray::number(y) + " 380 " + QByteArray::number(y + 18) + "] /P 3 0 R /F 4 " +
               da + " " + extra + " >>";
    };
    const QByteArray labels = "BT /F1 16 Tf 20 370 Td (Application) Tj ET\n"
                              "BT /F1 10 Tf 20 330 Td (Full name) Tj ET\n"
                              "BT /F1 10 Tf 20 300 Td (Email address) Tj ET\n"
                              "BT /F1 10 Tf 20 270 Td (City) Tj ET\n"
                              "BT /F1 10 Tf 20 240 Td (Reference) Tj ET\n"
                              "BT /F1 10 Tf 20 210 Td (Newsletter) Tj ET\n"
                              "BT /F1 10 Tf 20 180 Td (Country) Tj ET";
    return assemblePdf({
        "<< /Type /Catalog /Pages 2 0 R /AcroForm 6 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 400] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> /Annots [7 0 R 8 0 R 9 0 R 10 0 R 11 0 R 12 0 R] "
        ">>",
        pdfStream(QByteArray(), labels),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        "<< /Fields [7 0 R 8 0 R 9 0 R 10 0 R 11 0 R 12 0 R] " + da +
            " /DR << /Font << /Helv 5 0 R >> >> >>",
        text("full_name", "Full name", 326),
        text("email", "Email address", 296),
        text("city", QByteArray(), 266),
        text("reference", "Reference", 236, "/Ff 1 /V (REF-1)"),
        "<< /Type /Annot /Subtype /Widget /FT /Btn /T (subscribe) /TU (Subscribe to the "
        "newsletter) /Rect [140 206 154 220] /P 3 0 R /F 4 /V /Off /AS /Off "
        "/AP << /N << /Yes 13 0 R /Off 14 0 R >> >> >>",
        "<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (country) /Opt [(France) "
        "(Germany) (United Kingdom)] /Rect [140 176 380 194] /P 3 0 R /F 4 " +
            da + " >>",
        pdfStream("/Type /XObject /Subtype /Form /BBox [0 0 14 14]", "0 g 3 3 8 8 re f"),
        pdfStream("/Type /XObject /Subtype /Form /BBox [0 0 14 14]", QByteArray()),
    });
}

// A PDF with one page of text and no form.
inline QByteArray pdfWithoutForm()
{
    return assemblePdf({
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        pdfStream(QByteArray(), "BT /F1 18 Tf 20 100 Td (No form here) Tj ET"),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    });
}

} // namespace ph::test
