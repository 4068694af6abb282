#include "ConsentPage.h"

#include <QUrl>

namespace ph::oauth::ConsentPage {

namespace {

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

QByteArray page(const QString &title, const QString &body)
{
    return QStringLiteral(
               "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
               "<title>%1</title><style>body{font-family:system-ui,sans-serif;max-width:34rem;"
               "margin:3rem auto;padding:0 1rem;color:#1d2430}h1{font-size:1.4rem}"
               ".box{border:1px solid #ccd;border-radius:8px;padding:1rem;margin:1rem 0}"
               "code{word-break:break-all}label{display:block;margin:.5rem 0}"
               "input[type=password]{width:100%;padding:.4rem}button{padding:.5rem 1rem;"
               "margin-right:.5rem}.problem{color:#a00}</style></head><body>%2</body></html>")
        .arg(esc(title), body)
        .toUtf8();
}

QString describe(const Client &c)
{
    const QUrl redirect(c.redirectUri);
    return QStringLiteral("<div class=\"box\"><p><strong>%1</strong> asks to use Pilothouse's MCP "
                          "endpoint <code>%2</code>.</p><p>Client: <code>%3</code><br>After you "
                          "answer, your browser goes to <code>%4</code>.</p></div>")
        .arg(esc(c.name), esc(c.resource), esc(c.id),
             esc(redirect.scheme() + QStringLiteral("://") + redirect.authority()));
}

QString hidden(const QString &consentId, const QString &csrf, const QString &step)
{
    return QStringLiteral("<input type=\"hidden\" name=\"consent\" value=\"%1\">"
                          "<input type=\"hidden\" name=\"csrf\" value=\"%2\">"
                          "<input type=\"hidden\" name=\"step\" value=\"%3\">")
        .arg(esc(consentId), esc(csrf), esc(step));
}

} // namespace

QByteArray signIn(const Client &client, const QString &consentId, const QString &csrf,
                  const QString &method, const QString &problem)
{
    const bool idToken = method == QLatin1String("idToken");
    const QString label = idToken ? QStringLiteral("Your ID token from the identity provider")
                                  : QStringLiteral("The owner key of this Pilothouse");
    const QString body =
        QStringLiteral("<h1>Sign in to Pilothouse</h1>%1%2<form method=\"post\" "
                       "action=\"/oauth/authorize\">%3<label>%4<input type=\"password\" "
                       "name=\"credential\" autocomplete=\"off\" required></label>"
                       "<button type=\"submit\" name=\"decision\" value=\"signin\">Sign in"
                       "</button><button type=\"submit\" name=\"decision\" value=\"deny\" "
                       "formnovalidate>Deny</button></form>")
            .arg(describe(client),
                 problem.isEmpty()
                     ? QString()
                     : QStringLiteral("<p class=\"problem\">%1</p>").arg(esc(problem)),
                 hidden(consentId, csrf, QStringLiteral("signin")), esc(label));
    return page(QStringLiteral("Sign in to Pilothouse"), body);
}

QByteArray chooseKey(const Client &client, const QString &consentId, const QString &csrf,
                     const QList<KeyChoice> &keys)
{
    QString list;
    bool first = true;
    for (const KeyChoice &k : keys) {
        list +=
            QStringLiteral("<label><input type=\"radio\" name=\"key\" value=\"%1\"%2> %3 "
                           "<code>%4…</code>%5</label>")
                .arg(esc(k.id), first ? QStringLiteral(" checked") : QString(), esc(k.label),
                     esc(k.prefix), k.owner ? QStringLiteral(" (owner: everything)") : QString());
        first = false;
    }
    const QString body =
        QStringLiteral("<h1>Allow access?</h1>%1<form method=\"post\" action=\"/oauth/authorize\">"
                       "%2<p>The client acts with the capabilities of the API key you choose "
                       "(and spends its credits):</p>%3<button type=\"submit\" name=\"decision\" "
                       "value=\"allow\">Allow</button><button type=\"submit\" name=\"decision\" "
                       "value=\"deny\">Deny</button></form>")
            .arg(describe(client), hidden(consentId, csrf, QStringLiteral("choose")), list);
    return page(QStringLiteral("Allow access?"), body);
}

QByteArray error(const QString &message)
{
    return page(QStringLiteral("Sign-in failed"),
                QStringLiteral("<h1>This sign-in cannot go on</h1><p class=\"problem\">%1</p>"
                               "<p>Start again from your MCP client.</p>")
                    .arg(esc(message)));
}

QList<QPair<QByteArray, QByteArray>> headers()
{
    return {{"Content-Security-Policy",
             "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; "
             "base-uri 'none'"},
            {"X-Frame-Options", "DENY"},
            {"Cache-Control", "no-store"},
            {"Referrer-Policy", "no-referrer"},
            {"X-Content-Type-Options", "nosniff"}};
}

} // namespace ph::oauth::ConsentPage
