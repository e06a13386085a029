// Runs `nefia dap` (the executable from the `nefia.executable` setting) as the debug adapter
// of the `nefia` debug type; everything else is the adapter's.
const vscode = require("vscode");

function activate(context) {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory("nefia", {
      createDebugAdapterDescriptor() {
        const executable = vscode.workspace.getConfiguration("nefia").get("executable") || "nefia";
        return new vscode.DebugAdapterExecutable(executable, ["dap"]);
      },
    })
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
