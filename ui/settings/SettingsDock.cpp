#include "SettingsDock.h"

#include "QuantityEdit.h"
#include "SettingLabels.h"
#include "SettingsModel.h"

#include "common/Icons.h"
#include "core/DomainError.h"
#include "core/SettingsService.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
const QString kErrorStyle = QStringLiteral("color: #c0392b");

QString prefixOf(const QString &key)
{
    return key.left(key.lastIndexOf(QLatin1Char('.')));
}

} // namespace

SettingsDock::SettingsDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("settingsDock"));
    m_model = new SettingsModel(services.settings, this);

    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);

    layout->addWidget(makeServiceBox(body));

    // Find a setting by its name or its key.
    m_search = new QLineEdit(body);
    m_search->setClearButtonEnabled(true);
    m_search->setObjectName(QStringLiteral("settingsSearch"));
    layout->addWidget(m_search);

    layout->addWidget(makeFieldsArea(body), 1);

    auto *buttons = new QHBoxLayout;
    m_message = new QLabel(body);
    m_message->setWordWrap(true);
    m_apply = new QPushButton(icon(Icon::Save), QString(), body);
    m_apply->setDefault(true);
    m_revert = new QPushButton(icon(Icon::Revert), QString(), body);
    buttons->addWidget(m_message, 1);
    buttons->addWidget(m_revert);
    buttons->addWidget(m_apply);
    layout->addLayout(buttons);
    setWidget(body);

    for (Field &f : m_fields)
        load(f);

    connectActions();
    retranslateUi();
}

QWidget *SettingsDock::makeServiceBox(QWidget *body)
{
    // Set at start (command line), shown for reference; and the console's language.
    m_serviceBox = new QGroupBox(body);
    auto *serviceForm = new QFormLayout(m_serviceBox);
    m_addressCaption = new QLabel(m_serviceBox);
    m_dataDirCaption = new QLabel(m_serviceBox);
    m_languageCaption = new QLabel(m_serviceBox);
    m_address = new QLineEdit(m_services.apiAddress(), m_serviceBox);
    m_address->setReadOnly(true);
    m_dataDir = new QLineEdit(m_services.dataDir, m_serviceBox);
    m_dataDir->setReadOnly(true);
    m_language = new QComboBox(m_serviceBox);
    // Each language by its own name, so it can be found whatever is shown now.
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("Deutsch"), QStringLiteral("de"));
    showLanguage(QLocale().name().section(QLatin1Char('_'), 0, 0));
    serviceForm->addRow(m_addressCaption, m_address);
    serviceForm->addRow(m_dataDirCaption, m_dataDir);
    serviceForm->addRow(m_languageCaption, m_language);

    return m_serviceBox;
}

QWidget *SettingsDock::makeFieldsArea(QWidget *body)
{
    // One group per key prefix, in the definitions' order.
    auto *scroll = new QScrollArea(body);
    scroll->setWidgetResizable(true);
    auto *form = new QWidget(scroll);
    auto *formLayout = new QVBoxLayout(form);
    QHash<QString, QGridLayout *> grids;
    const auto &defs = Settings::definitions();
    for (const Settings::Definition &d : defs) {
        const QString prefix = prefixOf(d.key);
        QGridLayout *grid = grids.value(prefix);
        if (!grid) {
            auto *box = new QGroupBox(form);
            grid = new QGridLayout(box);
            grid->setColumnStretch(1, 1);
            grid->setColumnStretch(2, 2);
            grids.insert(prefix, grid);
            m_groups.append({prefix, box});
            formLayout->addWidget(box);
        }
        m_fields.append(makeField(d, grid));
    }
    formLayout->addStretch(1);
    scroll->setWidget(form);

    return scroll;
}

