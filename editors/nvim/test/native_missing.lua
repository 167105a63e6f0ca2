-- The native start (Neovim 0.11+) with a server command that cannot run:
-- the message area says so, with what to do, within 2 s of opening a file.
--   nvim --headless -u test/native_missing.lua   (with ASKLS_FIXTURE)
local here = debug.getinfo(1, 'S').source:sub(2)
vim.opt.runtimepath:prepend(vim.fn.fnamemodify(here, ':p:h:h'))
vim.o.swapfile = false
vim.o.shada = ''
local version = string.format('nvim %d.%d.%d', vim.version().major, vim.version().minor, vim.version().patch)
local said = {}
vim.notify = function(msg, level)
  table.insert(said, { msg = msg, level = level })
end
vim.lsp.config('askls', { cmd = { '/nonexistent/askls', 'serve' } })
vim.lsp.enable('askls')
vim.cmd('cd ' .. vim.fn.fnameescape(os.getenv('ASKLS_FIXTURE')))
vim.cmd('edit greet/greet.go')
local found
vim.wait(2000, function()
  for _, m in ipairs(said) do
    if m.level == vim.log.levels.ERROR and m.msg:find('/nonexistent/askls', 1, true) and m.msg:find('go install', 1, true) then
      found = m.msg
    end
  end
  return found ~= nil
end, 20)
if found then
  io.stdout:write('ok - ' .. version .. ': native start with a missing binary: ' .. found .. '\n')
  vim.cmd('qall!')
else
  io.stdout:write('not ok - ' .. version .. ': native start with a missing binary said nothing: ' .. vim.inspect(said) .. '\n')
  vim.cmd('cquit 1')
end
