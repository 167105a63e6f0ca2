-- askls for Neovim: starts the askls language server, asks it questions
-- (askls/ask), streams the answer into a markdown window, puts the
-- citations in the quickfix list and shows code lenses on cited code.
--
--   require('askls').setup({ ... })   -- see M.defaults
local compat = require('askls.compat')
local view = require('askls.view')

local M = {}

M.defaults = {
  -- The server command; askls with no arguments (or `serve`) is the server.
  cmd = { 'askls', 'serve' },
  -- A buffer's workspace root is the nearest folder holding one of these,
  -- else the current directory.
  root_markers = { '.git', 'go.mod', '.asklsignore' },
  -- Filetypes to attach to; nil means every file buffer.
  filetypes = nil,
  -- Sent as initializationOptions: model, ollamaHost, numCtx, maxHops,
  -- timeoutSeconds, exclude, maxFileBytes, codeLens, citationsAsDiagnostics.
  settings = {},
  -- Where the answer shows: 'split', 'vsplit' or 'float'.
  layout = 'vsplit',
  -- Open the quickfix list after an answer with citations.
  open_quickfix = false,
  -- Code lenses on cited code (Neovim shows them from 0.7 on).
  codelens = true,
  -- Mapping for the word under the cursor (normal) or the selection
  -- (visual); false for none. <Plug>(askls-ask) is always defined.
  keymap = '<leader>aa',
  -- How the mapping words its question.
  word_question = 'What is `%s`, where is it defined and how is it used?',
  selection_question = 'Explain this code:\n\n```\n%s\n```',
}

M.config = vim.deepcopy(M.defaults)

-- state of the plugin; tests read it.
M.state = {
  seq = 0,
  pending = nil, -- { client, request_id, token, question, bufnr }
  answers = {}, -- id -> result
  last = nil, -- last result
  progress = nil, -- status-line text of the running work
  streams = {}, -- partialResultToken -> { text }
  last_error = nil,
  thread = nil, -- id of the current thread: :Askls follows up in it
  turns = {}, -- its turns shown so far (results), oldest first
}

local NAME = 'askls'

local function notify(msg, level)
  vim.notify('askls: ' .. msg, level or vim.log.levels.INFO)
end

