import { useState, type FormEvent } from 'react';
import { request } from '../api.js';
import { Signin, Signup } from './operations.js';
import type { StoredAuth } from './session.js';

/** Sign in, or sign up as a newcomer (then create a project). */
export function SignIn({ onSignedIn, intro }: { onSignedIn: (auth: StoredAuth) => void; intro?: string }) {
  const [mode, setMode] = useState<'signin' | 'signup'>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [firstname, setFirstname] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (mode === 'signup') await request(Signup, { email, password, firstname: firstname || undefined });
      const r = await request(Signin, { email, password });
      onSignedIn({ token: r.signin.token!, userId: r.signin.user._id, name: r.signin.user.fullName || r.signin.user.email || 'Agent' });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <h1>Support console</h1>
      <form onSubmit={submit} aria-labelledby="signin-title">
        <h2 id="signin-title">{mode === 'signin' ? 'Sign in' : 'Create your account'}</h2>
        {intro && <p>{intro}</p>}
        {mode === 'signup' && (
          <label>
            First name
            <input value={firstname} onChange={(e) => setFirstname(e.target.value)} autoComplete="given-name" />
          </label>
        )}
        <label>
          E-mail
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="username" />
        </label>
        <label>
          Password
          <input
            type="password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
          />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {mode === 'signin' ? 'Sign in' : 'Sign up'}
        </button>
        <button type="button" className="link" onClick={() => setMode(mode === 'signin' ? 'signup' : 'signin')}>
          {mode === 'signin' ? 'New here? Create an account' : 'I have an account: sign in'}
        </button>
        {mode === 'signin' && (
          <a className="link" href="/console/forgot-password">
            Forgot your password?
          </a>
        )}
      </form>
    </main>
  );
}
