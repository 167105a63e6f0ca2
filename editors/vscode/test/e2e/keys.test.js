// A real VS Code (code-server, see ../lib/codeserver.js), driven as a person
// drives it, ASKLS_VSCODE_TRIES times (default 30), each try counted:
//   ask    Ctrl+Alt+/ in the editor, the question typed into the input box,
//          Enter, against the real askls and a fake model that streams its
//          answer for about a second;
//   while  typing in the editor during and after the answer, waiting and
//          typing after it came, or moving during it and deleting a line
//          after it (Ctrl+Shift+K): every key lands in the file (checked on
//          disk after Ctrl+S), none in the answer panel, and the focus is
//          still in the editor when the answer is there;
//   jump   a line typed above the cited code (unsaved), then [1] clicked in
//          the panel: the editor lands on the cited line where it is now.
// Then askls: Reopen a Thread picks the newest thread, and its [1] lands on
// the cited code after another line was added above. The jumps are counted;
// fewer than 10, or one that missed, fails.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const h = require('../lib/harness');
const { missing, launch, runCommand } = require('../lib/codeserver');

const tries = Number(process.env.ASKLS_VSCODE_TRIES || 30);

/** The fake model: search_code first, then an answer citing config/load.go's evidence, word by word. */
function script(req) {
  const tool = (req.messages || []).filter((m) => m.role === 'tool').map((m) => m.content || '').join('\n');
  if (!tool) {
    return [h.toolChunk('search_code', { query: 'config file Load Parse' }), h.textChunk('', true)];
  }
  const m = /\[(\d+)\][^\n]*config\/load\.go/.exec(tool) || /\[(\d+)\]/.exec(tool);
  const words = `The configuration file is read by Load, which opens it and hands it to Parse [${m ? m[1] : 1}].`.split(/(?<= )/);
  return [...words.map((w) => h.textChunk(w, false)), h.textChunk('', true)];
}

/** The line of file (1-based) that is exactly text, or 0. */
function lineOf(file, text) {
  return fs.readFileSync(file, 'utf8').split('\n').indexOf(text) + 1;
}

