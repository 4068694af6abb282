#include "FormBody.h"

#include "core/DomainError.h"

#include <QUrl>

namespace ph::oauth {

namespace {
DomainError invalid(const QString &field, const QString &message)
{
    return DomainError(DomainError::Kind::Invalid, QStringLiteral("OAUTH_INVALID_REQUEST"), message,
                       field);
}

QString decoded(QByteArray part)
{
    part.replace('+', ' ');
    return QUrl::fromPercentEncoding(part);
}
} // namespace

FormBody FormBody::parse(const QByteArray &body)
{
    if (body.size() > kMaxBytes)
        throw invalid(QString(), QStringLiteral("the form is over %1 bytes").arg(kMaxBytes));
    FormBody form;
    const QList<QByteArray> pairs = body.split('&');
    for (const QByteArray &pair : pairs) {
        if (pair.isEmpty())
            continue;
        const qsizetype eq = pair.indexOf('=');
        const QString name = decoded(eq < 0 ? pair : pair.left(eq));
        const QString value = eq < 0 ? QString() : decoded(pair.mid(eq + 1));
        if (name.isEmpty())
            throw invalid(QString(), QStringLiteral("a form field has no name"));
        if (form.fields.contains(name))
            throw invalid(name, QStringLiteral("%1 is sent more than once").arg(name));
        if (form.fields.size() >= kMaxFields)
            throw invalid(name, QStringLiteral("the form has more than %1 fields").arg(kMaxFields));
        form.fields.insert(name, value);
    }
    return form;
}

QString FormBody::required(const QString &name) const
{
    const QString v = fields.value(name);
    if (v.isEmpty())
        throw invalid(name, QStringLiteral("%1 is required").arg(name));
    return v;
}

} // namespace ph::oauth
