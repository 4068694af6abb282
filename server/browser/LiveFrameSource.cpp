#include "browser/LiveFrameSource.h"

#include "browser/PageAgent.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QTimer>
#include <QWebEnginePage>

#include <memory>

namespace ph {

namespace {

// Runs in the page agent's isolated world with `input` = {kind, x, y, text, key, dx, dy,
// layoutWidth}; answers JSON {ok, error?, element?}. No eval, no page globals touched.
const char kInputScript[] = R"js(
(function (input) {
  'use strict';
  var W = input.layoutWidth;
  function describe(el) {
    if (!el || !el.tagName) return '';
    var s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    if (el.name) s += '[name=' + el.name + ']';
    return s;
  }
  function editable(el) {
    if (!el || !el.tagName) return false;
    if (el.isContentEditable) return true;
    if (el.tagName === 'TEXTAREA') return !el.readOnly && !el.disabled;
    if (el.tagName !== 'INPUT' || el.readOnly || el.disabled) return false;
    return !/^(button|submit|reset|checkbox|radio|file|image|hidden|range|color)$/i.test(el.type);
  }
  // The last element in document order whose box holds the document point: the
  // deepest, or the one painted over the others in ordinary pages.
  function deepest(x, y) {
    var best = null, all = document.body ? document.body.getElementsByTagName('*') : [];
    for (var i = 0; i < all.length; i++) {
      var e = all[i], r = e.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      var left = r.left + window.scrollX, top = r.top + window.scrollY;
      if (x < left || y < top || x >= left + r.width || y >= top + r.height) continue;
      var st = window.getComputedStyle(e);
      if (st.visibility === 'hidden' || st.pointerEvents === 'none') continue;
      best = e;
    }
    return best || document.body || document.documentElement;
  }
  function at(x, y) {
    if (W > 0) {
      // The printed page is laid out at W; so is the document, for as long as this runs
      // (nothing is painted in between).
      var root = document.documentElement, old = root.getAttribute('style');
      root.style.setProperty('width', W + 'px', 'important');
      try { return deepest(x, y); } finally {
        if (old === null) root.removeAttribute('style'); else root.setAttribute('style', old);
      }
    }
    var el = (x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight)
      ? document.elementFromPoint(x, y) : null;
    return el || deepest(x + window.scrollX, y + window.scrollY);
  }
  function fire(el, type, x, y) {
    var Ctor = /^pointer/.test(type) && window.PointerEvent ? PointerEvent : MouseEvent;
    el.dispatchEvent(new Ctor(type, { bubbles: true, cancelable: true, composed: true,
      clientX: x, clientY: y, button: 0, buttons: type.endsWith('down') ? 1 : 0, view: window }));
  }
  function key(el, type, name) {
    return el.dispatchEvent(new KeyboardEvent(type, { key: name, code: name, bubbles: true,
      cancelable: true, composed: true, view: window }));
  }
  function setValue(f, value, data, inputType) {
    var proto = f.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(f, value);
    f.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, data: data,
      inputType: inputType }));
  }
  function caret(f) {
    var s = null, e = null;
    try { s = f.selectionStart; e = f.selectionEnd; } catch (x) { /* no selection API */ }
    if (s === null || s === undefined) { s = e = f.value.length; }
    return [s, e];
  }
  function insert(f, text) {
    var before = f.isContentEditable ? f.textContent : f.value, ok = false;
    try { ok = document.execCommand('insertText', false, text); } catch (x) { ok = false; }
    var after = f.isContentEditable ? f.textContent : f.value;
    if (ok && after !== before) return;
    if (f.isContentEditable) { f.textContent = before + text; return; }
    var c = caret(f);
    setValue(f, before.slice(0, c[0]) + text + before.slice(c[1]), text, 'insertText');
    try { f.setSelectionRange(c[0] + text.length, c[0] + text.length); } catch (x) { /* ignored */ }
  }
  function erase(f, forward) {
    var before = f.isContentEditable ? f.textContent : f.value, ok = false;
    try { ok = document.execCommand(forward ? 'forwardDelete' : 'delete', false); } catch (x) { ok = false; }
    var after = f.isContentEditable ? f.textContent : f.value;
    if ((ok && after !== before) || f.isContentEditable) return;
    var c = caret(f), s = c[0], e = c[1];
    if (s === e) { if (forward) e = Math.min(before.length, e + 1); else s = Math.max(0, s - 1); }
    setValue(f, before.slice(0, s) + before.slice(e), null,
      forward ? 'deleteContentForward' : 'deleteContentBackward');
    try { f.setSelectionRange(s, s); } catch (x) { /* ignored */ }
  }
  function focusables() {
    return Array.prototype.filter.call(document.querySelectorAll(
      'a[href], button, input, select, textarea, [tabindex], [contenteditable=""], [contenteditable=true]'),
      function (e) { return !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0 &&
        window.getComputedStyle(e).visibility !== 'hidden'; });
  }
  function scroller(el) {
    for (var e = el; e && e !== document.body && e !== document.documentElement; e = e.parentElement) {
      var st = window.getComputedStyle(e);
      if (/(auto|scroll)/.test(st.overflowY + st.overflowX) &&
          (e.scrollHeight > e.clientHeight || e.scrollWidth > e.clientWidth)) return e;
    }
    return null;
  }
  var focused = document.activeElement;
  if (input.kind === 'click') {
    var el = at(input.x, input.y);
    fire(el, 'pointerdown', input.x, input.y);
    fire(el, 'mousedown', input.x, input.y);
    if (typeof el.focus === 'function') el.focus({ preventScroll: true });
    fire(el, 'pointerup', input.x, input.y);
    fire(el, 'mouseup', input.x, input.y);
    el.click();
    return JSON.stringify({ ok: true, element: describe(el) });
  }
  if (input.kind === 'type') {
    if (!editable(focused))
      return JSON.stringify({ ok: false, error: 'no text field has the focus; click into one first' });
    insert(focused, input.text);
    return JSON.stringify({ ok: true, element: describe(focused) });
  }
  if (input.kind === 'scroll') {
    var box = scroller(at(input.x, input.y));
    if (box) box.scrollBy(input.dx, input.dy); else window.scrollBy(input.dx, input.dy);
    return JSON.stringify({ ok: true });
  }
  var target = focused || document.body;
  var name = input.key;
  if (!key(target, 'keydown', name)) { key(target, 'keyup', name); return JSON.stringify({ ok: true }); }
  if (name === 'Enter') {
    if (focused && focused.tagName === 'TEXTAREA') insert(focused, '\n');
    else if (focused && focused.form && editable(focused)) {
      if (focused.form.requestSubmit) focused.form.requestSubmit(); else focused.form.submit();
    } else if (focused && focused !== document.body && typeof focused.click === 'function') focused.click();
  } else if (name === 'Tab') {
    var list = focusables(), i = list.indexOf(focused);
    if (list.length) list[(i + 1) % list.length].focus();
  } else if (name === 'Backspace' || name === 'Delete') {
    if (editable(focused)) erase(focused, name === 'Delete');
  } else if (name === 'Escape') {
    if (focused && typeof focused.blur === 'function') focused.blur();
  } else if (!editable(focused)) {
    var page = window.innerHeight > 0 ? window.innerHeight * 0.9 : 600;
    var moves = { ArrowDown: [0, 40], ArrowUp: [0, -40], ArrowLeft: [-40, 0], ArrowRight: [40, 0],
      PageDown: [0, page], PageUp: [0, -page], Home: [0, -1e9], End: [0, 1e9] };
    if (moves[name]) window.scrollBy(moves[name][0], moves[name][1]);
  }
  key(target, 'keyup', name);
  return JSON.stringify({ ok: true, element: describe(focused) });
})
)js";

