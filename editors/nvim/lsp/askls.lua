-- The askls client for Neovim 0.11+'s native setup: with the plugin on the
-- runtimepath, `vim.lsp.enable('askls')` starts askls on file buffers with
-- no setup() call. Settings go through vim.lsp.config('askls', { ... }) or
-- require('askls').setup({ settings = { ... } }).
return require('askls').lsp_config()
