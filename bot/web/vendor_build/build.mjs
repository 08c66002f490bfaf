// Rebuilds the browser files the repository ships, from the exact versions pinned in package.json
// and package-lock.json. Run through ./build.sh (npm ci first); hosting the bot never needs this.
import * as esbuild from 'esbuild';
import {copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..', '..');
const sdkOut = join(repo, 'bot', 'web', 'static', 'vendor');
const axeOut = join(repo, 'tests', 'browser', 'vendor');

function pkg(name) {
  return JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8'));
}

// A package's licence text, whatever its file is called.
function licenceText(name) {
  for (const file of ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'LICENCE', 'LICENCE.md', 'license', 'license.md']) {
    const path = join(here, 'node_modules', name, file);
    if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  }
  return null;
}

// The SDK ships its dependencies inside its own output (output/lib/<package>/); one it does not also
// install (tslib) carries its licence as the opening comment of the file it bundled.
function openingComment(path) {
  const m = readFileSync(path, 'utf8').match(/^\s*\/\*([\s\S]*?)\*\//);
  if (!m) throw new Error(`no licence for ${path}`);
  return m[1].replace(/^\*+|\*+$/gm, '').trim();
}

// The packages whose code ended up in the bundle, from esbuild's metafile: name -> a file of it.
function bundledPackages(metafile) {
  const found = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const lib = input.match(/embedded-app-sdk\/output\/lib\/((?:@[^/]+\/)?[^/]+)\//);
    const top = input.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    const name = lib ? lib[1] : top ? top[1] : null;
    if (name && !found.has(name)) found.set(name, join(here, input));
  }
  return [...found.entries()].sort();
}

function licenceSection([name, file]) {
  const installed = existsSync(join(here, 'node_modules', name, 'package.json'));
  const meta = installed ? pkg(name) : null;
  const title = meta ? `${name} (${meta.license})` : name;
  return `==== ${title} ====\n\n${licenceText(name) ?? openingComment(file)}\n`;
}

async function buildSdk() {
  const sdk = pkg('@discord/embedded-app-sdk');
  mkdirSync(sdkOut, {recursive: true});
  const outfile = join(sdkOut, 'discord-embedded-app-sdk.mjs');
  const result = await esbuild.build({
    entryPoints: [join(here, 'sdk-entry.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    metafile: true,
    outfile,
    banner: {js: `/* @discord/embedded-app-sdk ${sdk.version} (MIT), bundled by bot/web/vendor_build/build.sh with esbuild ${pkg('esbuild').version}; licences: discord-embedded-app-sdk.LICENSE.txt */`},
  });
  const parts = bundledPackages(result.metafile).map(licenceSection);
  writeFileSync(join(sdkOut, 'discord-embedded-app-sdk.LICENSE.txt'),
    `The file discord-embedded-app-sdk.mjs bundles these packages from the npm registry:\n\n${parts.join('\n')}`);
}

function copyAxe() {
  const axe = pkg('axe-core');
  mkdirSync(axeOut, {recursive: true});
  copyFileSync(join(here, 'node_modules', 'axe-core', 'axe.min.js'), join(axeOut, 'axe.min.js'));
  writeFileSync(join(axeOut, 'axe-core.LICENSE.txt'),
    `axe-core ${axe.version} (${axe.license}), axe.min.js as published on the npm registry.\n\n${licenceText('axe-core')}\n`);
}

await buildSdk();
copyAxe();
console.log('built', sdkOut, axeOut);
