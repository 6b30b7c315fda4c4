import { badInput } from '../../errors.js';

// The microlanguage: a few line-based marks in a message's text that become the structured parts
// a chat widget renders (buttons, images, several bubbles). Authors of bot answers and canned
// responses write plain text; the server turns it into what the spec's advanced attributes say,
// so every client (ours, the SDK's, a REST integration) sees the same messages.
//
//   * Yes                      a quick-reply button (the widget sends "Yes" when pressed)
//   * Our docs https://…       a link button (opens the address)
//   tdImage:https://…/a.png    the message is an image (metadata.src); other lines are its caption
//   \split                     ends a message: the text after it is a further message, in order
//
// It applies when `attributes.microlanguage` is true, and always to internal bots' answers.

export interface MessageContent {
  text: string;
  type: 'text' | 'image' | 'file';
  metadata?: { src?: string } & Record<string, unknown>;
  attributes: Record<string, unknown>;
}

export type Button = { type: 'text'; value: string } | { type: 'url'; value: string; link: string; target: 'blank' };

const splitLine = /^\s*\\split\s*$/;
const buttonLine = /^\s*\*\s+(.+?)\s*$/;
const imageLine = /^\s*tdImage:\s*(https?:\/\/\S+)\s*$/i;
const trailingLink = /^(.*\S)\s+(https?:\/\/\S+)$/i;

/** Whether a post asks for the pre-processor. */
export const wantsMicrolanguage = (attributes: Record<string, unknown>) => attributes.microlanguage === true;

/** One button from the label of a `* label` line (a trailing address makes it a link button). */
function button(label: string): Button {
  const link = trailingLink.exec(label);
  return link ? { type: 'url', value: link[1], link: link[2], target: 'blank' } : { type: 'text', value: label };
}

/** The attachment of a message with buttons, after any buttons the poster gave themselves. */
function withButtons(attributes: Record<string, unknown>, buttons: Button[]): Record<string, unknown> {
  if (!buttons.length) return attributes;
  const given = attributes.attachment && typeof attributes.attachment === 'object' ? (attributes.attachment as Record<string, unknown>) : {};
  const earlier = Array.isArray(given.buttons) ? given.buttons : [];
  return { ...attributes, attachment: { type: 'template', ...given, buttons: [...earlier, ...buttons] } };
}

/** One message's worth of lines (between `\split` marks), or null when nothing is left of it. */
function part(lines: string[], base: MessageContent): MessageContent | null {
  const text: string[] = [];
  const buttons: Button[] = [];
  let image: string | undefined;
  for (const line of lines) {
    const mark = buttonLine.exec(line);
    const picture = imageLine.exec(line);
    if (mark) buttons.push(button(mark[1]));
    else if (picture) image = picture[1];
    else text.push(line);
  }
  const body = text.join('\n').trim();
  if (!body && !buttons.length && !image) return null;
  const attributes = withButtons(base.attributes, buttons);
  if (image) return { text: body, type: 'image', metadata: { ...base.metadata, src: image }, attributes };
  return { text: body, type: base.type, ...(base.metadata ? { metadata: base.metadata } : {}), attributes };
}

/**
 * The messages a post becomes, in order: one for a text without `\split`. A text whose every part
 * is empty (only `\split` marks) is refused, naming the field.
 */
export function expandMicrolanguage(content: MessageContent): MessageContent[] {
  const parts: string[][] = [[]];
  for (const line of content.text.split(/\r?\n/)) {
    if (splitLine.test(line)) parts.push([]);
    else parts[parts.length - 1].push(line);
  }
  const messages = parts.map((lines) => part(lines, content)).filter((m): m is MessageContent => m !== null);
  // An image post whose text is only a caption keeps its image.
  if (!messages.length && content.type === 'image') return [content];
  if (!messages.length) throw badInput('text', 'text: is empty once the microlanguage marks are taken out');
  return messages;
}
