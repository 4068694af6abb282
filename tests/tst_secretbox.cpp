#include "core/SecretBox.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace ph;

class tst_SecretBox : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void createsTheKeyFileOwnerOnly();
    void sealsAndUnsealsARoundTrip();
    void neverLeavesThePlaintextInTheSealedForm();
    void refusesATamperedValue();
    void refusesAValueSealedWithAnotherKey();
    void refusesAKeyFileOfTheWrongSize();
};

void tst_SecretBox::createsTheKeyFileOwnerOnly()
{
    QTemporaryDir dir;
    SecretBox box;
    QString error;
    QVERIFY2(box.open(dir.filePath(QStringLiteral("secrets.key")), &error), qPrintable(error));
    const QFileInfo info(dir.filePath(QStringLiteral("secrets.key")));
    QCOMPARE(info.size(), 32);
    QCOMPARE(info.permissions() &
                 (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
             QFile::Permissions());
}

void tst_SecretBox::sealsAndUnsealsARoundTrip()
{
    QTemporaryDir dir;
    SecretBox box;
    QString error;
    QVERIFY(box.open(dir.filePath(QStringLiteral("k")), &error));
    const QString secret = QStringLiteral("whsec_ünïcode-✓-%1").arg(42);
    const QString sealed = box.seal(secret);
    QVERIFY(sealed.startsWith(QLatin1String("v1.")));
    QVERIFY(box.seal(secret) != sealed); // a fresh nonce every time
    bool ok = false;
    QCOMPARE(box.unseal(sealed, &ok), secret);
    QVERIFY(ok);
    // The key file is reused on the next open.
    SecretBox again;
    QVERIFY(again.open(dir.filePath(QStringLiteral("k")), &error));
    QCOMPARE(again.unseal(sealed, &ok), secret);
}

void tst_SecretBox::neverLeavesThePlaintextInTheSealedForm()
{
    QTemporaryDir dir;
    SecretBox box;
    QString error;
    QVERIFY(box.open(dir.filePath(QStringLiteral("k")), &error));
    const QString sealed = box.seal(QStringLiteral("plain-secret-value"));
    QVERIFY(!sealed.contains(QLatin1String("plain-secret-value")));
    const QByteArray decoded =
        QByteArray::fromBase64(sealed.mid(3).toLatin1(), QByteArray::Base64UrlEncoding);
    QVERIFY(!decoded.contains("plain-secret-value"));
}

void tst_SecretBox::refusesATamperedValue()
{
    QTemporaryDir dir;
    SecretBox box;
    QString error;
    QVERIFY(box.open(dir.filePath(QStringLiteral("k")), &error));
    QString sealed = box.seal(QStringLiteral("abc"));
    sealed[sealed.size() - 5] =
        sealed[sealed.size() - 5] == QLatin1Char('A') ? QLatin1Char('B') : QLatin1Char('A');
    bool ok = true;
    QCOMPARE(box.unseal(sealed, &ok), QString());
    QVERIFY(!ok);
}

void tst_SecretBox::refusesAValueSealedWithAnotherKey()
{
    QTemporaryDir a, b;
    SecretBox boxA, boxB;
    QString error;
    QVERIFY(boxA.open(a.filePath(QStringLiteral("k")), &error));
    QVERIFY(boxB.open(b.filePath(QStringLiteral("k")), &error));
    bool ok = true;
    boxB.unseal(boxA.seal(QStringLiteral("abc")), &ok);
    QVERIFY(!ok);
}

void tst_SecretBox::refusesAKeyFileOfTheWrongSize()
{
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("short.key")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("too short");
    f.close();
    SecretBox box;
    QString error;
    QVERIFY(!box.open(f.fileName(), &error));
    QVERIFY(error.contains(QLatin1String("32-byte")));
}

QTEST_GUILESS_MAIN(tst_SecretBox)
#include "tst_secretbox.moc"
