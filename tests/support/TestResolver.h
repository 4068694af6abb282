#pragma once

#include "net/HostResolver.h"

#include <QHash>
#include <QPointer>
#include <QTimer>

namespace ph::test {

// Names the tests own: `intranet.test` resolving to loopback, or `shop.example` resolving
// to a documentation address (public as far as the policy knows) whose connections the
// test sends to a fixture server on loopback. Unknown names fail to resolve; literal
// addresses answer themselves.
class TestResolver : public HostResolver
{
public:
    void add(const QString &host, const QList<QHostAddress> &addresses)
    {
        m_names.insert(host.toLower(), addresses);
    }
    // Connections to `address` (any port) go to 127.0.0.1:`port` instead.
    void route(const QHostAddress &address, quint16 port) { m_routes.insert(address, port); }

    void lookup(const QString &host, QObject *context,
                std::function<void(const Answer &)> done) const override
    {
        Answer answer;
        QString name = host.toLower();
        if (name.startsWith(QLatin1Char('[')))
            name = name.mid(1, name.size() - 2);
        const QHostAddress literal(name);
        if (!literal.isNull())
            answer.addresses = {literal};
        else
            answer.addresses = m_names.value(name);
        if (answer.addresses.isEmpty())
            answer.error = QStringLiteral("%1 could not be resolved").arg(host);
        QPointer<QObject> guard(context);
        QTimer::singleShot(0, context, [guard, answer, done] {
            if (guard)
                done(answer);
        });
    }

    Endpoint dialTarget(const QHostAddress &address, quint16 port) const override
    {
        if (m_routes.contains(address))
            return {QHostAddress(QHostAddress::LocalHost), m_routes.value(address)};
        return {address, port};
    }

private:
    QHash<QString, QList<QHostAddress>> m_names;
    QHash<QHostAddress, quint16> m_routes;
};

} // namespace ph::test
