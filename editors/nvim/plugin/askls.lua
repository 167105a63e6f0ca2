-- askls commands. They work once require('askls').setup() has run.
if vim.g.loaded_askls then
  return
end
vim.g.loaded_askls = 1

local function askls()
  local m = require('askls')
  m.ensure()
  return m
end

vim.api.nvim_create_user_command('Askls', function(args)
  local q = args.args
  if q == '' and args.range > 0 then
    return askls().ask_selection(args.line1, args.line2)
  end
  if q == '' then
    q = vim.fn.input('askls: ')
  end
  askls().ask(q)
end, { nargs = '*', range = true, desc = 'askls: ask a question about the code (a follow-up in the current thread)' })

vim.api.nvim_create_user_command('AsklsNew', function(args)
  local q = args.args
  if q == '' then
    q = vim.fn.input('askls (new thread): ')
  end
  askls().new(q)
end, { nargs = '*', desc = 'askls: ask a question in a new thread' })

vim.api.nvim_create_user_command('AsklsThreads', function()
  askls().pick_thread()
end, { desc = "askls: pick one of the workspace's threads; :Askls then follows up in it" })

vim.api.nvim_create_user_command('AsklsCancel', function()
  askls().cancel()
end, { desc = 'askls: cancel the question being answered' })

vim.api.nvim_create_user_command('AsklsAnswer', function(args)
  askls().show_answer(args.args ~= '' and args.args or nil)
end, { nargs = '?', desc = 'askls: show the last answer again (or answer {id}, e.g. q3)' })

vim.api.nvim_create_user_command('AsklsClear', function(args)
  askls().clear(args.args ~= '' and args.args or nil)
end, { nargs = '?', desc = "askls: clear the citations' lenses (of answer {id}, e.g. q3, or of all)" })

vim.api.nvim_create_user_command('AsklsStatus', function()
  askls().show_status()
end, { desc = 'askls: index size, generation, model health' })

vim.keymap.set('n', '<Plug>(askls-ask)', function()
  askls().ask_word()
end, { desc = 'askls: ask about the word under the cursor' })
vim.keymap.set('x', '<Plug>(askls-ask)', ':<C-u>lua require("askls").ask_selection()<CR>',
  { silent = true, desc = 'askls: ask about the selection' })
