#pragma once

#include <QByteArray>
#include <QString>

namespace ph::webhooks {

// Reads one HTTP/1.x reply from the bytes of a connection (RFC 9112), for the webhook
// queue's keep-alive client: interim 1xx replies are skipped; the body is framed by
// chunked encoding, Content-Length or the end of the connection; its first bytes are kept.
class HttpReplyParser
{
public:
    // Keeps the first `snippetLimit` bytes of the body.
    explicit HttpReplyParser(qsizetype snippetLimit)
        : m_snippetLimit(snippetLimit)
    {}

    enum Result { NeedMore, Complete, Failed };

    // Consumes what it can of `in`; bytes left after a complete reply stay in it.
    Result feed(QByteArray &in);
    // The peer closed the connection: that ends a body read until the close, and a reply
    // whose status arrived counts as answered even if its body was cut short.
    Result peerClosed()
    {
        if (m_status > 0) {
            m_keepAlive = false;
            m_stage = Stage::Done;
            return Complete;
        }
        return fail(QStringLiteral("the connection closed before the reply"));
    }

    int status() const { return m_status; } // 0 until the headers of the final reply
    const QByteArray &snippet() const { return m_snippet; }
    // The final reply's header lines ("Name: value\n" each), as far as kKeptHead bytes
    // (what the console shows of a receiver's answer).
    const QByteArray &headers() const { return m_headers; }
    static constexpr qsizetype kKeptHead = 4 * 1024;
    bool keepAlive() const { return m_keepAlive; }
    const QString &error() const { return m_error; }

private:
    enum class Stage {
        StatusLine,
        Headers,
        Fixed,
        ChunkSize,
        ChunkData,
        ChunkEnd,
        Trailers,
        UntilClose,
        Done
    };
    static constexpr qsizetype kMaxLine = 16 * 1024;
    static constexpr qsizetype kMaxHead = 64 * 1024;
    static constexpr qint64 kMaxBody = 1024 * 1024; // read further, the connection is dropped

    Result line(const QByteArray &text);
    Result endOfHead();
    Result body(const char *data, qsizetype size);
    Result complete()
    {
        m_stage = Stage::Done;
        return Complete;
    }
    Result fail(const QString &why)
    {
        m_error = why;
        m_keepAlive = false;
        m_stage = Stage::Done;
        return Failed;
    }

    qsizetype m_snippetLimit;
    Stage m_stage = Stage::StatusLine;
    int m_status = 0;
    int m_headStatus = 0;
    bool m_http10 = false;
    qint64 m_length = -1;
    qint64 m_remaining = 0;
    qint64 m_bodyBytes = 0;
    qsizetype m_headBytes = 0;
    bool m_chunked = false;
    bool m_otherCoding = false;
    bool m_close = false;
    bool m_keepAliveToken = false;
    bool m_keepAlive = false;
    QByteArray m_snippet;
    QByteArray m_headers;
    QString m_error;
};

} // namespace ph::webhooks
