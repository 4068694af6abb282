#include "browser/qtwebengine/PagePrint.h"

#include <QPageLayout>
#include <QPointer>
#include <QTimer>
#include <QWebEnginePage>

#include <deque>
#include <utility>

namespace ph {

namespace {

// The prints waiting for one page, as a child of the page (it goes with it).
class PrintQueue : public QObject
{
public:
    explicit PrintQueue(QWebEnginePage *page)
        : QObject(page)
        , m_page(page)
    {
        setObjectName(QStringLiteral("ph_print_queue"));
    }
    ~PrintQueue() override
    {
        // The page is going: whoever still waits hears "nothing".
        auto waiting = std::exchange(m_jobs, {});
        for (auto &job : waiting)
            job.second(QByteArray());
    }

    void add(const QPageLayout &layout, std::function<void(const QByteArray &)> done)
    {
        m_jobs.emplace_back(layout, std::move(done));
        if (!m_busy)
            next();
    }

private:
    void next()
    {
        if (m_jobs.empty() || !m_page) {
            m_busy = false;
            return;
        }
        m_busy = true;
        auto job = std::move(m_jobs.front());
        m_jobs.pop_front();
        QPointer<PrintQueue> self(this);
        auto done = std::move(job.second);
        m_page->printToPdf(
            [self, done](const QByteArray &pdf) {
                done(pdf);
                // The next print starts from the event loop: this callback may come while
                // the page is being destroyed, and then the queue is gone by then.
                if (self)
                    QTimer::singleShot(0, self.data(), [self] {
                        if (self)
                            self->next();
                    });
            },
            job.first);
    }

    QPointer<QWebEnginePage> m_page;
    std::deque<std::pair<QPageLayout, std::function<void(const QByteArray &)>>> m_jobs;
    bool m_busy = false;
};

} // namespace

void printPage(QWebEnginePage *page, const QPageLayout &layout,
               std::function<void(const QByteArray &pdf)> done)
{
    if (!page) {
        done(QByteArray());
        return;
    }
    // Only PrintQueue names a child so (it has no meta-object of its own to cast to).
    auto *queue = static_cast<PrintQueue *>(
        page->findChild<QObject *>(QStringLiteral("ph_print_queue"), Qt::FindDirectChildrenOnly));
    if (!queue)
        queue = new PrintQueue(page);
    queue->add(layout, std::move(done));
}

} // namespace ph
