import { beforeAll, describe, expect, it } from 'vitest';
import { widgetMessageDefaults } from '../src/modules/routing/service.js';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { onlyAvailable } from './helpers/conversations.js';

// What the widget reads before sign-in (GET /v3/:project_id/widgets, GraphQL widgetSettings) tells
// it whether anyone can answer (operating hours, agents available) and what to say either way,
// so it can show the away state with the project's offline message.

let t: TestApp;

beforeAll(async () => {
  t = await sharedTestApp();
});

const settings = async (projectId: string) => {
  const res = await t.get(`/v3/${projectId}/widgets`);
  expect(res.status).toBe(200);
  return res.body;
};

describe('the widget\'s settings', () => {
  let p: SeededProject;
  beforeAll(async () => {
    p = await t.seedProject('Away');
  });

  it('carry the default messages when the default department has none', async () => {
    expect(await settings(p.projectId)).toMatchObject({
      isopen: true,
      online_msg: 'Hi! How can we help you?',
      offline_msg: 'We are away right now. Leave us a message and your e-mail and we will get back to you.',
    });
    expect(widgetMessageDefaults.offline_msg).toBe('We are away right now. Leave us a message and your e-mail and we will get back to you.');
  });

  it('count no available agent when every agent is unavailable, inside operating hours', async () => {
    expect((await settings(p.projectId)).available_agents).toBe(3);
    await onlyAvailable(t, p, []);
    try {
      expect(await settings(p.projectId)).toMatchObject({ isopen: true, available_agents: 0 });
    } finally {
      await onlyAvailable(t, p, [p.owner, p.admin, p.agent]);
    }
  });

  it('carry the default department\'s own messages', async () => {
    const res = await t.patch(`/v3/${p.projectId}/departments/default`, {
      token: p.owner.token,
      body: { online_msg: 'Ask away!', offline_msg: 'Gone fishing: leave your e-mail.' },
    });
    expect(res.status).toBe(200);
    expect(await settings(p.projectId)).toMatchObject({ online_msg: 'Ask away!', offline_msg: 'Gone fishing: leave your e-mail.' });
  });

  it('answer the same over GraphQL, without credentials', async () => {
    const res = await t.gql('query($p: String!) { widgetSettings(project_id: $p) { id_project isopen available_agents online_msg offline_msg } }', { p: p.projectId });
    expect(res.body.errors).toBeUndefined();
    const { id_project, isopen, available_agents, online_msg, offline_msg } = await settings(p.projectId);
    expect(res.body.data.widgetSettings).toEqual({ id_project, isopen, available_agents, online_msg, offline_msg });
  });
});

describe('outside operating hours', () => {
  it('the project is closed and nobody is available', async () => {
    const p = await t.seedProject('Closed');
    // Open one minute a week, on a day that is not today in UTC.
    const tomorrow = String((new Date().getUTCDay() + 1) % 7);
    const res = await t.put(`/v3/projects/${p.projectId}`, {
      token: p.owner.token,
      body: { activeOperatingHours: true, operatingHours: { tzname: 'UTC', [tomorrow]: [{ start: '03:00', end: '03:01' }] } },
    });
    expect(res.status).toBe(200);
    expect(await settings(p.projectId)).toMatchObject({ isopen: false, available_agents: 0, offline_msg: widgetMessageDefaults.offline_msg });
  });
});
