#include "RunOutcome.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace ph::engine {

namespace {

using RE = QRegularExpression;
constexpr auto CI = QRegularExpression::CaseInsensitiveOption;

// Tools that only read (or ask): anything else a run calls changes something.
bool readsOnly(const QString &tool)
{
    static const QStringList reading = {QStringLiteral("crawl_and_extract_from_tab"),
                                        QStringLiteral("ask_user"),
                                        QStringLiteral("ask_questions"),
                                        QStringLiteral("sheets_access"),
                                        QStringLiteral("website"),
                                        QStringLiteral("finish")};
    return reading.contains(tool);
}

// A click or key press that signs in is the way to the page, not the action asked for.
bool signsIn(const QJsonObject &args, const QJsonObject &output)
{
    static const RE signIn(QStringLiteral("\\b(sign(?:ing)?[ -]?in|log(?:ging)?[ -]?in|login|"
                                          "anmelden|einloggen|connexion|se connecter|"
                                          "iniciar sesi[oó]n|entrar)\\b"),
                           CI);
    const QString name =
        output.value(QStringLiteral("element")).toObject().value(QStringLiteral("name")).toString();
    return signIn.match(name).hasMatch() ||
           signIn.match(args.value(QStringLiteral("target")).toString()).hasMatch();
}

} // namespace

void RunOutcome::observe(const QString &tool, const QJsonObject &args, bool ok,
                         const QJsonObject &output)
{
    if (!ok)
        return;
    const QString action = args.value(QStringLiteral("action")).toString();
    if (tool == QLatin1String("act_on_tab")) {
        const bool loads = action == QLatin1String("navigate") ||
                           output.value(QStringLiteral("navigated")).toBool();
        if (loads) {
            m_httpStatus = output.value(QStringLiteral("httpStatus")).toInt();
            m_url = output.value(QStringLiteral("url")).toString();
        }
        const bool acts =
            action == QLatin1String("click") || action == QLatin1String("press") ||
            action == QLatin1String("submit") ||
            (action == QLatin1String("type") && args.value(QStringLiteral("submit")).toBool());
        if (acts && !signsIn(args, output))
            m_acted = true;
        return;
    }
    if (tool == QLatin1String("crawl_and_extract_from_tab")) {
        // The status of the page it opened itself; a crawl of the open tab keeps the last.
        if (output.contains(QStringLiteral("httpStatus")) || args.contains(QStringLiteral("url"))) {
            m_httpStatus = output.value(QStringLiteral("httpStatus")).toInt();
            m_url = output.value(QStringLiteral("url")).toString();
        }
        return;
    }
    if (!readsOnly(tool) &&
        !(tool == QLatin1String("docs_access") && action == QLatin1String("read")))
        m_acted = true;
}

QString RunOutcome::requestedAction(const QString &task)
{
    // An imperative at the start of the task or of a clause, taking an object: "place
    // the order", "buy it", "book a table", "submit the form". "Order … by" sorts and
    // "check out" may mean "look at": neither counts.
    static const RE verb(
        QStringLiteral(
            "(?:^|[\\n;:]|[.!?]\\s+|\\bthen\\s+|\\band\\s+|\\bund\\s+|\\bdann\\s+|\\bet\\s+|"
            "\\by\\s+)(?:(?:please|pls|kindly|now|also|just|could you|can you|would you|"
            "bitte|jetzt|s'il vous pla[iî]t|por favor)\\s+)*"
            "((?:place|submit|send|buy|purchase|order(?![^.;\\n]{0,40}\\bby\\b)|book|reserve|"
            "pay(?:\\s+for)?|confirm|delete|cancel|subscribe|unsubscribe|register|"
            "sign\\s+up|publish|upload|donate|vote|transfer|"
            "bestelle|kaufe|buche|reserviere|sende|schicke|bezahle|l[öo]sche|storniere|"
            "k[üu]ndige|abonniere|registriere|best[äa]tige|"
            "commande[zr]?|ach[eè]te[zr]?|r[ée]serve[zr]?|envoie[zr]?|paye[zr]?|"
            "supprime[zr]?|annule[zr]?|confirme[zr]?|"
            "compra|comprar|reserva|reservar|env[ií]a|enviar|paga|pagar|elimina|cancela|"
            "confirma|pide)\\s+(?:(?!(?:and|then|und|dann|et|y)\\b)[\\w\\x{00C0}-\\x{024F}\"'“„-]+"
            "\\s*){1,3}|"
            "add\\s+(?:\\S+\\s+){0,4}?to\\s+(?:the\\s+|my\\s+)?(?:cart|basket|bag)\\b|"
            "check\\s*out\\s+(?:the\\s+)?(?:basket|cart|order)\\b)"),
        CI);
    const auto m = verb.match(task);
    if (!m.hasMatch())
        return {};
    return m.captured(1).simplified().toLower().remove(
        QRegularExpression(QStringLiteral("\\s+(?:and|then|und|dann|et|y)$")));
}

QString RunOutcome::verdict(const QString &task) const
{
    if (m_httpStatus >= 400)
        return QStringLiteral("the page answered HTTP %1%2: an error page is not what the task "
                              "asked for")
            .arg(m_httpStatus)
            .arg(m_url.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(m_url));
    if (m_acted)
        return {};
    const QString action = requestedAction(task);
    if (action.isEmpty())
        return {};
    return QStringLiteral("the task asks to %1, and the run did not: it only read the page "
                          "(nothing was clicked, pressed or submitted)")
        .arg(action);
}

} // namespace ph::engine
