// Bundles the extension into dist/extension.js (the only code the .vsix
// ships). vscode is provided by the editor at run time.
import * as esbuild from 'esbuild';
import { fileURLToPath } from 'url';
import path from 'path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  minify: process.argv.includes('--minify'),
  logLevel: 'warning',
});
console.log('bundled dist/extension.js');
