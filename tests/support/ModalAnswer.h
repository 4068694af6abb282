#pragma once

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTimer>

#include <functional>

namespace ph::test {

// Calls `answer` with the next modal widget of type W named `name` once it shows (a console
// action that asks first blocks in exec(), so the answer has to come from the event loop).
template <typename W>
void whenModalShows(QObject *context, const QString &name, std::function<void(W *)> answer)
{
    auto *timer = new QTimer(context);
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, context, [timer, name, answer] {
        auto *widget = qobject_cast<W *>(QApplication::activeModalWidget());
        if (!widget || widget->objectName() != name)
            return;
        timer->stop();
        timer->deleteLater();
        answer(widget);
    });
    timer->start();
}

// Answers the next confirmation box named `name`: its destructive button, or Cancel; sets
// `*answered` when it did.
inline void answerConfirmation(QObject *context, const QString &name, bool confirm,
                               bool *answered = nullptr)
{
    whenModalShows<QMessageBox>(context, name, [confirm, answered](QMessageBox *box) {
        QAbstractButton *answer = box->button(QMessageBox::Cancel);
        for (QAbstractButton *b : box->buttons()) {
            if (confirm && box->buttonRole(b) == QMessageBox::DestructiveRole)
                answer = b;
        }
        if (answered)
            *answered = true;
        answer->click();
    });
}

} // namespace ph::test
