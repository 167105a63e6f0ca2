-- Minimal init for the headless tests: only this plugin, no user config.
local here = debug.getinfo(1, 'S').source:sub(2)
local root = vim.fn.fnamemodify(here, ':p:h:h')
vim.opt.runtimepath:prepend(root)
vim.o.swapfile = false
vim.o.shada = ''
vim.o.more = false
-- Record every deprecation warning: the newest Neovim must see none.
_G.ASKLS_DEPRECATED = {}
if vim.deprecate then
  local orig = vim.deprecate
  vim.deprecate = function(name, alternative, version, plugin, backtrace)
    table.insert(_G.ASKLS_DEPRECATED, { name = name, trace = debug.traceback('', 2) })
    return orig(name, alternative, version, plugin, backtrace)
  end
end
