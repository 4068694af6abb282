#pragma once

#include <QGroupBox>

class QLabel;
class QLineEdit;
class QPushButton;

namespace ph::ui {

// A new key to copy, shown once: a title, a warning, the key in a read-only field, Copy
// and Done. Done clears the field and hides the box; nothing keeps the key afterwards.
// The owner sets the title and warning (and sets them again on a language change).
class SecretReveal : public QGroupBox
{
    Q_OBJECT
public:
    explicit SecretReveal(QWidget *parent = nullptr);

    void setTexts(const QString &title, const QString &warning);
    void reveal(const QString &secret);
    void dismiss();

    QLineEdit *field() const { return m_field; }
    QPushButton *copyButton() const { return m_copy; }
    QPushButton *doneButton() const { return m_done; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();

    QLabel *m_warning;
    QLineEdit *m_field;
    QPushButton *m_copy;
    QPushButton *m_done;
};

} // namespace ph::ui
