#pragma once

#include "HttpClient.h"

#include <QCryptographicHash>
#include <QRegularExpression>
#include <QString>

namespace ph::test {

// Why the HTML page `r` is not served under a strict Content-Security-Policy, or empty:
// nothing loads by default, no other site frames it, forms post to its own origin only,
// nothing inline is allowed wholesale, and each inline <style> and <script> it has is
// allowed by its SHA-256 (and no style="" attribute or inline handler needs more).
inline QString strictCspProblem(const HttpResponse &r)
{
    const QString csp = QString::fromLatin1(r.header("content-security-policy"));
    if (csp.isEmpty())
        return QStringLiteral("no Content-Security-Policy");
    QStringList directives;
    for (const QString &d : csp.split(u';', Qt::SkipEmptyParts))
        directives << d.simplified();
    for (const QString &wanted :
         {QStringLiteral("default-src 'none'"), QStringLiteral("frame-ancestors 'none'"),
          QStringLiteral("form-action 'self'")})
        if (!directives.contains(wanted))
            return QStringLiteral("%1 lacks %2").arg(csp, wanted);
    if (csp.contains(QLatin1String("unsafe-")) || csp.contains(u'*'))
        return QStringLiteral("%1 allows too much").arg(csp);
    const QString html = QString::fromUtf8(r.body);
    static const QRegularExpression inlineBlock(QStringLiteral("<(style|script)>(.*?)</\\1>"),
                                                QRegularExpression::DotMatchesEverythingOption);
    for (auto it = inlineBlock.globalMatch(html); it.hasNext();) {
        const auto m = it.next();
        const QString source =
            QStringLiteral("'sha256-%1'")
                .arg(QString::fromLatin1(
                    QCryptographicHash::hash(m.captured(2).toUtf8(), QCryptographicHash::Sha256)
                        .toBase64()));
        const QString directive = m.captured(1) + QStringLiteral("-src");
        bool allowed = false;
        for (const QString &d : directives)
            allowed |= d.startsWith(directive + u' ') && d.split(u' ').contains(source);
        if (!allowed)
            return QStringLiteral("the page's inline %1 is not allowed by %2")
                .arg(m.captured(1), csp);
    }
    static const QRegularExpression inlineAttribute(QStringLiteral("\\s(style|on[a-z]+)="));
    if (html.contains(inlineAttribute))
        return QStringLiteral("the page has inline attributes the policy refuses");
    return {};
}

} // namespace ph::test
