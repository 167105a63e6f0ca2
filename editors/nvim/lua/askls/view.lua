-- The answer window (a markdown split or float that stays open) and the
-- quickfix list of citations.
local compat = require('askls.compat')

local M = {}

local config = { layout = 'vsplit' }
local buf, win
local current -- result shown in the answer buffer
-- Earlier turns of the thread, oldest first: shown below the newest turn.
local earlier = {}
-- Line ranges of the turns shown: { first, last, result }, 1-based.
local sections = {}
local streamed -- text streamed so far for the question being answered

function M.setup(cfg)
  config = cfg
end

local function answer_buffer()
  if buf and vim.api.nvim_buf_is_valid(buf) then
    return buf
  end
  buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  pcall(vim.api.nvim_buf_set_name, buf, 'askls://answer')
  vim.bo[buf].filetype = 'markdown'
  vim.keymap.set('n', '<CR>', function()
    M.jump_at_cursor()
  end, { buffer = buf, desc = 'askls: go to the citation under the cursor' })
  vim.keymap.set('n', 'q', '<Cmd>close<CR>', { buffer = buf, desc = 'askls: close the answer' })
  return buf
end

local function open_window()
  local b = answer_buffer()
  if win and vim.api.nvim_win_is_valid(win) then
    if vim.api.nvim_win_get_buf(win) ~= b then
      vim.api.nvim_win_set_buf(win, b)
    end
    return win
  end
  local prev = vim.api.nvim_get_current_win()
  if config.layout == 'float' then
    local width = math.min(100, math.floor(vim.o.columns * 0.8))
    local height = math.max(5, math.floor(vim.o.lines * 0.6))
    win = vim.api.nvim_open_win(b, false, {
      relative = 'editor',
      width = width,
      height = height,
      row = math.floor((vim.o.lines - height) / 2),
      col = math.floor((vim.o.columns - width) / 2),
      border = 'rounded',
      style = 'minimal',
    })
  else
    vim.cmd(config.layout == 'split' and 'botright split' or 'botright vsplit')
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, b)
    vim.api.nvim_set_current_win(prev)
  end
  vim.wo[win].wrap = true
  vim.wo[win].linebreak = true
  -- Nothing hidden: markdown's conceal would take the brackets off [n]
  -- (the markers <CR> follows) and the stars off *T.
  vim.wo[win].conceallevel = 0
  return win
end

local function set_lines(lines)
  local b = answer_buffer()
  vim.bo[b].modifiable = true
  vim.api.nvim_buf_set_lines(b, 0, -1, false, lines)
  vim.bo[b].modifiable = false
  vim.bo[b].modified = false
end

local function split_lines(text)
  return vim.split(text or '', '\n', { plain = true })
end

local header -- { '# question', '' }

-- The answer's heading: the question's first line as the title, the rest
-- (code of a selection, say) below it as it is.
local function heading(question)
  local lines = vim.split(vim.trim(question or ''), '\n', { plain = true })
  local out = { '# ' .. (lines[1] or ''), '' }
  if #lines > 1 then
    for i = 2, #lines do
      table.insert(out, lines[i])
    end
    table.insert(out, '')
  end
  return out
end
M.heading = heading

--- Sets the earlier turns of the thread (results, oldest first) that the
--- next begin/show_result shows below the newest turn.
function M.set_thread(turns)
  earlier = turns or {}
end

local append_earlier -- defined below citation_items

function M.begin(question)
  current = nil
  streamed = nil
  header = heading(question)
  open_window()
  local lines = vim.list_extend(vim.deepcopy(header), { '_asking…_' })
  sections = {}
  set_lines(append_earlier(lines))
end

--- Replaces the body with the text streamed so far.
function M.stream(text)
  if not header then
    return
  end
  streamed = text
  open_window()
  local lines = vim.list_extend(vim.deepcopy(header), split_lines(text))
  sections = {}
  set_lines(append_earlier(lines))
end

