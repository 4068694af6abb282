#include "InputLoader.h"

#include "RunContext.h"
#include "RunFetch.h"

#include "core/ObjectStore.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "data/Reader.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>

namespace ph::engine {

namespace {
// The status a fetch reports when it stopped at the request's input budget.
constexpr int kOverBudget = -1;

QString sniffImage(const QByteArray &head)
{
    if (head.startsWith("\x89PNG"))
        return QStringLiteral("image/png");
    if (head.startsWith("\xff\xd8\xff"))
        return QStringLiteral("image/jpeg");
    return {};
}

bool isPdf(const QString &url, const QByteArray &contentType, const QByteArray &body)
{
    return body.startsWith("%PDF-") || contentType.startsWith("application/pdf") ||
           QUrl(url).path().endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive);
}

// The last path segment of a URL ("prices.csv"), or empty.
QString fileNameOf(const QString &url)
{
    return QFileInfo(QUrl(url).path()).fileName();
}

// The title a sheet gets when its input has no description: the file name without
// its extension, else "Input N".
QString fallbackTitle(const QString &nameHint, qsizetype index)
{
    const QString base = QFileInfo(nameHint).completeBaseName();
    return base.isEmpty() ? QStringLiteral("Input %1").arg(index + 1) : base;
}

// What a parse on the worker thread came to.
struct Parsed
{
    std::optional<data::DataError> error;
    QList<data::Sheet> sheets;
    QString text;                    // PDFs and text documents
    std::atomic<qint64> expanded{0}; // bytes the reader decompressed
};
} // namespace

InputLoader::InputLoader(RunContext &ctx, QObject *parent)
    : QObject(parent)
    , m_ctx(ctx)
    , m_budget(ctx.services().settings.int64Value(SettingKeys::agentMaxInputBytes))
{}

void InputLoader::load(std::function<void(const std::optional<InputError> &)> done)
{
    m_done = std::move(done);
    const ExecuteRequest &r = m_ctx.request();
    for (qsizetype i = 0; i < r.imageUrls.size(); ++i)
        queueImage(i, r.imageUrls.at(i));
    for (qsizetype i = 0; i < r.fileUrls.size(); ++i)
        queueFile(i, r.fileUrls.at(i));
    for (qsizetype i = 0; i < r.dataInputs.size(); ++i)
        queueData(i, r.dataInputs.at(i).toObject());
    next();
}

void InputLoader::queueImage(qsizetype i, const QString &url)
{
    const QString field = QStringLiteral("image_urls[%1]").arg(i);
    m_tasks.append([this, url, field] {
        fetch(url, kMaxImageBytes,
              [this, field](bool ok, const QByteArray &body, const QByteArray &type, int status,
                            const QString &error) {
                  if (!ok) {
                      fetchFailed(field, status, error);
                      return;
                  }
                  if (!charge(field, body.size()))
                      return;
                  const QString mime = sniffImage(body.left(8));
                  if (mime.isEmpty()) {
                      fail(QStringLiteral("INVALID_IMAGE_INPUT"), field,
                           QStringLiteral("not a JPG or PNG image (%1)")
                               .arg(QString::fromLatin1(type)));
                      return;
                  }
                  m_ctx.images().append(QStringLiteral("data:%1;base64,%2")
                                            .arg(mime, QString::fromLatin1(body.toBase64())));
                  next();
              });
    });
}

void InputLoader::queueFile(qsizetype i, const QString &url)
{
    const QString field = QStringLiteral("file_urls[%1]").arg(i);
    m_tasks.append([this, url, field, i] {
        fetch(url, kMaxFileBytes,
              [this, url, field, i](bool ok, const QByteArray &body, const QByteArray &type,
                                    int status, const QString &error) {
                  if (!ok) {
                      fetchFailed(field, status, error);
                      return;
                  }
                  if (!charge(field, body.size()))
                      return;
                  const QString name = fileNameOf(url);
                  if (isPdf(url, type, body)) {
                      parseData(field, body, QStringLiteral("pdf"), name, QString::fromLatin1(type),
                                name.isEmpty() ? QStringLiteral("File %1").arg(i + 1) : name);
                      return;
                  }
                  parseData(field, body, QString(), name, QString::fromLatin1(type),
                            fallbackTitle(name, i));
              });
    });
}

