// extension.js — starts tcp-lsp (setting `tcp.serverPath`) for .tcp files over stdio.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('tcp').get('serverPath') || 'tcp-lsp';
  const server = { command, args: [] };
  client = new LanguageClient('tcp', 'tcp-lsp', { run: server, debug: server }, {
    documentSelector: [{ scheme: 'file', language: 'tcp' }, { scheme: 'untitled', language: 'tcp' }],
  });
  context.subscriptions.push(client);
  client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