SettingsDock::Field SettingsDock::makeField(const Settings::Definition &d, QGridLayout *grid)
{
    QWidget *box = grid->parentWidget();
    Field f;
    f.definition = &d;
    f.grid = grid;
    f.caption = new QLabel(box);
    QWidget *editor;
    QWidget *focus;
    if (d.type == QJsonValue::Bool) {
        f.check = new QCheckBox(box);
        editor = focus = f.check;
    } else if (d.secret) {
        // Write-only: the field starts empty and is emptied after storing.
        auto *row = new QWidget(box);
        auto *h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        f.line = new QLineEdit(row);
        f.line->setEchoMode(QLineEdit::Password);
        f.line->setAccessibleName(d.key); // its caption is in the row's parent
        f.secretState = new QLabel(row);
        f.clearSecret = new QPushButton(icon(Icon::Clear), QString(), row);
        h->addWidget(f.line, 1);
        h->addWidget(f.secretState);
        h->addWidget(f.clearSecret);
        editor = row;
        focus = f.line;
    } else if (d.type == QJsonValue::Double) {
        f.quantity = new QuantityEdit(d, box);
        editor = f.quantity;
        focus = f.quantity->spinBox();
    } else if (!d.choices.isEmpty()) {
        // A choice: picked from a list; the list's line edit holds the value.
        auto *combo = new QComboBox(box);
        combo->setEditable(true);
        combo->addItems(d.choices);
        combo->setInsertPolicy(QComboBox::NoInsert);
        f.line = combo->lineEdit();
        editor = focus = combo;
    } else {
        f.line = new QLineEdit(box);
        if (d.unit == Settings::Definition::Unit::Url)
            f.line->setInputMethodHints(Qt::ImhUrlCharactersOnly);
        editor = focus = f.line;
    }
    f.editorRow = editor;
    f.caption->setBuddy(focus);
    f.hint = new QLabel(box);
    f.hint->setWordWrap(true);
    f.hint->setForegroundRole(QPalette::PlaceholderText);
    if (d.applies != Settings::Definition::Applies::Immediately) {
        f.applies = new QLabel(box);
        f.applies->setObjectName(QStringLiteral("appliesNote"));
        f.applies->setWordWrap(true);
    }
    f.error = new QLabel(box);
    f.error->setWordWrap(true);
    f.error->setStyleSheet(kErrorStyle);
    f.error->hide();
    const int row = grid->rowCount();
    grid->addWidget(f.caption, row, 0);
    grid->addWidget(editor, row, 1);
    grid->addWidget(f.hint, row, 2);
    if (f.applies)
        grid->addWidget(f.applies, row, 3);
    grid->addWidget(f.error, row + 1, 1, 1, 3);
    return f;
}

void SettingsDock::connectActions()
{
    // Keyboard: Enter in a field applies, F5 (or Revert) reloads the stored values.
    auto *refresh = new QAction(this);
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(refresh, &QAction::triggered, this, &SettingsDock::revert);
    addAction(refresh);
    connect(m_apply, &QPushButton::clicked, this, &SettingsDock::apply);
    connect(m_revert, &QPushButton::clicked, this, &SettingsDock::revert);
    connect(m_search, &QLineEdit::textChanged, this, &SettingsDock::filter);
    for (qsizetype i = 0; i < m_fields.size(); ++i) {
        const Field &f = m_fields.at(i);
        // Checked as typed, by the same validation PATCH /settings applies.
        auto checkThis = [this, i] {
            check(m_fields[i]);
            updateApply();
        };
        if (f.line) {
            connect(f.line, &QLineEdit::returnPressed, this, &SettingsDock::apply);
            connect(f.line, &QLineEdit::textChanged, this, checkThis);
        }
        if (f.quantity) {
            connect(f.quantity, &QuantityEdit::valueChanged, this, checkThis);
        }
        if (f.check)
            connect(f.check, &QCheckBox::toggled, this, checkThis);
        if (f.clearSecret)
            connect(f.clearSecret, &QPushButton::clicked, this, [this, i] {
                m_fields[i].line->clear();
                m_fields[i].clearRequested = true;
                apply();
            });
    }
    connect(m_language, &QComboBox::currentIndexChanged, this,
            [this] { Q_EMIT languageRequested(m_language->currentData().toString()); });
    // Live: a value changed elsewhere (PATCH /settings) shows unless its field is being
    // edited here.
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &from, const QModelIndex &to) {
                for (int row = from.row(); row <= to.row(); ++row) {
                    if (row < m_fields.size() && !edited(m_fields.at(row)))
                        load(m_fields[row]);
                }
            });
}

const SettingsDock::Field *SettingsDock::field(const QString &key) const
{
    for (const Field &f : m_fields) {
        if (f.definition->key == key)
            return &f;
    }
    return nullptr;
}

QWidget *SettingsDock::editor(const QString &key) const
{
    const Field *f = field(key);
    if (!f)
        return nullptr;
    if (f->quantity)
        return f->quantity;
    return f->line ? static_cast<QWidget *>(f->line) : f->check;
}

QuantityEdit *SettingsDock::quantityEdit(const QString &key) const
{
    const Field *f = field(key);
    return f ? f->quantity : nullptr;
}

QLabel *SettingsDock::caption(const QString &key) const
{
    const Field *f = field(key);
    return f ? f->caption : nullptr;
}

QLabel *SettingsDock::appliesLabel(const QString &key) const
{
    const Field *f = field(key);
    return f ? f->applies : nullptr;
}

bool SettingsDock::isListed(const QString &key) const
{
    const Field *f = field(key);
    return f && !f->caption->isHidden();
}

