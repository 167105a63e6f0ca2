-- Version shim: every call whose form differs between Neovim 0.7 and the
-- newest release goes through here, keyed on vim.fn.has('nvim-0.X'), so the
-- rest of the plugin calls one function and the newest Neovim sees no
-- deprecated call.
local M = {}

local function has(v)
  return vim.fn.has('nvim-' .. v) == 1
end

M.has = has
M.uv = vim.uv or vim.loop

-- vim.lsp.config/vim.lsp.enable (0.11+).
M.native_config = has('0.11') and vim.lsp.config ~= nil and vim.lsp.enable ~= nil

--- Clients of the given name, optionally attached to bufnr.
function M.get_clients(name, bufnr)
  if has('0.10') then
    return vim.lsp.get_clients({ name = name, bufnr = bufnr })
  end
  local out = {}
  local all = bufnr and vim.lsp.buf_get_clients(bufnr) or vim.lsp.get_active_clients()
  for _, c in pairs(all) do
    if c.name == name then
      table.insert(out, c)
    end
  end
  return out
end

--- client:request (0.11+) or client.request.
function M.request(client, method, params, handler, bufnr)
  if has('0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

function M.request_sync(client, method, params, timeout_ms, bufnr)
  if has('0.11') then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

function M.cancel_request(client, id)
  if has('0.11') then
    return client:cancel_request(id)
  end
  return client.cancel_request(id)
end

function M.is_stopped(client)
  if has('0.11') then
    return client:is_stopped()
  end
  return client.is_stopped()
end

function M.supports(client, method)
  if has('0.11') then
    return client:supports_method(method)
  end
  if client.supports_method then
    return client.supports_method(method)
  end
  return true
end

--- Position params for the cursor in the current window.
function M.position_params(client)
  local enc = client and client.offset_encoding or 'utf-16'
  return vim.lsp.util.make_position_params(0, enc)
end

--- Quickfix-style item for one Location (UTF-16 columns turned into bytes).
function M.location_item(location, encoding)
  local items = vim.lsp.util.locations_to_items({ location }, encoding or 'utf-16')
  return items[1]
end

function M.islist(t)
  if vim.islist then
    return vim.islist(t)
  end
  return vim.tbl_islist(t)
end

-- Code lenses: vim.lsp.codelens.enable (0.12) keeps them current itself;
-- before it, refresh() on events (set up by the plugin).
M.codelens_auto = has('0.12') and vim.lsp.codelens ~= nil and vim.lsp.codelens.enable ~= nil

-- The namespace Neovim draws a client's lenses in (before 0.12).
local function codelens_namespace(client_id)
  local ns = vim.lsp.codelens.__namespaces
  if type(ns) == 'table' and ns[client_id] then
    return ns[client_id]
  end
  return vim.api.nvim_create_namespace('vim_lsp_codelens:' .. client_id)
end

--- Removes every lens of a client from bufnr, stored and drawn: before
--- 0.12 Neovim's display skips an empty list (0.7 never clears it).
function M.codelens_clear(bufnr, client_id)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  vim.api.nvim_buf_clear_namespace(bufnr, codelens_namespace(client_id), 0, -1)
  pcall(vim.lsp.codelens.save, {}, bufnr, client_id)
end

--- Shows the askls lenses of bufnr as the server has them now. Before 0.12
--- the plugin asks for them itself, so that an empty answer clears what
--- is drawn (Neovim's own refresh leaves it).
function M.codelens_enable(bufnr, client_id)
  if M.codelens_auto then
    vim.lsp.codelens.enable(true, { bufnr = bufnr })
    return
  end
  local clients = client_id and { vim.lsp.get_client_by_id(client_id) } or M.get_clients('askls', bufnr)
  for _, client in ipairs(clients) do
    local id = client.id
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
    M.request(client, 'textDocument/codeLens', params, function(err, result, ctx)
      if err or not vim.api.nvim_buf_is_valid(bufnr) then
        return
      end
      if type(result) ~= 'table' or next(result) == nil then
        M.codelens_clear(bufnr, id)
        return
      end
      ctx = ctx or {}
      ctx.bufnr, ctx.client_id = bufnr, id
      vim.lsp.codelens.on_codelens(err, result, ctx)
    end, bufnr)
  end
end

-- Health report functions: vim.health.start (0.10+), vim.health.report_*
-- (0.8, 0.9), require('health').report_* (0.7).
function M.health()
  if has('0.10') then
    return vim.health
  end
  local h = (vim.health and vim.health.report_start) and vim.health or require('health')
  return {
    start = h.report_start,
    ok = h.report_ok,
    warn = h.report_warn,
    error = h.report_error,
    info = h.report_info,
  }
end

return M
