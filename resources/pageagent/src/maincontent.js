// The page's main content, for main-content markdown. Readability finds the article, on a
// copy of the document from which what a reader does not read as the article is gone
// first. The live page is what decides, which a copy cannot: its computed styles and
// layout boxes. Dropped from the copy (docs/decisions.md, "Main content"):
// - what is not shown: display:none, visibility:hidden, the `hidden` attribute,
//   aria-hidden, and visually hidden text (1 px absolutely placed boxes, "skip to
//   content", "opens in a new window");
// - what stays on screen while the article scrolls: fixed and sticky boxes (site headers,
//   cookie banners, chat and share rails);
// - the page's furniture: navigation, page-level headers, footers, asides, dialogs,
//   forms' controls, buttons, and blocks whose class, id, role or label says cookie
//   banner, share bar, newsletter, related or recommended content, comments,
//   advertising, breadcrumbs.
// Nothing that holds most of the page's text is dropped (a site that marks its whole
// page "modal" or keeps the body hidden until a script runs keeps its article).
// Readability without an article (too short, or it gives up) leaves the copy's body,
// without its link lists.
import { Readability } from '@mozilla/readability';

const BOILERPLATE = new RegExp(
  '(?:^|[-_\\s])(?:cookies?|consent|gdpr|cmp|share|sharing|shares|social|socials|newsletters?|' +
    'subscribe|subscription|signup|sign-up|related|recommended|recommendations|more-stories|' +
    'read-more|readmore|most-popular|popular|trending|promo|promos|advert|advertisement|ads?|' +
    'adslot|sponsor|sponsored|comments?|disqus|breadcrumbs?|paywall|popup|modal|overlay|' +
    'outbrain|taboola|banner|toolbar|skip-link|skiplink|sr-only|visually-hidden|screen-reader-text)' +
    '(?:$|[-_\\s])',
  'i');
const FURNITURE_ROLES = /^(?:navigation|contentinfo|complementary|search|dialog|alertdialog|menu|menubar|banner)$/;
const DROPPED_TAGS = /^(?:NAV|ASIDE|FOOTER|DIALOG|BUTTON|SELECT|INPUT|TEXTAREA|IFRAME|OBJECT|EMBED|NOSCRIPT|TEMPLATE)$/;

function insideArticle(el) {
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (p.nodeName === 'ARTICLE' || p.nodeName === 'MAIN' || p.getAttribute('role') === 'main') return true;
  }
  return false;
}

function hidden(el, style) {
  if (el.hidden || el.getAttribute('aria-hidden') === 'true') return true;
  if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') return true;
  // Visually hidden text: a 1 px box placed out of the flow, or clipped to nothing.
  if (style.position === 'absolute' && el.offsetWidth <= 1 && el.offsetHeight <= 1) return true;
  return false;
}

function furniture(el, style) {
  const tag = el.nodeName;
  if (DROPPED_TAGS.test(tag)) return true;
  if (style.position === 'fixed' || style.position === 'sticky') return true;
  if (tag === 'HEADER' && !insideArticle(el) && !el.querySelector('h1')) return true;
  const role = el.getAttribute('role') || '';
  if (FURNITURE_ROLES.test(role) && !(role === 'banner' && el.querySelector('h1'))) return true;
  if (el.getAttribute('aria-modal') === 'true') return true;
  const names = `${typeof el.className === 'string' ? el.className : ''} ${el.id || ''} ${el.getAttribute('aria-label') || ''}`;
  return BOILERPLATE.test(names);
}

// Walks the live body and its copy together; returns the copies of the elements to drop.
function droppable(liveBody, copyBody) {
  const total = (liveBody.textContent || '').replace(/\s+/g, ' ').length || 1;
  const drops = [];
  const visit = (live, copy) => {
    let l = live.firstElementChild;
    let c = copy.firstElementChild;
    for (; l && c; l = l.nextElementSibling, c = c.nextElementSibling) {
      if (l.nodeName !== c.nodeName) return; // the copy no longer matches: stop here
      const style = getComputedStyle(l);
      if (hidden(l, style) || furniture(l, style)) {
        // Never what holds most of the page's text.
        if ((l.textContent || '').replace(/\s+/g, ' ').length < 0.4 * total) {
          drops.push(c);
          continue;
        }
      }
      visit(l, c);
    }
  };
  visit(liveBody, copyBody);
  return drops;
}

function linkDensity(el) {
  const text = (el.textContent || '').replace(/\s+/g, ' ').trim().length;
  if (!text) return 0;
  let links = 0;
  el.querySelectorAll('a').forEach((a) => { links += (a.textContent || '').replace(/\s+/g, ' ').trim().length; });
  return links / text;
}

// The body without Readability: its lists and blocks that are mostly links go.
function cleanedBody(copy) {
  const body = copy.body;
  if (!body) return '';
  body.querySelectorAll('ul, ol, div, section, table').forEach((el) => {
    if (el.isConnected && linkDensity(el) > 0.5) el.remove();
  });
  return body.innerHTML;
}

// A copy of the document without what droppable() finds.
function prunedCopy() {
  const copy = document.cloneNode(true);
  if (document.body && copy.body) droppable(document.body, copy.body).forEach((el) => el.remove());
  return copy;
}

// {html, title, source}: source "article" (Readability) or "body".
export function mainContent() {
  try {
    // Readability's own threshold (500): below it, it retries with gentler cleaning and keeps
    // the longest attempt, so a short article still comes through whole.
    const article = new Readability(prunedCopy()).parse();
    if (article && article.content && (article.textContent || '').trim().length >= 250) {
      return { html: article.content, title: article.title || document.title || '', source: 'article' };
    }
  } catch (e) {
    // Readability gives up on unusual documents; the body is the fallback.
  }
  return { html: cleanedBody(prunedCopy()), title: document.title || '', source: 'body' };
}
