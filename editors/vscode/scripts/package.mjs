// Builds askls-VERSION.vsix: type check, minified bundle, then `vsce package`
// with the bundle only (no node_modules: everything is in dist/extension.js).
// Needs no network. Prints the .vsix path on its last line.
import { execFileSync } from 'child_process';
import { fileURLToPath } from 'url';
import fs from 'fs';
import path from 'path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });

run(bin('tsc'), ['-p', '.', '--noEmit']);
run(process.execPath, [path.join(root, 'scripts', 'bundle.mjs'), '--minify']);
const out = path.join(root, `askls-${pkg.version}.vsix`);
// Relative links in README.md (the screenshot) point into the repository.
const base = 'https://github.com/askls/askls/raw/HEAD/editors/vscode';
run(bin('vsce'), ['package', '--no-dependencies', '--skip-license', '--baseImagesUrl', base, '--baseContentUrl', base, '--out', out]);
console.log(out);
