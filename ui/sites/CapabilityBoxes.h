#pragma once

#include <QList>
#include <QWidget>

#include <functional>

class QCheckBox;
class QJsonArray;
class QJsonObject;

namespace ph::ui {

// A row of check boxes, one per site-key capability (embed, cloud agent, cloud scrape,
// external web context), as the new-key and the selected-key forms show them.
class CapabilityBoxes : public QWidget
{
    Q_OBJECT
public:
    explicit CapabilityBoxes(QWidget *parent = nullptr);

    QCheckBox *box(const QString &capability) const;
    // {capability: checked} for every box.
    QJsonObject values() const;
    void setChecked(const std::function<bool(const QString &)> &isOn);
    void retranslateUi();

private:
    struct Capability
    {
        QString name;
        QCheckBox *box;
    };
    QList<Capability> m_boxes;
};

// Allowed domains as typed in a field: separated by commas, semicolons or white space.
QJsonArray domainList(const QString &text);

} // namespace ph::ui
