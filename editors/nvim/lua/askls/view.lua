-- The answer window (a markdown split or float that stays open) and the
-- quickfix list of citations.
local compat = require('askls.compat')

local M = {}

local config = { layout = 'vsplit' }
local buf, win
local current -- result shown in the answer buffer

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
  vim.wo[win].conceallevel = 2
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

function M.begin(question)
  current = nil
  header = { '# ' .. question:gsub('\n', ' '), '' }
  open_window()
  set_lines(vim.list_extend(vim.deepcopy(header), { '_asking…_' }))
end

--- Replaces the body with the text streamed so far.
function M.stream(text)
  if not header then
    return
  end
  open_window()
  set_lines(vim.list_extend(vim.deepcopy(header), split_lines(text)))
end

function M.failed(question, why)
  header = { '# ' .. question:gsub('\n', ' '), '' }
  local b = answer_buffer()
  local body = vim.api.nvim_buf_get_lines(b, 2, -1, false)
  if #body == 1 and body[1] == '_asking…_' then
    body = {}
  end
  table.insert(body, '')
  table.insert(body, '_' .. why .. '_')
  set_lines(vim.list_extend(vim.deepcopy(header), body))
end

local function relpath(fname)
  return vim.fn.fnamemodify(fname, ':~:.')
end

-- One quickfix item per citation, in citation order.
local function citation_items(result)
  local items = {}
  for _, c in ipairs(result.citations or {}) do
    local ok, item = pcall(compat.location_item, c.location, 'utf-16')
    if ok and item then
      local text = string.format('[%d]', c.n or #items + 1)
      if c.symbol and c.symbol ~= vim.NIL and c.symbol ~= '' then
        text = text .. ' ' .. c.symbol
      end
      local excerpt = type(c.excerpt) == 'string' and vim.trim((c.excerpt:gsub('\n.*', ''))) or ''
      if excerpt ~= '' then
        text = text .. ' — ' .. excerpt
      end
      if c.stale == true then
        text = text .. ' (stale)'
      end
      item.text = text
      item.user_data = { n = c.n }
      table.insert(items, item)
    end
  end
  return items
end

function M.show_result(result)
  current = result
  local question = result.question or ''
  header = { '# ' .. question:gsub('\n', ' '), '' }
  local lines = vim.deepcopy(header)
  vim.list_extend(lines, split_lines(result.answer or ''))
  local items = citation_items(result)
  if #items > 0 then
    vim.list_extend(lines, { '', '## Citations', '' })
    for _, it in ipairs(items) do
      table.insert(lines, string.format('%s:%d:%d %s', relpath(it.filename), it.lnum, it.col, it.text))
    end
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
  vim.list_extend(lines, { '', foot .. '_' })
  open_window()
  set_lines(lines)
  vim.b[answer_buffer()].askls_answer_id = result.id
end

--- Puts the citations of a result in the quickfix list; returns the items.
function M.quickfix(result)
  local items = citation_items(result)
  vim.fn.setqflist({}, ' ', {
    title = 'askls: ' .. (result.question or ''):gsub('\n', ' '),
    items = items,
  })
  return items
end

--- Goes to citation n of the answer shown.
function M.jump(n)
  if not current then
    return false
  end
  for _, c in ipairs(current.citations or {}) do
    if c.n == n then
      local item = compat.location_item(c.location, 'utf-16')
      if not item then
        return false
      end
      -- Open it in another window than the answer's.
      if vim.api.nvim_get_current_win() == win then
        vim.cmd('wincmd p')
        if vim.api.nvim_get_current_win() == win then
          vim.cmd('aboveleft split')
        end
      end
      vim.cmd('edit ' .. vim.fn.fnameescape(item.filename))
      vim.api.nvim_win_set_cursor(0, { item.lnum, math.max(item.col - 1, 0) })
      return true
    end
  end
  return false
end

-- The [n] under the cursor, or on the cursor's line.
function M.jump_at_cursor()
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
    M.jump(best)
  end
end

function M.buffer()
  return buf
end

function M.window()
  return win
end

function M.format_status(result)
  local lines = { 'askls status' }
  if type(result) ~= 'table' then
    table.insert(lines, '  ' .. vim.inspect(result))
    return lines
  end
  local keys = vim.tbl_keys(result)
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v = result[k]
    if type(v) == 'table' then
      v = vim.inspect(v, { newline = ' ', indent = '' })
    end
    table.insert(lines, string.format('  %s: %s', k, tostring(v)))
  end
  return lines
end

return M
