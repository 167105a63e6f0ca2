-- Init for the key test (test/keys.sh): Neovim's own UI in tmux, the
-- plugin set up as a user would, and a log of what the test cannot read
-- from the screen.
--   ASKLS_BIN        the askls binary
--   ASKLS_OLLAMA     the (fake) model server; empty: port 9, retrieval mode
--   ASKLS_KEYS_LOG   where the JSON lines below are appended
-- Log lines: {"event":"answer", question, mode (the editor's mode when the
-- answer arrived), buf (the buffer the cursor was in), citations: [{n,
-- file, line, text}]} on each answer; {"event":"where", file, line, text}
-- when the test runs :lua KeysWhere() after a jump; {"event":"notify",
-- msg, level} for each message the plugin or Neovim shows.
local here = debug.getinfo(1, 'S').source:sub(2)
vim.opt.runtimepath:prepend(vim.fn.fnamemodify(here, ':p:h:h'))
vim.o.swapfile = false
vim.o.shada = ''
vim.o.more = false
vim.o.laststatus = 2
vim.o.statusline = '%f L%l'
-- Typed text stays as typed (no auto-indent or comment leaders).
vim.o.autoindent = false
vim.o.formatoptions = ''

local logfile = os.getenv('ASKLS_KEYS_LOG')
local function record(t)
  local f = io.open(logfile, 'a')
  f:write(vim.fn.json_encode(t) .. '\n')
  f:close()
end

-- Every message the user sees through vim.notify (the plugin's own), and
-- the server's window/showMessage (Neovim 0.7 writes those itself).
local notify = vim.notify
vim.notify = function(msg, level, opts)
  record({ event = 'notify', msg = msg, level = level or vim.log.levels.INFO })
  return notify(msg, level, opts)
end
local show = vim.lsp.handlers['window/showMessage']
vim.lsp.handlers['window/showMessage'] = function(err, result, ctx, config)
  record({ event = 'showMessage', msg = result and result.message, type = result and result.type })
  return show(err, result, ctx, config)
end

local ollama = os.getenv('ASKLS_OLLAMA') or ''
local settings = { timeoutSeconds = 60, ollamaHost = 'http://127.0.0.1:9' }
if ollama ~= '' then
  settings.ollamaHost, settings.model = ollama, 'fake:latest'
end
require('askls').setup({ cmd = { os.getenv('ASKLS_BIN'), 'serve' }, settings = settings })

local function line_of(fname, lnum)
  local b = vim.fn.bufnr(fname)
  if b ~= -1 and vim.api.nvim_buf_is_loaded(b) then
    return vim.api.nvim_buf_get_lines(b, lnum - 1, lnum, false)[1]
  end
  return vim.fn.readfile(fname)[lnum]
end

vim.api.nvim_create_autocmd('User', {
  pattern = 'AsklsAnswer',
  callback = function()
    local r = require('askls').state.last or {}
    local cites = {}
    for _, c in ipairs(r.citations or {}) do
      local fname = vim.uri_to_fname(c.location.uri)
      local lnum = c.location.range.start.line + 1
      table.insert(cites, { n = c.n, file = fname, line = lnum, text = line_of(fname, lnum) })
    end
    record({
      event = 'answer',
      question = r.question,
      mode = vim.api.nvim_get_mode().mode,
      buf = vim.api.nvim_buf_get_name(0),
      citations = cites,
    })
  end,
})

function _G.KeysWhere()
  record({
    event = 'where',
    file = vim.api.nvim_buf_get_name(0),
    line = vim.api.nvim_win_get_cursor(0)[1],
    text = vim.api.nvim_get_current_line(),
  })
end

-- {"event":"ready"} once askls serves the first buffer with its index built.
local timer = vim.loop.new_timer()
timer:start(200, 200, vim.schedule_wrap(function()
  local askls = require('askls')
  if not askls.client(vim.api.nvim_get_current_buf()) then
    return
  end
  local st = askls.server_status()
  if type(st) == 'table' and type(st.workspace) == 'table' and st.workspace.ready == true then
    timer:stop()
    record({ event = 'ready' })
  end
end))
