#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

namespace ph::engine {

struct Question;

// Answers written as text (docs/api/agent.md, "Answers in free text"): a continuation's
// `input` fills the pending questions however a person writes it — `key: value` or
// `key = value` pairs in any order and separated by new lines, commas, semicolons or
// spaces; "my email is …", "the password is …", "mein Passwort ist …"; quoted values
// (which may hold spaces) or bare ones; an email address alone for the email question.
// Keys match a question by its key or a common name for it (e-mail, user, pass,
// passwort, code, otp …). Returns the answers found, by question key.
QJsonObject answersFromText(const QString &input, const QList<Question> &questions);

} // namespace ph::engine
