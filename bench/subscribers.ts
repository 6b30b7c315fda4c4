// Child process of messages.bench.ts: websocket subscribers kept out of the server's process, so
// the server's CPU and memory are its own. Driven over IPC:
//   open {url, project, subscribers: [{token, requestId}]} → opened {count}
//   live → live {count}            (subscriptions that received at least one event)
//   reset                          (forget what was received)
//   collect → collected {received: [[text, at]]}   (`at`: epoch ms, comparable across processes)
//   close                          (disconnect everything and exit)
import { connect, subscribe, type Subscription } from '../test/helpers/realtime.js';

type Command =
  | { type: 'open'; url: string; project: string; subscribers: Array<{ token: string; requestId: string }> }
  | { type: 'live' | 'reset' | 'collect' | 'close' };

const query = `subscription($p: String!, $r: String!) { requestMessages(project_id: $p, request_id: $r) { seq message { text } } }`;
const now = () => performance.timeOrigin + performance.now();
const clients: Array<ReturnType<typeof connect>> = [];
const subscriptions: Subscription[] = [];
let received: Array<[string, number]> = [];
const reply = (message: object) => process.send!(message);

async function open(command: Extract<Command, { type: 'open' }>) {
  for (let i = 0; i < command.subscribers.length; i += 100) {
    const batch = command.subscribers.slice(i, i + 100).map((s) => ({ s, c: connect(command.url, s.token) }));
    await Promise.all(batch.map((b) => b.c.ready));
    for (const { s, c } of batch) {
      clients.push(c);
      const sub = subscribe(c.client, query, { p: command.project, r: s.requestId });
      const push = sub.events.push.bind(sub.events);
      sub.events.push = (...events) => {
        const at = now();
        for (const event of events) received.push([event.message?.text, at]);
        // Keep one event per subscription: enough to know it is live, and memory stays flat.
        return sub.events.length ? sub.events.length : push(events[0]);
      };
      subscriptions.push(sub);
    }
  }
  reply({ type: 'opened', count: subscriptions.length });
}

process.on('message', async (command: Command) => {
  switch (command.type) {
    case 'open':
      return open(command);
    case 'live':
      return reply({ type: 'live', count: subscriptions.filter((s) => s.events.length).length });
    case 'reset':
      received = [];
      return;
    case 'collect':
      return reply({ type: 'collected', received });
    case 'close':
      await Promise.all(clients.map((c) => c.client.dispose()));
      process.exit(0);
  }
});
