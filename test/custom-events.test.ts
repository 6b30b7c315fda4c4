import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let shared: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  shared = await t.seedProject('Events');
});
afterAll(() => t.close());

const fire = (p: SeededProject, body: unknown, token = p.guest.token) => t.post(`/v3/${p.projectId}/events`, { token, body });

/** Fires `names` in order, one at a time, so their creation times are ordered. */
async function fireAll(p: SeededProject, names: string[]) {
  const ids: string[] = [];
  for (const name of names) ids.push((await fire(p, { name, attributes: {} }, p.agent.token)).body._id);
  return ids;
}

describe('POST /v3/:project_id/events', () => {
  it('records the event with the caller\'s teammate object as project_user', async () => {
    const res = await fire(shared, { name: 'event.emit.cart_abandoned', attributes: { cart: 'c-1', total: 42 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'event.emit.cart_abandoned',
      project_user: { _id: shared.guest.teammateId, role: 'guest', id_user: { _id: shared.guest.userId } },
      attributes: { cart: 'c-1', total: 42 },
      id_project: shared.projectId,
      createdBy: shared.guest.userId,
      __v: 0,
    });
    expect(res.body._id).toBe(res.body.id);
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    expect(Date.parse(res.body.updatedAt)).not.toBeNaN();
  });

  it('defaults attributes to an empty object', async () => {
    const res = await fire(shared, { name: 'event.emit.ping' });
    expect(res.body.attributes).toEqual({});
  });

  it('logs a domain event named after the custom event, about its id', async () => {
    const p = await t.seedProject('Events log');
    const res = await fire(p, { name: 'event.emit.order.paid', attributes: { order: 7 } });
    const events = await t.infra.eventLog.readAfter(p.projectId, 0);
    const logged = events.find((e) => e.name === 'event.emit.order.paid');
    expect(logged).toMatchObject({ subject: res.body._id, payload: { project_user: p.guest.teammateId } });
  });

  it('publishes the domain event on the bus after commit', async () => {
    const p = await t.seedProject('Events bus');
    const received: Array<Record<string, unknown>> = [];
    const unsubscribe = t.infra.bus.subscribe(`project:${p.projectId}`, (m) => received.push(m));
    const res = await fire(p, { name: 'event.emit.live' });
    for (let i = 0; i < 100 && !received.some((m) => m.name === 'event.emit.live'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    unsubscribe();
    expect(received.find((m) => m.name === 'event.emit.live')).toMatchObject({ subject: res.body._id });
  });

  it('stores and echoes a platform event name fired by a client, delivering it as event.emit.<name>', async () => {
    const p = await t.seedProject('Events platform name');
    const res = await fire(p, { name: 'faqbot.answer_not_found', attributes: { text: 'opening hours?' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'faqbot.answer_not_found', attributes: { text: 'opening hours?' } });
    const read = await t.get(`/v3/${p.projectId}/events/${res.body._id}`, { token: p.agent.token });
    expect(read.body.name).toBe('faqbot.answer_not_found');
    const logged = (await t.infra.eventLog.readAfter(p.projectId, 0)).filter((e) => e.subject === res.body._id);
    expect(logged.map((e) => e.name)).toEqual(['event.emit.faqbot.answer_not_found']);
  });

  it('never logs a fired event under a name the server emits itself', async () => {
    const p = await t.seedProject('Events spoof');
    const res = await fire(p, { name: 'message.create' });
    expect(res.status).toBe(200);
    const logged = (await t.infra.eventLog.readAfter(p.projectId, 0)).filter((e) => e.subject === res.body._id);
    expect(logged.map((e) => e.name)).toEqual(['event.emit.message.create']);
  });

  it.each([
    ['that is empty', ''],
    ['with an empty segment', 'event.emit.'],
    ['with spaces', 'event.emit.cart abandoned'],
    ['of over 200 characters', `event.emit.${'x'.repeat(200)}`],
  ])('answers 400 naming name for a name %s', async (_case, name) => {
    const res = await fire(shared, { name, attributes: {} });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field: 'name' });
  });

  it('answers 400 naming name when it is missing', async () => {
    const res = await fire(shared, { attributes: {} });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('name');
  });

  it('answers 400 naming attributes when they are not an object', async () => {
    const res = await fire(shared, { name: 'event.emit.x', attributes: [1, 2] });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('attributes');
  });

  it('answers 400 naming attributes when they are too large', async () => {
    const res = await fire(shared, { name: 'event.emit.x', attributes: { blob: 'x'.repeat(70_000) } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('attributes');
  });

  it('is open to guests but answers 401 without credentials and 403 outside the project', async () => {
    const outsider = await t.newUser('outsider');
    expect((await t.post(`/v3/${shared.projectId}/events`, { body: { name: 'event.emit.x' } })).status).toBe(401);
    expect((await fire(shared, { name: 'event.emit.x' }, outsider.token)).status).toBe(403);
  });
});

describe('GET /v3/:project_id/events', () => {
  it('lists the newest first by default', async () => {
    const p = await t.seedProject('Events list');
    await fireAll(p, ['event.emit.a', 'event.emit.b', 'event.emit.c']);
    const res = await t.get(`/v3/${p.projectId}/events`, { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body.map((e: { name: string }) => e.name)).toEqual(['event.emit.c', 'event.emit.b', 'event.emit.a']);
  });

  it('sorts ascending with direction=1', async () => {
    const p = await t.seedProject('Events asc');
    await fireAll(p, ['event.emit.a', 'event.emit.b']);
    const res = await t.get(`/v3/${p.projectId}/events?direction=1`, { token: p.agent.token });
    expect(res.body.map((e: { name: string }) => e.name)).toEqual(['event.emit.a', 'event.emit.b']);
  });

  it('sorts by another field with sortField', async () => {
    const p = await t.seedProject('Events by name');
    await fireAll(p, ['event.emit.b', 'event.emit.c', 'event.emit.a']);
    const res = await t.get(`/v3/${p.projectId}/events?sortField=name&direction=1`, { token: p.agent.token });
    expect(res.body.map((e: { name: string }) => e.name)).toEqual(['event.emit.a', 'event.emit.b', 'event.emit.c']);
  });

  it('pages with page (zero-based) and limit', async () => {
    const p = await t.seedProject('Events pages');
    await fireAll(p, ['event.emit.a', 'event.emit.b', 'event.emit.c']);
    const first = await t.get(`/v3/${p.projectId}/events?limit=2`, { token: p.agent.token });
    const second = await t.get(`/v3/${p.projectId}/events?limit=2&page=1`, { token: p.agent.token });
    expect(first.body.map((e: { name: string }) => e.name)).toEqual(['event.emit.c', 'event.emit.b']);
    expect(second.body.map((e: { name: string }) => e.name)).toEqual(['event.emit.a']);
  });

  it('pages 40 events at a time by default', async () => {
    const p = await t.seedProject('Events default page');
    for (let i = 0; i < 41; i++) await fire(p, { name: `event.emit.n${i}` });
    const first = await t.get(`/v3/${p.projectId}/events`, { token: p.agent.token });
    const second = await t.get(`/v3/${p.projectId}/events?page=1`, { token: p.agent.token });
    expect(first.body).toHaveLength(40);
    expect(second.body).toHaveLength(1);
  });

  it('shows only the events of its own project', async () => {
    const p = await t.seedProject('Events own');
    const other = await t.seedProject('Events other');
    await fireAll(other, ['event.emit.elsewhere']);
    await fireAll(p, ['event.emit.here']);
    const res = await t.get(`/v3/${p.projectId}/events`, { token: p.agent.token });
    expect(res.body.map((e: { name: string }) => e.name)).toEqual(['event.emit.here']);
  });

  it.each([
    ['sortField=secret', 'sortField'],
    ['direction=2', 'direction'],
    ['page=-1', 'page'],
    ['limit=1000', 'limit'],
  ])('answers 400 for %s', async (query, field) => {
    const res = await t.get(`/v3/${shared.projectId}/events?${query}`, { token: shared.agent.token });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it('answers 400 for a direction that is not a number', async () => {
    const res = await t.get(`/v3/${shared.projectId}/events?direction=down`, { token: shared.agent.token });
    expect(res.status).toBe(400);
  });

  it('needs an agent: 403 for a user and a guest, 401 without credentials', async () => {
    expect((await t.get(`/v3/${shared.projectId}/events`, { token: shared.user.token })).status).toBe(403);
    expect((await t.get(`/v3/${shared.projectId}/events`, { token: shared.guest.token })).status).toBe(403);
    expect((await t.get(`/v3/${shared.projectId}/events`)).status).toBe(401);
  });
});

describe('GET /v3/:project_id/events/:id', () => {
  it('returns one event', async () => {
    const fired = await fire(shared, { name: 'event.emit.one', attributes: { a: 1 } });
    const res = await t.get(`/v3/${shared.projectId}/events/${fired.body._id}`, { token: shared.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(fired.body);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await t.get(`/v3/${shared.projectId}/events/nope`, { token: shared.agent.token })).status).toBe(404);
  });

  it('answers 404 to another project\'s owner using their project id, 403 using ours', async () => {
    const fired = await fire(shared, { name: 'event.emit.private' });
    const other = await t.seedProject('Events intruder');
    const viaTheirs = await t.get(`/v3/${other.projectId}/events/${fired.body._id}`, { token: other.owner.token });
    expect(viaTheirs.status).toBe(404);
    const viaOurs = await t.get(`/v3/${shared.projectId}/events/${fired.body._id}`, { token: other.owner.token });
    expect(viaOurs.status).toBe(403);
  });

  it('answers 403 to a guest', async () => {
    const fired = await fire(shared, { name: 'event.emit.g' });
    expect((await t.get(`/v3/${shared.projectId}/events/${fired.body._id}`, { token: shared.guest.token })).status).toBe(403);
  });
});

describe('GraphQL', () => {
  it('fires and reads custom events', async () => {
    const p = await t.seedProject('Events gql');
    const fired = await t.gql(
      `mutation($p: String!) { fireCustomEvent(project_id: $p, name: "event.emit.signup", attributes: { plan: "pro" }) { _id name project_user { _id role } attributes revision } }`,
      { p: p.projectId },
      p.user.token,
    );
    expect(fired.body.data.fireCustomEvent).toMatchObject({
      name: 'event.emit.signup',
      project_user: { _id: p.user.teammateId, role: 'user' },
      attributes: { plan: 'pro' },
      revision: 0,
    });
    const read = await t.gql(
      `query($p: String!, $id: String!) { customEvent(project_id: $p, id: $id) { name } customEvents(project_id: $p, direction: 1) { _id } }`,
      { p: p.projectId, id: fired.body.data.fireCustomEvent._id },
      p.agent.token,
    );
    expect(read.body.data.customEvent.name).toBe('event.emit.signup');
    expect(read.body.data.customEvents).toEqual([{ _id: fired.body.data.fireCustomEvent._id }]);
  });

  it('answers BAD_USER_INPUT naming name for an invalid name', async () => {
    const res = await t.gql(
      `mutation($p: String!) { fireCustomEvent(project_id: $p, name: "custom event") { _id } }`,
      { p: shared.projectId },
      shared.guest.token,
    );
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
  });
});