void InputLoader::queueData(qsizetype i, const QJsonObject &item)
{
    const QString field = QStringLiteral("dataInputs[%1]").arg(i);
    const QString format = item.value(QStringLiteral("format")).toString();
    const QString description = item.value(QStringLiteral("description")).toString().trimmed();
    m_tasks.append([this, item, field, format, description, i] {
        if (item.contains(QStringLiteral("inline"))) {
            QByteArray bytes = item.value(QStringLiteral("inline")).toString().toUtf8();
            // Binary formats travel inline as base64 (docs/api/agent.md).
            if (format == QLatin1String("xlsx") || format == QLatin1String("parquet")) {
                auto decoded = QByteArray::fromBase64Encoding(
                    bytes.trimmed(),
                    QByteArray::Base64Encoding | QByteArray::AbortOnBase64DecodingErrors);
                if (!decoded) {
                    fail(QStringLiteral("INVALID_DATA_INPUT"), field + QStringLiteral(".inline"),
                         QStringLiteral("inline %1 must be base64-encoded").arg(format),
                         {{QStringLiteral("kind"), QStringLiteral("malformed")}});
                    return;
                }
                bytes = *decoded;
            }
            if (!charge(field, bytes.size()))
                return;
            parseData(field, bytes, format, QString(), QString(),
                      description.isEmpty() ? fallbackTitle(QString(), i) : description);
            return;
        }
        QString url = item.value(QStringLiteral("url")).toString();
        if (item.contains(QStringLiteral("storageRef"))) {
            const QJsonObject ref = item.value(QStringLiteral("storageRef")).toObject();
            ObjectStore &objects = m_ctx.services().store.objects();
            QString id = ref.value(QStringLiteral("id")).toString();
            const QString downloadUrl = ref.value(QStringLiteral("downloadUrl")).toString();
            if (id.isEmpty())
                id = ownObjectId(downloadUrl, objects);
            if (!id.isEmpty()) {
                const auto object = objects.find(id);
                // A key reads its own uploads only; someone else's id is "not found".
                if (!object || object->keyId != m_ctx.keyId()) {
                    fail(QStringLiteral("INPUT_NOT_FOUND"), field + QStringLiteral(".storageRef"),
                         QStringLiteral("no stored object %1 for this API key").arg(id));
                    return;
                }
                if (!charge(field, object->size))
                    return;
                parseData(field, objects.data(id), format, object->name, object->contentType,
                          description.isEmpty() ? fallbackTitle(object->name, i) : description);
                return;
            }
            url = downloadUrl; // a storage reference elsewhere: fetched like a url
        }
        fetch(url, kMaxFileBytes,
              [this, url, field, format, description, i](bool ok, const QByteArray &body,
                                                         const QByteArray &type, int status,
                                                         const QString &error) {
                  if (!ok) {
                      fetchFailed(field, status, error);
                      return;
                  }
                  if (!charge(field, body.size()))
                      return;
                  const QString name = fileNameOf(url);
                  parseData(field, body, format, name, QString::fromLatin1(type),
                            description.isEmpty() ? fallbackTitle(name, i) : description);
              });
    });
}

