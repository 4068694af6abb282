#include "TaskParser.h"

#include <QRegularExpression>
#include <QUrl>

#include <algorithm>

namespace ph::engine {

namespace {

// A URL with a scheme, or a host name with a dot ("example.org/path").
bool looksLikeAddress(const QString &word)
{
    if (word.contains(QLatin1String("://")))
        return true;
    const QString host = word.section(QLatin1Char('/'), 0, 0);
    return host.contains(QLatin1Char('.')) && !host.endsWith(QLatin1Char('.')) &&
           !host.startsWith(QLatin1Char('.'));
}

using RE = QRegularExpression;
constexpr auto CI = QRegularExpression::CaseInsensitiveOption;

const QStringList kKinds = {
    QStringLiteral("open"),    QStringLiteral("click"),          QStringLiteral("type"),
    QStringLiteral("select"),  QStringLiteral("check"),          QStringLiteral("uncheck"),
    QStringLiteral("press"),   QStringLiteral("waitText"),       QStringLiteral("waitMs"),
    QStringLiteral("scroll"),  QStringLiteral("search"),         QStringLiteral("login"),
    QStringLiteral("extract"), QStringLiteral("sheetsWorkflow"), QStringLiteral("generate"),
    QStringLiteral("ask"),     QStringLiteral("readSheets")};

const QStringList kKeys = {
    QStringLiteral("enter"),      QStringLiteral("return"),    QStringLiteral("tab"),
    QStringLiteral("escape"),     QStringLiteral("esc"),       QStringLiteral("space"),
    QStringLiteral("backspace"),  QStringLiteral("delete"),    QStringLiteral("arrowdown"),
    QStringLiteral("arrowup"),    QStringLiteral("arrowleft"), QStringLiteral("arrowright"),
    QStringLiteral("arrow down"), QStringLiteral("arrow up"),  QStringLiteral("pagedown"),
    QStringLiteral("pageup"),     QStringLiteral("home"),      QStringLiteral("end")};

// Quoted strings are set aside first, so their content never splits a clause or
// matches a verb: "…" and “…” become \x01N\x01.
QString protect(const QString &input, QStringList &quoted)
{
    static const RE quote(
        QStringLiteral("[\"\u201c\u201e]([^\"\u201c\u201d\u201e]*)[\"\u201d\u201c]"));
    QString out;
    qsizetype last = 0;
    auto it = quote.globalMatch(input);
    while (it.hasNext()) {
        const auto m = it.next();
        out += input.mid(last, m.capturedStart() - last);
        out += QChar(1) + QString::number(quoted.size()) + QChar(1);
        quoted << m.captured(1);
        last = m.capturedEnd();
    }
    out += input.mid(last);
    return out;
}

QString restore(QString text, const QStringList &quoted)
{
    static const RE token(QStringLiteral("\\x01(\\d+)\\x01"));
    auto m = token.match(text);
    while (m.hasMatch()) {
        text.replace(m.capturedStart(), m.capturedLength(), quoted.value(m.captured(1).toInt()));
        m = token.match(text);
    }
    return text.trimmed();
}

const QString T = QStringLiteral("(\\x01\\d+\\x01)"); // a quoted token
const QString VERBS = QStringLiteral(
    "open|go to|navigate|visit|load|click|tap|type|enter|fill|write|select|choose|pick|press|"
    "wait|scroll|search|check|uncheck|tick|untick|submit|extract|list|get|find|return|collect|"
    "look up|download|fetch|show|read|scrape|summari[sz]e|give|pull|grab|export|copy|capture|"
    "gather|retrieve|save|compile|liste|zeige|hole|hol|sammle|suche|"
    "durchsuche|lies|klicke|öffne|gib|warte|scrolle");

int toMs(double n, const QString &unit)
{
    return unit.startsWith(QLatin1String("ms")) || unit.startsWith(QLatin1String("milli"))
               ? int(n)
               : int(n * 1000);
}

} // namespace

QJsonObject TaskOp::toJson() const
{
    QJsonObject o{{QStringLiteral("kind"), kKinds.at(int(kind))}};
    if (!a.isEmpty())
        o.insert(QStringLiteral("a"), a);
    if (!b.isEmpty())
        o.insert(QStringLiteral("b"), b);
    if (n)
        o.insert(QStringLiteral("n"), n);
    if (!args.isEmpty())
        o.insert(QStringLiteral("args"), args);
    return o;
}

TaskOp TaskOp::fromJson(const QJsonObject &o)
{
    TaskOp op{
        Kind(qMax(0, int(kKinds.indexOf(o.value(QStringLiteral("kind")).toString())))), {}, {}, 0};
    op.a = o.value(QStringLiteral("a")).toString();
    op.b = o.value(QStringLiteral("b")).toString();
    op.n = o.value(QStringLiteral("n")).toInt();
    op.args = o.value(QStringLiteral("args")).toObject();
    return op;
}

namespace {

// The patterns of the clauses the rule planner understands (a table; readClause tries
// them in order).
struct ClausePatterns
{
    RE open;
    RE click;
    RE typeInto;
    RE fillWith;
    RE select;
    RE check;
    RE pressKey;
    RE waitText;
    RE waitTime;
    RE scroll;
    RE search;
    RE searchWhereFor;
    RE searchBox;
    RE lookUp;
    RE suche;
    RE extractVerb;
    RE direct;
};

const ClausePatterns &clausePatterns()
{
    static const RE open(
        QStringLiteral("^(?:please\\s+)?(?:open|go to|navigate to|visit|load|browse "
                       "to)\\s+(?:the\\s+(?:page|url|site)\\s+)?(\\S+)"),
        CI);
    static const RE click(
        QStringLiteral("^(?:please\\s+|bitte\\s+)?(?:click|tap|hit|press|push|klicke|klick)\\s+"
                       "(?:on\\s+|auf\\s+)?(?:the\\s+|den\\s+|die\\s+|das\\s+)?%1")
            .arg(T),
        CI);
    static const RE typeInto(QStringLiteral("^(?:please\\s+)?(?:type|enter|write|input|put)\\s+%"
                                            "1\\s+(?:into|in|on|to)\\s+(?:the\\s+)?%1")
                                 .arg(T),
                             CI);
    static const RE fillWith(
        QStringLiteral(
            "^(?:please\\s+)?fill(?:\\s+in|\\s+out)?\\s+(?:the\\s+)?%1\\s+(?:field\\s+)?with\\s+%1")
            .arg(T),
        CI);
    static const RE select(QStringLiteral("^(?:please\\s+)?(?:select|choose|pick)\\s+%1\\s+(?:in|"
                                          "from|for|as|on)\\s+(?:the\\s+)?%1")
                               .arg(T),
                           CI);
    static const RE check(
        QStringLiteral("^(?:please\\s+)?(check|tick|uncheck|untick)\\s+(?:the\\s+)?%1").arg(T), CI);
    static const RE pressKey(QStringLiteral("^(?:please\\s+)?press\\s+(?:the\\s+)?(?:%1|([a-z]+(?:"
                                            "\\s(?!key\\b)[a-z]+)?))(?:\\s+key)?\\s*$")
                                 .arg(T),
                             CI);
    static const RE waitText(
        QStringLiteral("^wait\\s+(?:for\\s+|until\\s+)?(?:the\\s+text\\s+)?%1").arg(T), CI);
    static const RE waitTime(QStringLiteral("^(?:wait|warte)\\s+(?:for\\s+)?(\\d+(?:\\.\\d+)?)\\s*("
                                            "ms|milliseconds?|millisekunden|s|secs?|"
                                            "seconds?|sekunden?)\\b"),
                             CI);
    static const RE scroll(
        QStringLiteral("^(?:scroll|scrolle)\\s+(down|up|to the bottom|to the top|to bottom|to top|"
                       "ganz nach unten|ganz nach oben|nach unten|nach oben)"),
        CI);
    static const RE search(QStringLiteral("\\bsearch\\s+(?:the\\s+site\\s+)?(?:for\\s+)?(?:%1|([^,;"
                                          ".]+?))(?:\\s+(?:on|in|at|and|then|to)\\s+.*)?$")
                               .arg(T),
                           CI);
    // "search <where> for <what>", "search in <where> for <what>", "look up <what> in
    // <where>", "durchsuche <where> nach <what>", "suche (nach) <what> (auf|in) <where>":
    // the words naming the place are never part of the query.
    static const RE searchWhereFor(
        QStringLiteral("\\b(?:search|browse)\\s+(?:in\\s+|on\\s+|through\\s+|within\\s+)?(?!for\\b)"
                       "(?:the\\s+)?"
                       "[^,;\\x01]+?\\s+for\\s+(?:%1|([^,;.]+?))(?:\\s+(?:and|then)\\s+.*)?$")
            .arg(T),
        CI);
    // "type <term> into the search box", "use the search to find <term>", "find <term>
    // using the search".
    static const RE searchBox(
        QStringLiteral(
            "^(?:please\\s+)?(?:type|enter|write|put)\\s+(?:%1|([^,;.]+?))\\s+(?:into|in)\\s+"
            "(?:the\\s+)?search(?:\\s+(?:box|field|bar|form))?\\b|\\b(?:use|using)\\s+the\\s+"
            "search(?:\\s+(?:box|field|bar|form|function))?\\s+(?:to\\s+)?(?:find|look\\s+for|"
            "search"
            "\\s+for)\\s+(?:%1|([^,;.]+?))(?:\\s+(?:and|then)\\s+.*)?$|\\bfind\\s+(?:%1|([^,;.]+?))"
            "\\s+"
            "(?:using|with|via|through)\\s+the\\s+search")
            .arg(T),
        CI);
    static const RE lookUp(
        QStringLiteral(
            "\\b(?:look\\s+up|search\\s+up)\\s+(?:%1|([^,;.]+?))(?:\\s+(?:on|in|at|and|then|"
            "using)\\s+.*)?$")
            .arg(T),
        CI);
    static const RE suche(
        QStringLiteral("\\b(?:durchsuche|durchsuchen)\\s+[^,;\\x01]+?\\s+nach\\s+(?:%1|([^,;.]+?))"
                       "(?:\\s+(?:und|dann)\\s+.*)?$|\\b(?:suche|suchen|such)\\s+(?:nach\\s+)?(?:%"
                       "1|([^,;.]+?))"
                       "(?:\\s+(?:auf|in|bei|und|dann)\\s+.*)?$")
            .arg(T),
        CI);
    static const RE extractVerb(
        QStringLiteral("^(?:please\\s+)?(?:extract|list|get|find|collect|return|scrape|show|give "
                       "me|tell me|read|what|which|how many|summari[sz]e)\\b"),
        CI);

    static const RE direct(
        QStringLiteral(
            "^(?:(?:please|pls|kindly|could you|can you|would you|will you|bitte|kannst du|"
            "könntest du|können sie)\\s+)*(?:please\\s+)?(?:list|extract|scrape|collect|get|return|"
            "fetch|show|give me|download|read|find all|find every|summari[sz]e|i need|i want|"
            "pull|grab|export|copy|capture|gather|retrieve|save|compile|crawl|harvest|"
            "i'd like|i would like|liste|zeige|zeig|hole|hol|sammle|extrahiere|lies|gib mir|"
            "finde alle|ich brauche|ich möchte)\\b"),
        CI);
    static const ClausePatterns patterns{
        open,   click,  typeInto,       fillWith,  select, check, pressKey,    waitText, waitTime,
        scroll, search, searchWhereFor, searchBox, lookUp, suche, extractVerb, direct};
    return patterns;
}

// Where a "scroll" clause goes: down, up, bottom or top.
QString scrollTarget(const QString &captured)
{
    const QString w = captured.toLower();
    if (w.contains(QLatin1String("bottom")) || w.startsWith(QLatin1String("ganz nach unten")))
        return QStringLiteral("bottom");
    if (w.contains(QLatin1String("top")) || w.startsWith(QLatin1String("ganz nach oben")))
        return QStringLiteral("top");
    if (w == QLatin1String("nach unten"))
        return QStringLiteral("down");
    if (w == QLatin1String("nach oben"))
        return QStringLiteral("up");
    return w;
}

// A clause naming one page step (open, type, fill, select, check, press, click, wait,
// scroll): appended to the plan. False if it names none.
bool readStep(const QString &clause, const QStringList &quoted, const ClausePatterns &p,
              TaskPlan &plan)
{
    QRegularExpressionMatch m;
    // "open https://x.org/a" or "visit example.org" is a step; "open the link" is not.
    if ((m = p.open.match(clause)).hasMatch() && looksLikeAddress(restore(m.captured(1), quoted))) {
        QString url = restore(m.captured(1), quoted);
        if (!url.contains(QLatin1String("://")))
            url.prepend(QStringLiteral("https://"));
        plan.ops.append({TaskOp::Kind::Open, url, {}, 0});
    } else if ((m = p.typeInto.match(clause)).hasMatch()) {
        plan.ops.append({TaskOp::Kind::Type, restore(m.captured(1), quoted),
                         restore(m.captured(2), quoted), 0});
    } else if ((m = p.fillWith.match(clause)).hasMatch()) {
        plan.ops.append({TaskOp::Kind::Type, restore(m.captured(2), quoted),
                         restore(m.captured(1), quoted), 0});
    } else if ((m = p.select.match(clause)).hasMatch()) {
        plan.ops.append({TaskOp::Kind::Select, restore(m.captured(1), quoted),
                         restore(m.captured(2), quoted), 0});
    } else if ((m = p.check.match(clause)).hasMatch()) {
        const bool on = !m.captured(1).toLower().startsWith(QLatin1String("un"));
        plan.ops.append({on ? TaskOp::Kind::Check : TaskOp::Kind::Uncheck,
                         restore(m.captured(2), quoted),
                         {},
                         0});
    } else if ((m = p.pressKey.match(clause)).hasMatch() &&
               kKeys.contains(
                   (m.captured(2).isEmpty() ? restore(m.captured(1), quoted) : m.captured(2))
                       .toLower())) {
        QString key =
            (m.captured(2).isEmpty() ? restore(m.captured(1), quoted) : m.captured(2)).toLower();
        key.remove(QLatin1Char(' '));
        if (key == QLatin1String("return"))
            key = QStringLiteral("enter");
        plan.ops.append({TaskOp::Kind::Press, key, {}, 0});
    } else if ((m = p.click.match(clause)).hasMatch()) {
        plan.ops.append({TaskOp::Kind::Click, restore(m.captured(1), quoted), {}, 0});
    } else if ((m = p.waitText.match(clause)).hasMatch()) {
        plan.ops.append({TaskOp::Kind::WaitText, restore(m.captured(1), quoted), {}, 0});
    } else if ((m = p.waitTime.match(clause)).hasMatch()) {
        plan.ops.append({TaskOp::Kind::WaitMs,
                         {},
                         {},
                         toMs(m.captured(1).toDouble(), m.captured(2).toLower())});
    } else if ((m = p.scroll.match(clause)).hasMatch()) {
        plan.ops.append({TaskOp::Kind::Scroll, scrollTarget(m.captured(1)), {}, 0});
    } else {
        return false;
    }
    return true;
}

// A clause asking for a search ("search for x", "look up x", "suche nach x"): the query
// appended to the plan, and whether the results are wanted. False if it asks none.
bool readSearch(const QString &clause, const QStringList &quoted, const ClausePatterns &p,
                TaskPlan &plan)
{
    QRegularExpressionMatch m;
    if (!((m = p.searchBox.match(clause)).hasMatch() ||
          (m = p.searchWhereFor.match(clause)).hasMatch() ||
          (m = p.lookUp.match(clause)).hasMatch() || (m = p.suche.match(clause)).hasMatch() ||
          (m = p.search.match(clause)).hasMatch()))
        return false;
    QString query;
    for (int i = 1; i <= m.lastCapturedIndex() && query.isEmpty(); ++i)
        if (!m.captured(i).isEmpty())
            query = m.captured(i).contains(QLatin1Char('\x01')) ? restore(m.captured(i), quoted)
                                                                : m.captured(i).trimmed();
    if (!query.isEmpty())
        plan.ops.append({TaskOp::Kind::Search, query, {}, 0});
    if (clause.contains(QRegularExpression(
            QStringLiteral("\\b(list|extract|return|get|collect|results?|ergebnisse|liste)\\b"),
            CI)))
        plan.extractIntent = true;
    return true;
}

// One clause ("click \x010\x01", "wait 2 seconds"): the operation it names, if any,
// and the intents it shows.
void readClause(QString clause, const QStringList &quoted, TaskPlan &plan)
{
    const ClausePatterns &p = clausePatterns();
    clause = clause.trimmed();
    while (clause.endsWith(QLatin1Char('.')) || clause.endsWith(QLatin1Char(',')))
        clause.chop(1);
    if (clause.isEmpty())
        return;
    if (!readStep(clause, quoted, p, plan) && !readSearch(clause, quoted, p, plan) &&
        p.extractVerb.match(clause).hasMatch())
        plan.extractIntent = true;
    if (p.direct.match(restore(clause, quoted)).hasMatch())
        plan.directExtraction = true;
}

// The clauses of a task: split at line breaks, semicolons, sentence ends, "then" and
// "and <verb>", never inside quotes.
void readClauses(const QString &text, const QStringList &quoted, TaskPlan &plan)
{
    static const RE splitter(
        QStringLiteral("\\n|;|\\.\\s+(?=[A-Z\\x01])|,?\\s+(?:and\\s+)?then\\s+"
                       "|,?\\s+(?:und\\s+)?(?:dann|danach)\\s+"
                       "|,?\\s*\\b(?:and|und)\\s+(?=(?:%1)\\b)|,\\s+(?=(?:%1)\\b)")
            .arg(VERBS),
        CI);
    for (const QString &clause : text.split(splitter, Qt::SkipEmptyParts))
        readClause(clause, quoted, plan);
    for (const TaskOp &op : std::as_const(plan.ops)) {
        if (op.kind != TaskOp::Kind::Open && op.kind != TaskOp::Kind::Search)
            plan.explicitSteps = true;
    }
}

// Intents read from the task as a whole: signing in, extraction, pagination, row by row.
void readIntents(const QString &text, const TaskContext &context, TaskPlan &plan)
{
    const QString lower = text.toLower();
    plan.loginIntent = lower.contains(RE(QStringLiteral(
        "\\b(sign(?:ed)?[ -]?in(?:to)?|log(?:ged)?[ -]?in(?:to)?|login|my "
        "account|authenticate|anmelden|"
        "einloggen|melde\\s+(?:mich|dich)\\s+an|mein(?:em)?\\s+konto|mein\\s+profil|"
        "(?:log|sign)\\s+me\\s+in|credentials|zugangsdaten|my\\s+profile|my\\s+dashboard|"
        "my\\s+orders|my\\s+bookings|my\\s+invoices)\\b")));
    if (lower.contains(RE(QStringLiteral("\\b(list|extract|scrape|collect|get|find|return|what|"
                                         "which|how many|show|read|summari[sz]e|all|every|liste|"
                                         "pull|grab|export|copy|capture|gather|retrieve|"
                                         "zeige|hole|sammle|finde|extrahiere|lies|welche|wie viele|"
                                         "alle|jede)\\b"))))
        plan.extractIntent = true;
    static const RE pages(
        QStringLiteral(
            "\\b(?:all|every|each)\\s+(?:the\\s+)?(?:result\\s+|listing\\s+)?pages?\\b|"
            "\\bacross\\s+"
            "(?:all\\s+)?(?:the\\s+)?pages\\b|"
            "\\bpaginat|\\bfollow(?:ing)?\\s+(?:the\\s+)?\\S*next|\\bnext\\s+pages?\\b|"
            "\\b(?:up to|first|over)\\s+(\\d+)\\s+pages\\b|"
            "\\b(\\d+)\\s+pages\\b|"
            "\\b(?:until|till|to|through)\\s+(?:the\\s+)?(?:last\\s+page|end|very\\s+end|"
            "final\\s+page)\\b|\\bpage\\s+(?:by\\s+page|through)\\b|\\bgo(?:ing)?\\s+through\\s+"
            "(?:all\\s+)?(?:the\\s+)?pages\\b|\\bload(?:ing)?\\s+more\\b|\\bwhole\\s+(?:list|"
            "listing|catalog(?:ue)?)\\b|"
            "\\b(?:alle|allen|jede|jeder|jeden)\\s+(?:der\\s+)?(?:ergebnis)?seiten?\\b|"
            "\\bersten\\s+(\\d+)\\s+seiten\\b|"
            "\\bbis\\s+zum\\s+ende\\b|\\bbis\\s+zur\\s+letzten\\s+seite\\b|\\bmehr\\s+laden\\b|"
            "\\bweitere\\s+laden\\b|\\bseitenweise\\b|"
            "\\b(?:click(?:ing)?|press(?:ing)?|hit(?:ting)?)\\s+(?:on\\s+)?(?:the\\s+)?[\"'\\x01]?"
            "next\\b|"
            "\\bno\\s+more\\s+pages\\b|\\bpages?\\s+1\\s*(?:-|to|through|bis)\\s*(\\d+)\\b"),
        CI);
    const auto pm = pages.match(text);
    if (pm.hasMatch()) {
        plan.paginate = true;
        // The page cap, wherever the task writes it (not only in the phrase that matched).
        static const RE count(
            QStringLiteral(
                "\\b(?:up to|first|over)\\s+(\\d+)\\s+pages\\b|\\b(\\d+)\\s+pages\\b|\\bersten\\s+"
                "(\\d+)\\s+seiten\\b|\\bpages?\\s+1\\s*(?:-|to|through|bis)\\s*(\\d+)\\b"),
            CI);
        const auto cm = count.match(text);
        QString n;
        for (int i = 1; cm.hasMatch() && i <= cm.lastCapturedIndex() && n.isEmpty(); ++i)
            n = cm.captured(i);
        if (!n.isEmpty())
            plan.maxPages = n.toInt();
    }
    plan.eachRow = context.hasData &&
                   lower.contains(RE(QStringLiteral(
                       "\\b(for each|for every|each row|every row|per row|each url|every url|"
                       "each link|every link|each of the|each item|every item|each entry|"
                       "every entry|for all rows|each line|every line|für jede|für jeden|"
                       "jede zeile|jeder zeile|jede url|jeden link|pro zeile)\\b")));
}

// A condition on the records: a bound on a number ("under 20 €", "more than 1,000",
// "unter 20 Euro", "moins de 20 €", "más de 100") or "in stock". A bound on pages, results
// or items is a limit of the reading, not a filter.
void readFilter(const QString &text, TaskPlan &plan)
{
    static const QString number = QStringLiteral(
        "\\s*(?:[$€£]\\s*)?(\\d[\\d.,']*)(?!\\s*(?:pages?|seiten?|results?|items?|ergebnisse|"
        "records?|rows?|entries|eintr[äa]ge|pages|páginas|r[ée]sultats))");
    static const RE below(QStringLiteral("\\b(?:under|below|less than|cheaper than|at most|no "
                                         "more than|unter|weniger als|h[öo]chstens|g[üu]nstiger "
                                         "als|moins de|au plus|menos de|como m[áa]ximo)") +
                              number,
                          CI);
    static const RE above(QStringLiteral("\\b(?:over|above|more than|at least|pricier than|"
                                         "[üu]ber|mehr als|mindestens|teurer als|plus de|au "
                                         "moins|m[áa]s de|al menos)") +
                              number,
                          CI);
    static const RE stock(
        QStringLiteral("\\b(?:in stock|on stock|auf lager|vorr[äa]tig|en stock|disponibles?\\s+"
                       "en\\s+stock|en existencia)\\b"),
        CI);
    auto value = [](const QString &digits) -> std::optional<double> {
        QString d = digits;
        d.remove(QLatin1Char('\''));
        // 1,234.50 / 1.234,50 / 1,234 / 12,50: the last separator followed by 1-2 digits
        // is the decimal one.
        static const RE decimals(QStringLiteral("[.,](\\d{1,2})$"));
        const auto m = decimals.match(d);
        QString whole = m.hasMatch() ? d.left(m.capturedStart()) : d;
        whole.remove(QLatin1Char(',')).remove(QLatin1Char('.'));
        bool ok = false;
        const double v = (whole + (m.hasMatch() ? QStringLiteral(".") + m.captured(1) : QString()))
                             .toDouble(&ok);
        return ok ? std::optional<double>(v) : std::nullopt;
    };
    if (const auto m = below.match(text); m.hasMatch())
        plan.filter.max = value(m.captured(1));
    if (const auto m = above.match(text); m.hasMatch())
        plan.filter.min = value(m.captured(1));
    plan.filter.inStock = stock.match(text).hasMatch();
}

// Files the task asks for in plain words: a Word document, slides, a PDF.
void readDeliverables(const QString &text, TaskPlan &plan)
{
    static const RE word(
        QStringLiteral(
            "\\bword[ -](?:document|doc|file|report|dokument|datei)\\b|\\bms[ -]word\\b|"
            "\\bdocx\\b|\\b(?:as|in|into|to)\\s+word\\b|\\bodt\\b|\\bopendocument[ -]text\\b|"
            "\\blibreoffice\\s+writer\\b"),
        CI);
    static const RE odt(
        QStringLiteral("\\bodt\\b|\\bopendocument[ -]text\\b|\\blibreoffice\\s+writer\\b"), CI);
    // Slides only as something to make ("make slides of them", "a deck", "as a
    // presentation", ".pptx"), never a word of the page ("list the water slides").
    static const RE slides(
        QStringLiteral(
            "\\b(?:make|create|build|produce|prepare|generate|write|put\\s+together|draft|"
            "erstelle|mach|mache)\\s+(?:(?:me|us|a|an|some|the|few|short|small|simple|quick|"
            "nice|brief|\\d+|eine?n?)\\s+)*(?:slides?|slide\\s*deck|deck|presentation|"
            "powerpoint|folien|präsentation)\\b|"
            "\\b(?:as|into|in|to)\\s+(?:a\\s+|an\\s+|some\\s+)?(?:slides|slide\\s*deck|deck|"
            "presentation|powerpoint|pptx|folien|präsentation)\\b|"
            "\\bpptx\\b|\\bodp\\b|\\bopendocument[ -]presentation\\b|\\blibreoffice\\s+impress\\b"),
        CI);
    static const RE odp(
        QStringLiteral("\\bodp\\b|\\bopendocument[ -]presentation\\b|\\blibreoffice\\s+impress\\b"),
        CI);
    static const RE pdf(
        QStringLiteral(
            "\\b(?:as|into|to|in)\\s+(?:a\\s+|an\\s+|one\\s+)?pdf\\b|"
            "\\b(?:make|create|build|produce|prepare|generate|write|export|render|print|"
            "erstelle|mach|mache)\\s+(?:(?:me|us|a|an|one|the|it|them|this|that|short|small|"
            "simple|nice|brief|eine?n?)\\s+)*pdf\\b|"
            "\\bpdf[ -](?:report|document|file|version|summary|export|datei|dokument)\\b"),
        CI);
    if (word.match(text).hasMatch())
        plan.deliverables.append({QStringLiteral("docs_access"), odt.match(text).hasMatch()
                                                                     ? QStringLiteral("odt")
                                                                     : QStringLiteral("docx")});
    if (slides.match(text).hasMatch())
        plan.deliverables.append({QStringLiteral("slides_access"), odp.match(text).hasMatch()
                                                                       ? QStringLiteral("odp")
                                                                       : QStringLiteral("pptx")});
    if (pdf.match(text).hasMatch())
        plan.deliverables.append({QStringLiteral("pdf_generator"), QString()});
}

// Credentials written in the task: email "…", password "…", user: "…".
void readCredentials(const QString &text, const QStringList &quoted, TaskPlan &plan)
{
    static const RE credential(
        QStringLiteral("\\b(e-?mail|username|user "
                       "name|user|login|password|passwort|pin|code)\\s*(?:is|:|=)?\\s*%1")
            .arg(T),
        CI);
    auto cm = credential.globalMatch(text);
    while (cm.hasNext()) {
        const auto m = cm.next();
        QString key = m.captured(1).toLower().remove(QLatin1Char('-')).remove(QLatin1Char(' '));
        if (key == QLatin1String("passwort") || key == QLatin1String("pin"))
            key = QStringLiteral("password");
        if (key == QLatin1String("user") || key == QLatin1String("login"))
            key = QStringLiteral("username");
        plan.credentials.insert(key, restore(m.captured(2), quoted));
    }
}

// The page to start from, then the sign-in, the steps, then extraction (or the sheet
// workflow), and the generated files last.
void assemble(const QString &text, const QStringList &quoted, const TaskContext &context,
              TaskPlan &plan)
{
    static const RE urlInText(QStringLiteral("\\bhttps?://[^\\s\"'<>]+"), CI);
    const bool opensFirst = !plan.ops.isEmpty() && plan.ops.first().kind == TaskOp::Kind::Open;
    if (!opensFirst) {
        QString start = context.urls.value(0);
        if (start.isEmpty()) {
            const auto u = urlInText.match(restore(text, quoted));
            if (u.hasMatch())
                start = u.captured(0);
        }
        if (!start.isEmpty())
            plan.ops.prepend({TaskOp::Kind::Open, start, {}, 0});
    }
    if (plan.loginIntent && !plan.ops.isEmpty())
        plan.ops.insert(1, {TaskOp::Kind::Login, {}, {}, 0});
    if (plan.eachRow) {
        plan.ops.append({TaskOp::Kind::SheetsWorkflow, {}, {}, 0});
    } else if (context.hasSchema || plan.extractIntent || !plan.explicitSteps ||
               !plan.deliverables.isEmpty()) {
        // (A file asked for is written from what the page shows after the steps.)
        if (!plan.ops.isEmpty() || context.pageOpen) {
            plan.ops.append({TaskOp::Kind::Extract, {}, {}, 0});
            // The first URL loads in the tab; the others are read after it.
            for (qsizetype i = 1; i < context.urls.size(); ++i)
                plan.ops.append({TaskOp::Kind::Extract, context.urls.at(i), {}, 0});
        }
    }
    if (plan.ops.isEmpty())
        plan.ops.append(
            {context.hasData ? TaskOp::Kind::ReadSheets : TaskOp::Kind::Ask, {}, {}, 0});
    // The files the task asks for in words, then those of tools.enableAdditionalTools.
    for (const auto &[tool, format] : std::as_const(plan.deliverables))
        plan.ops.append({TaskOp::Kind::Generate, tool, format, 0});
    for (const QString &tool : context.additionalTools) {
        if (tool == QLatin1String("generate_sheets") || tool == QLatin1String("generate_pdfs") ||
            tool == QLatin1String("generate_docs") || tool == QLatin1String("screenshot") ||
            tool == QLatin1String("generate_websites"))
            plan.ops.append({TaskOp::Kind::Generate, tool, {}, 0});
    }
}

// "Fill the form at <url> with name "Ada Lovelace" and email "ada@example.org", check
// "Subscribe"" with pdf_filling enabled: the whole task is the form's values. The form is
// the URL written in the task (else a PDF among `urls`, else the tool's own choice among
// file_urls); its values are the type, select, check and uncheck steps the task names
// after the form and its `field "value"` / `field: value` pairs; "for each row" fills one
// form per row of the first sheet.
bool readFormFill(const QString &text, const QStringList &quoted, const TaskContext &context,
                  TaskPlan &plan)
{
    if (!context.additionalTools.contains(QStringLiteral("pdf_filling")))
        return false;
    static const RE fill(
        QStringLiteral("\\b(?:fill(?:\\s+(?:in|out))?|complete|fülle|ausfüllen)\\b"
                       "(?!\\s+\\x01)[^;\\n]*?\\b(?:forms?|pdfs?|formulare?|antrag)\\b"),
        CI);
    const auto m = fill.match(text);
    if (!m.hasMatch())
        return false;
    TaskOp op{TaskOp::Kind::Generate, QStringLiteral("pdf_filling")};
    QJsonObject values;
    // The form: the URL in the task, else a PDF among (or the first of) the urls.
    static const RE urlInText(QStringLiteral("\\bhttps?://[^\\s\"'<>\\x01]+"), CI);
    QString source;
    const auto u = urlInText.match(text);
    if (u.hasMatch()) {
        source = u.captured(0);
        while (!source.isEmpty() && QStringLiteral(".,;:)").contains(source.back()))
            source.chop(1);
    }
    for (const QString &url : context.urls)
        if (source.isEmpty() &&
            QUrl(url).path().endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
            source = url;
    if (source.isEmpty() && !context.urls.isEmpty())
        source = context.urls.first();
    if (!source.isEmpty())
        op.args.insert(QStringLiteral("url"), source);
    QString rest = text.mid(m.capturedEnd());
    rest.replace(urlInText, QStringLiteral(" "));
    auto add = [&](const QString &field, const QJsonValue &value) {
        QString name = restore(field, quoted).trimmed();
        if (name.endsWith(QLatin1String(" field"), Qt::CaseInsensitive))
            name.chop(6);
        if (!name.isEmpty() && !values.contains(name))
            values.insert(name, value);
    };
    // The steps it names: type "v" into "f", select "v" from "f", (un)check "f".
    static const RE typed(QStringLiteral("\\b(?:type|enter|write|put)\\s+(\\x01\\d+\\x01)\\s+"
                                         "(?:into|in)\\s+(?:the\\s+)?(\\x01\\d+\\x01)"),
                          CI);
    static const RE chosen(QStringLiteral("\\b(?:select|choose|pick)\\s+(\\x01\\d+\\x01)\\s+"
                                          "(?:in|from|for|as)\\s+(?:the\\s+)?(\\x01\\d+\\x01)"),
                           CI);
    static const RE ticked(
        QStringLiteral("\\b(check|tick|uncheck|untick)\\s+(?:the\\s+)?(\\x01\\d+\\x01)"), CI);
    for (const RE *step : {&typed, &chosen}) {
        auto it = step->globalMatch(rest);
        while (it.hasNext()) {
            const auto sm = it.next();
            add(sm.captured(2), restore(sm.captured(1), quoted));
        }
    }
    for (auto it = ticked.globalMatch(rest); it.hasNext();) {
        const auto sm = it.next();
        add(sm.captured(2), !sm.captured(1).toLower().startsWith(QLatin1String("un")));
    }
    // The rest in pieces (at commas, semicolons, "and", "with", "set", "then"), each one
    // `field "value"`, `field: "value"`, `"field": "value"`, `field is "value"`, `field
    // to "value"` or a bare `field: value`; a step's verb is no field name.
    static const RE separator(QStringLiteral("[,;]|\\b(?:and|with|set|then|und|mit)\\b"), CI);
    static const QString start =
        QStringLiteral("^\\s*(?!(?:check|uncheck|tick|untick|select|choose|pick|type|enter|"
                       "write|put|fill|click|press)\\b)(?:(?:the|my|his|her|their|its)\\s+)?");
    static const RE quotedPair(
        start + QStringLiteral("(\\x01\\d+\\x01|[a-z][a-z0-9_ .-]{0,40}?)"
                               "\\s*(?:field\\s*)?(?::|=|\\bis\\b|\\bto\\b|"
                               "\\bas\\b)?\\s*(\\x01\\d+\\x01)(?:\\s+aus)?\\s*$"),
        CI);
    static const RE barePair(start + QStringLiteral("([a-z][a-z0-9_ -]{0,40}?)\\s*[:=]\\s*"
                                                    "([^\\s\\x01][^\\x01]*?)\\s*$"),
                             CI);
    for (const QString &piece : rest.split(separator, Qt::SkipEmptyParts)) {
        auto pm = quotedPair.match(piece);
        if (!pm.hasMatch())
            pm = barePair.match(piece);
        if (pm.hasMatch())
            add(pm.captured(1), restore(pm.captured(2), quoted));
    }
    if (!values.isEmpty())
        op.args.insert(QStringLiteral("values"), values);
    if (plan.eachRow)
        op.args.insert(QStringLiteral("rows"), 0);
    plan.ops = {op};
    plan.fillForm = true;
    plan.extractIntent = false;
    plan.directExtraction = false;
    plan.explicitSteps = false;
    return true;
}

// What the task asks for that the rules have no step for, so the rule planner can say so
// instead of reading the page back as if that were the answer:
// - a form to fill in or send that no step fills: "fill in the form and send it", "submit
//   the contact form", "fülle das Formular aus". Not when a step types, selects or ticks
//   something (the steps are the values), nor for a sign-in (its flow reads the form and
//   asks for what is missing), nor for a PDF form (pdf_filling takes its values);
// - a transaction in a clause of its own when the task spells out no step at all: "book
//   a table for two", "find the cheapest rope and buy it". "Order … by" sorts and "check out" may
//   mean "look at": neither counts.
void readUnfulfillable(const QString &text, const QStringList &quoted, TaskPlan &plan)
{
    if (plan.fillForm)
        return;
    const bool setsValues = std::any_of(plan.ops.begin(), plan.ops.end(), [](const TaskOp &op) {
        return op.kind == TaskOp::Kind::Type || op.kind == TaskOp::Kind::Select ||
               op.kind == TaskOp::Kind::Check || op.kind == TaskOp::Kind::Uncheck;
    });
    static const RE form(
        QStringLiteral(
            "\\b(?:fill(?:\\s+(?:in|out))?|complete|submit|send(?:\\s+off)?|post)\\s+"
            "(?:(?:the|this|that|a|an|my|our|its|their)\\s+)?(?:[\\w-]+\\s+){0,2}"
            "(?:form|application|questionnaire|survey)s?\\b|"
            "\\b(?:fülle|füll|schicke|sende)\\b[^.;\\n]{0,40}?\\b(?:formular|antrag|"
            "fragebogen)\\b|\\b(?:formular|antrag|fragebogen)\\b[^.;\\n]{0,40}?\\b(?:ausfüllen|"
            "absenden|abschicken)\\b"),
        CI);
    if (!plan.loginIntent && !setsValues) {
        const auto m = form.match(text);
        if (m.hasMatch()) {
            plan.unfulfillable = restore(m.captured(0), quoted).trimmed();
            plan.unfulfillableForm = true;
            return;
        }
    }
    if (plan.explicitSteps)
        return;
    // The verb must take an object as an imperative does ("buy the cheapest", "book a
    // table", "reply to …"): "the reply count" or "the order dates" name things, not acts.
    static const RE transaction(
        QStringLiteral(
            "(?:^|[\\n;]|\\.\\s+|\\bthen\\s+|\\band\\s+|\\bund\\s+)"
            "(?:(?:please|pls|kindly|could you|can you|would you|will you|bitte|kannst du)"
            "\\s+)*((?:(?:book|buy|purchase|order(?![^.;\\n]{0,40}\\bby\\b)|reserve|register|"
            "sign\\s+up|subscribe|unsubscribe|upload|delete|cancel|pay|comment|reply)\\s+"
            "(?:(?:it|them|the|a|an|this|that|these|those|my|our|one|two|some|all|every|to|"
            "for|on|from|me|us|\\d+)\\b|\\x01)|"
            "(?:buche|kaufe|bestelle|reserviere|registriere|kündige|lösche|bezahle)\\s+"
            "(?:(?:einen|eine|ein|den|die|das|mir|uns|es|sie|meinen|meine|mein|\\d+)\\b|"
            "\\x01)|"
            "add\\s+(?:\\S+\\s+){0,4}?to\\s+(?:the\\s+|my\\s+)?(?:cart|basket|bag)\\b)"
            "[^.;\\n]{0,80}?)(?=\\s*(?:$|[.;\\n,]|\\band\\b|\\bthen\\b|\\bund\\b))"),
        CI);
    const auto t = transaction.match(text);
    if (t.hasMatch())
        plan.unfulfillable = restore(t.captured(1), quoted).trimmed();
}

} // namespace

TaskPlan parseTask(const QString &input, const TaskContext &context)
{
    TaskPlan plan;
    QStringList quoted;
    const QString text = protect(input, quoted);
    readClauses(text, quoted, plan);
    readIntents(text, context, plan);
    readCredentials(text, quoted, plan);
    readDeliverables(text, plan);
    readFilter(text, plan);
    if (!readFormFill(text, quoted, context, plan))
        assemble(text, quoted, context, plan);
    readUnfulfillable(text, quoted, plan);
    return plan;
}

} // namespace ph::engine
