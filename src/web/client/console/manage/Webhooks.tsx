import { useCallback, useState } from 'react';
import { request } from '../../api.js';
import { CreateWebhook, EnableWebhook, Redeliver, WebhookDeliveries, Webhooks } from '../manage-operations.js';
import { useSession } from '../session.js';
import { useLoad } from '../use-load.js';
import { Failure, Form } from './forms.js';

// Settings → Webhooks: each subscription with its delivery log (redeliver, re-enable), a new subscription.

/** The delivery log, read again every two seconds while it is on screen (attempts are not events). */
function Deliveries({ projectId, id }: { projectId: string; id: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(
    useCallback(() => request(WebhookDeliveries, { project: projectId, id }, token), [projectId, id, token]),
    2000,
  );
  const [outcome, setOutcome] = useState<string | null>(null);
  return (
    <>
      <Failure error={error} />
      {outcome && <p role="status">{outcome}</p>}
      <ul className="rows deliveries" aria-label="Deliveries">
        {data?.webhookDeliveries.deliveries.map((d) => (
          <li key={d._id} className="delivery">
            <div>
              <strong>{d.event}</strong> · <span className={`status ${d.status}`}>{d.status}</span> · {new Date(d.createdAt).toLocaleString()}
              {d.nextAttemptAt && d.status === 'pending' ? ` · next try ${new Date(d.nextAttemptAt).toLocaleTimeString()}` : ''}
              <ol className="attempts" aria-label="Attempts">
                {d.attempts.map((a, k) => (
                  <li key={k}>
                    {new Date(a.at).toLocaleTimeString()} · {a.redelivery ? 'redelivery' : `attempt ${a.attempt}`} ·{' '}
                    {a.statusCode != null ? `HTTP ${a.statusCode}` : 'no answer'}
                    {a.error ? <span className="reason"> · {a.error}</span> : null}
                  </li>
                ))}
              </ol>
            </div>
            <button
              type="button"
              className="link"
              onClick={() =>
                act(async () => {
                  setOutcome('Redelivering…');
                  const r = await request(Redeliver, { project: projectId, id, delivery: d._id }, token);
                  const last = r.redeliverWebhook.attempts[r.redeliverWebhook.attempts.length - 1];
                  setOutcome(
                    last?.redelivery
                      ? `Redelivered: ${last.statusCode != null ? `HTTP ${last.statusCode}` : 'no answer'}${last.error ? ` (${last.error})` : ''}`
                      : `Redelivery queued (${r.redeliverWebhook.status})`,
                  );
                })
              }
            >
              Redeliver
            </button>
          </li>
        ))}
        {data?.webhookDeliveries.count === 0 && <li>No deliveries yet.</li>}
      </ul>
    </>
  );
}

export function WebhooksSection({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(useCallback(() => request(Webhooks, { project: projectId }, token), [projectId, token]));
  const [event, setEvent] = useState('request.create');
  const [target, setTarget] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      <Failure error={error} />
      {data?.webhookSubscriptions.map((w) => (
        <section key={w._id} className="card">
          <h3>
            {w.event} → {w.target}
          </h3>
          {!w.enabled && (
            <p role="status" className="error">
              Disabled{w.disabledAt ? ` since ${new Date(w.disabledAt).toLocaleString()}` : ''}: {w.disabledReason ?? 'turned off'}.{' '}
              <button type="button" onClick={() => act(() => request(EnableWebhook, { project: projectId, id: w._id }, token))}>
                Re-enable
              </button>
            </p>
          )}
          <Deliveries projectId={projectId} id={w._id} />
        </section>
      ))}
      {secret && (
        <p role="status">
          Signing secret (shown once): <code>{secret}</code>
        </p>
      )}
      <Form
        label="Subscribe"
        onSubmit={() => act(() => request(CreateWebhook, { project: projectId, event, target }, token).then((r) => (setSecret(r.createWebhookSubscription.signingSecret), setTarget(''))))}
      >
        <label>
          Event <input required value={event} onChange={(e) => setEvent(e.target.value)} />
        </label>
        <label>
          Target URL <input type="url" required value={target} onChange={(e) => setTarget(e.target.value)} />
        </label>
      </Form>
    </>
  );
}
