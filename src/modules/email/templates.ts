// The messages the platform sends: plain text and the same as HTML, each naming the project
// (or the platform, for account messages) so the reader knows who writes.

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Paragraphs (a link is its own paragraph) as text and as HTML. */
function compose(subject: string, paragraphs: Array<string | { link: string; label: string }>, signature: string): RenderedMail {
  const text = [...paragraphs.map((p) => (typeof p === 'string' ? p : `${p.label}: ${p.link}`)), `-- \n${signature}`].join('\n\n');
  const body = paragraphs
    .map((p) =>
      typeof p === 'string'
        ? `<p>${escape(p).replace(/\n/g, '<br>')}</p>`
        : `<p><a href="${escape(p.link)}">${escape(p.label)}</a></p>`,
    )
    .join('\n');
  const html = `<!doctype html><html><body>\n${body}\n<p style="color:#777">${escape(signature)}</p>\n</body></html>`;
  return { subject, text, html };
}

export function invitationMail(projectName: string, role: string, link: string): RenderedMail {
  return compose(
    `You are invited to join ${projectName}`,
    [
      `You have been invited to join the project ${projectName} as ${role}.`,
      'Open the link to accept: sign in if you already have an account with this e-mail, or create one.',
      { link, label: 'Accept the invitation' },
    ],
    projectName,
  );
}

export function passwordResetMail(link: string, validMinutes: number): RenderedMail {
  return compose(
    'Reset your password',
    [
      'Someone (hopefully you) asked to reset the password of your account.',
      { link, label: 'Choose a new password' },
      `The link works once, for ${validMinutes} minutes. Using it signs out your other sessions. If you did not ask, ignore this message.`,
    ],
    'Support platform',
  );
}

export function verificationMail(link: string): RenderedMail {
  return compose('Confirm your e-mail address', ['Confirm that this address is yours:', { link, label: 'Confirm my e-mail' }], 'Support platform');
}

export function newConversationMail(projectName: string, ticket: number, firstText: string, link: string): RenderedMail {
  return compose(
    `[${projectName}] New conversation #${ticket} assigned to you`,
    [`A new conversation was assigned to you while you were offline:`, firstText || '(no text yet)', { link, label: 'Open the conversation' }],
    projectName,
  );
}

export function slaMail(projectName: string, ticket: number, kind: 'warning' | 'breach', target: string, dueAt: string, link: string): RenderedMail {
  const what = target.replace('_', ' ');
  return compose(
    kind === 'breach' ? `[${projectName}] SLA breached: ${what} of conversation #${ticket}` : `[${projectName}] SLA warning: ${what} of conversation #${ticket} is due soon`,
    [
      kind === 'breach'
        ? `The ${what} target of conversation #${ticket}, which you are serving, was missed (due ${dueAt}).`
        : `The ${what} target of conversation #${ticket}, which you are serving, is due at ${dueAt}.`,
      { link, label: 'Open the conversation' },
    ],
    projectName,
  );
}

export function transcriptMail(projectName: string, ticket: number, lines: Array<{ sender: string; text: string; at: Date }>): RenderedMail {
  const transcript = lines.map((l) => `[${l.at.toISOString().slice(0, 16).replace('T', ' ')}] ${l.sender}: ${l.text}`).join('\n');
  return compose(
    `[${projectName}] Transcript of your conversation #${ticket}`,
    ['Thank you for contacting us. Here is the transcript of your conversation:', transcript || '(no messages)'],
    projectName,
  );
}

export function internalMail(projectName: string, senderName: string, text: string, ticket?: number): RenderedMail & { prefix: string } {
  const rendered = compose('', [text, `Sent by ${senderName} from ${projectName}${ticket ? `, about conversation #${ticket}` : ''}.`], projectName);
  return { ...rendered, prefix: `[${projectName}] ` };
}

export interface FailedAttemptLine {
  at: string;
  event: string;
  statusCode: number | null;
  error: string | null;
}

/** To the project's admins: a webhook subscription was disabled, why, and its last failed attempts. */
export function webhookDisabledMail(
  projectName: string,
  subscription: { event: string; target: string },
  reason: string,
  attempts: FailedAttemptLine[],
  link: string,
): RenderedMail {
  const lines = attempts.map((a) => `[${a.at.slice(0, 19).replace('T', ' ')}] ${a.event}: ${a.statusCode ?? 'no answer'}${a.error ? ` (${a.error})` : ''}`);
  return compose(
    `[${projectName}] Webhook to ${subscription.target} disabled`,
    [
      `The webhook subscription to ${subscription.event} at ${subscription.target} was disabled: ${reason}.`,
      `No more events are sent to it until it is enabled again. Its last attempts:\n${lines.join('\n') || '(none recorded)'}`,
      { link, label: 'Review and re-enable it' },
    ],
    projectName,
  );
}
