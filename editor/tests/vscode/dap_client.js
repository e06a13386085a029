// `nefia dap` driven by VS Code's own debug adapter test client
// (@vscode/debugadapter-testsupport), which talks to an adapter exactly as the code editor
// does: initialize, then launch while the breakpoints are set and configuration is done.
//
// node dap_client.js <nefia binary> <repository root> <scratch folder>
// Prints "ok" and exits 0 when every check passed; prints the failure and exits 1 otherwise.

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const [nefia, repo, scratch] = process.argv.slice(2);
const project = path.join(repo, 'projects/demo');
const rules = path.join(repo, 'mods/elona/game/rules.lua');
const THREAD = { threadId: 1 };

/** A client on a fresh `nefia dap`. */
async function client() {
  const dc = new DebugClient(nefia, 'dap', 'nefia', { cwd: scratch }, true);
  // A loaded CI machine builds the game's first state slowly.
  dc.defaultTimeout = 60000;
  await dc.start();
  return dc;
}

/** The locals of the top frame, as name → value. */
async function locals(dc) {
  const trace = await dc.stackTraceRequest(THREAD);
  const scopes = await dc.scopesRequest({ frameId: trace.body.stackFrames[0].id });
  const variables = await dc.variablesRequest({ variablesReference: scopes.body.scopes[0].variablesReference });
  return Object.fromEntries(variables.body.variables.map((v) => [v.name, v.value]));
}

/** A launched script: a breakpoint in a mod's file, its locals, a step over, the output, the end. */
async function launchedScript() {
  const program = path.join(scratch, 'script.lua');
  fs.writeFileSync(
    program,
    "local R = require('mod.elona.game.rules')\n" +
      "local c = Chara.create('elona.putit', 3, 3)\n" +
      'c.hp = 50\n' +
      'R.damage(c, 3)\n' +
      "print('hp is ' .. c.hp)\n",
  );
  const dc = await client();
  // rules.lua 37: `target.hp = target.hp - amount` in Rules.damage.
  await dc.hitBreakpoint({ program, project }, { path: rules, line: 37 });
  assert.strictEqual((await locals(dc)).amount, '3');
  await Promise.all([dc.nextRequest(THREAD), dc.assertStoppedLocation('step', { path: rules, line: 38 })]);
  const hp = await dc.evaluateRequest({ expression: 'target.hp', frameId: 1, context: 'watch' });
  assert.strictEqual(hp.body.result, '47');
  await Promise.all([dc.continueRequest(THREAD), dc.assertOutput('stdout', 'hp is 47'), dc.waitForEvent('terminated')]);
  await dc.stop();
}

/** A launched recording: a breakpoint hit in two moves, and reverse continue from the second back to the first. */
async function launchedRecording() {
  const recording = path.join(project, 'recordings/tests/walk-and-kill.ron');
  const dc = await client();
  // rules.lua 92: Rules.step's first line, which every move runs.
  await dc.hitBreakpoint({ recording, project }, { path: rules, line: 92 });
  const turn = async () => (await dc.evaluateRequest({ expression: 'World.turn()', frameId: 1 })).body.result;
  const first = await turn();
  await Promise.all([dc.continueRequest(THREAD), dc.assertStoppedLocation('breakpoint', { path: rules, line: 92 })]);
  assert.notStrictEqual(await turn(), first, 'the second hit is in a later turn');
  await Promise.all([
    dc.reverseContinueRequest(THREAD),
    dc.assertStoppedLocation('breakpoint', { path: rules, line: 92 }),
  ]);
  assert.strictEqual(await turn(), first, 'back in the first hit’s turn');
  await dc.setBreakpointsRequest({ source: { path: rules }, breakpoints: [] });
  await Promise.all([dc.continueRequest(THREAD), dc.waitForEvent('terminated')]);
  await dc.stop();
}

launchedScript()
  .then(launchedRecording)
  .then(
    () => {
      console.log('ok');
      process.exit(0);
    },
    (failure) => {
      console.error(failure);
      process.exit(1);
    },
  );
