#include "QuantityEdit.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLocale>
#include <QSignalBlocker>

#include <cmath>

namespace ph::ui {

namespace {
using Unit = Settings::Definition::Unit;

// Shows 10 MB as "10", not "10.0000000"; the decimals are there when typed.
class TrimmedSpinBox : public QDoubleSpinBox
{
public:
    using QDoubleSpinBox::QDoubleSpinBox;

protected:
    QString textFromValue(double value) const override
    {
        QLocale l = locale();
        l.setNumberOptions(l.numberOptions() | QLocale::OmitGroupSeparator);
        QString text = l.toString(value, 'f', decimals());
        const QChar point = l.decimalPoint().at(0);
        if (text.contains(point)) {
            while (text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(point))
                text.chop(1);
        }
        return text;
    }
};

QList<std::pair<QString, double>> scalesOf(Unit unit)
{
    // Unit symbols are the same in every language the console speaks.
    switch (unit) {
    case Unit::Bytes:
        return {{QStringLiteral("B"), 1},
                {QStringLiteral("KB"), 1024},
                {QStringLiteral("MB"), 1024.0 * 1024},
                {QStringLiteral("GB"), 1024.0 * 1024 * 1024}};
    case Unit::BytesPerSecond:
        return {{QStringLiteral("B/s"), 1}, {QStringLiteral("KB/s"), 1024}};
    case Unit::Milliseconds:
        return {{QStringLiteral("ms"), 1},
                {QStringLiteral("s"), 1000},
                {QStringLiteral("min"), 60000},
                {QStringLiteral("h"), 3600000}};
    case Unit::Seconds:
        return {{QStringLiteral("s"), 1},
                {QStringLiteral("min"), 60},
                {QStringLiteral("h"), 3600},
                {QStringLiteral("d"), 86400}};
    case Unit::Hours:
        return {{QStringLiteral("h"), 1}, {QStringLiteral("d"), 24}};
    case Unit::Percent:
        return {{QStringLiteral("%"), 1}};
    case Unit::PerMinute:
        return {{QStringLiteral("/min"), 1}};
    case Unit::None:
    case Unit::Url:
        break;
    }
    return {{QString(), 1}};
}

// The largest scale that shows `value` whole (the first for 0).
int fittingScale(const QList<std::pair<QString, double>> &scales, double value)
{
    for (int i = int(scales.size()) - 1; i > 0; --i) {
        if (value != 0 && std::fmod(value, scales.at(i).second) == 0)
            return i;
    }
    return 0;
}
} // namespace

QString QuantityEdit::format(Settings::Definition::Unit unit, double value)
{
    const auto scales = scalesOf(unit);
    const auto &[symbol, factor] = scales.at(fittingScale(scales, value));
    const QString number = QLocale().toString(qint64(value / factor));
    if (symbol.isEmpty())
        return number;
    return symbol == QLatin1String("%") ? number + QStringLiteral(" %")
                                        : number + QLatin1Char(' ') + symbol;
}

QuantityEdit::QuantityEdit(const Settings::Definition &definition, QWidget *parent)
    : QWidget(parent)
    , m_minimum(definition.minimum)
    , m_maximum(definition.maximum > 0 ? definition.maximum : 1e15)
{
    for (const auto &[symbol, factor] : scalesOf(definition.unit))
        m_scales.append({symbol, factor});
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_spin = new TrimmedSpinBox(this);
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
    QList<std::pair<QString, double>> scales;
    for (const Scale &sc : std::as_const(m_scales))
        scales.append({sc.symbol, sc.factor});
    applyScale(fittingScale(scales, value), value);
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
