import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, request } from '../api.js';
import { AcceptInvitation, DeclineInvitation, MyInvitations, RequestPasswordReset, ResetPassword, SignupWithInvitation, VerifyEmail } from './operations.js';
import { navigate, paths } from './router.js';
import type { StoredAuth } from './session.js';
import { SignIn } from './SignIn.js';
import { Failure } from './manage/forms.js';

// The pages the server's e-mails link to: an invitation, an address to confirm, a new password.

const authOf = (r: { token?: string | null; user: { _id: string; fullName?: string | null; email?: string | null } }): StoredAuth => ({
  token: r.token!,
  userId: r.user._id,
  name: r.user.fullName || r.user.email || 'Agent',
});

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="signin">
      <h1>Support console</h1>
      <section aria-labelledby="card-title">
        <h2 id="card-title">{title}</h2>
        {children}
      </section>
    </main>
  );
}

/** /console/verify-email?token=…: confirms the address and signs the account in. */
export function VerifyEmailPage({ token, onSignedIn }: { token: string | null; onSignedIn: (auth: StoredAuth) => void }) {
  const [state, setState] = useState<{ done?: StoredAuth; error?: string }>({});
  useEffect(() => {
    if (!token) return setState({ error: 'This link has no token: open the link from the e-mail again.' });
    request(VerifyEmail, { token }).then(
      (r) => setState({ done: authOf(r.verifyEmail) }),
      (e: Error) => setState({ error: e.message }),
    );
  }, [token]);
  return (
    <Card title="Confirm your e-mail address">
      {!state.done && !state.error && <p role="status">Confirming…</p>}
      <Failure error={state.error ?? null} />
      {state.done && (
        <>
          <p role="status">Your e-mail address is confirmed.</p>
          <button
            type="button"
            onClick={() => {
              onSignedIn(state.done!);
              navigate(paths.projects());
            }}
          >
            Continue to the console
          </button>
        </>
      )}
    </Card>
  );
}

/** /console/reset-password?token=…: sets a new password, then signs in with it. */
export function ResetPasswordPage({ token, onSignedIn }: { token: string | null; onSignedIn: (auth: StoredAuth) => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(token ? null : 'This link has no token: ask for a new one.');
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const r = await request(ResetPassword, { token: token ?? '', password });
      onSignedIn(authOf(r.resetPassword));
      navigate(paths.projects());
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <Card title="Choose a new password">
      <form onSubmit={submit}>
        <label>
          New password
          <input type="password" required minLength={8} autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <Failure error={error} />
        <button type="submit">Set the new password</button>
        <a className="link" href="/console/forgot-password">
          Ask for a new link
        </a>
      </form>
    </Card>
  );
}

/** /console/forgot-password: e-mails a reset link (the answer is the same whether the address has an account). */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await request(RequestPasswordReset, { email });
      setSent(true);
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <Card title="Reset your password">
      {sent ? (
        <p role="status">If {email} has an account, a link to choose a new password is on its way.</p>
      ) : (
        <form onSubmit={submit}>
          <label>
            E-mail
            <input type="email" required autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <Failure error={error} />
          <button type="submit">E-mail me a link</button>
        </form>
      )}
      <a className="link" href="/console">
        Back to sign in
      </a>
    </Card>
  );
}

/**
 * /console/invitations/:id?token=…, signed out: sign up through the invitation (the account gets
 * the invited address), or sign in when the address has an account, then accept it.
 */
export function InvitationSignup({ invitationId, token, onSignedIn }: { invitationId: string; token: string | null; onSignedIn: (auth: StoredAuth) => void }) {
  const [mode, setMode] = useState<'signup' | 'signin'>('signup');
  const [firstname, setFirstname] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (mode === 'signin' || !token) {
    return (
      <SignIn
        intro="Sign in to accept your invitation."
        onSignedIn={onSignedIn}
      />
    );
  }
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const r = await request(SignupWithInvitation, { id: invitationId, token: token!, password, firstname: firstname || undefined });
      const auth = authOf(r.signupWithInvitation);
      onSignedIn(auth);
      // Signing up through the invitation joined the project: the invitation is no longer pending.
      navigate(paths.projects(), { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') {
        setMode('signin');
        return;
      }
      setError((err as Error).message);
    }
  }
  return (
    <Card title="You are invited to join a team">
      <form onSubmit={submit} aria-label="Join the team">
        <label>
          First name
          <input autoComplete="given-name" value={firstname} onChange={(e) => setFirstname(e.target.value)} />
        </label>
        <label>
          Choose a password
          <input type="password" required minLength={8} autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <Failure error={error} />
        <button type="submit">Join the team</button>
        <button type="button" className="link" onClick={() => setMode('signin')}>
          I have an account: sign in
        </button>
      </form>
    </Card>
  );
}

/** The signed-in account's pending invitations, each with Accept and Decline. */
export function PendingInvitations({ token, highlight, onJoined }: { token: string; highlight?: string; onJoined: (projectId: string) => void }) {
  const [invitations, setInvitations] = useState<Array<{ _id: string; id_project: string | null; project_name?: string | null; role: string | null }> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => request(MyInvitations, {}, token).then((r) => setInvitations(r.myInvitations), (e: Error) => setError(e.message));
  useEffect(() => void load(), [token]);
  async function act(run: () => Promise<unknown>) {
    setError(null);
    try {
      await run();
    } catch (e) {
      setError((e as Error).message);
    }
    await load();
  }
  const unknownLink = highlight && invitations && !invitations.some((i) => i._id === highlight);
  if (!invitations?.length && !unknownLink && !error) return null;
  return (
    <section className="invitations" aria-label="Invitations">
      <h2>Invitations</h2>
      <Failure error={error} />
      {unknownLink && (
        <p role="alert" className="error">
          This invitation is not pending for your account: it was accepted, withdrawn, or sent to another e-mail address.
        </p>
      )}
      <ul>
        {invitations?.map((i) => (
          <li key={i._id} className={i._id === highlight ? 'highlight' : undefined}>
            <span>
              <strong>{i.project_name ?? i.id_project}</strong> invites you as {i.role}
            </span>
            <button type="button" onClick={() => act(() => request(AcceptInvitation, { id: i._id }, token).then((r) => onJoined(r.acceptInvitation.id_project ?? i.id_project ?? '')))}>
              Accept
            </button>
            <button type="button" className="secondary" onClick={() => act(() => request(DeclineInvitation, { id: i._id }, token))}>
              Decline
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