QString kindName(LiveInput::Kind k)
{
    switch (k) {
    case LiveInput::Kind::Click:
        return QStringLiteral("click");
    case LiveInput::Kind::Type:
        return QStringLiteral("type");
    case LiveInput::Kind::Key:
        return QStringLiteral("key");
    case LiveInput::Kind::Scroll:
        return QStringLiteral("scroll");
    }
    return {};
}

} // namespace

const QStringList &LiveInput::keyNames()
{
    static const QStringList names = {
        QStringLiteral("Enter"),     QStringLiteral("Tab"),       QStringLiteral("Backspace"),
        QStringLiteral("Delete"),    QStringLiteral("Escape"),    QStringLiteral("ArrowUp"),
        QStringLiteral("ArrowDown"), QStringLiteral("ArrowLeft"), QStringLiteral("ArrowRight"),
        QStringLiteral("Home"),      QStringLiteral("End"),       QStringLiteral("PageUp"),
        QStringLiteral("PageDown")};
    return names;
}

void LiveFrameSource::deliverByScript(QWebEnginePage *page, const LiveInput &input, int layoutWidth,
                                      Done done)
{
    if (!page) {
        QTimer::singleShot(0, [done] { done(false, QStringLiteral("the page is gone")); });
        return;
    }
    const QJsonObject args{{QStringLiteral("kind"), kindName(input.kind)},
                           {QStringLiteral("x"), input.at.x()},
                           {QStringLiteral("y"), input.at.y()},
                           {QStringLiteral("text"), input.text},
                           {QStringLiteral("key"), input.key},
                           {QStringLiteral("dx"), input.delta.x()},
                           {QStringLiteral("dy"), input.delta.y()},
                           {QStringLiteral("layoutWidth"), layoutWidth}};
    const QString script = QString::fromUtf8(kInputScript).trimmed() + QLatin1Char('(') +
                           QString::fromUtf8(QJsonDocument(args).toJson(QJsonDocument::Compact)) +
                           QLatin1Char(')');
    // The callback may never come (a renderer that hangs): a time limit answers instead.
    auto settled = std::make_shared<bool>(false);
    auto finish = [settled, done](bool ok, const QString &error) {
        if (std::exchange(*settled, true))
            return;
        done(ok, error);
    };
    QTimer::singleShot(
        5000, [finish] { finish(false, QStringLiteral("the page did not answer in time")); });
    QPointer<QWebEnginePage> guard(page);
    page->runJavaScript(script, PageAgent::kWorld, [finish, guard](const QVariant &value) {
        const QJsonObject answer = QJsonDocument::fromJson(value.toString().toUtf8()).object();
        if (!guard || answer.isEmpty()) {
            finish(false, QStringLiteral("the page could not take the input"));
            return;
        }
        // From the event loop, as promised, even though the page answered now.
        const bool ok = answer.value(QStringLiteral("ok")).toBool();
        const QString error = answer.value(QStringLiteral("error")).toString();
        QTimer::singleShot(0, [finish, ok, error] { finish(ok, error); });
    });
}

} // namespace ph
