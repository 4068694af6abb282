#include "LiveViewPage.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"

#include <QCryptographicHash>
#include <QFile>

namespace ph::liveview {

namespace {

struct PageText
{
    QByteArray html;
    QByteArray csp;
};

QByteArray between(const QByteArray &html, const QByteArray &open, const QByteArray &close)
{
    const qsizetype start = html.indexOf(open);
    if (start < 0)
        return {};
    const qsizetype from = start + open.size();
    const qsizetype end = html.indexOf(close, from);
    return end < 0 ? QByteArray() : html.mid(from, end - from);
}

QByteArray sha256Source(const QByteArray &text)
{
    return "'sha256-" + QCryptographicHash::hash(text, QCryptographicHash::Sha256).toBase64() + "'";
}

const PageText &pageText()
{
    static const PageText text = [] {
        PageText t;
        QFile file(QStringLiteral(":/pilothouse/liveview/liveview.html"));
        if (file.open(QIODevice::ReadOnly))
            t.html = file.readAll();
        t.csp = "default-src 'none'; script-src " +
                sha256Source(between(t.html, "<script>", "</script>")) + "; style-src " +
                sha256Source(between(t.html, "<style>", "</style>")) +
                "; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
                "frame-ancestors 'none'";
        return t;
    }();
    return text;
}

double requiredNumber(const JsonFields &body, const QString &key, double min, double max)
{
    if (!body.has(key))
        throw DomainError::missingField(body.path(key));
    return *body.optionalNumber(key, min, max);
}

} // namespace

const QByteArray &pageHtml()
{
    return pageText().html;
}

const QByteArray &contentSecurityPolicy()
{
    return pageText().csp;
}

const QList<QPair<QByteArray, QByteArray>> &pageHeaders()
{
    static const QList<QPair<QByteArray, QByteArray>> headers{
        {"Content-Security-Policy", pageText().csp},
        {"X-Content-Type-Options", "nosniff"},
        {"X-Frame-Options", "DENY"},
        {"Referrer-Policy", "no-referrer"},
        {"X-Robots-Tag", "noindex, nofollow, noarchive"},
        {"Cache-Control", "no-store"}};
    return headers;
}

LiveInput readInput(const JsonFields &body)
{
    static const QStringList kinds = {QStringLiteral("click"), QStringLiteral("type"),
                                      QStringLiteral("key"), QStringLiteral("scroll")};
    if (!body.has(QStringLiteral("type")))
        throw DomainError::missingField(QStringLiteral("type"));
    const QString type = *body.optionalEnum(QStringLiteral("type"), kinds);
    LiveInput in;
    if (type == QLatin1String("click") || type == QLatin1String("scroll")) {
        in.kind = type == QLatin1String("click") ? LiveInput::Kind::Click : LiveInput::Kind::Scroll;
        in.at = QPointF(requiredNumber(body, QStringLiteral("x"), -1e6, 1e6),
                        requiredNumber(body, QStringLiteral("y"), -1e6, 1e6));
        in.delta = QPointF(body.optionalNumber(QStringLiteral("deltaX"), -1e5, 1e5).value_or(0),
                           body.optionalNumber(QStringLiteral("deltaY"), -1e5, 1e5).value_or(0));
    } else if (type == QLatin1String("type")) {
        in.kind = LiveInput::Kind::Type;
        in.text = body.requiredString(QStringLiteral("text"));
        if (in.text.isEmpty() || in.text.size() > 10000)
            throw DomainError::invalidField(QStringLiteral("text"),
                                            QStringLiteral("must hold 1 to 10000 characters"));
    } else {
        in.kind = LiveInput::Kind::Key;
        if (!body.has(QStringLiteral("key")))
            throw DomainError::missingField(QStringLiteral("key"));
        in.key = *body.optionalEnum(QStringLiteral("key"), LiveInput::keyNames());
    }
    return in;
}

} // namespace ph::liveview
