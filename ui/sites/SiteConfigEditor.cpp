#include "SiteConfigEditor.h"

#include "common/Icons.h"
#include "common/JsonView.h"
#include "core/DomainError.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"
#include "sites/WorkspaceActions.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
const QString kErrorStyle = QStringLiteral("color: #c0392b");
// A cleared section looks unlike an unchanged one: an amber banner, struck-through tab.
const QString kClearedStyle =
    QStringLiteral("background: #fff3cd; color: #664d03; border: 1px solid #e0a800; "
                   "padding: 4px; font-style: italic");
const QString kActor = QStringLiteral("console");
const QStringList kSections = {QStringLiteral("greeting"),       QStringLiteral("shortcuts"),
                               QStringLiteral("knowledge"),      QStringLiteral("aiAccess"),
                               QStringLiteral("agentDiscovery"), QStringLiteral("pageConfig"),
                               QStringLiteral("voice")};
// The columns of the two lists (the item fields the table edits; others are kept).
const QStringList kShortcutColumns = {QStringLiteral("id"), QStringLiteral("label"),
                                      QStringLiteral("kind"), QStringLiteral("prompt"),
                                      QStringLiteral("url")};
const QStringList kKnowledgeColumns = {QStringLiteral("id"), QStringLiteral("title"),
                                       QStringLiteral("kind"), QStringLiteral("body")};

QJsonValue valueAt(const QJsonValue &root, const QString &path)
{
    QJsonValue v = root;
    for (const QString &part : path.split(QLatin1Char('.'))) {
        if (!v.isObject())
            return QJsonValue(QJsonValue::Undefined);
        v = v.toObject().value(part);
    }
    return v;
}

// Sets (or, for Undefined, removes) the value at a dotted path; empty objects left
// behind by a removal are removed too.
void setAt(QJsonObject &root, const QStringList &parts, const QJsonValue &value)
{
    const QString &head = parts.first();
    if (parts.size() == 1) {
        if (value.isUndefined())
            root.remove(head);
        else
            root.insert(head, value);
        return;
    }
    QJsonObject child = root.value(head).toObject();
    setAt(child, parts.mid(1), value);
    if (child.isEmpty())
        root.remove(head);
    else
        root.insert(head, child);
}

QString compact(const QJsonValue &v)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

void diffInto(const QJsonValue &before, const QJsonValue &after, const QString &path,
              QStringList &out)
{
    if (before == after)
        return;
    // Something new is listed field by field.
    if (before.isUndefined() && after.isObject())
        return diffInto(QJsonObject(), after, path, out);
    if (before.isUndefined() && after.isArray())
        return diffInto(QJsonArray(), after, path, out);
    if (before.isObject() && after.isObject()) {
        const QJsonObject b = before.toObject();
        const QJsonObject a = after.toObject();
        QStringList keys = b.keys();
        for (const QString &k : a.keys()) {
            if (!keys.contains(k))
                keys.append(k);
        }
        for (const QString &k : std::as_const(keys)) {
            const QString child = path.isEmpty() ? k : path + QLatin1Char('.') + k;
            diffInto(b.value(k), a.value(k), child, out);
        }
        return;
    }
    if (before.isArray() && after.isArray()) {
        const QJsonArray b = before.toArray();
        const QJsonArray a = after.toArray();
        for (qsizetype i = 0; i < qMax(a.size(), b.size()); ++i) {
            const QString child = QStringLiteral("%1[%2]").arg(path).arg(i);
            diffInto(i < b.size() ? b.at(i) : QJsonValue(QJsonValue::Undefined),
                     i < a.size() ? a.at(i) : QJsonValue(QJsonValue::Undefined), child, out);
        }
        return;
    }
    if (before.isUndefined()) {
        out.append(QStringLiteral("+ %1: %2").arg(path, compact(after)));
    } else if (after.isUndefined()) {
        // A whole section removed is a clear: the runtime defaults apply again.
        if (!path.contains(QLatin1Char('.')) && !path.contains(QLatin1Char('[')))
            out.append(QStringLiteral("− %1: %2")
                           .arg(path, QCoreApplication::translate(
                                          "ph::ui::SiteConfigEditor",
                                          "cleared (null); the runtime defaults apply")));
        else
            out.append(QStringLiteral("− %1: %2 (%3)")
                           .arg(path, compact(before),
                                QCoreApplication::translate("ph::ui::SiteConfigEditor",
                                                            "removed; default applies")));
    } else {
        out.append(QStringLiteral("~ %1: %2 → %3").arg(path, compact(before), compact(after)));
    }
}
} // namespace