-- Root folder of a buffer: nearest ancestor holding a root marker.
function M.root_dir(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  local cur = dir
  while cur and cur ~= '' do
    for _, marker in ipairs(M.config.root_markers) do
      if compat.uv.fs_stat(cur .. '/' .. marker) then
        return cur
      end
    end
    local parent = vim.fn.fnamemodify(cur, ':h')
    if parent == cur then
      break
    end
    cur = parent
  end
  return vim.fn.getcwd()
end

-- $/progress: partial answer text for our tokens, status-line text for the
-- rest, then Neovim's own handler (LspProgress, vim.lsp.status()).
local function progress_handler(err, result, ctx, config)
  local value = result and result.value
  local token = result and result.token
  local stream = token ~= nil and M.state.streams[tostring(token)]
  if stream then
    if type(value) == 'table' and type(value.delta) == 'string' then
      stream.text = stream.text .. value.delta
      M.state.max_stream = math.max(M.state.max_stream or 0, #stream.text)
      view.stream(stream.text)
    end
    return
  end
  if type(value) == 'table' then
    if value.kind == 'end' then
      M.state.progress = nil
    elseif value.kind == 'begin' or value.kind == 'report' then
      local text = value.title or (M.state.progress_title or '')
      if value.kind == 'begin' then
        M.state.progress_title = value.title
      end
      text = M.state.progress_title or text
      if value.message and value.message ~= '' then
        text = text .. ': ' .. value.message
      end
      if value.percentage then
        text = text .. string.format(' (%d%%)', value.percentage)
      end
      M.state.progress = text
      M.state.progress_seen = (M.state.progress_seen or 0) + 1
    end
    pcall(vim.cmd, 'redrawstatus')
  end
  local default = vim.lsp.handlers['$/progress']
  if default then
    return default(err, result, ctx, config)
  end
end

-- What askls's client says it can do: Neovim's own capabilities, plus code
-- lenses, which the plugin displays itself on every version (0.7 does not
-- announce them, and the server would then add hint diagnostics for the
-- same citations).
local function capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.textDocument = caps.textDocument or {}
  caps.textDocument.codeLens = caps.textDocument.codeLens or { dynamicRegistration = false }
  return caps
end

-- initializationOptions: the settings as a JSON object (an empty Lua table
-- would be sent as []).
local function init_options(settings)
  if type(settings) ~= 'table' or next(settings) == nil then
    return vim.empty_dict()
  end
  return settings
end

local register -- defined below
local set_keymaps -- defined below
local flush_changes -- defined below

local function on_attach(client, bufnr)
  if not M.did_setup then
    register()
  end
  if M.config.codelens and compat.supports(client, 'textDocument/codeLens') then
    compat.codelens_enable(bufnr, client.id)
  end
end

local function client_config(root)
  local cfg = {
    name = NAME,
    cmd = M.config.cmd,
    init_options = init_options(M.config.settings),
    capabilities = capabilities(),
    handlers = {
      ['$/progress'] = progress_handler,
    },
    on_attach = on_attach,
  }
  if root then
    cfg.root_dir = root
    cfg.workspace_folders = { { uri = vim.uri_from_fname(root), name = root } }
  end
  return cfg
end

--- The configuration lsp/askls.lua returns for vim.lsp.enable('askls')
--- (Neovim 0.11+), with the current options.
function M.lsp_config()
  local cfg = client_config(nil)
  cfg.name = nil
  cfg.filetypes = M.config.filetypes
  cfg.root_dir = function(bufnr, on_dir)
    on_dir(M.root_dir(bufnr))
  end
  return cfg
end

local clients_by_root = {} -- 0.7: root -> client id

local function file_buffer(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  if vim.api.nvim_buf_get_name(bufnr) == '' then
    return false
  end
  local fts = M.config.filetypes
  if fts and not vim.tbl_contains(fts, vim.bo[bufnr].filetype) then
    return false
  end
  return true
end

-- Attaches askls to a buffer (Neovim before 0.11).
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not file_buffer(bufnr) then
    return
  end
  local root = M.root_dir(bufnr)
  if compat.has('0.8') then
    vim.lsp.start(client_config(root), { bufnr = bufnr })
    return
  end
  local id = clients_by_root[root]
  if id then
    local c = vim.lsp.get_client_by_id(id)
    if not c or c.is_stopped() then
      id = nil
    end
  end
  if not id then
    id = vim.lsp.start_client(client_config(root))
    if not id then
      notify('cannot start ' .. table.concat(M.config.cmd, ' '), vim.log.levels.ERROR)
      return
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

local function start()
  if compat.native_config then
    vim.lsp.config(NAME, M.lsp_config())
    vim.lsp.enable(NAME)
    return
  end
  local group = vim.api.nvim_create_augroup('askls_attach', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].filetype ~= '' then
      M.attach(b)
    end
  end
end

local function codelens_autocmds()
  if compat.codelens_auto or not M.config.codelens then
    return
  end
  local group = vim.api.nvim_create_augroup('askls_codelens', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
    group = group,
    callback = function(args)
      if #compat.get_clients(NAME, args.buf) > 0 then
        compat.codelens_enable(args.buf)
      end
    end,
  })
end

-- What the plugin needs whether or not setup() runs (vim.lsp.enable alone
-- calls it through on_attach): the view and the lens command.
function register()
  view.setup(M.config)
  if not M.did_setup then
    -- The native start: the same mappings and lens refreshes as setup().
    set_keymaps(false)
    codelens_autocmds()
    M.native = true
  end
  view.locate = function(c, answer)
    return M.locate(c, answer)
  end
  -- <CR> in the quickfix window of an askls list follows the code.
  local group = vim.api.nvim_create_augroup('askls_quickfix', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'qf',
    callback = function(args)
      vim.keymap.set('n', '<CR>', function()
        local title = vim.fn.getqflist({ title = 1 }).title or ''
        if vim.fn.getwininfo(vim.fn.win_getid())[1].loclist == 0 and title:sub(1, 6) == 'askls:' then
          view.quickfix_jump()
        else
          vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<CR>', true, false, true), 'n', false)
        end
      end, { buffer = args.buf, desc = 'askls: go where the citation is now' })
    end,
  })
  -- The lens command runs here: it opens the answer it names.
  vim.lsp.commands['askls.showAnswer'] = function(command)
    local id = command.arguments and command.arguments[1]
    M.show_answer(id)
  end
end

M.install_hint = 'go install github.com/askls/askls/cmd/askls@latest (needs Go)'

--- Says in the message area, as an error, when the server command cannot
--- be run; returns whether it can. The message says what to do.
function M.check_cmd(cmd)
  local exe = type(cmd) == 'table' and cmd[1] or nil
  if type(exe) ~= 'string' then
    return true -- a function (vim.lsp.config allows one): nothing to check
  end
  if vim.fn.executable(exe) == 1 then
    return true
  end
  local where = exe:find('/', 1, true) and ('there is no executable ' .. exe) or (exe .. ' is not on PATH')
  notify(string.format('the server cannot start: %s. Install it with %s, or set cmd (setup({ cmd = { "/path/to/askls", "serve" } }) or vim.lsp.config).',
    where, M.install_hint), vim.log.levels.ERROR)
  return false
end

-- The mappings setup() makes, also for the native start (vim.lsp.enable
-- without setup()): there they never replace a mapping of the user's.
set_keymaps = function(force)
  local lhs = M.config.keymap
  if not lhs then
    return
  end
  if force or vim.fn.maparg(lhs, 'n') == '' then
    vim.keymap.set('n', lhs, '<Plug>(askls-ask)', { desc = 'askls: ask about the word under the cursor' })
  end
  if force or vim.fn.maparg(lhs, 'x') == '' then
    vim.keymap.set('x', lhs, '<Plug>(askls-ask)', { desc = 'askls: ask about the selection' })
  end
end

--- Makes the plugin usable: setup() with the defaults, unless askls was
--- started natively (vim.lsp.enable('askls')), whose configuration stays.
function M.ensure()
  if M.did_setup then
    return
  end
  local native = compat.native_config
    and ((vim.lsp.is_enabled and vim.lsp.is_enabled(NAME)) or #compat.get_clients(NAME) > 0)
  if native then
    register()
    return
  end
  M.setup({})
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  register()
  set_keymaps(true)
  codelens_autocmds()
  M.check_cmd(M.config.cmd)
  start()
  M.did_setup = true
end

--- The askls client for a buffer (or any running askls client).
function M.client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local cs = compat.get_clients(NAME, bufnr)
  if #cs == 0 then
    cs = compat.get_clients(NAME)
  end
  for _, c in ipairs(cs) do
    if not compat.is_stopped(c) then
      return c
    end
  end
  return nil
end

local function refresh_lenses()
  if not M.config.codelens then
    return
  end
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    local b = vim.api.nvim_win_get_buf(win)
    if #compat.get_clients(NAME, b) > 0 then
      compat.codelens_enable(b)
    end
  end
end

-- The reasons for retrieval mode already said this session.
local retrieval_warned = {}

-- Says once per reason, as a warning in the message area, why no model
-- answered and what to do (the server's notice: "no Ollama server at …:
-- run `ollama serve`"); the answer window shows it above the answer too.
local function warn_retrieval(result)
  local notice = result.notice
  if result.mode ~= 'retrieval' or type(notice) ~= 'string' or notice == '' or retrieval_warned[notice] then
    return
  end
  retrieval_warned[notice] = true
  notify('retrieval mode: ' .. notice, vim.log.levels.WARN)
end

local function on_result(pending, result)
  M.state.last = result
  if result.id ~= nil then
    M.state.answers[tostring(result.id)] = result
  end
  if type(result.thread) == 'string' and result.thread ~= M.state.thread then
    M.state.turns = {} -- a new thread
  end
  M.state.thread = type(result.thread) == 'string' and result.thread or nil
  view.show_result(result, M.state.turns)
  table.insert(M.state.turns, result)
  local items = view.quickfix(result)
  if #items > 0 and M.config.open_quickfix then
    local win = vim.api.nvim_get_current_win()
    vim.cmd('botright copen')
    vim.api.nvim_set_current_win(win)
  end
  refresh_lenses()
  warn_retrieval(result)
  vim.api.nvim_exec_autocmds('User', { pattern = 'AsklsAnswer', modeline = false })
end

--- Asks a question: a follow-up in the current thread, or the first turn
--- of a new one (opts.new, or no current thread). opts: { bufnr, position
--- (LSP Position), on_done, new }. Returns the request id, or nil and an
--- error.
function M.ask(question, opts)
  opts = opts or {}
  question = vim.trim(question or '')
  if question == '' then
    notify('empty question', vim.log.levels.WARN)
    return nil, 'empty question'
  end
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    local msg = 'the askls server is not running here (open a file; see :checkhealth askls)'
    notify(msg, vim.log.levels.ERROR)
    return nil, msg
  end
  if M.state.pending then
    M.cancel()
  end
  M.state.seq = M.state.seq + 1
  local token = 'askls-answer-' .. M.state.seq
  if opts.new then
    M.state.thread, M.state.turns = nil, {}
  end
  local params = {
    question = question,
    partialResultToken = token,
    workDoneToken = 'askls-work-' .. M.state.seq,
    thread = M.state.thread or 'new',
  }
  if file_buffer(bufnr) then
    local pos = vim.api.nvim_get_current_buf() == bufnr and compat.position_params(client) or nil
    params.textDocument = { uri = vim.uri_from_bufnr(bufnr) }
    params.position = opts.position or (pos and pos.position) or nil
  end
  M.state.streams[token] = { text = '' }
  M.state.last_error = nil
  view.set_thread(M.state.thread and M.state.turns or {})
  view.begin(question)
  local pending = { client = client, token = token, question = question, bufnr = bufnr }
  local ok, request_id = compat.request(client, 'askls/ask', params, function(err, result)
    M.state.streams[token] = nil
    if M.state.pending == pending then
      M.state.pending = nil
    end
    M.state.progress = nil
    if err then
      local cancelled = err.code == -32800
      M.state.last_error = err
      view.failed(question, cancelled and 'cancelled' or (err.message or vim.inspect(err)))
      if not cancelled then
        notify(err.message or 'ask failed', vim.log.levels.ERROR)
      end
    elseif result then
      on_result(pending, result)
    end
    if opts.on_done then
      opts.on_done(err, result)
    end
  end, bufnr)
  if not ok then
    M.state.streams[token] = nil
    view.failed(question, 'the server did not take the request')
    return nil, 'request failed'
  end
  pending.request_id = request_id
  M.state.pending = pending
  return request_id
end

--- Asks question as the first turn of a new thread.
function M.new(question, opts)
  opts = vim.tbl_extend('force', opts or {}, { new = true })
  return M.ask(question, opts)
end

-- A thread from askls.openThread as results the view shows.
local function thread_results(th)
  local out = {}
  for _, t in ipairs(th.turns or {}) do
    table.insert(out, {
      question = t.question,
      answer = t.answer,
      citations = t.citations or {},
      mode = t.mode,
      refused = t.refused,
      thread = th.id,
    })
  end
  return out
end

--- Opens thread id (the most recent when nil): its turns show in the
--- answer window and :Askls follows up in it. Returns the thread.
function M.open_thread(id)
  local th, err = M.execute('askls.openThread', { id or vim.NIL })
  if type(th) ~= 'table' then
    notify('cannot open thread ' .. tostring(id or '') .. ': ' .. tostring(err), vim.log.levels.ERROR)
    return nil
  end
  local turns = thread_results(th)
  M.state.thread, M.state.turns = th.id, turns
  if #turns > 0 then
    local earlier = vim.list_slice(turns, 1, #turns - 1)
    view.show_result(turns[#turns], earlier)
    view.quickfix(turns[#turns])
  end
  return th
end

--- Lists the workspace's threads (askls.threads), or nil and an error.
function M.threads()
  return M.execute('askls.threads', {})
end

--- Picks a thread with vim.ui.select and opens it.
function M.pick_thread()
  local list, err = M.threads()
  if type(list) ~= 'table' then
    notify('cannot list threads: ' .. tostring(err), vim.log.levels.ERROR)
    return
  end
  if #list == 0 then
    notify('no threads in this workspace yet: :Askls starts one')
    return
  end
  vim.ui.select(list, {
    prompt = 'askls threads',
    format_item = function(t)
      return string.format('%s (%d turns, %s)', t.title, t.turns or 0, tostring(t.updated or ''):sub(1, 16))
    end,
  }, function(choice)
    if choice then
      M.open_thread(choice.id)
    end
  end)
end

--- Cancels the question being answered.
function M.cancel()
  local p = M.state.pending
  if not p then
    notify('nothing to cancel')
    return false
  end
  compat.cancel_request(p.client, p.request_id)
  M.state.pending = nil
  M.state.streams[p.token] = nil
  M.state.progress = nil
  view.failed(p.question, 'cancelled')
  return true
end

--- Asks about the word under the cursor.
function M.ask_word()
  local word = vim.fn.expand('<cword>')
  if word == '' then
    notify('no word under the cursor', vim.log.levels.WARN)
    return
  end
  return M.ask(string.format(M.config.word_question, word))
end

--- Asks about the text of the last visual selection (or the lines l1..l2).
function M.ask_selection(l1, l2)
  local bufnr = vim.api.nvim_get_current_buf()
  local lines
  if l1 and l2 then
    lines = vim.api.nvim_buf_get_lines(bufnr, l1 - 1, l2, false)
  else
    local s = vim.api.nvim_buf_get_mark(bufnr, '<')
    local e = vim.api.nvim_buf_get_mark(bufnr, '>')
    lines = vim.api.nvim_buf_get_lines(bufnr, s[1] - 1, e[1], false)
    if vim.fn.visualmode() == 'v' and #lines > 0 then
      lines[#lines] = lines[#lines]:sub(1, e[2] + 1)
      lines[1] = lines[1]:sub(s[2] + 1)
    end
  end
  local text = table.concat(lines, '\n')
  if vim.trim(text) == '' then
    notify('empty selection', vim.log.levels.WARN)
    return
  end
  return M.ask(string.format(M.config.selection_question, text))
end

local function execute(command, arguments, timeout_ms)
  local client = M.client()
  if not client then
    return nil, 'the askls server is not running'
  end
  -- A buffer the client is attached to (the answer buffer is not: newer
  -- Neovims refuse a request for a buffer the client does not serve).
  local bufnr = vim.api.nvim_get_current_buf()
  local attached = client.attached_buffers or {}
  if not attached[bufnr] then
    bufnr = next(attached) or bufnr
  end
  local resp, err = compat.request_sync(client, 'workspace/executeCommand', { command = command, arguments = arguments },
    timeout_ms or 5000, bufnr)
  if not resp then
    return nil, err or 'no reply'
  end
  if resp.err then
    return nil, resp.err.message or vim.inspect(resp.err)
  end
  return resp.result
end
M.execute = execute

-- Sends the edits Neovim holds back (it batches didChange for a moment),
-- so that the server's Locations include the last keystrokes.
function flush_changes()
  local ok, ct = pcall(require, 'vim.lsp._changetracking')
  if not (ok and type(ct) == 'table' and type(ct.flush) == 'function') then
    return
  end
  for _, client in ipairs(compat.get_clients(NAME)) do
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].modified then
        pcall(ct.flush, client, b)
      end
    end
  end
end

--- Opens an answer by id or label ("q3"); the newest when id is nil.
--- The citations are the server's current Locations when it answers.
function M.show_answer(id)
  local result = M.answer(id)
  if not result then
    local r, err = execute('askls.showAnswer', { id or vim.NIL, { show = false } })
    if not r then
      notify('cannot show answer ' .. tostring(id or '') .. ': ' .. tostring(err), vim.log.levels.ERROR)
      return
    end
    result = r
  end
  view.show_result(result)
  view.quickfix(result)
  return result
end

--- An answer of this session with its citations where they are now (the
--- server's current Locations), or nil. id: an answer id, a label ("q3")
--- or nil for the newest.
function M.answer(id)
  local key = id ~= nil and tostring(id) or (M.state.last and M.state.last.id)
  flush_changes()
  local fresh, err = nil, nil
  if key then
    fresh, err = execute('askls.showAnswer', { key, { show = false } }, 2000)
  end
  if err then
    M.state.last_error = { message = 'askls.showAnswer: ' .. tostring(err) }
  end
  if type(fresh) == 'table' and type(fresh.citations) == 'table' then
    M.state.answers[tostring(fresh.id)] = fresh
    return fresh
  end
  return key and M.state.answers[tostring(key)] or nil
end

--- Where citation c is now: askls.locate at this moment (answer: the id
--- of the kept answer it belongs to, or nil). { location, stale } or nil.
function M.locate(c, answer)
  flush_changes()
  local arg = { location = c.location, hash = c.hash }
  if answer then
    arg.answer, arg.n = answer, c.n
  end
  local r, err = execute('askls.locate', { arg }, 2000)
  if not r then
    M.state.last_error = { message = 'askls.locate: ' .. tostring(err) }
  end
  return r
end

--- Clears the citations (lenses, hints) of one answer (id or label), or of
--- all answers when id is nil.
function M.clear(id)
  local r, err = execute('askls.clearCitations', id and { id } or {})
  if not r then
    notify('cannot clear citations: ' .. tostring(err), vim.log.levels.ERROR)
    return nil, err
  end
  -- Neovim before 0.12 draws an empty lens list as nothing at all, and
  -- the old lenses would stay: take them off, then ask again.
  if not compat.codelens_auto then
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      for _, c in ipairs(compat.get_clients(NAME, b)) do
        compat.codelens_clear(b, c.id)
      end
    end
  end
  refresh_lenses()
  local cleared = type(r.cleared) == 'table' and r.cleared or {}
  notify(#cleared > 0 and ('cleared the citations of ' .. table.concat(cleared, ', ')) or 'no citations were showing')
  return r
end

--- askls.status from the server, or nil and an error.
function M.server_status()
  return execute('askls.status', { { notify = false } })
end

--- Shows askls.status.
function M.show_status()
  local result, err = M.server_status()
  if not result then
    notify(tostring(err), vim.log.levels.ERROR)
    return
  end
  local lines = view.format_status(result)
  vim.api.nvim_echo({ { table.concat(lines, '\n') } }, true, {})
end

--- Status-line text: what askls is doing now, '' when idle.
function M.statusline()
  local p = M.state.progress
  if p then
    -- The server's progress titles already start with "askls".
    return p:match('^askls') and p or ('askls: ' .. p)
  end
  if M.state.pending then
    return 'askls: asking…'
  end
  return ''
end

return M
