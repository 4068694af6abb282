// Main-content markdown: mainContent() finds the article (maincontent.js), Turndown (with
// GitHub tables) writes it.
import { mainContent } from './maincontent.js';
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
  if (roots) {
    return { markdown: turndown().turndown(roots.map((r) => r.outerHTML).join('\n')), source: 'scope' };
  }
  const main = mainContent();
  let md = turndown().turndown(main.html);
  // The body without an article gets the page's title as its heading when it has none;
  // an article's title is the page's `title`, not part of its text.
  if (main.source === 'body' && main.title && !/^# /m.test(md)) md = `# ${main.title}\n\n${md}`;
  return { markdown: md, source: main.source };
}