const QList<SiteConfigEditor::Spec> &SiteConfigEditor::specs()
{
    const QString g = QStringLiteral("greeting");
    const QString a = QStringLiteral("aiAccess");
    const QString d = QStringLiteral("agentDiscovery");
    const QString p = QStringLiteral("pageConfig");
    const QString v = QStringLiteral("voice");
    static const QList<Spec> list = {
        {g, QStringLiteral("text"), Kind::Text, {}, QT_TR_NOOP("Greeting text")},
        {g,
         QStringLiteral("delay"),
         Kind::Number,
         {},
         QT_TR_NOOP("Shown after"),
         QStringLiteral(" ms")},
        {g,
         QStringLiteral("duration"),
         Kind::Number,
         {},
         QT_TR_NOOP("Shown for"),
         QStringLiteral(" ms")},
        {g, QStringLiteral("disabled"), Kind::Boolean, {}, QT_TR_NOOP("Greeting off")},
        {a, QStringLiteral("enabled"), Kind::Boolean, {}, QT_TR_NOOP("AI access")},
        {a,
         QStringLiteral("browserDeepLinks"),
         Kind::Boolean,
         {},
         QT_TR_NOOP("Browser deep links")},
        {a, QStringLiteral("cloudBrowser"), Kind::Boolean, {}, QT_TR_NOOP("Cloud browser")},
        {a,
         QStringLiteral("allowDelegatedHandoffs"),
         Kind::Boolean,
         {},
         QT_TR_NOOP("Delegated handoffs")},
        {a,
         QStringLiteral("confirmation"),
         Kind::Choice,
         {QStringLiteral("auto"), QStringLiteral("required")},
         QT_TR_NOOP("Confirmation")},
        {a,
         QStringLiteral("crossHost"),
         Kind::Choice,
         {QStringLiteral("allow"), QStringLiteral("same_host")},
         QT_TR_NOOP("Other hosts")},
        {a, QStringLiteral("maxHops"), Kind::Number, {}, QT_TR_NOOP("Most hops")},
        {d, QStringLiteral("enabled"), Kind::Boolean, {}, QT_TR_NOOP("Agent discovery")},
        {d,
         QStringLiteral("preferExecution"),
         Kind::Choice,
         {QStringLiteral("cloud"), QStringLiteral("browser"), QStringLiteral("auto")},
         QT_TR_NOOP("Preferred execution")},
        {d, QStringLiteral("expose.prompt"), Kind::Boolean, {}, QT_TR_NOOP("Offer the prompt")},
        {d,
         QStringLiteral("expose.shortcuts"),
         Kind::Boolean,
         {},
         QT_TR_NOOP("Offer the shortcuts")},
        {d,
         QStringLiteral("expose.playbooks"),
         Kind::Boolean,
         {},
         QT_TR_NOOP("Offer the playbooks")},
        {d, QStringLiteral("siteManifestUrl"), Kind::Url, {}, QT_TR_NOOP("Site manifest URL")},
        {d, QStringLiteral("agentCardUrl"), Kind::Url, {}, QT_TR_NOOP("Agent card URL")},
        {d,
         QStringLiteral("discoverySurface.mode"),
         Kind::Choice,
         {QStringLiteral("beacon"), QStringLiteral("inline"), QStringLiteral("hidden")},
         QT_TR_NOOP("Surface")},
        {d,
         QStringLiteral("discoverySurface.branding"),
         Kind::Choice,
         {QStringLiteral("site"), QStringLiteral("pilothouse"), QStringLiteral("none")},
         QT_TR_NOOP("Branding")},
        {d,
         QStringLiteral("discoverySurface.actionReveal"),
         Kind::Choice,
         {QStringLiteral("hover"), QStringLiteral("always"), QStringLiteral("never")},
         QT_TR_NOOP("Show actions")},
        {d,
         QStringLiteral("discoverySurface.beaconLabel"),
         Kind::Text,
         {},
         QT_TR_NOOP("Beacon label")},
        {p,
         QStringLiteral("disableAutoScroll"),
         Kind::Boolean,
         {},
         QT_TR_NOOP("No automatic scrolling")},
        {p,
         QStringLiteral("adaptiveSettleMaxWaitMs"),
         Kind::Number,
         {},
         QT_TR_NOOP("Longest settle wait"),
         QStringLiteral(" ms")},
        {v, QStringLiteral("enabled"), Kind::Boolean, {}, QT_TR_NOOP("Voice")},
        {v, QStringLiteral("language"), Kind::Text, {}, QT_TR_NOOP("Language")},
        {v,
         QStringLiteral("autoStopMs"),
         Kind::Number,
         {},
         QT_TR_NOOP("Stop listening after"),
         QStringLiteral(" ms")},
    };
    return list;
}

