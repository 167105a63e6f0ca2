-- The askls client for Neovim 0.11+'s native setup: with the plugin on the
-- runtimepath, `vim.lsp.enable('askls')` starts askls on file buffers with
-- no setup() call. Settings go through vim.lsp.config('askls', { ... }) or
-- require('askls').setup({ settings = { ... } }).
-- A command that cannot run is said in the message area (Neovim itself
-- only writes it to lsp.log), once the user's vim.lsp.config is merged.
vim.schedule(function()
  if require('askls').did_setup then
    return -- setup() checked its command already
  end
  local ok, cfg = pcall(function()
    return vim.lsp.config.askls
  end)
  if ok and type(cfg) == 'table' then
    require('askls').check_cmd(cfg.cmd)
  end
end)
return require('askls').lsp_config()
