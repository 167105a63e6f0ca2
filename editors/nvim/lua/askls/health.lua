-- :checkhealth askls
local M = {}

function M.check()
  local compat = require('askls.compat')
  local h = compat.health()
  local askls = require('askls')
  h.start('askls')
  if not compat.has('0.7') then
    h.error('Neovim 0.7 or later is needed')
  else
    h.ok('Neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor))
  end
  local cmd = askls.config.cmd[1]
  if askls.native then
    h.ok("started natively (vim.lsp.enable('askls')): the commands and mappings of setup() are there")
    local ok, cfg = pcall(function()
      return vim.lsp.config.askls
    end)
    if ok and type(cfg) == 'table' and type(cfg.cmd) == 'table' then
      cmd = cfg.cmd[1]
    end
  elseif not askls.did_setup then
    h.warn("require('askls').setup() has not run; the commands run it with the defaults")
  end
  if vim.fn.executable(cmd) == 1 then
    h.ok('binary: ' .. vim.fn.exepath(cmd))
  else
    h.error('binary not found: ' .. cmd, { askls.install_hint .. ', or set cmd in setup() or vim.lsp.config' })
    return
  end
  local client = askls.client()
  if not client then
    h.warn('server not running: open a file in a workspace (setup() attaches askls to file buffers)')
    return
  end
  h.ok(string.format('server running (client id %d, root %s)', client.id, tostring(client.config.root_dir)))
  local status, err = askls.server_status()
  if not status then
    h.error('askls.status failed: ' .. tostring(err))
    return
  end
  for _, line in ipairs(require('askls.view').format_status(status)) do
    h.info(line)
  end
  local model = type(status) == 'table' and status.model or nil
  if type(model) == 'table' then
    local problems = type(model.problems) == 'table' and model.problems or {}
    local advice = vim.list_extend(vim.deepcopy(problems), { 'run `askls doctor` in a terminal' })
    if model.reachable ~= true then
      h.warn('model not reachable at ' .. tostring(model.host) .. ': answers come in retrieval mode (ranked, cited evidence)', advice)
    elseif #problems > 0 then
      h.warn('model ' .. tostring(model.model) .. ': ' .. problems[1], advice)
    else
      h.ok('model ' .. tostring(model.model) .. ' reachable, with tools')
    end
  end
end

return M