SiteConfigEditor::SiteConfigEditor(const ConsoleServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("siteConfigEditor"));
    auto *layout = new QVBoxLayout(this);
    m_heading = new QLabel(this);
    m_heading->setWordWrap(true);
    layout->addWidget(m_heading);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("siteConfigSplit"));
    m_tabs = new QTabWidget(split);
    m_tabs->setObjectName(QStringLiteral("siteConfigSections"));
    for (const QString &name : kSections) {
        if (name == QLatin1String("shortcuts") || name == QLatin1String("knowledge"))
            buildLists();
        else
            buildSection(name);
    }
    // The same sections in the tab order of the documentation.
    for (const QString &name : kSections) {
        for (const Section &s : std::as_const(m_sections)) {
            if (s.name == name)
                m_tabs->addTab(s.page, QString());
        }
    }
    m_jsonPage = new QWidget(m_tabs);
    m_jsonPage->setObjectName(QStringLiteral("json"));
    auto *j = new QVBoxLayout(m_jsonPage);
    m_jsonNote = new QLabel(m_jsonPage);
    m_jsonNote->setWordWrap(true);
    j->addWidget(m_jsonNote);
    auto *json = new JsonView(m_jsonPage);
    json->setReadOnly(false);
    json->setObjectName(QStringLiteral("siteConfigJson"));
    json->setTabChangesFocus(true);
    m_json = json;
    j->addWidget(m_json, 1);
    m_tabs->addTab(m_jsonPage, QString());

    auto *right = new QWidget(split);
    auto *r = new QVBoxLayout(right);
    r->setContentsMargins(0, 0, 0, 0);
    m_effectiveCaption = new QLabel(right);
    m_effectiveCaption->setWordWrap(true);
    r->addWidget(m_effectiveCaption);
    m_effective = new JsonView(right);
    m_effective->setObjectName(QStringLiteral("siteConfigEffective"));
    m_effectiveCaption->setBuddy(m_effective);
    r->addWidget(m_effective, 1);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(kErrorStyle);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    layout->addWidget(m_error);
    auto *buttons = new QHBoxLayout;
    m_revert = new QPushButton(icon(Icon::Revert), QString(), this);
    m_save = new QPushButton(icon(Icon::Save), QString(), this);
    buttons->addStretch(1);
    buttons->addWidget(m_revert);
    buttons->addWidget(m_save);
    layout->addLayout(buttons);

    // Keyboard: Ctrl+S saves (after the list of changes), as the Save button does.
    auto *saveAction = new QAction(this);
    saveAction->setShortcut(QKeySequence::Save);
    saveAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(saveAction, &QAction::triggered, this, [this] {
        if (m_save->isEnabled())
            save();
    });
    addAction(saveAction);

    connect(m_json, &QPlainTextEdit::textChanged, this, &SiteConfigEditor::fromJson);
    connect(m_save, &QPushButton::clicked, this, &SiteConfigEditor::save);
    connect(m_revert, &QPushButton::clicked, this, &SiteConfigEditor::reload);
    connect(&m_services.sites.sites(), &sites::SiteRepository::siteConfigChanged, this,
            &SiteConfigEditor::onConfigChanged);
    retranslateUi();
    setSiteId(QString());
}