function M.failed(question, why)
  header = heading(question)
  local body = streamed and split_lines(streamed) or {}
  table.insert(body, '')
  table.insert(body, '_' .. why .. '_')
  sections = {}
  set_lines(append_earlier(vim.list_extend(vim.deepcopy(header), body)))
end

local function relpath(fname)
  return vim.fn.fnamemodify(fname, ':~:.')
end

-- s as inline markdown code, or as it is when it holds a backtick.
local function code_span(s)
  if s:find('`', 1, true) then
    return s
  end
  return '`' .. s .. '`'
end

-- One quickfix item per citation, in citation order.
local function citation_items(result)
  local items = {}
  for _, c in ipairs(result.citations or {}) do
    local ok, item = pcall(compat.location_item, c.location, 'utf-16')
    if ok and item then
      local marker = string.format('[%d]', c.n or #items + 1)
      local text = marker
      local symbol = type(c.symbol) == 'string' and c.symbol or ''
      if symbol ~= '' then
        text = text .. ' ' .. symbol
      end
      local excerpt = type(c.excerpt) == 'string' and vim.trim((c.excerpt:gsub('\n.*', ''))) or ''
      if excerpt ~= '' then
        text = text .. ' — ' .. excerpt
      end
      -- The answer buffer is markdown: code goes in backticks there, so
      -- that "*T" is not read as emphasis.
      local md = marker
      if symbol ~= '' then
        md = md .. ' ' .. code_span(symbol)
      end
      if excerpt ~= '' then
        md = md .. ' — ' .. code_span(excerpt)
      end
      if c.stale == true then
        md = md .. ' (stale)'
      end
      item.md = md
      if c.stale == true then
        text = text .. ' (stale)'
      end
      item.text = text
      -- What askls.locate needs to say where the code is at the jump.
      item.user_data = { n = c.n, location = c.location, hash = c.hash, answer = result.id }
      table.insert(items, item)
    end
  end
  return items
end

-- The citation lines of a result: path:line:col [n] symbol — excerpt.
local function citation_lines(result)
  local out = {}
  for _, it in ipairs(citation_items(result)) do
    table.insert(out, string.format('%s:%d:%d %s', relpath(it.filename), it.lnum, it.col, it.md))
  end
  return out
end

-- Appends the earlier turns of the thread to lines, newest first, each
-- with its citation lines, and records their sections.
append_earlier = function(lines)
  if #earlier == 0 then
    return lines
  end
  vim.list_extend(lines, { '', '---', '', '## Earlier in this thread', '' })
  for i = #earlier, 1, -1 do
    local t = earlier[i]
    local first = #lines + 1
    table.insert(lines, '### ' .. (vim.split(vim.trim(t.question or ''), '\n', { plain = true })[1] or ''))
    table.insert(lines, '')
    vim.list_extend(lines, split_lines(t.answer or ''))
    local cl = citation_lines(t)
    if #cl > 0 then
      table.insert(lines, '')
      vim.list_extend(lines, cl)
    end
    table.insert(lines, '')
    table.insert(sections, { first = first, last = #lines, result = t })
  end
  return lines
end

function M.show_result(result, turns)
  current = result
  earlier = turns or {}
  sections = {}
  header = heading(result.question)
  local lines = vim.deepcopy(header)
  -- Why the answer may be partial or came without a model, and what to do
  -- ("no Ollama server at …: run `ollama serve`"), unless the answer says it.
  local notice = type(result.notice) == 'string' and result.notice or ''
  for _, n in ipairs(vim.split(notice, '; ', { plain = true })) do
    if n ~= '' and not (result.answer or ''):find(n, 1, true) then
      vim.list_extend(lines, { '> ' .. n, '' })
    end
  end
  vim.list_extend(lines, split_lines(result.answer or ''))
  local cl = citation_lines(result)
  if #cl > 0 then
    vim.list_extend(lines, { '', '## Citations', '' })
    vim.list_extend(lines, cl)
  end
  local stats = type(result.stats) == 'table' and result.stats or {}
  local foot = string.format('_mode: %s', tostring(result.mode or '?'))
  if result.model and result.model ~= vim.NIL and result.model ~= '' then
    foot = foot .. ' (' .. result.model .. ')'
  end
  if result.refused == true then
    foot = foot .. ' · refused: the evidence does not answer this'
  end
  if stats.ms then
    foot = foot .. string.format(' · %d hops · %d tool calls · %d ms', stats.hops or 0, stats.toolCalls or 0, stats.ms)
  end
  if type(result.id) == 'string' then
    foot = foot .. ' · answer ' .. result.id
  end
  vim.list_extend(lines, { '', foot .. '_' })
  table.insert(sections, { first = 1, last = #lines, result = result })
  append_earlier(lines)
  open_window()
  set_lines(lines)
  vim.b[answer_buffer()].askls_answer_id = result.id
end

local qf_citations = {} -- quickfix list id -> { [entry] = citation }

--- The citation behind entry idx of the current quickfix list, or nil.
function M.quickfix_citation(idx)
  local cites = qf_citations[vim.fn.getqflist({ id = 0 }).id]
  return cites and cites[idx]
end

--- Puts the citations of a result in the quickfix list; returns the items.
function M.quickfix(result)
  local items = citation_items(result)
  for _, it in ipairs(items) do
    it.md = nil
  end
  vim.fn.setqflist({}, ' ', {
    title = 'askls: ' .. (result.question or ''):gsub('\n', ' '),
    items = items,
  })
  -- The citations behind the entries, by list id (Neovim 0.7 keeps no
  -- user_data in quickfix items).
  local cites = {}
  for i, it in ipairs(items) do
    cites[i] = it.user_data
  end
  qf_citations[vim.fn.getqflist({ id = 0 }).id] = cites
  return items
end

-- The window to show a file from the answer window in: the previous
-- window, else a new split above.
local function target_window()
  if vim.api.nvim_get_current_win() == win then
    vim.cmd('wincmd p')
    if vim.api.nvim_get_current_win() == win then
      vim.cmd('aboveleft split')
    end
  end
  return vim.api.nvim_get_current_win()
end

-- Shows file fname in a window without :edit, so that a buffer with unsaved
-- changes is shown as it is (no E37): a window already showing it is used;
-- a window whose own buffer cannot be hidden is split.
local function show_file(fname)
  local b = vim.fn.bufnr(fname)
  if b ~= -1 then
    for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
      if w ~= win and vim.api.nvim_win_get_buf(w) == b then
        vim.api.nvim_set_current_win(w)
        return b
      end
    end
  end
  target_window()
  if b == -1 then
    b = vim.fn.bufadd(fname)
  end
  vim.bo[b].buflisted = true
  local here = vim.api.nvim_get_current_buf()
  if here ~= b and vim.bo[here].modified and not vim.o.hidden and vim.bo[here].bufhidden == '' then
    vim.cmd('aboveleft split')
  end
  vim.api.nvim_win_set_buf(0, b)
  return b
end

-- Asks the server where a citation's code is now: (citation, answer id
-- or nil) -> { location, stale } or nil. The plugin sets it (askls.locate).
M.locate = nil

-- Where citation c (of the answer with id answer, if any) is now: the
-- server's answer at this moment, else the location it was given with.
local function located(c, answer)
  if M.locate and type(c.hash) == 'string' then
    local now = M.locate(c, answer)
    if type(now) == 'table' and type(now.location) == 'table' then
      return now.location, now.stale == true
    end
  end
  return c.location, c.stale == true
end

-- Shows location in a window (not the answer's) and puts the cursor on it.
local function go_to(location)
  show_file(vim.uri_to_fname(location.uri))
  -- The buffer is loaded now: its text turns UTF-16 columns into bytes.
  local item = compat.location_item(location, 'utf-16')
  if not item then
    return false
  end
  local last = vim.api.nvim_buf_line_count(0)
  vim.api.nvim_win_set_cursor(0, { math.min(item.lnum, last), math.max(item.col - 1, 0) })
  return true
end

local function say_stale(n)
  vim.notify(string.format('askls: [%d] is stale: the cited code changed or is gone; this is where it was', n),
    vim.log.levels.WARN)
end

-- Goes to citation n of result (the newest answer when it is nil), where
-- the server has it now (edits since the answer, saved or not, and lines
-- moved since a thread was asked, included).
local function jump_in(result, n)
  result = result or current
  if not result then
    return false
  end
  local id = result.id ~= vim.NIL and result.id or nil
  for _, c in ipairs(result.citations or {}) do
    if c.n == n then
      local location, stale = located(c, id)
      if stale then
        say_stale(n)
      end
      return go_to(location)
    end
  end
  return false
end

--- <CR> in the quickfix window of an askls list: goes where the entry's
--- citation is now (askls.locate), updating the entry, then to it.
function M.quickfix_jump()
  local idx = vim.fn.line('.')
  local list = vim.fn.getqflist({ items = 1, title = 1 })
  local it = list.items and list.items[idx]
  local ud = it and M.quickfix_citation(idx)
  if type(ud) ~= 'table' or type(ud.location) ~= 'table' then
    return vim.cmd(idx .. 'cc')
  end
  local location, stale = located(ud, ud.answer)
  local now = compat.location_item(location, 'utf-16')
  if now then
    it.bufnr, it.lnum, it.col = vim.fn.bufadd(now.filename), now.lnum, now.col
    it.filename = nil
    local cites = qf_citations[vim.fn.getqflist({ id = 0 }).id]
    vim.fn.setqflist({}, 'r', { items = list.items })
    qf_citations[vim.fn.getqflist({ id = 0 }).id] = cites
  end
  vim.cmd(idx .. 'cc')
  if now then
    -- Columns are bytes of the buffer as it is now.
    local item = compat.location_item(location, 'utf-16')
    if item then
      vim.api.nvim_win_set_cursor(0, { math.min(item.lnum, vim.api.nvim_buf_line_count(0)), math.max(item.col - 1, 0) })
    end
  end
  if stale then
    say_stale(ud.n or idx)
  end
end

--- Goes to citation n of the newest answer shown.
function M.jump(n)
  return jump_in(nil, n)
end

-- The [n] under the cursor, or on the cursor's line, of the turn the
-- cursor is in.
function M.jump_at_cursor()
  local row = vim.api.nvim_win_get_cursor(0)[1]
  local result
  for _, sec in ipairs(sections) do
    if row >= sec.first and row <= sec.last then
      result = sec.result
    end
  end
  local line = vim.api.nvim_get_current_line()
  local col = vim.api.nvim_win_get_cursor(0)[2] + 1
  local best
  for s, n, e in line:gmatch('()%[(%d+)%]()') do
    if col >= s and col < e then
      best = tonumber(n)
      break
    end
    best = best or tonumber(n)
  end
  if best then
    jump_in(result, best)
  end
end

function M.buffer()
  return buf
end

function M.window()
  return win
end

-- A status value in words: nil and empty become "none", lists are joined.
local function words(v)
  if v == nil or v == vim.NIL then
    return 'none'
  end
  if type(v) == 'table' then
    if next(v) == nil then
      return 'none'
    end
    local parts = {}
    for _, x in ipairs(v) do
      table.insert(parts, words(x))
    end
    return table.concat(parts, '; ')
  end
  return tostring(v)
end

-- Adds "key: value" lines for t, tables with keys as indented sections.
local function status_lines(lines, t, indent)
  local keys = vim.tbl_keys(t)
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'table' and next(v) ~= nil and not compat.islist(v) then
      table.insert(lines, indent .. k .. ':')
      status_lines(lines, v, indent .. '  ')
    else
      table.insert(lines, string.format('%s%s: %s', indent, k, words(v)))
    end
  end
end

--- askls.status as lines of "key: value", sections indented.
function M.format_status(result)
  local lines = { 'askls status' }
  if type(result) ~= 'table' then
    table.insert(lines, '  ' .. words(result))
    return lines
  end
  status_lines(lines, result, '  ')
  return lines
end

return M
