// Answers in free text (server/engine/AnswerText): a continuation's input fills the
// pending questions however a person writes it.
#include "engine/AnswerText.h"
#include "engine/EngineTypes.h"

#include <QJsonDocument>
#include <QTest>

using ph::engine::Question;

namespace {

Question ask(const QString &key, bool secret = false)
{
    Question q;
    q.key = key;
    q.question = QStringLiteral("What is your %1?").arg(key);
    q.secret = secret;
    return q;
}

} // namespace

class tst_AnswerText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fillsTheQuestions_data();
    void fillsTheQuestions();
};

void tst_AnswerText::fillsTheQuestions_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QJsonObject>("expected");
    const QStringList login{QStringLiteral("email"), QStringLiteral("password")};
    const QJsonObject ada{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                          {QStringLiteral("password"), QStringLiteral("s3cret!")}};
    QTest::newRow("key: value pairs on separate lines")
        << QStringLiteral("email: ada@example.org\npassword: s3cret!") << login << ada;
    QTest::newRow("key: value pairs in the other order on one line")
        << QStringLiteral("password: s3cret! email: ada@example.org") << login << ada;
    QTest::newRow("pairs separated by a comma")
        << QStringLiteral("email: ada@example.org, password: s3cret!") << login << ada;
    QTest::newRow("pairs separated by a semicolon with equals signs")
        << QStringLiteral("email=ada@example.org; password=s3cret!") << login << ada;
    QTest::newRow("quoted values")
        << QStringLiteral("email: \"ada@example.org\" password: 's3cret!'") << login << ada;
    QTest::newRow("a quoted password may hold spaces")
        << QStringLiteral("email: ada@example.org password: \"correct horse battery\"") << login
        << QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                       {QStringLiteral("password"), QStringLiteral("correct horse battery")}};
    QTest::newRow("a sentence: my email is …, the password is …")
        << QStringLiteral("My email is ada@example.org and the password is s3cret!") << login
        << ada;
    QTest::newRow("German: mein Passwort ist …")
        << QStringLiteral("E-Mail: ada@example.org, mein Passwort ist s3cret!") << login << ada;
    QTest::newRow("other names for the keys: e-mail and pwd")
        << QStringLiteral("e-mail: ada@example.org pwd: s3cret!") << login << ada;
    QTest::newRow("an email address alone answers the email question")
        << QStringLiteral("use ada@example.org please") << QStringList{QStringLiteral("email")}
        << QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")}};
    QTest::newRow("a username question takes user:")
        << QStringLiteral("user: ada password: s3cret!")
        << QStringList{QStringLiteral("username"), QStringLiteral("password")}
        << QJsonObject{{QStringLiteral("username"), QStringLiteral("ada")},
                       {QStringLiteral("password"), QStringLiteral("s3cret!")}};
    QTest::newRow("the code is …")
        << QStringLiteral("the code is 731904") << QStringList{QStringLiteral("code")}
        << QJsonObject{{QStringLiteral("code"), QStringLiteral("731904")}};
    QTest::newRow("only what is asked is taken")
        << QStringLiteral("email: ada@example.org password: s3cret!")
        << QStringList{QStringLiteral("password")}
        << QJsonObject{{QStringLiteral("password"), QStringLiteral("s3cret!")}};
    QTest::newRow("a bare value is not a pair (the caller binds it to a lone question)")
        << QStringLiteral("s3cret!") << QStringList{QStringLiteral("password")} << QJsonObject();
    QTest::newRow("an empty input answers nothing") << QString() << login << QJsonObject();
}

void tst_AnswerText::fillsTheQuestions()
{
    QFETCH(QString, input);
    QFETCH(QStringList, keys);
    QFETCH(QJsonObject, expected);
    QList<Question> questions;
    for (const QString &k : keys)
        questions << ask(k, k == QLatin1String("password"));
    const QJsonObject got = ph::engine::answersFromText(input, questions);
    QVERIFY2(got == expected, QJsonDocument(got).toJson(QJsonDocument::Compact).constData());
}

QTEST_GUILESS_MAIN(tst_AnswerText)
#include "tst_answertext.moc"
