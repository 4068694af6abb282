// Main-content markdown: Readability finds the article, Turndown (with GitHub tables)
// writes it. Pages without an article fall back to the whole body.
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

let service;

function turndown() {
  if (!service) {
    service = new TurndownService({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
      emDelimiter: '_',
    });
    service.use(gfm);
    service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'canvas']);
    // Readability works on a detached clone, so relative links would stay relative:
    // resolve them against the page's own address.
    const absolute = (value) => {
      try {
        return new URL(value, document.baseURI).href;
      } catch (e) {
        return value;
      }
    };
    service.addRule('absoluteLinks', {
      filter: (node) => node.nodeName === 'A' && node.getAttribute('href'),
      replacement: (content, node) => {
        const href = node.getAttribute('href');
        if (href.startsWith('javascript:')) return content;
        const title = node.getAttribute('title');
        return `[${content}](${absolute(href)}${title ? ` "${title.replace(/"/g, '\\"')}"` : ''})`;
      },
    });
    service.addRule('absoluteImages', {
      filter: 'img',
      replacement: (content, node) => {
        const src = node.getAttribute('src');
        if (!src) return '';
        return `![${(node.getAttribute('alt') || '').replace(/[\[\]]/g, '')}](${absolute(src)})`;
      },
    });
  }
  return service;
}

// roots: the elements of a content scope (their HTML, no Readability), else the page.
export function markdown(roots = null) {
  let html = '';
  let title = document.title || '';
  let source = 'body';
  if (roots) {
    return { markdown: turndown().turndown(roots.map((r) => r.outerHTML).join('\n')), source: 'scope' };
  }
  try {
    const article = new Readability(document.cloneNode(true), { charThreshold: 250 }).parse();
    if (article && article.content && (article.textContent || '').trim().length >= 250) {
      html = article.content;
      title = article.title || title;
      source = 'article';
    }
  } catch (e) {
    // Readability gives up on unusual documents; the body is the fallback.
  }
  if (!html) html = document.body ? document.body.innerHTML : '';
  let md = turndown().turndown(html);
  // A page without a top-level heading gets its title as one.
  if (title && !/^# /m.test(md)) md = `# ${title}\n\n${md}`;
  return { markdown: md, source };
}