void InputLoader::parseData(const QString &field, const QByteArray &bytes,
                            const QString &formatName, const QString &nameHint,
                            const QString &contentType, const QString &title)
{
    const bool pdf = formatName == QLatin1String("pdf");
    data::Format format = data::Format::Text;
    if (!pdf) {
        const auto named = data::formatFromName(formatName);
        format = named ? *named : data::inferFormat(nameHint, contentType, bytes.left(4096));
    }
    // file_urls: text and markdown files are documents for the planner, not tables.
    const bool document =
        pdf || (field.startsWith(QLatin1String("file_urls")) &&
                (format == data::Format::Text || format == data::Format::Markdown));
    auto parsed = std::make_shared<Parsed>();
    // The reader may decompress what is left of the request's budget (at most its own
    // per-input limit).
    data::Limits limits;
    const bool budgetBinds = remaining() < limits.maxExpandedBytes;
    limits.maxExpandedBytes = qMin(limits.maxExpandedBytes, remaining());
    auto *watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this,
            [this, watcher, parsed, field, title, document, format, pdf, budgetBinds,
             expandLimit = limits.maxExpandedBytes] {
                watcher->deleteLater();
                if (m_failed)
                    return;
                // The readers name the decompression limit they hit by its number.
                if (parsed->error && budgetBinds &&
                    parsed->error->kind == data::DataError::Kind::TooLarge &&
                    parsed->error->message.contains(QString::number(expandLimit))) {
                    overBudget(field);
                    return;
                }
                if (!parsed->error &&
                    !charge(field, parsed->expanded.load() + (pdf ? parsed->text.size() : 0)))
                    return;
                if (parsed->error) {
                    fail(QStringLiteral("INVALID_DATA_INPUT"), field, parsed->error->message,
                         {{QStringLiteral("kind"), parsed->error->kindName()},
                          {QStringLiteral("format"),
                           pdf ? QStringLiteral("pdf") : data::formatName(format)}});
                    return;
                }
                if (document) {
                    m_ctx.documents().append({title, parsed->text});
                } else {
                    const bool several = parsed->sheets.size() > 1;
                    for (data::Sheet &sheet : parsed->sheets) {
                        // Several worksheets of one workbook: "<title> — <worksheet>".
                        if (several)
                            sheet.title = title + QStringLiteral(" — ") + sheet.title;
                        else if (!title.isEmpty())
                            sheet.title = title;
                        m_ctx.addSheet(std::move(sheet));
                    }
                }
                next();
            });
    watcher->setFuture(QtConcurrent::run([parsed, bytes, format, pdf, document, limits]() mutable {
        limits.expandedMeter = &parsed->expanded;
        const data::Reader reader(limits);
        if (pdf) {
            auto text = reader.pdfText(bytes);
            if (text)
                parsed->text = text.value();
            else
                parsed->error = text.error();
            return;
        }
        if (document) {
            auto sheet = reader.parse(bytes, data::Format::Text, QString());
            if (!sheet) {
                parsed->error = sheet.error(); // not UTF-8 text
                return;
            }
            parsed->text = QString::fromUtf8(bytes).remove(QChar(0xFEFF));
            return;
        }
        auto sheets = reader.parseAll(bytes, format, QString());
        if (sheets)
            parsed->sheets = std::move(sheets).value();
        else
            parsed->error = sheets.error();
    }));
}

void InputLoader::next()
{
    if (m_failed)
        return;
    if (m_tasks.isEmpty()) {
        auto done = std::exchange(m_done, nullptr);
        if (done)
            done(std::nullopt);
        return;
    }
    const auto task = m_tasks.takeFirst();
    task();
}

void InputLoader::fail(const QString &code, const QString &field, const QString &problem,
                       const QJsonObject &details)
{
    if (m_failed)
        return;
    m_failed = true;
    auto done = std::exchange(m_done, nullptr);
    if (done)
        done(InputError{code, field, QStringLiteral("%1: %2").arg(field, problem), details});
}

void InputLoader::fetchFailed(const QString &field, int status, const QString &error)
{
    if (status == kOverBudget) {
        overBudget(field);
        return;
    }
    fail(QStringLiteral("INPUT_FETCH_FAILED"), field, error,
         status > 0 ? QJsonObject{{QStringLiteral("httpStatus"), status}} : QJsonObject());
}

bool InputLoader::charge(const QString &field, qint64 bytes)
{
    if (m_used + bytes > m_budget) {
        overBudget(field);
        return false;
    }
    m_used += bytes;
    return true;
}

void InputLoader::overBudget(const QString &field)
{
    fail(QStringLiteral("INPUT_TOO_LARGE"), field,
         QStringLiteral("the inputs of this request come to more than %1 bytes once decoded and "
                        "decompressed (agent.maxInputBytes)")
             .arg(m_budget),
         {{QStringLiteral("limitBytes"), double(m_budget)},
          {QStringLiteral("setting"), QStringLiteral("agent.maxInputBytes")}});
}

void InputLoader::fetch(const QString &url, qint64 maxBytes, Fetched done)
{
    // What is left of the request's budget bounds the download too.
    const bool budgetBinds = remaining() < maxBytes;
    fetchForRun(m_ctx, url, qMin(maxBytes, remaining()), this,
                [budgetBinds, done](const FetchResult &f) {
                    if (f.ok)
                        done(true, f.body, f.contentType, f.httpStatus, QString());
                    else
                        done(false, {}, {}, f.tooLarge && budgetBinds ? kOverBudget : f.httpStatus,
                             f.error);
                });
}

} // namespace ph::engine
