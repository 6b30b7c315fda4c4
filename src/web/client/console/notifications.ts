import { useCallback, useEffect, useRef, useState } from 'react';
import { request, subscribe } from '../api.js';
import { graphql } from '../gql/index.js';
import { Inbox as InboxQuery } from './operations.js';
import { useSession } from './session.js';

// While the console's tab is hidden, a new conversation, a visitor's message in one of the agent's
// conversations, or an SLA warning or breach of one of them counts in the tab's title ("(2)
// Support console"), raises a browser notification when the agent opted in (the browser asks
// once), and plays a short tone when the agent turned sound on. Coming back to the tab clears the
// count.

const settingsKey = 'support-console:notify';
const baseTitle = 'Support console';

export interface NotifySettings {
  browser: boolean;
  sound: boolean;
}

function storedSettings(): NotifySettings {
  try {
    return { browser: false, sound: false, ...JSON.parse(localStorage.getItem(settingsKey) ?? '{}') };
  } catch {
    return { browser: false, sound: false };
  }
}

function tone() {
  try {
    const audio = new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.35);
    oscillator.onended = () => void audio.close();
  } catch {
    // No audio output: the title and the notification still say it.
  }
}

export function useNotifications(projectId: string) {
  const { token, userId } = useSession();
  const [settings, setSettings] = useState(storedSettings);
  const [unseen, setUnseen] = useState(0);
  const mine = useRef(new Set<string>());

  const change = (next: Partial<NotifySettings>) =>
    setSettings((current) => {
      const merged = { ...current, ...next };
      localStorage.setItem(settingsKey, JSON.stringify(merged));
      return merged;
    });

  /** Opting in asks the browser's permission; answered "no", the switch stays off. */
  const enableBrowser = async (on: boolean) => {
    if (!on) return change({ browser: false });
    if (typeof Notification === 'undefined') return;
    const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
    change({ browser: permission === 'granted' });
  };

  const loadMine = useCallback(() => {
    request(InboxQuery, { project: projectId, assignee: 'me' }, token).then(
      (r) => (mine.current = new Set(r.requests.requests.map((q) => q.request_id))),
      () => {},
    );
  }, [projectId, userId, token]);
  useEffect(loadMine, [loadMine]);

  useEffect(() => {
    document.title = unseen ? `(${unseen}) ${baseTitle}` : baseTitle;
  }, [unseen]);
  useEffect(() => {
    const clear = () => document.visibilityState === 'visible' && setUnseen(0);
    document.addEventListener('visibilitychange', clear);
    return () => document.removeEventListener('visibilitychange', clear);
  }, []);

  const latest = useRef(settings);
  latest.current = settings;
  const alert = (title: string, body: string, requestId: string) => {
    if (document.visibilityState === 'visible') return;
    setUnseen((n) => n + 1);
    if (latest.current.sound) tone();
    if (latest.current.browser && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      const shown = new Notification(title, { body, tag: requestId });
      shown.onclick = () => {
        window.focus();
        location.assign(`/console/projects/${encodeURIComponent(projectId)}/conversations/${encodeURIComponent(requestId)}`);
      };
    }
  };

  useProjectEventPayloads(projectId, (event) => {
    if (event.name.startsWith('request.')) loadMine();
    const payload = (event.payload ?? {}) as { request_id?: string; sender?: string; hidden?: boolean; target?: string };
    if (event.name === 'request.create') alert('New conversation', 'A visitor started a conversation.', event.subject);
    if (event.name === 'message.create' && payload.request_id && payload.sender !== userId && !payload.hidden && mine.current.has(payload.request_id)) {
      alert('New message', 'A visitor wrote in one of your conversations.', payload.request_id);
    }
    if ((event.name === 'sla.breach' || event.name === 'sla.warning') && payload.request_id && mine.current.has(payload.request_id)) {
      const what = (payload.target ?? 'an SLA target').replace('_', ' ');
      if (event.name === 'sla.breach') alert('SLA breached', `The ${what} target of one of your conversations was missed.`, payload.request_id);
      else alert('SLA due soon', `The ${what} target of one of your conversations is due soon.`, payload.request_id);
    }
  });

  return { settings, enableBrowser, setSound: (on: boolean) => change({ sound: on }), unseen };
}

const EventPayloads = graphql(`
  subscription ConsoleEventPayloads($project: String!, $after: Int) {
    projectEvents(project_id: $project, after: $after) { seq name subject payload }
  }
`);

/** Each new event of the project as it arrives (none replayed from before the page opened). */
function useProjectEventPayloads(projectId: string, onEvent: (event: { name: string; subject: string; payload?: unknown }) => void) {
  const { live } = useSession();
  const latest = useRef(onEvent);
  latest.current = onEvent;
  useEffect(
    () =>
      subscribe(
        live,
        EventPayloads,
        { project: projectId },
        (d) => d.projectEvents.seq,
        (d) => latest.current(d.projectEvents),
      ),
    [live, projectId],
  );
}
