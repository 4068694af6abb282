#pragma once

#include "core/Settings.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;

namespace ph::ui {

// A setting's number with its unit: a spin box, and for bytes and durations a unit to
// type it in (bytes: B, KB, MB, GB, 1 KB = 1024 B; milliseconds: ms, s, min, h;
// seconds: s, min, h, d; hours: h, d). value() is always in the setting's own unit, as
// PATCH /settings takes it; the range is the definition's, in the unit shown.
class QuantityEdit : public QWidget
{
    Q_OBJECT
public:
    QuantityEdit(const Settings::Definition &definition, QWidget *parent = nullptr);

    QDoubleSpinBox *spinBox() const { return m_spin; }
    // The unit picker; nullptr for a unit with one scale (counts, %, per minute).
    QComboBox *unitBox() const { return m_units; }
    // In the setting's unit (a whole number unless a fraction of it was typed).
    double value() const;
    // Shows `value` (in the setting's unit) in the largest unit that shows it whole.
    void setValue(double value);
    // Picks the unit by its symbol ("MB", "s"); false when there is none such.
    bool setUnit(const QString &symbol);
    QString unit() const;
    // A value in the setting's unit as people read it: "10 MB", "30 s", "4".
    static QString format(Settings::Definition::Unit unit, double value);
    // Names the spin box and the unit picker for assistive technology after `label`.
    void setAccessibleNames(const QString &label);

Q_SIGNALS:
    void valueChanged();

private:
    struct Scale
    {
        QString symbol;
        double factor;
    };
    void applyScale(int index, double value);

    QList<Scale> m_scales;
    double m_minimum;
    double m_maximum;
    int m_scale = 0;
    QDoubleSpinBox *m_spin;
    QComboBox *m_units = nullptr;
};

} // namespace ph::ui
