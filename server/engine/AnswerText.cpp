#include "AnswerText.h"

#include "EngineTypes.h"

#include <QRegularExpression>

namespace ph::engine {

namespace {

// The names a person may use for a question's key.
QStringList namesFor(const Question &q)
{
    static const QHash<QString, QStringList> aliases{
        {QStringLiteral("email"),
         {QStringLiteral("email"), QStringLiteral("e-mail"), QStringLiteral("e mail"),
          QStringLiteral("mail"), QStringLiteral("email address"), QStringLiteral("login"),
          QStringLiteral("user"), QStringLiteral("username")}},
        {QStringLiteral("username"),
         {QStringLiteral("username"), QStringLiteral("user name"), QStringLiteral("user"),
          QStringLiteral("login"), QStringLiteral("benutzername"), QStringLiteral("benutzer"),
          QStringLiteral("email"), QStringLiteral("e-mail")}},
        {QStringLiteral("password"),
         {QStringLiteral("password"), QStringLiteral("pass"), QStringLiteral("passwd"),
          QStringLiteral("pwd"), QStringLiteral("passwort"), QStringLiteral("kennwort"),
          QStringLiteral("mot de passe"), QStringLiteral("contraseña")}},
        {QStringLiteral("code"),
         {QStringLiteral("code"), QStringLiteral("otp"), QStringLiteral("one-time code"),
          QStringLiteral("verification code"), QStringLiteral("pin"),
          QStringLiteral("bestätigungscode")}},
        {QStringLiteral("magic_link"),
         {QStringLiteral("magic link"), QStringLiteral("magic_link"), QStringLiteral("link"),
          QStringLiteral("sign-in link")}},
        {QStringLiteral("url"),
         {QStringLiteral("url"), QStringLiteral("link"), QStringLiteral("page"),
          QStringLiteral("address"), QStringLiteral("website")}},
    };
    QStringList names = aliases.value(q.key.toLower(), {q.key.toLower()});
    names << q.key.toLower() << QString(q.key).replace(u'_', u' ').toLower();
    if (!q.label.isEmpty())
        names << q.label.toLower();
    names.removeDuplicates();
    // Longest first, so "email address" wins over "email".
    std::sort(names.begin(), names.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    return names;
}

QString unquote(QString v)
{
    v = v.trimmed();
    if (v.size() >= 2 &&
        ((v.startsWith(u'"') && v.endsWith(u'"')) || (v.startsWith(u'\'') && v.endsWith(u'\'')) ||
         (v.startsWith(QChar(0x201C)) && v.endsWith(QChar(0x201D)))))
        return v.mid(1, v.size() - 2);
    // A bare value ends at a separator.
    while (!v.isEmpty() && (v.endsWith(u',') || v.endsWith(u';') || v.endsWith(u'.')))
        v.chop(1);
    return v;
}

} // namespace

QJsonObject answersFromText(const QString &input, const QList<Question> &questions)
{
    QJsonObject out;
    const QString text = input.trimmed();
    if (text.isEmpty())
        return out;
    // key: value, key = value, my key is value, mein key ist value.
    for (const Question &q : questions) {
        for (const QString &name : namesFor(q)) {
            const QRegularExpression pair(
                QStringLiteral(
                    "(?:^|[\\s,;(])(?:(?:my|the|our|mein|meine|das|die|der)\\s+)?%1\\s*"
                    "(?::|=|\\b(?:is|ist|est)\\b:?)\\s*(\"[^\"]*\"|'[^']*'|“[^”]*”|[^\\s,;]+)")
                    .arg(QRegularExpression::escape(name)),
                QRegularExpression::CaseInsensitiveOption);
            const QRegularExpressionMatch m = pair.match(text);
            if (m.hasMatch()) {
                const QString value = unquote(m.captured(1));
                if (!value.isEmpty()) {
                    out.insert(q.key, value);
                    break;
                }
            }
        }
    }
    // An email address alone answers the email (or username) question.
    static const QRegularExpression email(
        QStringLiteral("[^\\s,;:<>\"']+@[^\\s,;:<>\"']+\\.[A-Za-z]{2,}"));
    for (const Question &q : questions) {
        const QString k = q.key.toLower();
        if (!out.contains(q.key) &&
            (k == QLatin1String("email") || k == QLatin1String("username"))) {
            const QRegularExpressionMatch m = email.match(text);
            if (m.hasMatch())
                out.insert(q.key, m.captured(0));
        }
    }
    return out;
}

} // namespace ph::engine
