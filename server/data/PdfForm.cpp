#include "PdfForm.h"

#include <QBuffer>
#include <QHash>
#include <QJsonArray>

#include <poppler-form.h>
#include <poppler-qt6.h>

#include <memory>
#include <optional>
#include <vector>

namespace ph::data {

namespace {

// One field of the form: its widgets (a radio group has one per state; a text field
// shown twice has two), across pages.
struct Field
{
    QString name;
    QString partial;
    QString label;
    int page = 0;
    std::vector<Poppler::FormField *> widgets;

    Poppler::FormField &first() const { return *widgets.front(); }
};

// An opened document and its fields; the widgets live as long as it does.
struct Form
{
    std::unique_ptr<Poppler::Document> document;
    std::vector<std::unique_ptr<Poppler::FormField>> owned;
    QList<Field> fields;
};

std::optional<DataError> open(const QByteArray &pdf, Form &form)
{
    if (!pdf.startsWith("%PDF-"))
        return DataError::malformed(QStringLiteral("not a PDF: it does not start with %PDF-"));
    form.document = Poppler::Document::loadFromData(pdf);
    if (!form.document)
        return DataError::malformed(QStringLiteral("the PDF could not be read"));
    if (form.document->isLocked())
        return DataError::encrypted(QStringLiteral("the PDF is password-protected"));
    for (int p = 0; p < form.document->numPages(); ++p) {
        const std::unique_ptr<Poppler::Page> page = form.document->page(p);
        if (!page)
            continue;
        for (auto &widget : page->formFields()) {
            const QString name = widget->fullyQualifiedName();
            auto it = std::find_if(form.fields.begin(), form.fields.end(),
                                   [&](const Field &f) { return f.name == name; });
            if (it == form.fields.end()) {
                form.fields.append(Field{name, widget->name(), widget->uiName(), p, {}});
                it = form.fields.end() - 1;
            }
            it->widgets.push_back(widget.get());
            form.owned.push_back(std::move(widget));
        }
    }
    if (form.fields.isEmpty())
        return DataError::unsupported(QStringLiteral("the PDF has no form fields (AcroForm)"));
    return std::nullopt;
}

const Poppler::FormFieldButton *button(const Poppler::FormField &w)
{
    return w.type() == Poppler::FormField::FormButton
               ? static_cast<const Poppler::FormFieldButton *>(&w)
               : nullptr;
}

QString typeOf(const Field &f)
{
    switch (f.first().type()) {
    case Poppler::FormField::FormText:
        return QStringLiteral("text");
    case Poppler::FormField::FormChoice:
        return QStringLiteral("choice");
    case Poppler::FormField::FormSignature:
        return QStringLiteral("signature");
    case Poppler::FormField::FormButton:
        switch (button(f.first())->buttonType()) {
        case Poppler::FormFieldButton::CheckBox:
            return QStringLiteral("checkbox");
        case Poppler::FormFieldButton::Radio:
            return QStringLiteral("radio");
        case Poppler::FormFieldButton::Push:
            return QStringLiteral("button");
        }
    }
    return QStringLiteral("unknown");
}

QString valueOf(const Field &f, const QString &type)
{
    if (type == QLatin1String("text"))
        return static_cast<const Poppler::FormFieldText &>(f.first()).text();
    if (type == QLatin1String("checkbox"))
        return button(f.first())->state() ? QStringLiteral("yes") : QStringLiteral("no");
    if (type == QLatin1String("radio")) {
        for (const Poppler::FormField *w : f.widgets)
            if (button(*w)->state())
                return button(*w)->caption();
        return {};
    }
    if (type == QLatin1String("choice")) {
        const auto &choice = static_cast<const Poppler::FormFieldChoice &>(f.first());
        QStringList chosen;
        const QStringList options = choice.choices();
        for (const int i : choice.currentChoices())
            chosen << options.value(i);
        if (chosen.isEmpty() && choice.isEditable())
            return choice.editChoice();
        return chosen.join(QStringLiteral(", "));
    }
    return {};
}

PdfFormField describe(const Field &f)
{
    PdfFormField out;
    out.name = f.name;
    out.label = f.label;
    out.type = typeOf(f);
    out.value = valueOf(f, out.type);
    out.readOnly = f.first().isReadOnly();
    out.page = f.page;
    if (out.type == QLatin1String("choice"))
        out.options = static_cast<const Poppler::FormFieldChoice &>(f.first()).choices();
    if (out.type == QLatin1String("radio"))
        for (const Poppler::FormField *w : f.widgets)
            out.options << button(*w)->caption();
    return out;
}

QString squeezed(const QString &s)
{
    QString out;
    for (const QChar c : s)
        if (c.isLetterOrNumber())
            out += c.toLower();
    return out;
}

// The words of a name: "applicantEmail", "applicant_email" and "Applicant e-mail" all
// give applicant, email (hyphens join).
QStringList words(const QString &s)
{
    QStringList out;
    QString word;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s.at(i);
        if (c == QLatin1Char('-'))
            continue;
        if (!c.isLetterOrNumber()) {
            if (!word.isEmpty())
                out << std::exchange(word, QString());
            continue;
        }
        if (c.isUpper() && i > 0 && s.at(i - 1).isLower() && !word.isEmpty())
            out << std::exchange(word, QString());
        word += c.toLower();
    }
    if (!word.isEmpty())
        out << word;
    return out;
}

// The fields a key names: exactly, then ignoring case and punctuation, then as words
// its name or label contains. Several: the key is ambiguous.
QList<int> matches(const QString &key, const QList<Field> &fields)
{
    QList<int> found;
    for (int i = 0; i < fields.size(); ++i)
        if (fields[i].name == key || fields[i].partial == key)
            found << i;
    if (!found.isEmpty())
        return found;
    const QString k = squeezed(key);
    for (int i = 0; i < fields.size() && !k.isEmpty(); ++i)
        if (squeezed(fields[i].name) == k || squeezed(fields[i].partial) == k ||
            (!fields[i].label.isEmpty() && squeezed(fields[i].label) == k))
            found << i;
    if (!found.isEmpty())
        return found;
    const QStringList wanted = words(key);
    for (int i = 0; i < fields.size() && !wanted.isEmpty(); ++i) {
        const QStringList has = words(fields[i].name) + words(fields[i].label);
        if (std::all_of(wanted.begin(), wanted.end(),
                        [&](const QString &w) { return has.contains(w); }))
            found << i;
    }
    return found;
}

QString textOf(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 15);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    if (v.isArray()) {
        QStringList parts;
        for (const QJsonValue &x : v.toArray())
            parts << textOf(x);
        return parts.join(QStringLiteral(", "));
    }
    return {};
}

