// The webhook queue's HTTP/1.x reply parser (server/webhooks/HttpReplyParser): status
// lines, headers, interim replies, Content-Length, chunked bodies and trailers, a body
// read until the close. The first byte sets the snippet limit and how the reply is cut
// into the reads of a connection; the rest is what the peer sent.
#include "FuzzInput.h"

#include "webhooks/HttpReplyParser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::webhooks::HttpReplyParser;
    Cursor in(bytesOf(data, size));
    const quint8 choice = in.byte();
    const qsizetype snippetLimit = (choice & 0x0F) * 16;
    const qsizetype chunk = (choice >> 4) == 0 ? 1 << 20 : (choice >> 4);
    const QByteArray wire = in.rest();

    HttpReplyParser parser(snippetLimit);
    QByteArray buffer;
    HttpReplyParser::Result result = HttpReplyParser::NeedMore;
    for (qsizetype pos = 0; pos < wire.size() && result == HttpReplyParser::NeedMore;
         pos += chunk) {
        buffer += wire.mid(pos, chunk);
        const qsizetype before = buffer.size();
        result = parser.feed(buffer);
        require(buffer.size() <= before, "the parser grew its input");
    }
    if (result == HttpReplyParser::NeedMore)
        result = parser.peerClosed();
    require(parser.snippet().size() <= snippetLimit, "a snippet past its limit");
    if (result == HttpReplyParser::Complete)
        require(parser.status() > 0, "a complete reply without a status");
    if (result == HttpReplyParser::Failed)
        require(!parser.error().isEmpty() && !parser.keepAlive(),
                "a failed reply without a reason, or kept alive");
    return 0;
}
