// A bot that waits for its turn by subscription, not by polling (docs/api.md "Waiting for
// your turn"). It asks for the game once, then once per batch of events the subscription
// pushes, and submits only when the game awaits its seat; a RATE_LIMITED answer says in
// extensions.retryAfter how long to wait. It plays the first legal command that is not a
// match command (resign, draw) until the game is over; given maxCommands, it resigns once it
// has sent that many (a demonstration that ends).
//
//   node docs/examples/turn-bot.mjs <API> <gameId> <token> [maxCommands]
//
// Needs graphql-ws and ws (npm install graphql-ws ws; run from the project folder they are there).
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const [api, gameId, token, maxCommands = 'Infinity'] = process.argv.slice(2);
if (!token) throw new Error('usage: node turn-bot.mjs <API> <gameId> <token> [maxCommands]');
const max = Number(maxCommands);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function gql(query, variables) {
  for (;;) {
    const res = await fetch(`${api}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = await res.json();
    const limited = body.errors?.find((e) => e.extensions?.code === 'RATE_LIMITED');
    if (limited) {
      await sleep(limited.extensions.retryAfter * 1000);
      continue;
    }
    return body;
  }
}

const TURN = 'query($id: ID!) { game(id: $id) { version status isYourTurn legalCommands } }';
const SUBMIT = 'mutation($id: ID!, $command: JSON!, $v: Int) { submitCommand(gameId: $id, command: $command, expectedVersion: $v) { game { version } } }';
const MATCH = new Set(['resign', 'offerDraw', 'acceptDraw', 'declineDraw']);

let sent = 0;
let running = null;
let pending = false;
let client;

function finish(code = 0) {
  client?.dispose();
  console.log(JSON.stringify({ sent }));
  process.exit(code);
}

/** Look at the game and act while it is this seat's turn; events arriving meanwhile ask for one more look. */
function wake() {
  if (running) {
    pending = true;
    return;
  }
  running = (async () => {
    do {
      pending = false;
      const { data, errors } = await gql(TURN, { id: gameId });
      if (errors) throw new Error(JSON.stringify(errors));
      const game = data.game;
      if (game.status === 'FINISHED' || game.status === 'ABANDONED') return finish();
      if (sent >= max) {
        const resigned = await gql('mutation($id: ID!) { resign(gameId: $id) { status } }', { id: gameId });
        return finish(resigned.errors ? 1 : 0);
      }
      if (!game.isYourTurn) continue;
      const command = game.legalCommands.find((c) => !MATCH.has(c.type));
      if (!command) continue;
      const result = await gql(SUBMIT, { id: gameId, command, v: game.version });
      // Someone else moved first (VERSION_CONFLICT): look again. Any other refusal is a bug.
      if (result.errors && result.errors[0].extensions?.code !== 'VERSION_CONFLICT') throw new Error(JSON.stringify(result.errors));
      if (!result.errors) sent++;
      pending = true;
    } while (pending);
  })()
    .catch((error) => {
      console.error(error);
      finish(1);
    })
    .finally(() => {
      running = null;
    });
}

const { data } = await gql('query($id: ID!) { game(id: $id) { version } }', { id: gameId });
client = createClient({ url: `${api.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` } });
// From the version just read: nothing between the read and the subscription is missed.
client.subscribe(
  { query: 'subscription($id: ID!, $after: Int) { gameEvents(gameId: $id, afterVersion: $after) { version type } }', variables: { id: gameId, after: data.game.version } },
  { next: wake, error: (e) => { console.error(e); finish(1); }, complete: () => finish() },
);
wake();
