#include "PageAgent.h"

#include <QFile>

namespace ph {

PageAgent::PageAgent()
{
    QFile file(QStringLiteral(":/pilothouse/pageagent.js"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("the page agent bundle is missing from the resources");
    m_script.setName(QStringLiteral("pilothouse-pageagent"));
    m_script.setSourceCode(QString::fromUtf8(file.readAll()));
    m_script.setWorldId(kWorld);
    m_script.setInjectionPoint(QWebEngineScript::DocumentCreation);
    m_script.setRunsOnSubFrames(false);
}

} // namespace ph
