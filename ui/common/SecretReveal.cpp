#include "SecretReveal.h"

#include "Icons.h"

#include <QClipboard>
#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ph::ui {

SecretReveal::SecretReveal(QWidget *parent)
    : QGroupBox(parent)
{
    auto *layout = new QVBoxLayout(this);
    m_warning = new QLabel(this);
    m_warning->setWordWrap(true);
    m_field = new QLineEdit(this);
    m_field->setReadOnly(true);
    m_field->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *buttons = new QHBoxLayout;
    m_copy = new QPushButton(icon(Icon::Copy), QString(), this);
    m_done = new QPushButton(icon(Icon::Done), QString(), this);
    buttons->addStretch(1);
    buttons->addWidget(m_copy);
    buttons->addWidget(m_done);
    layout->addWidget(m_warning);
    layout->addWidget(m_field);
    layout->addLayout(buttons);
    hide();
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_field->text()); });
    connect(m_done, &QPushButton::clicked, this, &SecretReveal::dismiss);
    retranslateUi();
}

void SecretReveal::setTexts(const QString &title, const QString &warning)
{
    setTitle(title);
    m_warning->setText(warning);
}

void SecretReveal::reveal(const QString &secret)
{
    m_field->setText(secret);
    show();
}

void SecretReveal::dismiss()
{
    m_field->clear();
    hide();
}

void SecretReveal::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QGroupBox::changeEvent(event);
}

void SecretReveal::retranslateUi()
{
    m_copy->setText(tr("Copy"));
    m_done->setText(tr("Done"));
}

} // namespace ph::ui
