// Level 3: a real VS Code. code-server with the packaged .vsix installed,
// driven by playwright-core in headless Debian chromium over 127.0.0.1:
// open a folder and a file, run "askls: Ask a Question about the Code", type
// a question, wait for the answer, check what the panel shows, click a
// citation and check that the editor moved to the cited line, check the
// code lens on it, type lines above the cited code and click the citation
// again (it lands on the moved code), clear the citations from the palette;
// an unreachable model and a refused root (the home folder) are said in
// notifications; screenshots are kept as test artifacts.
//
// Needs: $ASKLS_BIN, the .vsix ($ASKLS_VSIX or editors/vscode/askls-*.vsix),
// code-server and Node 24 as .ci/install.d/vscode.sh installs them (under
// $ASKLS_CI_CACHE, default ~/.cache/askls-ci), and /usr/bin/chromium.
// Without them the test says what is missing and skips (fails when
// ASKLS_REQUIRE_ALL=1).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const h = require('../lib/harness');
const { missing, launch, runCommand, notified, artifacts } = require('../lib/codeserver');

test('code-server: ask from the palette, read the answer beside the code, click a citation, lens, peek, streaming and cancel', { timeout: 480000 }, async (t) => {
  const why = missing();
  if (why) return h.skipOrFail(t, why);
  // No Ollama here: askls answers in retrieval mode. A closed port makes
  // that immediate.
  const cs = await launch(t, { settings: { 'askls.ollamaHost': 'http://127.0.0.1:9' } });
  const { page, web, shot, ws } = cs;
  try {
    await cs.open(ws);

    // Open main.go, the file the question is asked from.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'main.go' }).first().click({ timeout: 30000 });
    await page.locator('.tabs-container .tab.active', { hasText: 'main.go' }).waitFor({ timeout: 30000 });

    const question = 'Where is the config file parsed?';
    await runCommand(page, 'askls: Ask a Question about the Code');
    await page.locator('.quick-input-widget', { hasText: 'the answer cites the code' }).waitFor({ timeout: 30000 });
    await page.keyboard.type(question);
    await page.keyboard.press('Enter');

    // The answer panel is a webview (web): an iframe holding the active frame.
    await web.locator('section.citations').waitFor({ timeout: 60000 });
    assert.equal(await web.locator('h2.question').innerText(), question);

    assert.match(await web.locator('.labels').innerText(), /Retrieval mode/);
    // The unreachable model is said where the person looks: above the
    // answer and as a warning notification, with what to do.
    assert.match(await web.locator('article.entry:not(.earlier)').innerText(), /no Ollama server at http:\/\/127\.0\.0\.1:9: run `?ollama serve/);
    await shot('no-model.png');
    assert.match(await notified(page, 'retrieval mode'), /askls: no Ollama server at http:\/\/127\.0\.0\.1:9: run .?ollama serve/);
    const links = await web.locator('li.citation a.cite-link').allInnerTexts();
    assert.ok(links.length > 0, 'citations are listed');
    const parse = links.find((l) => /config\/load\.go:\d+/.test(l) && /Parse|29/.test(l)) || links.find((l) => /config\/load\.go:/.test(l));
    assert.ok(parse, `config/load.go is cited: ${links.join(' | ')}`);
    const m = /^\[(\d+)\] (.+):(\d+)(?:-(\d+))?$/.exec(parse.trim());
    assert.ok(m, `citation text "${parse}" has the form [n] path:line`);
    const [, n, file, startLine] = m;
    assert.ok(Number(startLine) > 1, 'a citation below the first line, so that moving is visible');
    await shot('answer.png');

    // Click [n] in the answer text: the cited file opens at the cited line.
    await web.locator(`.answer a.cite[data-n="${n}"]`).first().click();
    await page.locator('.tabs-container .tab.active', { hasText: path.basename(file) }).waitFor({ timeout: 30000 });
    // The cursor is on the cited line: the status bar says so, or, when a
    // loaded code-server has not drawn the editor's status items yet, the
    // editor's active line number does.
    await page.locator('.statusbar-item', { hasText: `Ln ${startLine}, Col 1` })
      .or(page.locator('.editor-group-container.active .monaco-editor .line-numbers.active-line-number', { hasText: new RegExp(`^\\s*${startLine}\\s*$`) }))
      .first().waitFor({ timeout: 30000 });
    const cursorLine = await page.locator('.editor-group-container.active .monaco-editor .current-line').count();
    assert.ok(cursorLine > 0, 'the editor shows the cursor line');
    // The answer stays beside the code.
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'askls:' }).count(), 1, 'the answer panel is still open');

    // The server's code lens on the cited code, titled with the citation.
    const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: `[${n}]` });
    await lens.first().waitFor({ timeout: 30000 });
    const lensShot = await shot('citation-opened.png');
    t.diagnostic(`screenshots: ${path.join(artifacts, 'answer.png')}, ${lensShot}`);

    // Clicking the lens brings its answer back in the panel, and opens no
    // markdown copy of it (the server writes one for editors without a panel).
    await web.locator('h2.question').waitFor();
    await lens.first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'askls:' }).waitFor({ timeout: 30000 });
    await page.waitForTimeout(1000);
    const tabs = await page.locator('.tabs-container .tab').allInnerTexts();
    assert.ok(!tabs.some((x) => /\.md\b/.test(x)), `no markdown answer tab: ${tabs.join(' | ')}`);
    assert.equal(await web.locator('h2.question').innerText(), question);

    // Peek: every citation of the answer in the editor's peek view.
    await web.locator('#peek').click();
    const peek = page.locator('.peekview-widget');
    await peek.first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(500);
    const peekText = await peek.first().innerText();
    assert.match(peekText, /load\.go/, `peek lists the cited files: ${peekText.slice(0, 300)}`);
    await shot('peek.png');
    await page.keyboard.press('Escape');

    // A follow-up in the box under the answer: the panel shows both turns
    // of the thread, and a citation of turn 1 still opens its code.
    const box = web.locator('form.followup input');
    await box.fill('who calls that?');
    await box.press('Enter');
    await web.locator('article.entry:not(.earlier) h2.question', { hasText: 'who calls that?' }).waitFor({ timeout: 60000 });
    await web.locator('article.entry:not(.earlier) section.citations').waitFor({ timeout: 60000 });
    assert.equal(await web.locator('article.earlier h2.question').innerText(), question, 'turn 1 stays visible above the follow-up');
    await shot('follow-up.png');
    await page.locator('.tabs-container .tab.active', { hasText: 'askls:' }).waitFor({ timeout: 30000 });
    await web.locator(`article.earlier .answer a.cite[data-n="${n}"]`).first().click();
    await page.locator('.tabs-container .tab.active', { hasText: path.basename(file) }).waitFor({ timeout: 30000 });
    await page.locator('.statusbar-item', { hasText: `Ln ${startLine}, Col 1` }).waitFor({ timeout: 30000 });

    // Five lines typed above the cited code (unsaved): [n] in the panel
    // asks the server where the code is now and lands there.
    await page.keyboard.press('Control+Home');
    for (let i = 1; i <= 5; i++) {
      await page.keyboard.type(`var added${i} = ${i}`);
      await page.keyboard.press('Enter');
    }
    await page.locator('.statusbar-item', { hasText: 'Ln 6, Col 1' }).waitFor({ timeout: 30000 });
    await web.locator(`article.earlier .answer a.cite[data-n="${n}"]`).first().click();
    await page.locator('.statusbar-item', { hasText: `Ln ${Number(startLine) + 5}, Col 1` }).waitFor({ timeout: 30000 });
    await shot('moved-citation.png');

    // askls: Clear Citations takes the lenses away and says so.
    await lens.first().waitFor({ timeout: 30000 });
    await runCommand(page, 'askls: Clear Citations');
    await page.locator('.notification-toast', { hasText: 'cleared the citations of' }).first().waitFor({ timeout: 30000 });
    await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .codelens-decoration a').length === 0, null, { timeout: 30000 });

    // A model answer streams into the panel; the notification's Cancel ends
    // it. The model is a fake Ollama on loopback whose second turn never
    // finishes, switched on by editing the settings file.
    const fo = await h.fakeOllama([
      [h.toolChunk('search_code', { query: 'cart cache size' }), h.textChunk('', true)],
      [h.textChunk('The cart cache is emptied when it holds ', false), h.textChunk('`CacheSize` carts', false), 'HOLD'],
    ]);
    t.after(() => fo.close());
    cs.writeSettings({ 'askls.model': 'fake', 'askls.ollamaHost': fo.url });
    await page.waitForTimeout(2000); // the settings file is watched
    await runCommand(page, 'askls: Ask a Question about the Code');
    await page.locator('.quick-input-widget', { hasText: 'the answer cites the code' }).waitFor({ timeout: 30000 });
    await page.keyboard.type('When is the cart cache emptied?');
    await page.keyboard.press('Enter');
    await web.locator('.answer', { hasText: 'The cart cache is emptied when it holds CacheSize carts' }).waitFor({ timeout: 60000 });
    assert.match(await web.locator('.labels').innerText(), /Answering/);
    assert.ok(fo.state.chats >= 2, 'the fake model was asked twice');
    const toast = page.locator('.notification-toast', { hasText: 'askls' });
    await toast.first().waitFor({ timeout: 10000 });
    await shot('streaming.png');
    await toast.first().locator('.monaco-button', { hasText: 'Cancel' }).click();
    await web.locator('.labels', { hasText: 'Cancelled' }).waitFor({ timeout: 30000 });
    await Promise.race([fo.closed(), new Promise((_, rej) => setTimeout(() => rej(new Error('model stream open 10 s after Cancel')), 10000))]);

    // A refused root: the home folder opened as the workspace. askls says
    // it does not index it and what to do, as a notification.
    await cs.open(cs.home);
    await page.locator('.notification-toast', { hasText: 'askls does not index' }).first().waitFor({ timeout: 60000 }).catch(() => {});
    await shot('refused-root.png');
    assert.match(await notified(page, 'askls does not index'), /it is your home folder.*open a project folder instead/s);
  } catch (err) {
    await cs.keepLogs('');
    throw err;
  }
});
