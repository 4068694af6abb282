// Builds the polyfill bundle Pilothouse injects into pooled pages (docs/decisions.md,
// "Polyfills in the QtWebEngine pool"): the core-js modules of `core-js/stable` that the
// pool's Chromium lacks or gets wrong, as core-js-compat lists them for that Chromium,
// bundled and minified by esbuild into one script.
//
//   node build.mjs --qt 6.4.2 --out pilothouse-polyfills.js [--list]
//
// Left out on purpose:
// - web.immediate: setImmediate is not a browser API; a page that finds it takes it for
//   Node or old Edge.
// - es.array.push: replaces the native Array.prototype.push (a hot path on every page)
//   to fix pushing onto an array whose length is read-only, which no site relies on.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const compat = require('core-js-compat');
const esbuild = require('esbuild');

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : true]] : pairs), []));

// The Chromium each QtWebEngine release is built on (Qt's release notes); an unknown
// version takes the oldest, which only adds modules that then detect the native feature.
const chromiumOfQt = { '6.4': 102, '6.5': 108, '6.6': 112, '6.7': 118, '6.8': 122, '6.9': 130 };
const qtMinor = String(args.qt || '6.4').split('.').slice(0, 2).join('.');
const chrome = chromiumOfQt[qtMinor] || 102;

export const excluded = ['web.immediate', 'es.array.push'];
const { list } = compat({ targets: { chrome: String(chrome) }, modules: ['core-js/stable'], exclude: excluded });

if (args.list) {
  console.log(`chrome ${chrome}: ${list.length} modules\n${list.join('\n')}`);
  process.exit(0);
}
if (!args.out || args.out === true) {
  console.error('usage: node build.mjs --qt VERSION --out FILE [--list]');
  process.exit(2);
}
const here = path.dirname(new URL(import.meta.url).pathname);
await esbuild.build({
  stdin: {
    contents: list.map((m) => `import "core-js/modules/${m}.js";`).join('\n'),
    resolveDir: here,
    sourcefile: 'pilothouse-polyfills.js',
  },
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'chrome100',
  logLevel: 'warning',
  legalComments: 'none',
  banner: { js: `/* Pilothouse polyfills: core-js ${require('core-js/package.json').version} (MIT), ${list.length} modules for Chromium ${chrome} */` },
  outfile: args.out,
});
fs.accessSync(args.out);
