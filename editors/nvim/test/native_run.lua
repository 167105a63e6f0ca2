-- The native start (Neovim 0.11+): with only vim.lsp.enable('askls')
-- (test/native_init.lua), opening a file starts askls from the shipped
-- lsp/askls.lua, and :Askls answers with citations.
--   nvim --headless -u test/native_init.lua -c 'luafile test/native_run.lua'
-- with ASKLS_BIN and ASKLS_FIXTURE as for run.lua.
local out = io.stdout
local version = string.format('nvim %d.%d.%d', vim.version().major, vim.version().minor, vim.version().patch)
local failed = false
local function fail(msg)
  out:write('not ok - ' .. version .. ': native start: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end
local fixture = os.getenv('ASKLS_FIXTURE')
vim.cmd('cd ' .. vim.fn.fnameescape(fixture))
vim.cmd('edit greet/greet.go')
local b = vim.api.nvim_get_current_buf()
local client
if not vim.wait(15000, function()
  client = vim.lsp.get_clients({ name = 'askls', bufnr = b })[1]
  return client ~= nil and client.initialized
end, 20) then
  return fail("vim.lsp.enable('askls') started no client for greet/greet.go")
end
if client.config.cmd[1] ~= os.getenv('ASKLS_BIN') then
  return fail('the user cmd was replaced: ' .. vim.inspect(client.config.cmd))
end
if vim.fn.json_encode(client.config.init_options) ~= vim.fn.json_encode({ ollamaHost = 'http://127.0.0.1:9' }) then
  return fail('init_options ' .. vim.fn.json_encode(client.config.init_options))
end
local askls = require('askls')
vim.wait(60000, function()
  local st = askls.server_status()
  return type(st) == 'table' and st.workspace and st.workspace.ready == true
end, 50)
local answered = false
vim.api.nvim_create_autocmd('User', { pattern = 'AsklsAnswer', callback = function() answered = true end })
vim.cmd('Askls where is the greeting text built?')
if not vim.wait(30000, function() return answered or askls.state.last_error ~= nil end, 20) then
  return fail('no answer to :Askls')
end
local r = askls.state.last
if askls.state.last_error or not r or #r.citations == 0 then
  return fail('answer: ' .. vim.inspect(askls.state.last_error or r))
end
if not vim.lsp.commands['askls.showAnswer'] then
  return fail('the lens command is not registered')
end
-- The same mappings as setup(), and :checkhealth does not ask for setup().
if vim.fn.maparg('<leader>aa', 'n') == '' or vim.fn.maparg('<leader>aa', 'x') == '' then
  return fail('no <leader>aa mapping after the native start')
end
for _, c in ipairs({ 'Askls', 'AsklsNew', 'AsklsThreads', 'AsklsCancel', 'AsklsAnswer', 'AsklsClear', 'AsklsStatus' }) do
  if vim.fn.exists(':' .. c) ~= 2 then
    return fail(':' .. c .. ' is missing after the native start')
  end
end
vim.cmd('checkhealth askls')
local health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
if health:find('setup() has not run', 1, true) or not health:find('started natively', 1, true) then
  return fail(':checkhealth askls after the native start:\n' .. health)
end
vim.cmd('bwipeout!')
if #vim.lsp.get_clients({ name = 'askls' }) ~= 1 then
  return fail(#vim.lsp.get_clients({ name = 'askls' }) .. ' askls clients')
end
out:write('ok - ' .. version .. ": native start: vim.lsp.enable('askls') alone gives setup()'s commands, <leader>aa and a clean :checkhealth, then :Askls answers with " .. #r.citations .. ' citations\n')
vim.cmd('qall!')
