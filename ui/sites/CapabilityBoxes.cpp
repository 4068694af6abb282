#include "CapabilityBoxes.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace ph::ui {

CapabilityBoxes::CapabilityBoxes(QWidget *parent)
    : QWidget(parent)
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    for (const char *c : {"embed", "cloudAgent", "cloudScrape", "externalWebContextScrape"}) {
        auto *box = new QCheckBox(this);
        box->setToolTip(QLatin1String(c));
        row->addWidget(box);
        m_boxes.append({QLatin1String(c), box});
    }
    row->addStretch(1);
    retranslateUi();
}

QCheckBox *CapabilityBoxes::box(const QString &capability) const
{
    for (const Capability &c : m_boxes) {
        if (c.name == capability)
            return c.box;
    }
    return nullptr;
}

QJsonObject CapabilityBoxes::values() const
{
    QJsonObject values;
    for (const Capability &c : m_boxes)
        values.insert(c.name, c.box->isChecked());
    return values;
}

void CapabilityBoxes::setChecked(const std::function<bool(const QString &)> &isOn)
{
    for (const Capability &c : std::as_const(m_boxes))
        c.box->setChecked(isOn(c.name));
}

void CapabilityBoxes::retranslateUi()
{
    for (const Capability &c : std::as_const(m_boxes)) {
        if (c.name == QLatin1String("embed"))
            c.box->setText(tr("Embed in pages"));
        else if (c.name == QLatin1String("cloudAgent"))
            c.box->setText(tr("Cloud agent"));
        else if (c.name == QLatin1String("cloudScrape"))
            c.box->setText(tr("Cloud scrape"));
        else
            c.box->setText(tr("External web context"));
    }
}

QJsonArray domainList(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    return QJsonArray::fromStringList(text.split(separators, Qt::SkipEmptyParts));
}

} // namespace ph::ui