QWidget *SiteConfigEditor::makeField(const Spec &spec, QWidget *parent)
{
    const QString key = spec.section + QLatin1Char('.') + spec.path;
    QWidget *w = nullptr;
    switch (spec.kind) {
    case Kind::Text:
    case Kind::Url: {
        auto *line = new QLineEdit(parent);
        line->setClearButtonEnabled(true);
        connect(line, &QLineEdit::textChanged, this, [this, s = spec.section] { fromForm(s); });
        w = line;
        break;
    }
    case Kind::Number: {
        // Not clamped to the schema's range: the schema's check says what is wrong.
        auto *spin = new QSpinBox(parent);
        spin->setRange(-1, 99999999);
        spin->setSuffix(spec.suffix);
        spin->setAlignment(Qt::AlignRight);
        connect(spin, &QSpinBox::valueChanged, this, [this, s = spec.section] { fromForm(s); });
        w = spin;
        break;
    }
    case Kind::Boolean:
    case Kind::Choice: {
        auto *combo = new QComboBox(parent);
        combo->addItem(QString()); // the default, texted in retranslateUi()
        if (spec.kind == Kind::Boolean) {
            combo->addItem(QString(), true);
            combo->addItem(QString(), false);
        } else {
            for (const QString &c : spec.choices)
                combo->addItem(c, c);
        }
        connect(combo, &QComboBox::currentIndexChanged, this,
                [this, s = spec.section] { fromForm(s); });
        w = combo;
        break;
    }
    }
    w->setObjectName(key);
    m_fieldWidgets.insert(key, w);
    return w;
}

