#include "Icons.h"

#include <QBuffer>
#include <QFile>
#include <QGuiApplication>
#include <QHash>
#include <QIconEngine>
#include <QImageReader>
#include <QPainter>
#include <QPalette>
#include <QPixmapCache>

namespace ph::ui {

namespace {

// An SVG from the resources whose `currentColor` becomes the palette's text colour of
// the icon's mode, read again whenever the palette changes (the cache key has the
// colour in it).
class BundledIconEngine : public QIconEngine
{
public:
    explicit BundledIconEngine(QString name)
        : m_name(std::move(name))
    {}

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        const qreal ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        QPixmap px = pixmap(rect.size() * ratio, mode, state);
        px.setDevicePixelRatio(ratio);
        painter->drawPixmap(rect, px);
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State) override
    {
        const int side = std::min(size.width(), size.height());
        if (side <= 0)
            return {};
        const QPalette palette = QGuiApplication::palette();
        const QColor colour =
            mode == QIcon::Disabled   ? palette.color(QPalette::Disabled, QPalette::WindowText)
            : mode == QIcon::Selected ? palette.color(QPalette::Active, QPalette::HighlightedText)
                                      : palette.color(QPalette::Active, QPalette::WindowText);
        const QString key = QStringLiteral("ph-icon/%1/%2/%3")
                                .arg(m_name)
                                .arg(side)
                                .arg(colour.name(QColor::HexArgb));
        QPixmap px;
        if (QPixmapCache::find(key, &px))
            return px;
        QByteArray svg = source();
        svg.replace("currentColor", colour.name(QColor::HexRgb).toLatin1());
        QBuffer buffer(&svg);
        QImageReader reader(&buffer, "svg");
        reader.setScaledSize(QSize(side, side));
        px = QPixmap::fromImage(reader.read());
        if (!px.isNull() && colour.alpha() < 255) {
            QPainter p(&px);
            p.setCompositionMode(QPainter::CompositionMode_DestinationIn);
            p.fillRect(px.rect(), QColor(0, 0, 0, colour.alpha()));
        }
        QPixmapCache::insert(key, px);
        return px;
    }

    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State state,
                         qreal scale) override
    {
        QPixmap px = pixmap(size * scale, mode, state);
        px.setDevicePixelRatio(scale);
        return px;
    }

    QSize actualSize(const QSize &size, QIcon::Mode, QIcon::State) override
    {
        const int side = std::min(size.width(), size.height());
        return {side, side};
    }

    QIconEngine *clone() const override { return new BundledIconEngine(m_name); }
    QString key() const override { return QStringLiteral("pilothouse-bundled"); }
    QString iconName() override { return m_name; }
    bool isNull() override { return source().isEmpty(); }

private:
    QByteArray source() const
    {
        static QHash<QString, QByteArray> cache;
        auto it = cache.find(m_name);
        if (it == cache.end()) {
            QFile f(QStringLiteral(":/pilothouse/icons/actions/%1.svg").arg(m_name));
            it = cache.insert(m_name, f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray());
        }
        return it.value();
    }

    QString m_name;
};

} // namespace

QString iconName(Icon which)
{
    switch (which) {
    case Icon::Add:
        return QStringLiteral("list-add");
    case Icon::Apply:
        return QStringLiteral("dialog-ok-apply");
    case Icon::Copy:
        return QStringLiteral("edit-copy");
    case Icon::Delete:
        return QStringLiteral("edit-delete");
    case Icon::Discard:
        return QStringLiteral("dialog-cancel");
    case Icon::Done:
        return QStringLiteral("dialog-ok");
    case Icon::Find:
        return QStringLiteral("edit-find");
    case Icon::Open:
        return QStringLiteral("document-open");
    case Icon::Pause:
        return QStringLiteral("media-playback-pause");
    case Icon::Quit:
        return QStringLiteral("application-exit");
    case Icon::Refresh:
        return QStringLiteral("view-refresh");
    case Icon::Revert:
        return QStringLiteral("document-revert");
    case Icon::Rotate:
        return QStringLiteral("object-rotate-right");
    case Icon::Run:
        return QStringLiteral("media-playback-start");
    case Icon::Save:
        return QStringLiteral("document-save");
    case Icon::Send:
        return QStringLiteral("mail-send");
    case Icon::Stop:
        return QStringLiteral("process-stop");
    case Icon::About:
        return QStringLiteral("help-about");
    case Icon::Clear:
        return QStringLiteral("edit-clear");
    }
    return {};
}

QList<Icon> allIcons()
{
    QList<Icon> all;
    for (int i = 0; i <= int(Icon::Clear); ++i)
        all.append(Icon(i));
    return all;
}

QIcon icon(Icon which)
{
    const QString name = iconName(which);
    return QIcon::fromTheme(name, QIcon(new BundledIconEngine(name)));
}

} // namespace ph::ui
