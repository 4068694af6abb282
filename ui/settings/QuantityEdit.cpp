#include "QuantityEdit.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSignalBlocker>

#include <cmath>

namespace ph::ui {

namespace {
using Unit = Settings::Definition::Unit;
} // namespace

QuantityEdit::QuantityEdit(const Settings::Definition &definition, QWidget *parent)
    : QWidget(parent)
    , m_minimum(definition.minimum)
    , m_maximum(definition.maximum > 0 ? definition.maximum : 1e15)
{
    // Unit symbols are the same in every language the console speaks.
    switch (definition.unit) {
    case Unit::Bytes:
        m_scales = {{QStringLiteral("B"), 1},
                    {QStringLiteral("KB"), 1024},
                    {QStringLiteral("MB"), 1024.0 * 1024},
                    {QStringLiteral("GB"), 1024.0 * 1024 * 1024}};
        break;
    case Unit::BytesPerSecond:
        m_scales = {{QStringLiteral("B/s"), 1}, {QStringLiteral("KB/s"), 1024}};
        break;
    case Unit::Milliseconds:
        m_scales = {{QStringLiteral("ms"), 1},
                    {QStringLiteral("s"), 1000},
                    {QStringLiteral("min"), 60000},
                    {QStringLiteral("h"), 3600000}};
        break;
    case Unit::Seconds:
        m_scales = {{QStringLiteral("s"), 1},
                    {QStringLiteral("min"), 60},
                    {QStringLiteral("h"), 3600},
                    {QStringLiteral("d"), 86400}};
        break;
    case Unit::Hours:
        m_scales = {{QStringLiteral("h"), 1}, {QStringLiteral("d"), 24}};
        break;
    case Unit::Percent:
        m_scales = {{QStringLiteral("%"), 1}};
        break;
    case Unit::PerMinute:
        m_scales = {{QStringLiteral("/min"), 1}};
        break;
    case Unit::None:
    case Unit::Url:
        m_scales = {{QString(), 1}};
        break;
    }
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_spin = new QDoubleSpinBox(this);
    m_spin->setAlignment(Qt::AlignRight);
    m_spin->setKeyboardTracking(true);
    row->addWidget(m_spin, 1);
    if (m_scales.size() > 1) {
        m_units = new QComboBox(this);
        for (const Scale &s : std::as_const(m_scales))
            m_units->addItem(s.symbol);
        row->addWidget(m_units);
        connect(m_units, &QComboBox::currentIndexChanged, this, [this](int index) {
            // The same amount in the other unit.
            const double v = m_spin->value() * m_scales.at(m_scale).factor;
            applyScale(index, v);
            Q_EMIT valueChanged();
        });
    } else if (!m_scales.first().symbol.isEmpty()) {
        m_spin->setSuffix(QLatin1Char(' ') + m_scales.first().symbol);
    }
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, &QuantityEdit::valueChanged);
    applyScale(0, definition.defaultValue.toDouble());
}

void QuantityEdit::applyScale(int index, double value)
{
    m_scale = qBound(0, index, int(m_scales.size()) - 1);
    const double factor = m_scales.at(m_scale).factor;
    const QSignalBlocker quiet(m_spin);
    // A larger unit takes fractions down to one of the setting's own unit.
    m_spin->setDecimals(factor == 1 ? 0 : int(std::ceil(std::log10(factor))));
    m_spin->setRange(m_minimum / factor, m_maximum / factor);
    m_spin->setSingleStep(1);
    m_spin->setValue(value / factor);
    if (m_units) {
        const QSignalBlocker quietUnits(m_units);
        m_units->setCurrentIndex(m_scale);
    }
}

double QuantityEdit::value() const
{
    const double v = m_spin->value() * m_scales.at(m_scale).factor;
    // 1.5 s is 1500 ms, not 1499.9999999.
    const double whole = std::round(v);
    return std::abs(v - whole) < 1e-6 ? whole : v;
}

void QuantityEdit::setValue(double value)
{
    int best = 0;
    for (int i = int(m_scales.size()) - 1; i > 0; --i) {
        const double f = m_scales.at(i).factor;
        if (value != 0 && std::fmod(value, f) == 0) {
            best = i;
            break;
        }
    }
    applyScale(best, value);
}

bool QuantityEdit::setUnit(const QString &symbol)
{
    for (int i = 0; i < m_scales.size(); ++i) {
        if (m_scales.at(i).symbol == symbol) {
            if (m_units)
                m_units->setCurrentIndex(i); // converts through currentIndexChanged
            return true;
        }
    }
    return false;
}

QString QuantityEdit::unit() const
{
    return m_scales.at(m_scale).symbol;
}

void QuantityEdit::setAccessibleNames(const QString &label)
{
    m_spin->setAccessibleName(label);
    if (m_units)
        m_units->setAccessibleName(tr("%1: unit").arg(label));
}

} // namespace ph::ui