void SettingsDock::filter(const QString &text)
{
    const QString wanted = text.trimmed();
    QHash<QGridLayout *, bool> anyShown;
    for (Field &f : m_fields) {
        const bool shown = wanted.isEmpty() ||
                           f.caption->text().contains(wanted, Qt::CaseInsensitive) ||
                           f.definition->key.contains(wanted, Qt::CaseInsensitive);
        f.caption->setVisible(shown);
        f.editorRow->setVisible(shown);
        f.hint->setVisible(shown);
        if (f.applies)
            f.applies->setVisible(shown);
        f.error->setVisible(shown && !f.error->text().isEmpty());
        anyShown[f.grid] = anyShown.value(f.grid) || shown;
    }
    for (auto it = anyShown.cbegin(); it != anyShown.cend(); ++it)
        it.key()->parentWidget()->setVisible(it.value());
}

QLineEdit *SettingsDock::lineEdit(const QString &key) const
{
    const Field *f = field(key);
    return f ? f->line : nullptr;
}

QCheckBox *SettingsDock::checkBox(const QString &key) const
{
    const Field *f = field(key);
    return f ? f->check : nullptr;
}

QLabel *SettingsDock::errorLabel(const QString &key) const
{
    const Field *f = field(key);
    return f ? f->error : nullptr;
}

QLabel *SettingsDock::secretState(const QString &key) const
{
    const Field *f = field(key);
    return f ? f->secretState : nullptr;
}

QPushButton *SettingsDock::clearSecretButton(const QString &key) const
{
    const Field *f = field(key);
    return f ? f->clearSecret : nullptr;
}

void SettingsDock::load(Field &f)
{
    const Settings::Definition &d = *f.definition;
    // Through the model: secrets arrive masked ({"set": bool}), never as their value.
    const QJsonValue shown = m_model->shownValue(m_model->rowOf(d.key));
    if (f.check) {
        f.check->setChecked(shown.toBool());
    } else if (d.secret) {
        f.line->clear();
        f.clearRequested = false;
        const bool set = shown.toObject().value(QStringLiteral("set")).toBool();
        f.secretState->setText(SettingsModel::display(d, shown));
        f.clearSecret->setEnabled(set);
    } else if (f.quantity) {
        const QSignalBlocker quiet(f.quantity);
        f.quantity->setValue(shown.toDouble());
    } else {
        const QSignalBlocker quiet(f.line);
        f.line->setText(SettingsModel::display(d, shown));
    }
    f.baseline = editorValue(f);
}

QJsonValue SettingsDock::editorValue(const Field &f) const
{
    const Settings::Definition &d = *f.definition;
    if (f.check)
        return f.check->isChecked();
    if (d.secret) // empty: unchanged, unless Clear asked for ""
        return f.line->text().isEmpty() && !f.clearRequested ? QJsonValue(QJsonValue::Undefined)
                                                             : QJsonValue(f.line->text());
    if (f.quantity)
        return f.quantity->value();
    return f.line->text();
}

bool SettingsDock::edited(const Field &f) const
{
    return editorValue(f) != f.baseline;
}

bool SettingsDock::check(Field &f)
{
    if (!edited(f)) {
        f.error->clear();
        f.error->hide();
        return true;
    }
    const QString problem = m_services.settings.validate(f.definition->key, editorValue(f));
    f.error->setText(problem.isEmpty()
                         ? QString()
                         : tr("%1 (%2)").arg(problem, QStringLiteral("INVALID_FIELD")));
    f.error->setVisible(!problem.isEmpty() && !f.caption->isHidden());
    return problem.isEmpty();
}

void SettingsDock::updateApply()
{
    bool refused = false;
    for (Field &f : m_fields) {
        if (!f.error->text().isEmpty() && edited(f))
            refused = true;
    }
    m_apply->setEnabled(!refused);
}

bool SettingsDock::apply()
{
    int stored = 0;
    int refused = 0;
    for (Field &f : m_fields) {
        if (!edited(f)) {
            f.error->hide();
            continue;
        }
        try {
            const QStringList overridden =
                m_services.settingsService.apply({{f.definition->key, editorValue(f)}});
            f.error->clear();
            f.error->hide();
            f.clearRequested = false;
            load(f);
            ++stored;
            // Stored, but a --set given at start still wins until the next start.
            if (!overridden.isEmpty()) {
                f.error->setText(tr("Stored; --set %1 given at start wins until the next start.")
                                     .arg(f.definition->key));
                f.error->show();
            }
        } catch (const DomainError &e) {
            // Nothing stored: the field keeps what was typed, with the reason under it.
            f.error->setText(tr("%1 (%2)").arg(e.message(), e.code()));
            f.error->show();
            ++refused;
        }
    }
    m_message->setStyleSheet(refused ? kErrorStyle : QString());
    if (refused)
        m_message->setText(
            tr("%n setting(s) not stored; see the reasons under them.", "", refused));
    else if (stored)
        m_message->setText(tr("%n setting(s) stored.", "", stored));
    else
        m_message->setText(tr("Nothing changed."));
    return refused == 0;
}