void SiteConfigEditor::buildSection(const QString &name)
{
    Section s;
    s.name = name;
    s.page = new QWidget(m_tabs);
    s.page->setObjectName(name);
    auto *v = new QVBoxLayout(s.page);
    s.banner = new QLabel(s.page);
    s.banner->setWordWrap(true);
    s.banner->setStyleSheet(kClearedStyle);
    s.banner->hide();
    v->addWidget(s.banner);
    auto *scroll = new QScrollArea(s.page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    s.form = new QWidget(scroll);
    auto *form = new QFormLayout(s.form);
    for (const Spec &spec : specs()) {
        if (spec.section != name)
            continue;
        auto *label = new QLabel(s.form);
        QWidget *w = makeField(spec, s.form);
        label->setBuddy(w);
        m_fieldLabels.insert(name + QLatin1Char('.') + spec.path, label);
        form->addRow(label, w);
    }
    scroll->setWidget(s.form);
    v->addWidget(scroll, 1);
    auto *clear = new QPushButton(icon(Icon::Clear), QString(), s.page);
    clear->setCheckable(true);
    clear->setObjectName(QStringLiteral("clear-%1").arg(name));
    m_clear.insert(name, clear);
    auto *row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(clear);
    v->addLayout(row);
    connect(clear, &QPushButton::toggled, this, [this, name](bool on) {
        if (m_updating)
            return;
        if (on)
            m_draft.insert(name, QJsonValue());
        else if (m_stored.contains(name))
            m_draft.insert(name, m_stored.value(name));
        else
            m_draft.remove(name);
        showDraft(true);
        check();
    });
    m_sections.append(s);
}

void SiteConfigEditor::buildLists()
{
    if (m_shortcuts) // both are built at once
        return;
    for (const QString &name : {QStringLiteral("shortcuts"), QStringLiteral("knowledge")}) {
        const QStringList &columns =
            name == QLatin1String("shortcuts") ? kShortcutColumns : kKnowledgeColumns;
        Section s;
        s.name = name;
        s.page = new QWidget(m_tabs);
        s.page->setObjectName(name);
        auto *v = new QVBoxLayout(s.page);
        s.banner = new QLabel(s.page);
        s.banner->setWordWrap(true);
        s.banner->setStyleSheet(kClearedStyle);
        s.banner->hide();
        v->addWidget(s.banner);
        auto *table = new QTableWidget(0, int(columns.size()), s.page);
        table->setObjectName(name + QStringLiteral("Table"));
        table->setHorizontalHeaderLabels(columns);
        table->horizontalHeader()->setStretchLastSection(true);
        table->setTabKeyNavigation(false);
        s.form = table;
        v->addWidget(table, 1);
        auto *row = new QHBoxLayout;
        auto *add = new QPushButton(icon(Icon::Add), QString(), s.page);
        auto *remove = new QPushButton(icon(Icon::Delete), QString(), s.page);
        auto *clear = new QPushButton(icon(Icon::Clear), QString(), s.page);
        clear->setCheckable(true);
        clear->setObjectName(QStringLiteral("clear-%1").arg(name));
        row->addWidget(add);
        row->addWidget(remove);
        row->addStretch(1);
        row->addWidget(clear);
        v->addLayout(row);
        m_addRow.insert(name, add);
        m_removeRow.insert(name, remove);
        m_clear.insert(name, clear);
        if (name == QLatin1String("shortcuts"))
            m_shortcuts = table;
        else
            m_knowledge = table;
        connect(table, &QTableWidget::itemChanged, this, [this, name] { fromTable(name); });
        connect(add, &QPushButton::clicked, this, [this, table, name] {
            {
                const QSignalBlocker quiet(table);
                table->insertRow(table->rowCount());
            }
            fromTable(name);
            table->setCurrentCell(table->rowCount() - 1, 0);
            table->setFocus();
        });
        connect(remove, &QPushButton::clicked, this, [this, table, name] {
            if (table->currentRow() < 0)
                return;
            // The item's other fields go with it: the draft is rebuilt without it.
            QJsonArray items = m_draft.value(name).toArray();
            if (table->currentRow() < items.size())
                items.removeAt(table->currentRow());
            m_draft.insert(name, items);
            showDraft(true);
            check();
        });
        connect(clear, &QPushButton::toggled, this, [this, name](bool on) {
            if (m_updating)
                return;
            if (on)
                m_draft.insert(name, QJsonValue());
            else if (m_stored.contains(name))
                m_draft.insert(name, m_stored.value(name));
            else
                m_draft.remove(name);
            showDraft(true);
            check();
        });
        m_sections.append(s);
    }
}

QJsonValue SiteConfigEditor::defaultAt(const Spec &spec) const
{
    return valueAt(sites::SiteConfigSchema::defaults().value(spec.section), spec.path);
}

bool SiteConfigEditor::isCleared(const QString &section) const
{
    return (m_draft.contains(section) && m_draft.value(section).isNull()) ||
           (m_stored.contains(section) && !m_draft.contains(section));
}

void SiteConfigEditor::fromForm(const QString &section)
{
    if (m_updating || isCleared(section))
        return;
    // Fields the form does not show (and unknown ones, for the check to name) are kept.
    QJsonObject obj = m_draft.value(section).toObject();
    for (const Spec &spec : specs()) {
        if (spec.section != section)
            continue;
        QWidget *w = m_fieldWidgets.value(section + QLatin1Char('.') + spec.path);
        QJsonValue value(QJsonValue::Undefined);
        if (auto *line = qobject_cast<QLineEdit *>(w)) {
            if (!line->text().isEmpty())
                value = line->text();
        } else if (auto *spin = qobject_cast<QSpinBox *>(w)) {
            if (spin->value() >= 0)
                value = spin->value();
        } else if (auto *combo = qobject_cast<QComboBox *>(w)) {
            if (combo->currentIndex() > 0)
                value = QJsonValue::fromVariant(combo->currentData());
        }
        setAt(obj, spec.path.split(QLatin1Char('.')), value);
    }
    if (obj.isEmpty() && !m_stored.contains(section))
        m_draft.remove(section);
    else
        m_draft.insert(section, obj);
    showDraft(true);
    check();
}

void SiteConfigEditor::fromTable(const QString &section)
{
    if (m_updating || isCleared(section))
        return;
    QTableWidget *table = section == QLatin1String("shortcuts") ? m_shortcuts : m_knowledge;
    const QStringList &columns =
        section == QLatin1String("shortcuts") ? kShortcutColumns : kKnowledgeColumns;
    const QJsonArray before = m_draft.value(section).toArray();
    QJsonArray items;
    for (int row = 0; row < table->rowCount(); ++row) {
        QJsonObject item = row < before.size() ? before.at(row).toObject() : QJsonObject();
        for (int c = 0; c < columns.size(); ++c) {
            const QTableWidgetItem *cell = table->item(row, c);
            const QString text = cell ? cell->text() : QString();
            if (text.isEmpty())
                item.remove(columns.at(c));
            else
                item.insert(columns.at(c), text);
        }
        items.append(item);
    }
    if (items.isEmpty() && !m_stored.contains(section))
        m_draft.remove(section);
    else
        m_draft.insert(section, items);
    showDraft(true);
    check();
}

void SiteConfigEditor::fromJson()
{
    if (m_updating)
        return;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(m_json->toPlainText().toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        m_valid = false;
        m_errorPath = QStringLiteral("siteConfig");
        m_error->setText(parseError.error != QJsonParseError::NoError
                             ? tr("The JSON does not read: %1 at character %2.")
                                   .arg(parseError.errorString())
                                   .arg(parseError.offset)
                             : tr("siteConfig must be a JSON object."));
        m_error->show();
        m_save->setEnabled(false);
        return;
    }
    m_draft = doc.object();
    showDraft(false);
    check();
}

void SiteConfigEditor::showDraft(bool json)
{
    m_updating = true;
    for (Section &s : m_sections) {
        const bool cleared = isCleared(s.name);
        s.banner->setVisible(cleared);
        s.form->setEnabled(!cleared && !m_siteId.isEmpty());
        if (QPushButton *add = m_addRow.value(s.name))
            add->setEnabled(!cleared && !m_siteId.isEmpty());
        if (QPushButton *remove = m_removeRow.value(s.name))
            remove->setEnabled(!cleared && !m_siteId.isEmpty());
        QPushButton *clear = m_clear.value(s.name);
        clear->setChecked(cleared);
        clear->setEnabled(!m_siteId.isEmpty());
        const int tab = m_tabs->indexOf(s.page);
        m_tabs->setTabText(tab, cleared ? tr("%1 (cleared)").arg(sectionTitle(s.name))
                                        : sectionTitle(s.name));
        m_tabs->setTabIcon(tab, cleared ? icon(Icon::Clear) : QIcon());
    }
    for (const Spec &spec : specs()) {
        const QString key = spec.section + QLatin1Char('.') + spec.path;
        QWidget *w = m_fieldWidgets.value(key);
        const QJsonValue value = valueAt(m_draft.value(spec.section), spec.path);
        if (auto *line = qobject_cast<QLineEdit *>(w)) {
            const QString text = value.isString() ? value.toString() : QString();
            if (line->text() != text)
                line->setText(text);
        } else if (auto *spin = qobject_cast<QSpinBox *>(w)) {
            spin->setValue(value.isDouble() ? value.toInt() : -1);
        } else if (auto *combo = qobject_cast<QComboBox *>(w)) {
            const int index =
                value.isUndefined() || value.isNull() ? 0 : combo->findData(value.toVariant());
            combo->setCurrentIndex(qMax(0, index));
        }
    }
    for (QTableWidget *table : {m_shortcuts, m_knowledge}) {
        const QString section =
            table == m_shortcuts ? QStringLiteral("shortcuts") : QStringLiteral("knowledge");
        const QStringList &columns = table == m_shortcuts ? kShortcutColumns : kKnowledgeColumns;
        const QJsonArray items = m_draft.value(section).toArray();
        const QSignalBlocker quiet(table);
        table->setRowCount(int(items.size()));
        for (int row = 0; row < items.size(); ++row) {
            const QJsonObject item = items.at(row).toObject();
            for (int c = 0; c < columns.size(); ++c) {
                const QJsonValue v = item.value(columns.at(c));
                const QString text =
                    v.isString() ? v.toString() : (v.isUndefined() ? QString() : compact(v));
                QTableWidgetItem *cell = table->item(row, c);
                if (!cell)
                    table->setItem(row, c, new QTableWidgetItem(text));
                else if (cell->text() != text)
                    cell->setText(text);
            }
        }
    }
    if (json) {
        QJsonObject shown = m_draft;
        // A stored section missing from the draft is cleared: shown as null.
        for (auto it = m_stored.begin(); it != m_stored.end(); ++it) {
            if (!shown.contains(it.key()))
                shown.insert(it.key(), QJsonValue());
        }
        m_json->setPlainText(
            QString::fromUtf8(QJsonDocument(shown).toJson(QJsonDocument::Indented)));
    }
    m_updating = false;
}

QJsonObject SiteConfigEditor::patch() const
{
    QJsonObject out;
    for (auto it = m_draft.begin(); it != m_draft.end(); ++it) {
        if (it.value().isNull()) {
            if (m_stored.contains(it.key()))
                out.insert(it.key(), QJsonValue());
        } else if (m_stored.value(it.key()) != it.value()) {
            out.insert(it.key(), it.value());
        }
    }
    for (auto it = m_stored.begin(); it != m_stored.end(); ++it) {
        if (!m_draft.contains(it.key()))
            out.insert(it.key(), QJsonValue());
    }
    return out;
}

void SiteConfigEditor::check()
{
    try {
        // The check POST /upsertSiteConfig makes, on the patch Save would send.
        m_merged = sites::checkSiteConfigPatch(m_stored, patch());
        m_valid = true;
        m_errorPath.clear();
        m_error->clear();
        m_error->hide();
        m_effective->setJson(sites::SiteConfigSchema::effective(m_merged));
    } catch (const DomainError &e) {
        m_valid = false;
        m_errorPath = e.field();
        m_error->setText(tr("%1 (%2)").arg(e.message(), e.code()));
        m_error->show();
    }
    for (auto it = m_fieldWidgets.begin(); it != m_fieldWidgets.end(); ++it) {
        const bool wrong = !m_valid && (m_errorPath == QLatin1String("siteConfig.") + it.key());
        it.value()->setStyleSheet(wrong ? QStringLiteral("border: 1px solid #c0392b") : QString());
    }
    m_save->setEnabled(!m_siteId.isEmpty() && m_valid && hasChanges());
    m_revert->setEnabled(!m_siteId.isEmpty() && hasChanges());
}

void SiteConfigEditor::setSiteId(const QString &siteId)
{
    m_siteId = siteId;
    reload();
}

void SiteConfigEditor::reload()
{
    if (m_siteId.isEmpty()) {
        m_stored = {};
        m_version = 0;
    } else {
        const sites::SiteConfigRecord record = m_services.sites.sites().config(m_siteId);
        m_stored = record.config;
        m_version = record.version;
    }
    m_draft = m_stored;
    m_json->setReadOnly(m_siteId.isEmpty());
    showDraft(true);
    check();
    retranslateUi();
}

void SiteConfigEditor::onConfigChanged(const QString &siteId)
{
    // Changed elsewhere (the API, an applied proposal): shown unless a draft is open.
    if (siteId == m_siteId && !hasChanges())
        reload();
}

QStringList SiteConfigEditor::diff(const QJsonObject &before, const QJsonObject &after)
{
    QStringList out;
    diffInto(before, after, QString(), out);
    return out;
}

bool SiteConfigEditor::save()
{
    check();
    if (m_siteId.isEmpty() || !m_valid || !hasChanges())
        return false;
    m_lastDiff = diff(m_stored, m_merged);
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("siteConfigDiff"));
    dialog.setWindowTitle(tr("Save the site configuration"));
    auto *v = new QVBoxLayout(&dialog);
    auto *intro =
        new QLabel(tr("These changes are stored as version %1:").arg(m_version + 1), &dialog);
    v->addWidget(intro);
    auto *text = new QPlainTextEdit(m_lastDiff.join(QLatin1Char('\n')), &dialog);
    text->setReadOnly(true);
    text->setObjectName(QStringLiteral("siteConfigDiffText"));
    text->setAccessibleName(tr("Changes to save"));
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    intro->setBuddy(text);
    v->addWidget(text, 1);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, &dialog);
    box->button(QDialogButtonBox::Save)->setAccessibleName(tr("Save the changes"));
    box->button(QDialogButtonBox::Cancel)->setAccessibleName(tr("Keep editing"));
    v->addWidget(box);
    connect(box, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    dialog.resize(640, 360);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    try {
        const sites::SiteConfigRecord written =
            m_services.sites.upsertSiteConfig(m_siteId, patch(), kActor);
        reload();
        Q_EMIT message(tr("Saved the site configuration as version %1.").arg(written.version),
                       false);
        return true;
    } catch (const DomainError &e) {
        m_error->setText(tr("%1 (%2)").arg(e.message(), e.code()));
        m_error->show();
        Q_EMIT message(m_error->text(), true);
        return false;
    }
}

