#pragma once

#include <QString>
#include <QWebEngineScript>

namespace ph {

// The JavaScript bundle (resources/pageagent) every pooled page gets. It runs in the
// ApplicationWorld, isolated from the page's own scripts, from document creation on.
class PageAgent
{
public:
    PageAgent();
    const QWebEngineScript &script() const { return m_script; }
    bool isValid() const { return !m_script.sourceCode().isEmpty(); }

    static constexpr quint32 kWorld = QWebEngineScript::ApplicationWorld;

private:
    QWebEngineScript m_script;
};

} // namespace ph