std::optional<bool> yesNo(const QJsonValue &v)
{
    if (v.isBool())
        return v.toBool();
    if (v.isDouble())
        return v.toDouble() != 0;
    const QString s = v.toString().trimmed().toLower();
    static const QStringList yes{"yes",    "y",  "true", "on",     "1",      "x",     "checked",
                                 "ticked", "ja", "oui",  "\u2713", "\u2714", "\u2611"};
    static const QStringList no{"no",       "n",    "false", "off", "0",      "unchecked",
                                "unticked", "nein", "non",   "",    "\u2717", "\u2718"};
    if (yes.contains(s))
        return true;
    if (no.contains(s))
        return false;
    return std::nullopt;
}

int optionIndex(const QString &value, const QStringList &display,
                const QList<QPair<QString, QString>> &exported)
{
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < display.size(); ++i) {
            const QString e = i < exported.size() ? exported[i].second : display[i];
            const bool same = pass == 0 ? (display[i].compare(value, Qt::CaseInsensitive) == 0 ||
                                           e.compare(value, Qt::CaseInsensitive) == 0)
                                        : (squeezed(display[i]) == squeezed(value) ||
                                           squeezed(e) == squeezed(value));
            if (same)
                return i;
        }
    }
    return -1;
}

// Sets a field; empty when done (`shown`: the value it now shows), else why not.
QString apply(const Field &f, const QJsonValue &v, QString *shown)
{
    const QString type = typeOf(f);
    if (f.first().isReadOnly())
        return QStringLiteral("the field is read-only");
    if (v.isObject() || v.isNull() || v.isUndefined())
        return QStringLiteral("the value is not text, a number, yes/no or a list");
    if (type == QLatin1String("text")) {
        auto &text = static_cast<Poppler::FormFieldText &>(f.first());
        const QString value = textOf(v);
        if (text.maximumLength() > 0 && value.size() > text.maximumLength())
            return QStringLiteral("longer than the field's %1 characters")
                .arg(text.maximumLength());
        text.setText(value);
        *shown = value;
        return {};
    }
    if (type == QLatin1String("checkbox")) {
        std::optional<bool> on = yesNo(v);
        const QString onState = button(f.first())->caption();
        if (!on && !onState.isEmpty() && textOf(v).compare(onState, Qt::CaseInsensitive) == 0)
            on = true;
        if (!on)
            return QStringLiteral("a checkbox takes yes or no, not \"%1\"").arg(textOf(v));
        for (Poppler::FormField *w : f.widgets)
            static_cast<Poppler::FormFieldButton *>(w)->setState(*on);
        *shown = *on ? QStringLiteral("yes") : QStringLiteral("no");
        return {};
    }
    if (type == QLatin1String("radio")) {
        const QString value = textOf(v);
        QStringList states;
        for (Poppler::FormField *w : f.widgets)
            states << button(*w)->caption();
        int at = -1;
        for (int i = 0; i < states.size() && at < 0; ++i)
            if (states[i].compare(value, Qt::CaseInsensitive) == 0)
                at = i;
        for (int i = 0; i < states.size() && at < 0; ++i)
            if (squeezed(states[i]) == squeezed(value))
                at = i;
        if (at < 0)
            return QStringLiteral("\"%1\" is not one of %2")
                .arg(value, states.join(QStringLiteral(", ")));
        static_cast<Poppler::FormFieldButton *>(f.widgets[size_t(at)])->setState(true);
        *shown = states[at];
        return {};
    }
    if (type == QLatin1String("choice")) {
        auto &choice = static_cast<Poppler::FormFieldChoice &>(f.first());
        const QStringList options = choice.choices();
        const auto exported = choice.choicesWithExportValues();
        QStringList wanted;
        if (v.isArray()) {
            for (const QJsonValue &x : v.toArray())
                wanted << textOf(x).trimmed();
        } else if (choice.multiSelect()) {
            for (const QString &s : textOf(v).split(QLatin1Char(',')))
                wanted << s.trimmed();
        } else {
            wanted << textOf(v).trimmed();
        }
        if (wanted.size() > 1 && !choice.multiSelect())
            return QStringLiteral("the field takes one option");
        QList<int> indexes;
        QStringList missing;
        for (const QString &w : std::as_const(wanted)) {
            const int i = optionIndex(w, options, exported);
            if (i < 0)
                missing << w;
            else
                indexes << i;
        }
        if (!missing.isEmpty()) {
            if (choice.isEditable() && wanted.size() == 1) {
                choice.setEditChoice(wanted.first());
                *shown = wanted.first();
                return {};
            }
            return QStringLiteral("\"%1\" is not one of %2")
                .arg(missing.join(QStringLiteral("\", \"")), options.join(QStringLiteral(", ")));
        }
        choice.setCurrentChoices(indexes);
        QStringList names;
        for (const int i : std::as_const(indexes))
            names << options.value(i);
        *shown = names.join(QStringLiteral(", "));
        return {};
    }
    if (type == QLatin1String("signature"))
        return QStringLiteral("signature fields are not filled");
    return QStringLiteral("a push button has no value");
}

} // namespace

