// What C++ reads from the page agent's answers (resources/pageagent): the JSON text of a
// function's result (PageAgent::readAnswer, for BrowserTab::call: extract, loginForm,
// searchBox, nextPage, act), a snapshot's data (PageAgent::readSnapshot, for
// BrowserLease::snapshot) and an action's outcome (readActAnswer). The page shapes this
// text: JSON-LD, microdata, element names and page text flow into it.
#include "FuzzInput.h"

#include "browser/PageAgent.h"
#include "engine/BrowserTab.h"

#include <QJsonArray>
#include <QJsonDocument>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    // The answer comes from runJavaScript as a QString: UTF-16, possibly with lone
    // surrogates; both decodings reach the parser.
    const QByteArray bytes = bytesOf(data, size);
    for (const QString &text :
         {QString::fromUtf8(bytes),
          QString(reinterpret_cast<const QChar *>(bytes.constData()), bytes.size() / 2)}) {
        const std::optional<QJsonValue> answer = ph::PageAgent::readAnswer(text);
        if (answer) {
            require(!answer->isUndefined(), "an answer read as undefined");
            // The value survives the trip back into a script argument.
            const QByteArray again = QJsonDocument(QJsonArray{*answer}).toJson();
            require(QJsonDocument::fromJson(again).isArray(), "an answer that does not re-encode");
            ph::engine::ActOutcome outcome;
            ph::engine::readActAnswer(*answer, &outcome);
            require(outcome.ok || !outcome.error.isEmpty(), "a failed action without a reason");
        }
        ph::PageAgent::readSnapshot(text);
    }
    return 0;
}
