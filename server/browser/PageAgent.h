#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QWebEngineScript>

#include <optional>

namespace ph {

// The JavaScript bundle (resources/pageagent) every pooled page gets. It runs in the
// ApplicationWorld, isolated from the page's own scripts, from document creation on.
//
// Beside it, the polyfills (resources/polyfills): the core-js modules the pool's
// Chromium lacks, run in the page's MainWorld at document creation, in every frame,
// before the page's own scripts, unless a lease asks for them off (`browser.polyfills`).
class PageAgent
{
public:
    PageAgent();
    const QWebEngineScript &script() const { return m_script; }
    const QWebEngineScript &polyfills() const { return m_polyfills; }
    bool isValid() const { return !m_script.sourceCode().isEmpty(); }

    static constexpr quint32 kWorld = QWebEngineScript::ApplicationWorld;

    // The agent's functions answer with JSON text (JSON.stringify of their result).
    // Reading it is the one place C++ parses what a page's document shaped, so these are
    // pure and fuzzed (tests/fuzz/fuzz_pageagent.cpp).
    // Exactly one JSON value of any type; nullopt for anything else ("", "1,2", "[").
    static std::optional<QJsonValue> readAnswer(const QString &json);
    // A snapshot's data: the object, or an empty object when the text is not one.
    static QJsonObject readSnapshot(const QString &json);

private:
    QWebEngineScript m_script;
    QWebEngineScript m_polyfills;
};

} // namespace ph