QJsonObject PdfFormField::toJson() const
{
    QJsonObject o{{QStringLiteral("name"), name},
                  {QStringLiteral("type"), type},
                  {QStringLiteral("value"), value},
                  {QStringLiteral("page"), page + 1}};
    if (!label.isEmpty())
        o.insert(QStringLiteral("label"), label);
    if (!options.isEmpty())
        o.insert(QStringLiteral("options"), QJsonArray::fromStringList(options));
    if (readOnly)
        o.insert(QStringLiteral("readOnly"), true);
    return o;
}

Result<QList<PdfFormField>> readPdfForm(const QByteArray &pdf)
{
    Form form;
    if (const auto problem = open(pdf, form))
        return *problem;
    QList<PdfFormField> out;
    for (const Field &f : std::as_const(form.fields))
        out << describe(f);
    return out;
}

Result<PdfFormFill> fillPdfForm(const QByteArray &pdf, const QJsonObject &values)
{
    Form form;
    if (const auto problem = open(pdf, form))
        return *problem;
    PdfFormFill result;
    QHash<int, QString> filledBy; // field index -> the key that filled it
    QList<QPair<int, QString>> set;
    for (auto it = values.begin(); it != values.end(); ++it) {
        const QList<int> found = matches(it.key(), form.fields);
        if (found.isEmpty()) {
            result.unknown << it.key();
            continue;
        }
        if (found.size() > 1) {
            QStringList names;
            for (const int i : found)
                names << form.fields[i].name;
            result.refused << QStringLiteral("%1: names several fields (%2)")
                                  .arg(it.key(), names.join(QStringLiteral(", ")));
            continue;
        }
        const int i = found.first();
        if (filledBy.contains(i)) {
            result.refused << QStringLiteral("%1: %2 is filled already (by %3)")
                                  .arg(it.key(), form.fields[i].name, filledBy.value(i));
            continue;
        }
        QString shown;
        const QString why = apply(form.fields[i], it.value(), &shown);
        if (!why.isEmpty()) {
            result.refused << QStringLiteral("%1: %2").arg(it.key(), why);
            continue;
        }
        filledBy.insert(i, it.key());
        set << qMakePair(i, shown);
    }
    QBuffer out(&result.pdf);
    out.open(QIODevice::WriteOnly);
    const std::unique_ptr<Poppler::PDFConverter> writer = form.document->pdfConverter();
    writer->setOutputDevice(&out);
    writer->setPDFOptions(Poppler::PDFConverter::WithChanges);
    if (!writer->convert())
        return DataError::io(QStringLiteral("poppler could not write the filled PDF"));
    out.close();

    // Read back what was written: only what holds in the file counts as filled.
    Form written;
    if (const auto problem = open(result.pdf, written))
        return DataError::io(
            QStringLiteral("the filled PDF does not read back: %1").arg(problem->message));
    for (const Field &f : std::as_const(written.fields))
        result.fields << describe(f);
    for (const auto &[index, shown] : std::as_const(set)) {
        const QString name = form.fields[index].name;
        const auto held = std::find_if(result.fields.cbegin(), result.fields.cend(),
                                       [&](const PdfFormField &f) { return f.name == name; });
        if (held == result.fields.cend() || held->value != shown) {
            result.refused << QStringLiteral("%1: the value did not hold in the written file")
                                  .arg(filledBy.value(index));
            continue;
        }
        result.filled << qMakePair(name, shown);
    }
    return result;
}

} // namespace ph::data