void SettingsDock::revert()
{
    for (Field &f : m_fields) {
        f.error->clear();
        f.error->hide();
        f.clearRequested = false;
        load(f);
    }
    m_message->clear();
    updateApply();
}

QString SettingsDock::groupTitle(const QString &prefix) const
{
    if (prefix == QLatin1String("http"))
        return tr("HTTP");
    if (prefix == QLatin1String("network"))
        return tr("Network");
    if (prefix == QLatin1String("pool"))
        return tr("Browser pool");
    if (prefix == QLatin1String("browser"))
        return tr("Browser engine");
    if (prefix == QLatin1String("scrape"))
        return tr("Scraping");
    if (prefix == QLatin1String("shutdown"))
        return tr("Shutdown");
    if (prefix == QLatin1String("agent"))
        return tr("Agent runs");
    if (prefix == QLatin1String("bridge"))
        return tr("Browser bridge");
    if (prefix == QLatin1String("storage"))
        return tr("Stored files");
    if (prefix == QLatin1String("llm"))
        return tr("LLM planner");
    if (prefix == QLatin1String("auth.oidc"))
        return tr("Owner sign-in (OpenID Connect)");
    return prefix;
}

void SettingsDock::showLanguage(const QString &language)
{
    const QSignalBlocker quiet(m_language);
    m_language->setCurrentIndex(qMax(0, m_language->findData(language)));
}

void SettingsDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void SettingsDock::retranslateUi()
{
    setWindowTitle(tr("Settings"));
    if (auto *scroll = findChild<QScrollArea *>())
        scroll->setAccessibleName(tr("All settings"));
    m_serviceBox->setTitle(tr("Service"));
    m_addressCaption->setText(tr("API address"));
    m_address->setToolTip(tr("Chosen at start with --bind and --port."));
    m_dataDirCaption->setText(tr("Data directory"));
    m_dataDir->setToolTip(tr("Chosen at start with --data-dir."));
    m_languageCaption->setText(tr("Console language"));
    for (const auto &[prefix, box] : std::as_const(m_groups))
        box->setTitle(groupTitle(prefix));
    m_search->setPlaceholderText(tr("Search settings by name or key"));
    m_search->setAccessibleName(tr("Search settings"));
    for (Field &f : m_fields) {
        const Settings::Definition &d = *f.definition;
        // A name for people; the key (as PATCH /settings and --set take it) in the tooltip.
        const QString label = settingLabel(d.key);
        f.caption->setText(label);
        const QString tip = QStringLiteral("%1\n%2").arg(d.key, d.help);
        f.caption->setToolTip(tip);
        f.editorRow->setToolTip(tip);
        if (f.quantity) {
            f.quantity->setAccessibleNames(label);
            f.quantity->spinBox()->setToolTip(tip);
        } else if (f.line) {
            f.line->setAccessibleName(label);
            if (auto *combo = qobject_cast<QComboBox *>(f.editorRow))
                combo->setAccessibleName(label);
        } else if (f.check) {
            f.check->setAccessibleName(label);
        }
        if (d.unit == Settings::Definition::Unit::Url && f.line)
            f.line->setPlaceholderText(tr("https://… (empty: none)"));
        if (f.applies) {
            if (d.applies == Settings::Definition::Applies::AfterRestart) {
                f.applies->setText(tr("Needs a restart"));
                f.applies->setToolTip(tr("Stored at once; takes effect at the next start."));
            } else {
                f.applies->setText(tr("For new sessions"));
                f.applies->setToolTip(tr("Takes effect for what is handed out from now on; "
                                         "tokens, links and streams given before keep "
                                         "the old value."));
            }
            f.applies->setAccessibleName(f.applies->toolTip());
        }
        // The help texts are the service's own (as GET /settings gives them).
        QString hint = d.help;
        if (d.maximum > 0)
            hint += QLatin1Char(' ') +
                    tr("(%1 to %2, default %3)")
                        .arg(QuantityEdit::format(d.unit, d.minimum),
                             QuantityEdit::format(d.unit, d.maximum),
                             QuantityEdit::format(d.unit, d.defaultValue.toDouble()));
        f.hint->setText(hint);
        if (d.secret) {
            f.line->setPlaceholderText(tr("Type a new value to replace it"));
            f.clearSecret->setText(tr("Clear"));
            f.secretState->setText(
                SettingsModel::display(d, m_model->shownValue(m_model->rowOf(d.key))));
        }
        if (f.check)
            f.check->setText(tr("On"));
        if (f.clearSecret)
            f.clearSecret->setAccessibleName(tr("Clear %1").arg(label));
    }
    filter(m_search->text());
    m_apply->setText(tr("Apply"));
    m_revert->setText(tr("Revert"));
    m_model->retranslate();
}

} // namespace ph::ui
