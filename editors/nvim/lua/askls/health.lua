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
  if not askls.did_setup then
    h.warn("require('askls').setup() has not run; the commands run it with the defaults")
  end
  local cmd = askls.config.cmd[1]
  if vim.fn.executable(cmd) == 1 then
    h.ok('binary: ' .. vim.fn.exepath(cmd))
  else
    h.error('binary not found: ' .. cmd, { 'go install ./cmd/askls (from the askls repository), or set cmd in setup()' })
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
  local model = type(status) == 'table' and (status.model or status.modelHealth) or nil
  if type(model) == 'table' then
    if model.ok == true or model.reachable == true then
      h.ok('model reachable')
    else
      h.warn('model not reachable: answers come in retrieval mode (ranked, cited evidence)', { 'run `askls doctor`' })
    end
  end
end

return M