test(`code-server: ${tries} tries of the keys that ask and open an answer, each ending in a jump after an edit`, { timeout: 120000 + tries * 20000 }, async (t) => {
  const why = missing();
  if (why) return h.skipOrFail(t, why);
  const fo = await h.fakeOllama(script, { delayMs: 60 });
  t.after(() => fo.close());
  const cs = await launch(t, { settings: { 'askls.model': 'fake', 'askls.ollamaHost': fo.url } });
  const { page, web, ws } = cs;
  const file = path.join(ws, 'config', 'load.go');
  const kb = page.keyboard;
  const focusInEditor = () => page.evaluate(() => Boolean(document.activeElement && document.activeElement.closest('.monaco-editor')));
  // editorFocused waits (5 s at most) until the keyboard focus is in the editor.
  const editorFocused = async (what) => {
    for (let k = 0; k < 100 && !(await focusInEditor()); k++) await page.waitForTimeout(50);
    assert.ok(await focusInEditor(), `${what}: the focus is not in the editor`);
  };
  const statusLine = async () => {
    const s = await page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first().innerText();
    return Number(/Ln (\d+)/.exec(s)[1]);
  };
  const saved = async (cond, what) => {
    await kb.press('Control+S');
    // A loaded machine can take seconds to write the file ("Saving …").
    for (let i = 0; i < 300 && !cond(fs.readFileSync(file, 'utf8').split('\n')); i++) await page.waitForTimeout(100);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    assert.ok(cond(lines), `${what}: the file ends with ${JSON.stringify(lines.slice(-3))}`);
  };
  let jumps = 0;
  let landed = 0;
  // jump clicks link (a [1] in the panel) and checks the editor is on line want.
  const jump = async (link, want, what) => {
    jumps++;
    await link.first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'load.go' }).waitFor({ timeout: 30000 });
    try {
      await page.locator('.statusbar-item', { hasText: `Ln ${want}, Col` }).waitFor({ timeout: 10000 });
    } catch {
      assert.fail(`jump ${jumps} (${what}): the editor is on line ${await statusLine()}, the cited code on ${want}`);
    }
    landed++;
  };
  try {
    await cs.open(ws);
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'config' }).first().click({ timeout: 30000 });
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'load.go' }).first().click({ timeout: 30000 });
    await page.locator('.tabs-container .tab.active', { hasText: 'load.go' }).waitFor({ timeout: 30000 });
    // The extension is up once its command runs (a loaded machine starts the
    // extension host late): one question from the palette first.
    await runCommand(page, 'askls: Ask a Question about the Code');
    await page.locator('.quick-input-widget', { hasText: 'the answer cites the code' }).waitFor({ timeout: 30000 });
    await kb.type('Where is the configuration read?');
    await kb.press('Enter');
    await web.locator('article.entry:not(.earlier) section.citations').waitFor({ timeout: 60000 });

    // Back into the file, as a person clicks into it after reading.
    await page.locator('.tabs-container .tab', { hasText: 'load.go' }).first().click();
    await editorFocused('before the tries');

    const t0 = Date.now();
    const styles = ['typing during and after the answer', 'waiting, then typing', 'moving during the answer, then Ctrl+Shift+K'];
    for (let i = 1; i <= tries; i++) {
      const ts = Date.now();
      const style = styles[(i - 1) % 3];
      // In the file (the jump left the focus there), everything saved: the
      // file on disk is the buffer.
      await editorFocused(`try ${i}`);
      // Saved: the line the last jump added above is on disk.
      await saved((l) => i === 1 || l[0] === `// m${i - 1}`, `try ${i}, saving the last try's line`);
      const before = fs.readFileSync(file, 'utf8').split('\n');
      const question = `try ${i}: config?`;
      await kb.press('Control+Alt+Slash');
      await page.locator('.quick-input-widget', { hasText: 'the answer cites the code' }).waitFor({ timeout: 30000 });
      await kb.type(question);
      await kb.press('Enter');
      // The input box closes and the editor has the focus again (what a
      // person sees before typing on).
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30000 });
      await editorFocused(`try ${i}, after the question`);
      const tA = Date.now();
      const entry = web.locator('article.entry:not(.earlier)', { has: web.locator('h2.question', { hasText: question }) });
      const arrived = () => entry.locator('section.citations').waitFor({ timeout: 60000 });
      if (style === styles[0]) {
        await kb.press('Control+End');
        await kb.press('Enter');
        await kb.type(`var during${i} = ${i}`, { delay: 40 });
        await arrived();
        assert.ok(await focusInEditor(), `try ${i}: the focus left the editor when the answer came`);
        await kb.type(' + 0');
        await saved((l) => l.includes(`var during${i} = ${i} + 0`), `try ${i} (${style})`);
      } else if (style === styles[1]) {
        await kb.press('Control+End');
        await kb.press('Enter');
        await arrived();
        assert.ok(await focusInEditor(), `try ${i}: the focus left the editor when the answer came`);
        await kb.type(`var hello${i} = ${i}`);
        await saved((l) => l.includes(`var hello${i} = ${i}`), `try ${i} (${style})`);
      } else {
        for (let k = 0; k < 4; k++) {
          await kb.press('ArrowDown');
          await page.waitForTimeout(100);
          await kb.press('ArrowUp');
          await page.waitForTimeout(100);
        }
        await arrived();
        assert.ok(await focusInEditor(), `try ${i}: the focus left the editor when the answer came`);
        await kb.press('Control+End');
        await kb.press('Control+Shift+K');
        await saved((l) => l.length === before.length - 1, `try ${i} (${style})`);
      }
      const tB = Date.now();
      // [1]'s line as the panel says, its text in the file as saved.
      const link = await entry.locator('li.citation a.cite-link').first().innerText();
      const m = /^\[1\] config\/load\.go:(\d+)/.exec(link.trim());
      assert.ok(m, `try ${i}: [1] is not in config/load.go: ${link}`);
      const cited = fs.readFileSync(file, 'utf8').split('\n')[Number(m[1]) - 1];
      // A line above it, not saved; [1] lands where the code is now.
      await kb.press('Control+Home');
      await kb.press('Enter');
      await kb.press('ArrowUp');
      await kb.type(`// m${i}`);
      await jump(entry.locator('.answer a.cite[data-n="1"]'), lineOf(file, cited) + 1, `try ${i}`);
      const sec = (ms) => (ms / 1000).toFixed(1);
      t.diagnostic(`try ${i}: Ctrl+Alt+/; ${style}; [1] landed on line ${lineOf(file, cited) + 1} (${sec(Date.now() - ts)} s: asking ${sec(tA - ts)}, answer and keys ${sec(tB - tA)}, jump ${sec(Date.now() - tB)})`);
    }
    t.diagnostic(`${tries}/${tries} tries (ASKLS_VSCODE_TRIES=${tries}): 0 keys reached the panel; ${((Date.now() - t0) / 1000 / tries).toFixed(1)} s a try`);
    await cs.shot('keys-last-try.png');

    // The newest thread, reopened from the palette: [1] follows the code.
    await page.locator('.tabs-container .tab', { hasText: 'load.go' }).first().click();
    await kb.press('Control+S');
    await runCommand(page, 'askls: Reopen a Thread');
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: `try ${tries}:` });
    await pick.first().waitFor({ timeout: 30000 });
    await kb.press('Enter');
    const reopened = web.locator('article.entry:not(.earlier) h2.question', { hasText: `try ${tries}:` });
    await reopened.waitFor({ timeout: 30000 });
    const link = await web.locator('article.entry:not(.earlier) li.citation a.cite-link').first().innerText();
    const m = /^\[1\] config\/load\.go:(\d+)/.exec(link.trim());
    assert.ok(m, `the reopened thread's [1] is not in config/load.go: ${link}`);
    const text = fs.readFileSync(file, 'utf8').split('\n')[Number(m[1]) - 1];
    await page.locator('.tabs-container .tab', { hasText: 'load.go' }).first().click();
    await kb.press('Control+Home');
    await kb.press('Enter');
    await kb.press('ArrowUp');
    await kb.type('// reopened');
    await jump(web.locator('article.entry:not(.earlier) .answer a.cite[data-n="1"]'), lineOf(file, text) + 1, 'a reopened thread');
    t.diagnostic(`${landed}/${jumps} jumps landed on the cited lines after a line was added above`);
    assert.ok(jumps >= 10, `only ${jumps} jumps were made: 10 are required (ASKLS_VSCODE_TRIES >= 9)`);
  } catch (err) {
    await cs.keepLogs('keys-');
    throw err;
  }
});