QString SiteConfigEditor::sectionTitle(const QString &name) const
{
    if (name == QLatin1String("greeting"))
        return tr("Greeting");
    if (name == QLatin1String("shortcuts"))
        return tr("Shortcuts");
    if (name == QLatin1String("knowledge"))
        return tr("Knowledge");
    if (name == QLatin1String("aiAccess"))
        return tr("AI access");
    if (name == QLatin1String("agentDiscovery"))
        return tr("Agent discovery");
    if (name == QLatin1String("pageConfig"))
        return tr("Page config");
    if (name == QLatin1String("voice"))
        return tr("Voice");
    return name;
}

void SiteConfigEditor::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SiteConfigEditor::retranslateUi()
{
    m_heading->setText(
        m_siteId.isEmpty()
            ? tr("Select a site to edit its configuration.")
            : tr("Configuration version %1 of %2. Empty fields and \"default\" use the runtime "
                 "defaults shown on the right.")
                  .arg(m_version)
                  .arg(m_siteId));
    for (Section &s : m_sections) {
        const bool cleared = isCleared(s.name);
        const int tab = m_tabs->indexOf(s.page);
        m_tabs->setTabText(tab, cleared ? tr("%1 (cleared)").arg(sectionTitle(s.name))
                                        : sectionTitle(s.name));
        s.banner->setText(tr("%1 is set to null: Save clears it, and the runtime defaults "
                             "apply. Press Clear again to keep it.")
                              .arg(s.name));
        s.banner->setAccessibleName(s.banner->text());
        QPushButton *clear = m_clear.value(s.name);
        clear->setText(tr("Clear (use runtime defaults)"));
        clear->setAccessibleName(tr("Clear %1").arg(sectionTitle(s.name)));
        // The section's scrolling form is named after the section.
        for (QScrollArea *scroll : s.page->findChildren<QScrollArea *>(Qt::FindDirectChildrenOnly))
            scroll->setAccessibleName(sectionTitle(s.name));
        clear->setToolTip(tr("Sets %1 to null: on Save it is removed and the runtime defaults "
                             "apply.")
                              .arg(s.name));
        if (QPushButton *add = m_addRow.value(s.name)) {
            add->setText(s.name == QLatin1String("shortcuts") ? tr("Add shortcut")
                                                              : tr("Add entry"));
            add->setAccessibleName(add->text());
        }
        if (QPushButton *remove = m_removeRow.value(s.name)) {
            remove->setText(tr("Remove selected"));
            remove->setAccessibleName(s.name == QLatin1String("shortcuts")
                                          ? tr("Remove the selected shortcut")
                                          : tr("Remove the selected knowledge entry"));
        }
    }
    m_shortcuts->setAccessibleName(tr("Shortcuts"));
    m_knowledge->setAccessibleName(tr("Knowledge entries"));
    for (const Spec &spec : specs()) {
        const QString key = spec.section + QLatin1Char('.') + spec.path;
        const QString label = tr(spec.label);
        m_fieldLabels.value(key)->setText(label);
        QWidget *w = m_fieldWidgets.value(key);
        w->setAccessibleName(label);
        w->setToolTip(QStringLiteral("siteConfig.") + key);
        const QJsonValue fallback = defaultAt(spec);
        const QString shown = fallback.isUndefined() ? tr("none")
                              : fallback.isBool()    ? (fallback.toBool() ? tr("on") : tr("off"))
                              : fallback.isString()  ? fallback.toString()
                                                     : compact(fallback);
        if (auto *line = qobject_cast<QLineEdit *>(w)) {
            line->setPlaceholderText(spec.kind == Kind::Url
                                         ? tr("https://… (default: %1)").arg(shown)
                                         : tr("Default: %1").arg(shown));
        } else if (auto *spin = qobject_cast<QSpinBox *>(w)) {
            spin->setSpecialValueText(tr("Default (%1)").arg(shown));
        } else if (auto *combo = qobject_cast<QComboBox *>(w)) {
            combo->setItemText(0, tr("Default (%1)").arg(shown));
            if (spec.kind == Kind::Boolean) {
                combo->setItemText(1, tr("On"));
                combo->setItemText(2, tr("Off"));
            }
        }
    }
    m_tabs->setTabText(m_tabs->indexOf(m_jsonPage), tr("JSON"));
    m_tabs->setAccessibleName(tr("Configuration sections"));
    m_jsonNote->setText(tr("The whole configuration as it will be stored. null clears a "
                           "section; businessType, experience and analytics are edited here. "
                           "Checked as you type, as POST /upsertSiteConfig checks it."));
    m_json->setAccessibleName(tr("Site configuration as JSON"));
    m_effectiveCaption->setText(tr("&Effective configuration (what the runtime serves: these "
                                   "fields over the runtime defaults; read-only)"));
    m_effective->setAccessibleName(tr("Effective configuration"));
    m_error->setAccessibleName(tr("Configuration error"));
    m_save->setText(tr("Save… (Ctrl+S)"));
    m_save->setAccessibleName(tr("Save the site configuration"));
    m_revert->setText(tr("Revert"));
    m_revert->setAccessibleName(tr("Revert the site configuration"));
}

} // namespace ph::ui
