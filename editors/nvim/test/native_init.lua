-- Init for the native-start test (Neovim 0.11+): the plugin on the
-- runtimepath and only vim.lsp.config/vim.lsp.enable, no setup().
local here = debug.getinfo(1, 'S').source:sub(2)
local root = vim.fn.fnamemodify(here, ':p:h:h')
vim.opt.runtimepath:prepend(root)
vim.o.swapfile = false
vim.o.shada = ''
vim.o.more = false
vim.lsp.config('askls', {
  cmd = { os.getenv('ASKLS_BIN'), 'serve' },
  -- Nothing listens on port 9: retrieval mode.
  init_options = { ollamaHost = 'http://127.0.0.1:9' },
})
vim.lsp.enable('askls')
