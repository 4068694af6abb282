#include "HttpReplyParser.h"

#include <QList>

#include <cctype>

namespace ph::webhooks {

HttpReplyParser::Result HttpReplyParser::feed(QByteArray &in)
{
    qsizetype pos = 0;
    Result result = NeedMore;
    while (result == NeedMore && pos < in.size()) {
        if (m_stage == Stage::Fixed || m_stage == Stage::ChunkData ||
            m_stage == Stage::UntilClose) {
            const qsizetype available = in.size() - pos;
            const qsizetype take = m_stage == Stage::UntilClose
                                       ? available
                                       : qsizetype(qMin<qint64>(available, m_remaining));
            result = body(in.constData() + pos, take);
            pos += take;
            if (result != NeedMore || m_stage == Stage::UntilClose)
                continue;
            m_remaining -= take;
            if (m_remaining == 0) {
                if (m_stage == Stage::Fixed)
                    result = complete();
                else
                    m_stage = Stage::ChunkEnd;
            }
            continue;
        }
        const qsizetype newline = in.indexOf('\n', pos);
        if (newline < 0) {
            if (in.size() - pos > kMaxLine)
                result =
                    fail(QStringLiteral("the reply has a line longer than %1 bytes").arg(kMaxLine));
            break;
        }
        if (m_stage == Stage::StatusLine || m_stage == Stage::Headers) {
            m_headBytes += newline + 1 - pos;
            if (m_headBytes > kMaxHead) {
                result = fail(QStringLiteral("the reply's headers exceed %1 bytes").arg(kMaxHead));
                break;
            }
        }
        qsizetype end = newline;
        if (end > pos && in.at(end - 1) == '\r')
            --end;
        const QByteArray text = in.sliced(pos, end - pos);
        pos = newline + 1;
        result = line(text);
    }
    in.remove(0, pos);
    return result;
}

HttpReplyParser::Result HttpReplyParser::line(const QByteArray &text)
{
    switch (m_stage) {
    case Stage::StatusLine: {
        if (text.isEmpty())
            return NeedMore; // a stray empty line before the status line is allowed
        // HTTP/1.1 200 OK
        const bool digits = text.size() >= 12 && std::isdigit(uchar(text.at(9))) &&
                            std::isdigit(uchar(text.at(10))) && std::isdigit(uchar(text.at(11)));
        if (!text.startsWith("HTTP/1.") || !digits || text.at(8) != ' ' ||
            (text.size() > 12 && text.at(12) != ' '))
            return fail(QStringLiteral("the reply is not HTTP/1.x: %1")
                            .arg(QString::fromLatin1(text.left(40))));
        m_http10 = text.at(7) == '0';
        m_headStatus = text.mid(9, 3).toInt();
        // RFC 9110 15: three digits, 100 to 599; others are not an answer at all.
        if (m_headStatus < 100 || m_headStatus > 599)
            return fail(QStringLiteral("the reply has an invalid status %1")
                            .arg(QString::fromLatin1(text.mid(9, 3))));
        m_length = -1;
        m_chunked = m_otherCoding = m_close = m_keepAliveToken = false;
        m_headers.clear(); // an interim reply's headers are not the answer's
        m_stage = Stage::Headers;
        return NeedMore;
    }
    case Stage::Headers: {
        if (text.isEmpty())
            return endOfHead();
        const qsizetype colon = text.indexOf(':');
        if (colon <= 0)
            return fail(QStringLiteral("the reply has a malformed header line"));
        if (m_headers.size() + text.size() < kKeptHead)
            m_headers += text + '\n';
        const QByteArray name = text.left(colon).trimmed().toLower();
        if (name != "content-length" && name != "transfer-encoding" && name != "connection")
            return NeedMore;
        const QByteArray value = text.mid(colon + 1).trimmed().toLower();
        if (name == "content-length") {
            bool ok = false;
            const qint64 length = value.toLongLong(&ok);
            if (!ok || length < 0 || (m_length >= 0 && length != m_length))
                return fail(QStringLiteral("the reply has an invalid Content-Length"));
            m_length = length;
        } else if (name == "transfer-encoding") {
            // Chunked must be the last coding; any other framing runs until the close.
            const bool chunked = value.endsWith("chunked");
            m_chunked = chunked;
            m_otherCoding = !chunked;
        } else if (name == "connection") {
            for (const QByteArray &token : value.split(',')) {
                m_close |= token.trimmed() == "close";
                m_keepAliveToken |= token.trimmed() == "keep-alive";
            }
        }
        return NeedMore;
    }
    case Stage::ChunkSize: {
        bool ok = false;
        const qsizetype semicolon = text.indexOf(';');
        const qint64 size =
            (semicolon < 0 ? text : text.left(semicolon)).trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0)
            return fail(QStringLiteral("the reply has a malformed chunk size"));
        if (size == 0) {
            m_stage = Stage::Trailers;
        } else {
            m_remaining = size;
            m_stage = Stage::ChunkData;
        }
        return NeedMore;
    }
    case Stage::ChunkEnd:
        if (!text.isEmpty())
            return fail(QStringLiteral("the reply has a malformed chunk"));
        m_stage = Stage::ChunkSize;
        return NeedMore;
    case Stage::Trailers:
        return text.isEmpty() ? complete() : NeedMore;
    default:
        return fail(QStringLiteral("the reply went on after its end"));
    }
}

HttpReplyParser::Result HttpReplyParser::endOfHead()
{
    const int status = m_headStatus;
    if (status >= 100 && status < 200 && status != 101) {
        m_stage = Stage::StatusLine; // 100 Continue, 103 Early Hints …: the reply follows
        return NeedMore;
    }
    m_status = status;
    m_keepAlive = m_http10 ? m_keepAliveToken && !m_close : !m_close;
    if (status == 101) { // never asked for: whatever follows is not HTTP
        m_keepAlive = false;
        return complete();
    }
    if (status == 204 || status == 304)
        return complete();
    if (m_chunked) {
        m_stage = Stage::ChunkSize;
        return NeedMore;
    }
    if (!m_otherCoding && m_length >= 0) {
        if (m_length == 0)
            return complete();
        m_remaining = m_length;
        m_stage = Stage::Fixed;
        return NeedMore;
    }
    m_keepAlive = false;
    m_stage = Stage::UntilClose;
    return NeedMore;
}

HttpReplyParser::Result HttpReplyParser::body(const char *data, qsizetype size)
{
    if (m_snippet.size() < m_snippetLimit)
        m_snippet.append(data, qMin<qsizetype>(size, m_snippetLimit - m_snippet.size()));
    m_bodyBytes += size;
    if (m_bodyBytes > kMaxBody) { // answered; not worth reading the rest to keep the connection
        m_keepAlive = false;
        return complete();
    }
    return NeedMore;
}

} // namespace ph::webhooks
